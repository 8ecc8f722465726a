//! `range` objects: machine-word bounds on the fast path, big ints beyond.
//!
//! CPython's ranges take any ints (`range(10**30)[::-1]` works; only
//! `len()` of one longer than `sys.maxsize` fails). A range whose bounds fit
//! `i64` (every loop in practice) keeps them as words; any other is kept as
//! big ints with its length, and everything but iteration speed is the
//! same. Slicing and containment work in big ints throughout, so no bound
//! or step overflows.

pub(crate) mod methods;

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// A `range(start, stop, step)`; `step` is never zero.
#[derive(Clone, PartialEq, Eq)]
pub(crate) enum Range {
    /// Bounds that fit `i64` (the length then fits `u64`).
    Small { start: i64, stop: i64, step: i64 },
    /// Some bound beyond `i64`.
    Big(Box<BigRange>),
}

/// The bounds of a range beyond `i64`, with its length.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct BigRange {
    pub start: BigInt,
    pub stop: BigInt,
    pub step: BigInt,
    pub len: BigInt,
}

/// The number of items of `range(start, stop, step)`, `step != 0`.
fn big_len(start: &BigInt, stop: &BigInt, step: &BigInt) -> BigInt {
    let (lo, hi, step) = if step.is_positive() {
        (start, stop, step.clone())
    } else {
        (stop, start, -step)
    };
    if hi > lo {
        (hi - lo - 1u32).div_floor(&step) + 1u32
    } else {
        BigInt::zero()
    }
}

impl Range {
    /// `range(start, stop, step)` with `step != 0` (the caller checks).
    pub(crate) fn new(start: BigInt, stop: BigInt, step: BigInt) -> Range {
        if let (Some(start), Some(stop), Some(step)) =
            (start.to_i64(), stop.to_i64(), step.to_i64())
        {
            return Range::Small { start, stop, step };
        }
        let len = big_len(&start, &stop, &step);
        Range::Big(Box::new(BigRange {
            start,
            stop,
            step,
            len,
        }))
    }

    /// The length when it fits `u64` (always for word bounds).
    pub(crate) fn len_u64(&self) -> Option<u64> {
        match self {
            Range::Small { start, stop, step } => {
                let (lo, hi, step) = (*start as i128, *stop as i128, *step as i128);
                let n = if step > 0 {
                    if hi > lo { (hi - lo - 1) / step + 1 } else { 0 }
                } else if lo > hi {
                    (lo - hi - 1) / (-step) + 1
                } else {
                    0
                };
                Some(n as u64)
            }
            Range::Big(b) => b.len.to_u64(),
        }
    }

    /// The length.
    pub(crate) fn len_big(&self) -> BigInt {
        match self {
            Range::Small { .. } => BigInt::from(self.len_u64().unwrap_or(0)),
            Range::Big(b) => b.len.clone(),
        }
    }

    /// Whether the range has no items.
    pub(crate) fn is_empty(&self) -> bool {
        match self {
            Range::Small { .. } => self.len_u64() == Some(0),
            Range::Big(b) => b.len.is_zero(),
        }
    }

    /// `(start, stop, step)` as big ints.
    pub(crate) fn bounds(&self) -> (BigInt, BigInt, BigInt) {
        match self {
            Range::Small { start, stop, step } => (
                BigInt::from(*start),
                BigInt::from(*stop),
                BigInt::from(*step),
            ),
            Range::Big(b) => (b.start.clone(), b.stop.clone(), b.step.clone()),
        }
    }

    /// The item at position `i` (`0 <= i < len`).
    pub(crate) fn item(&self, i: &BigInt) -> BigInt {
        let (start, _, step) = self.bounds();
        start + i * step
    }

