//! A product of big ints that a cancel or the deadline can interrupt.
//!
//! One num-bigint multiplication of megabit ints takes seconds and cannot
//! be stopped once called. A product whose estimate is more than one piece
//! ([`work::PIECE_NS`]) is therefore split at the top the way num-bigint
//! splits it below (so the pieces add up to about the same work): balanced
//! operands by Toom-3 (five products of thirds, evaluated at 0, 1, -1, -2
//! and infinity, recombined by Bodrato's interpolation sequence),
//! operands of very different lengths by halving the longer one. Pieces
//! are split again until each is under the threshold, and the run's cancel
//! flag and deadline are read before every piece ([`work::poll`]).

use num_bigint::{BigInt, BigUint};
use num_traits::Zero;

use crate::runtime::error::R;
use crate::runtime::work::{self, Kind};
use crate::types::int::big_cost;

/// Products with no operand longer than this (in 64-bit digits) run whole
/// whatever their estimate (they take microseconds).
const MIN_SPLIT_DIGITS: usize = 8;

/// `x * y`, exactly num-bigint's, polling between pieces when it is long.
pub(crate) fn product(x: &BigInt, y: &BigInt) -> R<BigInt> {
    if is_whole(x.bits(), y.bits()) {
        return Ok(x * y);
    }
    let sign = x.sign() * y.sign();
    Ok(BigInt::from_biguint(
        sign,
        magnitude(x.magnitude(), y.magnitude())?,
    ))
}

/// `base ** exp` by squaring, each product interruptible, reading the
/// cancel flag and the deadline between them.
pub(crate) fn power(base: &BigInt, exp: u64) -> R<BigInt> {
    let mut acc = BigInt::from(1u8);
    for bit in (0..u64::BITS - exp.leading_zeros()).rev() {
        work::poll()?;
        acc = product(&acc, &acc)?;
        if (exp >> bit) & 1 == 1 {
            acc = product(&acc, base)?;
        }
    }
    Ok(acc)
}

/// Whether a product of `xb`- and `yb`-bit operands runs as one call.
pub(crate) fn is_whole(xb: u64, yb: u64) -> bool {
    work::whole(Kind::Mul, big_cost::mul_ns(xb, yb))
}

/// `|x| * |y|`, in pieces when it is long.
pub(crate) fn magnitude(x: &BigUint, y: &BigUint) -> R<BigUint> {
    if is_whole(x.bits(), y.bits()) {
        return Ok(x * y);
    }
    let (short, long) = if x.bits() <= y.bits() { (x, y) } else { (y, x) };
    let (s, l) = (Digits::of(short), Digits::of(long));
    // Pieces always shrink; a few digits are never split.
    if l.len() <= MIN_SPLIT_DIGITS {
        return Ok(x * y);
    }
    if s.len() * 2 <= l.len() {
        halves(short, &l)
    } else {
        toom3(&s, &l)
    }
}

/// `|x| * |y|` of signed pieces.
fn signed(x: &BigInt, y: &BigInt) -> R<BigInt> {
    work::poll()?;
    let sign = x.sign() * y.sign();
    Ok(BigInt::from_biguint(
        sign,
        magnitude(x.magnitude(), y.magnitude())?,
    ))
}

/// A short operand times one twice as long or more: the long one in two
/// halves (num-bigint's half-Karatsuba), each product split again as
/// needed.
fn halves(short: &BigUint, long: &Digits) -> R<BigUint> {
    let half = long.len() / 2;
    work::poll()?;
    let low = magnitude(short, &long.part(0, half))?;
    work::poll()?;
    let high = magnitude(short, &long.part(half, long.len()))?;
    Ok((high << (64 * half)) + low)
}

