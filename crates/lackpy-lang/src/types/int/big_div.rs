//! A division of big ints that a cancel or the deadline can interrupt.
//!
//! num-bigint divides large ints by Burnikel and Ziegler's recursive
//! division, one call that takes seconds for megabit operands and cannot be
//! stopped. A division longer than one piece ([`work::PIECE_NS`]) runs the
//! same algorithm here at the top: long division in blocks of the
//! divisor's length (several blocks at a time when the divisor is short),
//! each block a 2n- by n-bit division that is split in turn into two 3n/2
//! by n divisions, each a half-size division and a half-size product
//! ([`big_mul`]), until a piece is short enough for one num-bigint call.
//! The run's cancel flag and deadline are read between pieces.

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_traits::{One, Zero};

use crate::runtime::error::R;
use crate::runtime::work::{self, Kind};
use crate::types::int::{big_cost, big_mul};

/// Divisors of at most this many bits are never split (microseconds).
const MIN_SPLIT_BITS: u64 = 512;

/// `(x // y, x % y)` floored as Python's, exactly num-bigint's
/// `div_mod_floor`, polling between pieces when it is long.
pub(crate) fn div_mod_floor(x: &BigInt, y: &BigInt) -> R<(BigInt, BigInt)> {
    if y.is_zero() {
        return Err(super::zero_division(crate::syntax::ast::Operator::FloorDiv));
    }
    if is_whole(x.bits(), y.bits()) {
        return Ok(x.div_mod_floor(y));
    }
    let (q, r) = magnitudes(x.magnitude(), y.magnitude())?;
    // Truncated, then floored: a remainder of the divisor's sign.
    let mut q = BigInt::from_biguint(x.sign() * y.sign(), q);
    let mut r = BigInt::from_biguint(x.sign(), r);
    if !r.is_zero() && r.sign() != y.sign() {
        q -= 1u8;
        r += y;
    }
    Ok((q, r))
}

/// Whether a division of an `xb`-bit int by a `yb`-bit one runs as one
/// call.
pub(crate) fn is_whole(xb: u64, yb: u64) -> bool {
    work::whole(Kind::Mul, big_cost::div_piece_ns(xb, yb))
}

/// `(a / b, a % b)` for a nonzero `b`, in pieces when it is long.
fn magnitudes(a: &BigUint, b: &BigUint) -> R<(BigUint, BigUint)> {
    if a < b {
        return Ok((BigUint::zero(), a.clone()));
    }
    if is_whole(a.bits(), b.bits()) {
        return Ok(a.div_rem(b));
    }
    let (ab, bb) = (a.bits(), b.bits());
    let quotient_bits = ab - bb + 1;
    if quotient_bits + SHORT_QUOTIENT_GUARD_BITS < bb / 2 {
        short_quotient(a, b, quotient_bits)
    } else {
        long_division(a, b)
    }
}

/// Guard bits kept past the quotient's length when a short quotient is
/// found from the operands' top bits.
const SHORT_QUOTIENT_GUARD_BITS: u64 = 128;

/// `a / b` whose quotient has at most `quotient_bits` bits, far fewer than
/// `b`: the quotient of the top bits (the divisor's rounded up, so it is
/// never too large, and short by at most a few), then `a - q * b` corrected
/// by subtracting `b`. A long division of `b`'s length would divide zeros
/// for most of its blocks.
fn short_quotient(a: &BigUint, b: &BigUint, quotient_bits: u64) -> R<(BigUint, BigUint)> {
    let shift = b.bits() - (quotient_bits + SHORT_QUOTIENT_GUARD_BITS);
    let (mut q, _) = magnitudes(&(a >> shift), &((b >> shift) + 1u8))?;
    work::poll()?;
    let mut r = BigInt::from(a.clone()) - BigInt::from(big_mul::magnitude(&q, b)?);
    let divisor = BigInt::from(b.clone());
    while r >= divisor {
        work::poll()?;
        q += 1u8;
        r -= &divisor;
    }
    Ok((q, r.into_parts().1))
}