    /// Whether the int `x` is an item.
    pub(crate) fn contains_int(&self, x: &BigInt) -> bool {
        if let (Range::Small { start, stop, step }, Some(i)) = (self, x.to_i64()) {
            let (start, stop, step, i) = (*start as i128, *stop as i128, *step as i128, i as i128);
            let inside = if step > 0 {
                i >= start && i < stop
            } else {
                i <= start && i > stop
            };
            return inside && (i - start) % step == 0;
        }
        let (start, stop, step) = self.bounds();
        let inside = if step.is_positive() {
            *x >= start && *x < stop
        } else {
            *x <= start && *x > stop
        };
        inside && (x - &start).mod_floor(&step).is_zero()
    }

    /// The position of the int item `x` (`x` must be an item).
    pub(crate) fn position(&self, x: &BigInt) -> BigInt {
        let (start, _, step) = self.bounds();
        (x - start).div_floor(&step)
    }

    /// The range reversed: the same items, last first.
    pub(crate) fn reversed(&self) -> Range {
        let (start, _, step) = self.bounds();
        let n = self.len_big();
        if n.is_zero() {
            return Range::Small {
                start: 0,
                stop: 0,
                step: 1,
            };
        }
        let last = &start + (&n - 1u32) * &step;
        let stop = &start - &step;
        Range::new(last, stop, -step)
    }

    /// `r[lo:hi:step]` with Python's slice rules over big ints.
    pub(crate) fn slice(
        &self,
        lo: Option<BigInt>,
        hi: Option<BigInt>,
        step: Option<BigInt>,
    ) -> Option<Range> {
        let step = step.unwrap_or_else(BigInt::one);
        if step.is_zero() {
            return None;
        }
        let n = self.len_big();
        let (lower, upper) = if step.is_negative() {
            (BigInt::from(-1), &n - 1u32)
        } else {
            (BigInt::zero(), n.clone())
        };
        let adjust = |v: Option<BigInt>, default: &BigInt| -> BigInt {
            match v {
                None => default.clone(),
                Some(v) => {
                    let v = if v.is_negative() { v + &n } else { v };
                    v.clamp(lower.clone(), upper.clone())
                }
            }
        };
        let (start_default, stop_default) = if step.is_negative() {
            (&upper, &lower)
        } else {
            (&lower, &upper)
        };
        let a = adjust(lo, start_default);
        let b = adjust(hi, stop_default);
        let (start, _, rstep) = self.bounds();
        Some(Range::new(
            &start + a * &rstep,
            &start + b * &rstep,
            rstep * step,
        ))
    }

    /// Python `==`: equal item sequences.
    pub(crate) fn same_items(&self, other: &Range) -> bool {
        if let (Some(n), Some(m)) = (self.len_u64(), other.len_u64())
            && let (
                Range::Small {
                    start: a, step: s, ..
                },
                Range::Small {
                    start: b, step: t, ..
                },
            ) = (self, other)
        {
            return n == m && (n == 0 || (a == b && (n == 1 || s == t)));
        }
        let (n, m) = (self.len_big(), other.len_big());
        let (a, _, s) = self.bounds();
        let (b, _, t) = other.bounds();
        n == m && (n.is_zero() || (a == b && (n.is_one() || s == t)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(a: i128, b: i128, c: i128) -> Range {
        Range::new(a.into(), b.into(), c.into())
    }

    #[test]
    fn lengths_match_python() {
        assert_eq!(r(0, 10, 3).len_u64(), Some(4));
        assert_eq!(r(10, 0, -3).len_u64(), Some(4));
        assert_eq!(r(0, 0, 1).len_u64(), Some(0));
        let big = BigInt::from(10).pow(30);
        let range = Range::new(BigInt::zero(), big.clone(), BigInt::one());
        assert_eq!(range.len_u64(), None);
        assert_eq!(range.len_big(), big);
    }

    #[test]
    fn a_huge_negative_slice_step_is_not_wrapped() {
        // range(0, 10)[::-(2**63)] is range(9, -1, -9223372036854775808).
        let s = r(0, 10, 1)
            .slice(None, None, Some(-(BigInt::one() << 63u32)))
            .map(|x| x.bounds());
        assert_eq!(
            s,
            Some((BigInt::from(9), BigInt::from(-1), -(BigInt::one() << 63u32)))
        );
    }
}