/// Toom-3 of a shorter `x` and a longer `y` (less than twice as long),
/// in thirds of `y`'s length.
fn toom3(x: &Digits, y: &Digits) -> R<BigUint> {
    let third = y.len() / 3 + 1;
    let parts = |d: &Digits| -> [BigInt; 3] {
        let a = third.min(d.len());
        let b = (a + third).min(d.len());
        [d.part(0, a), d.part(a, b), d.part(b, d.len())].map(BigInt::from)
    };
    let [x0, x1, x2] = parts(x);
    let [y0, y1, y2] = parts(y);
    // The operands' polynomials at 0, 1, -1, -2 and infinity.
    let (px, py) = (&x0 + &x2, &y0 + &y2);
    let (mx, my) = (&px - &x1, &py - &y1);
    let at_0 = signed(&x0, &y0)?;
    let at_inf = signed(&x2, &y2)?;
    let at_1 = signed(&(px + &x1), &(py + &y1))?;
    let at_minus_2 = signed(&(((&mx + &x2) << 1u8) - &x0), &(((&my + &y2) << 1u8) - &y0))?;
    let at_minus_1 = signed(&mx, &my)?;
    work::poll()?;
    // The product's coefficients w0..w4 (Bodrato's sequence; each division
    // is exact).
    let mut w3: BigInt = (at_minus_2 - &at_1) / 3u8;
    let mut w1: BigInt = (at_1 - &at_minus_1) >> 1u8;
    let mut w2: BigInt = at_minus_1 - &at_0;
    w3 = ((&w2 - w3) >> 1u8) + (&at_inf << 1u8);
    w2 += &w1 - &at_inf;
    w1 -= &w3;
    // Horner's rule in powers of the third's digits.
    let shift = 64 * third;
    let mut acc = at_inf;
    for w in [w3, w2, w1, at_0] {
        acc <<= shift;
        acc += w;
    }
    // A product of magnitudes is never negative.
    Ok(acc.into_parts().1)
}

/// An operand's 32-bit digits, read once, to cut into parts at 64-bit
/// digit positions.
struct Digits(Vec<u32>);

impl Digits {
    fn of(x: &BigUint) -> Digits {
        Digits(x.to_u32_digits())
    }

    /// Length in 64-bit digits.
    fn len(&self) -> usize {
        self.0.len().div_ceil(2)
    }

    /// The number made of 64-bit digits `from..to`.
    fn part(&self, from: usize, to: usize) -> BigUint {
        let (a, b) = ((2 * from).min(self.0.len()), (2 * to).min(self.0.len()));
        if a >= b {
            return BigUint::zero();
        }
        BigUint::from_slice(&self.0[a..b])
    }
}

/// A random int of exactly `bits` bits (tests).
#[cfg(test)]
pub(super) fn random(rng: &mut lackpy_test_support::rng::Rng, bits: u64, negative: bool) -> BigInt {
    let words = bits.div_ceil(32);
    let mut m = BigUint::new((0..words).map(|_| rng.next() as u32).collect());
    m >>= 32 * words - bits;
    m.set_bit(bits - 1, true);
    let sign = if negative {
        num_bigint::Sign::Minus
    } else {
        num_bigint::Sign::Plus
    };
    BigInt::from_biguint(sign, m)
}

/// Runs `src` with `params` (under `timeout`), setting its cancel flag
/// `cancel_after` its start from another thread (tests): the error type,
/// how long the run took, and how much work it did after the cancel (or,
/// with no cancel, after its deadline): the interpreter thread's CPU time,
/// so that a bound on it holds on a loaded machine too.
#[cfg(test)]
pub(crate) fn run_cancelled(
    src: &str,
    params: &[(&str, crate::Data)],
    cancel_after: Option<std::time::Duration>,
    timeout: std::time::Duration,
) -> (Option<String>, std::time::Duration, std::time::Duration) {
    use crate::interp::{Limits, NoTools, RunOptions, Variables, run};
    use lackpy_test_support::cpu::ThreadCpu;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Instant;
    let module = crate::syntax::parse::parse(src).expect("parses");
    let params: Vec<(String, crate::Data)> = params
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect();
    let flag = Arc::new(AtomicBool::new(false));
    let opts = RunOptions {
        limits: Limits {
            timeout,
            ..Limits::default()
        },
        cancel: Some(flag.clone()),
        variables: Variables::Omit,
        ..RunOptions::default()
    };
    let cpu = ThreadCpu::current().expect("the thread's CPU time (/proc)");
    // At the cancel (or the deadline): the run's CPU time so far.
    let watcher = {
        let cpu = cpu.clone();
        let cancel = cancel_after.is_some();
        let at = cancel_after.unwrap_or(timeout);
        std::thread::spawn(move || {
            std::thread::sleep(at);
            if cancel {
                flag.store(true, Ordering::Relaxed);
            }
            cpu.used()
        })
    };
    let start = Instant::now();
    let out = run(&module, &mut NoTools, &params, &opts);
    let took = start.elapsed();
    let end_cpu = cpu.used().expect("the thread's CPU time");
    let at_cpu = watcher.join().expect("the watcher ends");
    let after = end_cpu.saturating_sub(at_cpu.expect("the thread's CPU time at the cancel"));
    (out.error_type, took, after)
}