/// Long division in blocks of `b`'s length, `b` shifted to a whole number
/// of 64-bit digits (the quotient is the same, the remainder shifted
/// back).
fn long_division(a: &BigUint, b: &BigUint) -> R<(BigUint, BigUint)> {
    let shift = (64 - b.bits() % 64) % 64;
    let (a, b) = (a << shift, b << shift);
    let n = b.bits();
    let words = (n / 32) as usize;
    let digits = a.to_u32_digits();
    let blocks = digits.len().div_ceil(words);
    // Blocks brought down at a time: one 2n/n division recursively split
    // when that alone is more than a piece, else as many as fill one.
    let one = work::real_ns(Kind::Mul, big_cost::div_piece_ns(2 * n, n)).max(1);
    let split = one > work::PIECE_NS;
    let step = ((work::PIECE_NS / one) as usize).clamp(1, blocks);
    let mut quotient = vec![0u32; blocks * words];
    let mut rem = BigUint::zero();
    let mut hi = blocks;
    while hi > 0 {
        work::poll()?;
        let lo = hi.saturating_sub(step);
        let end = (hi * words).min(digits.len());
        let chunk = BigUint::from_slice(&digits[lo * words..end]);
        let cur = (rem << (n * (hi - lo) as u64)) + chunk;
        let (q, r) = if cur < b {
            (BigUint::zero(), cur)
        } else if split {
            two_by_one(cur, &b, n)?
        } else {
            cur.div_rem(&b)
        };
        // `q` is under 2**(n * (hi - lo)): it fits its blocks.
        let q = q.to_u32_digits();
        if let Some(slots) = quotient.get_mut(lo * words..lo * words + q.len()) {
            slots.copy_from_slice(&q);
        }
        rem = r;
        hi = lo;
    }
    Ok((BigUint::new(quotient), rem >> shift))
}

/// `a / b` and `a % b` for `b` of exactly `n` bits and `a < b * 2**n`.
fn two_by_one(a: BigUint, b: &BigUint, n: u64) -> R<(BigUint, BigUint)> {
    if n <= MIN_SPLIT_BITS || work::whole(Kind::Mul, big_cost::div_piece_ns(2 * n, n)) {
        return Ok(a.div_rem(b));
    }
    if n % 2 == 1 {
        // Halves need an even length: both doubled, the remainder halved.
        let (q, r) = two_by_one(a << 1u8, &(b << 1u8), n + 1)?;
        return Ok((q, r >> 1u8));
    }
    let h = n / 2;
    let top = BigDivisor {
        b,
        high: b >> h,
        low: low_bits(b, h),
        h,
    };
    // a = [a1 a2 a3 a4] in h-bit parts: [a1 a2 a3] / b, then [r a4] / b.
    let (q1, r) = top.three_by_two(&a >> n, low_bits(&(&a >> h), h))?;
    let (q2, r) = top.three_by_two(r, low_bits(&a, h))?;
    Ok(((q1 << h) | q2, r))
}

/// A divisor of `2h` bits and its `h`-bit halves.
struct BigDivisor<'a> {
    b: &'a BigUint,
    high: BigUint,
    low: BigUint,
    h: u64,
}

impl BigDivisor<'_> {
    /// `[a12 a3] / b` for `a12` of at most `2h` bits with `a12 >> h` at most
    /// `b`'s high half, `a3` of `h` bits: the quotient (under `2**h`) from
    /// the high halves, corrected by the low half's product.
    fn three_by_two(&self, a12: BigUint, a3: BigUint) -> R<(BigUint, BigUint)> {
        let h = self.h;
        let (mut q, r) = if (&a12 >> h) == self.high {
            // The quotient of the high halves would be 2**h or more: take
            // 2**h - 1 (the correction below is at most two steps).
            let q = (BigUint::one() << h) - 1u8;
            let r = a12 - (&self.high << h) + &self.high;
            (q, r)
        } else {
            two_by_one(a12, &self.high, h)?
        };
        work::poll()?;
        let product = big_mul::magnitude(&q, &self.low)?;
        let mut r = BigInt::from((r << h) + a3) - BigInt::from(product);
        while r.sign() == Sign::Minus {
            q -= 1u8;
            r += BigInt::from(self.b.clone());
        }
        Ok((q, r.into_parts().1))
    }
}

