//! Float identity, as CPython shows it to `is` and to the identity
//! shortcut of container comparisons (`nan in [nan]`).
//!
//! Every float CPython computes is a new object, a float bound or stored
//! again is the same object, and the literals of one compilation are merged
//! by value. A float value is one word ([`F`]), so a finite float's
//! identity is its bits: equal literals are one object, copies keep it, and
//! two computations of the same finite value look like one object (the one
//! place this model departs from CPython; an identity word beside every
//! float cost a third of the speed of dict- and sort-heavy programs, whose
//! values then no longer move as two aligned words). The values whose
//! identity programs do observe — NaN, which only identity makes equal to
//! itself in a container, and the infinities `float('inf')` makes — are
//! stored NaN-boxed: a quiet NaN whose payload holds which of the three it
//! is and a 48-bit stamp, fresh for each one a run computes and 0 for a
//! literal. Readers see the plain `f64` ([`F::get`]); arithmetic never
//! touches the boxed bits.

use std::cell::Cell;

/// The exponent bits: all set in exactly the non-finite floats.
const EXP: u64 = 0x7FF0_0000_0000_0000;
/// The box: a quiet NaN (sign clear).
const BOX: u64 = 0x7FF8_0000_0000_0000;
/// Where the kind sits (0 NaN, 1 +inf, 2 -inf).
const KIND_SHIFT: u32 = 48;
/// The stamp bits.
const STAMP: u64 = (1 << KIND_SHIFT) - 1;

thread_local! {
    static NEXT: Cell<u64> = const { Cell::new(1) };
}

/// One float value: a finite float's bits, or a boxed non-finite one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct F(u64);

impl F {
    /// A float a run computes: a non-finite one is a new object.
    #[inline(always)]
    pub(crate) fn new(f: f64) -> F {
        if f.is_finite() {
            F(f.to_bits())
        } else {
            F::boxed(f, fresh())
        }
    }

    /// A literal of the program (equal literals are one object).
    pub(crate) fn constant(f: f64) -> F {
        if f.is_finite() {
            F(f.to_bits())
        } else {
            F::boxed(f, 0)
        }
    }

    #[cold]
    fn boxed(f: f64, stamp: u64) -> F {
        let kind = if f.is_nan() {
            0
        } else if f > 0.0 {
            1
        } else {
            2
        };
        F(BOX | (kind << KIND_SHIFT) | (stamp & STAMP))
    }

    /// The float.
    #[inline(always)]
    pub(crate) fn get(self) -> f64 {
        if self.0 & EXP != EXP {
            f64::from_bits(self.0)
        } else {
            self.special()
        }
    }

    #[cold]
    fn special(self) -> f64 {
        match (self.0 >> KIND_SHIFT) & 3 {
            1 => f64::INFINITY,
            2 => f64::NEG_INFINITY,
            _ => f64::NAN,
        }
    }

    /// Whether two floats are one object (`is`).
    #[inline]
    pub(crate) fn same(self, other: F) -> bool {
        self.0 == other.0
    }
}

/// A stamp no float alive in this run shares (48 bits: never wraps).
fn fresh() -> u64 {
    NEXT.with(|n| {
        let id = n.get();
        n.set(id.wrapping_add(1).max(1));
        id
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finite_floats_are_their_bits_and_others_are_new_objects() {
        for f in [0.0, -0.0, 1.5, f64::MAX, f64::MIN_POSITIVE, 5e-324] {
            assert_eq!(F::new(f).get().to_bits(), f.to_bits());
            assert!(F::new(f).same(F::new(f)));
        }
        for f in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let (a, b) = (F::new(f), F::new(f));
            assert_eq!(a.get().to_bits(), f.to_bits());
            assert!(!a.same(b) && a.same(a));
            assert!(F::constant(f).same(F::constant(f)));
            assert!(!F::constant(f).same(a));
        }
        assert!(!F::new(f64::INFINITY).same(F::new(f64::NEG_INFINITY)));
    }
}