/// Runs `src` with `params`, cancels it 200 ms in and checks that it
/// stops as cancelled within a second of CPU time (tests).
#[cfg(test)]
pub(crate) fn assert_a_cancel_stops(src: &str, params: &[(&str, crate::Data)]) {
    use std::time::Duration;
    let (err, took, after) = run_cancelled(
        src,
        params,
        Some(Duration::from_millis(200)),
        Duration::from_secs(600),
    );
    assert_eq!(err.as_deref(), Some("Cancelled"), "{src}");
    assert!(
        after < Duration::from_secs(1),
        "{src}: {after:?} of CPU after the cancel ({took:?} in all)"
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Data;
    use crate::runtime::{RunLimits, RunScope};
    use lackpy_test_support::rng::Rng;
    use std::time::{Duration, Instant};

    /// Splits every product of more than a few digits.
    fn tiny_pieces() -> RunScope {
        work::set_scale(Kind::Mul, 1 << 20);
        RunScope::enter(RunLimits {
            deadline: Instant::now() + Duration::from_secs(3600),
            cancel: None,
            max_memory: usize::MAX,
        })
    }

    #[test]
    fn split_products_are_num_bigints() {
        let _scope = tiny_pieces();
        let mut rng = Rng::new(0x6d75_6c74);
        let sizes = [1u64, 63, 64, 65, 700, 2048, 4095, 9000, 20_000, 70_001];
        for &a in &sizes {
            for &b in &sizes {
                for signs in 0..4 {
                    let x = random(&mut rng, a, signs & 1 == 1);
                    let y = random(&mut rng, b, signs & 2 == 2);
                    assert_eq!(product(&x, &y).ok(), Some(&x * &y), "{a} x {b} bits");
                }
            }
        }
        // Zero, and operands with runs of zero digits.
        let zero = BigInt::zero();
        let sparse = (BigInt::from(1u8) << 50_000u32) + 1u8;
        let x = random(&mut rng, 40_000, true);
        for (p, q) in [(&zero, &x), (&sparse, &x), (&sparse, &sparse)] {
            assert_eq!(product(p, q).ok(), Some(p * q));
        }
        work::set_scale(Kind::Mul, 1024);
    }

    #[test]
    fn a_cancel_ends_a_long_product() {
        // Two 2**25-bit ints: their product takes seconds as one call.
        let mut rng = Rng::new(0x6361_6e63);
        let a = random(&mut rng, 1 << 25, false);
        let b = random(&mut rng, 1 << 25, true);
        for src in ["z = a * b\n", "z = a\nz *= b\n", "z = [a * b]\n"] {
            let params = [("a", Data::Int(a.clone())), ("b", Data::Int(b.clone()))];
            assert_a_cancel_stops(src, &params);
        }
    }

    #[test]
    fn a_cancel_ends_a_long_power() {
        // round(x, -k) builds 10**k by squaring (the last squarings take
        // seconds), then divides and multiplies by it.
        let mut rng = Rng::new(0x706f_7720);
        let x = random(&mut rng, 1 << 25, false);
        assert_a_cancel_stops("z = round(x, -9000000)\n", &[("x", Data::Int(x))]);
    }

    #[test]
    fn a_cancel_ends_a_long_parse() {
        // int(text, 2**k) converts a long text in pieces (types/int/mod.rs).
        let text = Data::Str("10".repeat(1 << 25));
        assert_a_cancel_stops("z = int(s, 2)\n", &[("s", text)]);
    }
}