/// The low `h` bits of `x`.
fn low_bits(x: &BigUint, h: u64) -> BigUint {
    let words = h.div_ceil(32) as usize;
    let mut digits = x.to_u32_digits();
    digits.truncate(words);
    let spare = (words as u64 * 32 - h) as u32;
    if spare > 0
        && digits.len() == words
        && let Some(top) = digits.last_mut()
    {
        *top &= u32::MAX >> spare;
    }
    BigUint::new(digits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Data;
    use crate::runtime::{RunLimits, RunScope};
    use big_mul::random;
    use lackpy_test_support::rng::Rng;
    use std::time::{Duration, Instant};

    #[test]
    fn split_divisions_are_num_bigints() {
        // Pieces made tiny: every division past a few digits is split.
        work::set_scale(Kind::Mul, 1 << 20);
        let _scope = RunScope::enter(RunLimits {
            deadline: Instant::now() + Duration::from_secs(3600),
            cancel: None,
            max_memory: usize::MAX,
        });
        let mut rng = Rng::new(0x6469_7669);
        let sizes = [
            1u64, 63, 64, 65, 129, 1000, 4096, 4097, 9000, 30_000, 70_001,
        ];
        for &a in &sizes {
            for &b in &sizes {
                for signs in 0..4 {
                    let x = random(&mut rng, a, signs & 1 == 1);
                    let y = random(&mut rng, b, signs & 2 == 2);
                    let want = x.div_mod_floor(&y);
                    assert_eq!(div_mod_floor(&x, &y).ok(), Some(want), "{a} / {b} bits");
                }
            }
        }
        // Exact quotients, remainders of one, dividends of all ones (the
        // quotient estimate at its largest).
        let y = random(&mut rng, 20_000, false);
        let q = random(&mut rng, 50_000, true);
        let ones = (BigInt::one() << 90_000u32) - 1u8;
        for x in [&q * &y, &q * &y + 1u8, &q * &y - 1u8, ones.clone(), -ones] {
            for d in [&y, &-&y] {
                assert_eq!(div_mod_floor(&x, d).ok(), Some(x.div_mod_floor(d)));
            }
        }
        // Short quotients (found from the top bits, then corrected).
        let y = random(&mut rng, 60_000, false);
        let q = random(&mut rng, 3_000, false);
        let ones = (BigInt::one() << 62_000u32) - 1u8;
        for x in [
            &q * &y,
            &q * &y + 1u8,
            &q * &y - 1u8,
            &q * &y + &y - 1u8,
            ones,
        ] {
            for d in [&y, &-&y, &(&y + 1u8), &(&y - 1u8)] {
                let want = x.div_mod_floor(d);
                assert_eq!(div_mod_floor(&x, d).ok(), Some(want));
                assert_eq!(div_mod_floor(&-&x, d).ok(), Some((-&x).div_mod_floor(d)));
            }
        }
        for (a, b) in [(70_001u64, 65_700u64), (70_001, 70_000), (40_000, 39_000)] {
            for signs in 0..4 {
                let x = random(&mut rng, a, signs & 1 == 1);
                let y = random(&mut rng, b, signs & 2 == 2);
                assert_eq!(div_mod_floor(&x, &y).ok(), Some(x.div_mod_floor(&y)));
            }
        }
        work::set_scale(Kind::Mul, 1024);
    }

    #[test]
    fn odd_lengths_and_the_smallest_pieces_divide_exactly() {
        let mut rng = Rng::new(0x6f64_6420);
        let _scope = RunScope::enter(RunLimits {
            deadline: Instant::now() + Duration::from_secs(3600),
            cancel: None,
            max_memory: usize::MAX,
        });
        // Every piece split down to the smallest (a divisor of 64 times an
        // odd number of bits reaches odd halves).
        work::set_scale(Kind::Mul, 1 << 26);
        for (a, b) in [(65_700u64, 32_832u64), (40_000, 32_800), (5_000, 3_001)] {
            let x = random(&mut rng, a, false);
            let y = random(&mut rng, b, true);
            assert_eq!(div_mod_floor(&x, &y).ok(), Some(x.div_mod_floor(&y)));
        }
        // A 2n- by n-bit division of odd n.
        work::set_scale(Kind::Mul, 1 << 20);
        for n in [3_001u64, 4_095, 6_143] {
            let b = random(&mut rng, n, false).into_parts().1;
            let a = random(&mut rng, 2 * n - 1, false).into_parts().1;
            let got = two_by_one(a.clone(), &b, n).ok();
            assert_eq!(got, Some(a.div_rem(&b)), "n = {n}");
        }
        work::set_scale(Kind::Mul, 1024);
    }

    #[test]
    fn a_cancel_ends_a_long_division() {
        // 2**25 by 2**24 bits: seconds as one call.
        let mut rng = Rng::new(0x6361_6e64);
        let a = random(&mut rng, 1 << 25, true);
        let b = random(&mut rng, 1 << 24, false);
        for src in ["z = a // b\n", "z = a % b\n", "a //= b\n"] {
            let params = [("a", Data::Int(a.clone())), ("b", Data::Int(b.clone()))];
            big_mul::assert_a_cancel_stops(src, &params);
        }
    }

    #[test]
    fn the_deadline_ends_a_division_it_let_start() {
        // An estimate far too low (a machine slower than it has learned):
        // the division starts, and its pieces see the deadline pass.
        let mut rng = Rng::new(0x7469_6d65);
        let a = random(&mut rng, (1 << 26) - 64, false);
        let b = random(&mut rng, 1 << 25, false);
        work::set_scale(Kind::Div, 16);
        let timeout = Duration::from_millis(1500);
        let (err, took, after) = big_mul::run_cancelled(
            "z = a // b\n",
            &[("a", Data::Int(a)), ("b", Data::Int(b))],
            None,
            timeout,
        );
        work::set_scale(Kind::Div, 1024);
        assert_eq!(err.as_deref(), Some("TimeoutError"));
        assert!(
            after < Duration::from_secs(1),
            "{after:?} of CPU after the deadline ({took:?} in all)"
        );
    }
}
