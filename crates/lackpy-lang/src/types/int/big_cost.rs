//! What a big-int operation costs, from its operands' sizes, in nominal
//! nanoseconds (num-bigint's algorithms on this machine, optimised; the
//! meter corrects the scale as it times them: `value::work`).
//!
//! Multiplication is schoolbook up to 32 digits (64-bit digits),
//! Karatsuba up to 256, Toom-3 past that, an unbalanced product as
//! `n / m` products of `m`-digit halves; division is schoolbook, `m`
//! digit operations for each digit of the quotient; `+`, `-`, a scalar
//! operation, comparisons and conversions within the digit limit are
//! linear.

use crate::runtime::error::{Exc, ExceptionKind, R};
use crate::runtime::work::{self, Costly, Kind};

/// Largest int result kept, in bits: 8 MiB of digits (bigger results are a
/// MemoryError naming this limit). Ten times the 850 KB operands a program
/// may multiply; it bounds one multiplication to seconds, which is what a
/// run waits for cancellation at worst (the deadline is checked before the
/// operation from its estimated cost, below).
pub(crate) const MAX_INT_BITS: u64 = 1 << 26;

/// The MemoryError of a result past [`MAX_INT_BITS`].
#[cold]
pub(crate) fn int_too_large() -> Box<Exc> {
    Exc::limit(
        ExceptionKind::MemoryError,
        "int too large: lackpy's ints hold at most 2**26 bits",
    )
}

/// Nominal nanoseconds per digit operation of a product as [`balanced`]
/// counts them (measured: squaring a 52,000-digit int takes 0.15-0.3 s).
const MUL_NS_PER_OP: f64 = 2.5;

/// Nominal nanoseconds per quotient digit times divisor digit (measured:
/// 104,000 digits by 52,000 take 0.46 s).
const DIV_NS_PER_OP: f64 = 0.17;

/// Nominal nanoseconds per dividend digit and level of num-bigint's
/// recursive division.
const DIV_NS_PER_DIGIT_LEVEL: f64 = 7.0;

/// Nominal nanoseconds per digit of a linear pass.
const LINEAR_NS_PER_DIGIT: f64 = 0.5;

fn digits(bits: u64) -> f64 {
    (bits / 64 + 1) as f64
}

/// Digit operations of a product of `m`-digit numbers by Karatsuba and
/// Toom-3, continuous at the thresholds.
fn balanced(m: f64) -> f64 {
    if m <= 32.0 {
        m * m
    } else if m <= 256.0 {
        32.0 * 32.0 * (m / 32.0).powf(1.585)
    } else {
        32.0 * 32.0 * 8f64.powf(1.585) * (m / 256.0).powf(1.465)
    }
}

fn ns(ops: f64, per_op: f64) -> u64 {
    (ops * per_op).min(u64::MAX as f64) as u64
}

/// Nominal nanoseconds of `x * y` of `xb`- and `yb`-bit operands.
pub(crate) fn mul_ns(xb: u64, yb: u64) -> u64 {
    let (n, m) = (digits(xb.max(yb)), digits(xb.min(yb)));
    ns(n / m * balanced(m), MUL_NS_PER_OP) + ns(n, LINEAR_NS_PER_DIGIT)
}

/// Charges `x * y` of `xb`- and `yb`-bit operands before it runs.
pub(crate) fn mul(xb: u64, yb: u64) -> R<Costly> {
    work::charge(Kind::Mul, mul_ns(xb, yb))
}

/// Nominal nanoseconds of `x // y` or `x % y` (`xb`- by `yb`-bit).
pub(crate) fn div_ns(xb: u64, yb: u64) -> u64 {
    let (n, m) = (digits(xb), digits(yb));
    let q = (n - m).max(0.0) + 1.0;
    ns(q * m, DIV_NS_PER_OP) + ns(n, LINEAR_NS_PER_DIGIT)
}

/// Products of `n`-bit ints that num-bigint's division of a `2n`- by an
/// `n`-bit int costs (Burnikel and Ziegler's algorithm past 64 digits;
/// measured 1.7 to 2.9).
const DIV_IN_PRODUCTS: f64 = 2.7;

/// Nominal nanoseconds of `x // y` (`xb`- by `yb`-bit) as num-bigint runs
/// it, in the scale of products: one `2n`- by `n`-bit division per `n`
/// bits of quotient. It decides how a long division is split into pieces
/// (`big_div`); the charge before it runs is [`div_ns`].
pub(crate) fn div_piece_ns(xb: u64, yb: u64) -> u64 {
    let blocks = (xb.saturating_sub(yb) + 64) as f64 / yb.max(64) as f64;
    let one = DIV_IN_PRODUCTS * mul_ns(yb, yb) as f64;
    // Past 64 digits the recursion goes to the bottom however short the
    // quotient: a pass over the dividend per level (measured: 0.1 s for a
    // 2**26-bit remainder with a 5,000-bit quotient).
    let levels = (digits(yb) / 64.0).log2().max(1.0);
    ns(blocks, one) + ns(digits(xb) * levels, DIV_NS_PER_DIGIT_LEVEL)
}

/// Charges `x // y` or `x % y` (`xb`- by `yb`-bit) before it runs.
pub(crate) fn div(xb: u64, yb: u64) -> R<Costly> {
    work::charge(Kind::Div, div_ns(xb, yb))
}

/// Charges a power of ten of about `2 * half` bits (its last squaring)
/// and then a `xb`- by `yb`-bit division, as one operation.
pub(crate) fn mul_then_div(half: u64, xb: u64, yb: u64) -> R<Costly> {
    work::charge(Kind::Div, mul_ns(half, half).saturating_add(div_ns(xb, yb)))
}

/// Charges a linear pass over `bits` (a sum, a difference, a scalar
/// operation, a copy).
pub(crate) fn linear(bits: u64) -> R<Costly> {
    work::charge(Kind::Linear, ns(digits(bits), LINEAR_NS_PER_DIGIT))
}

/// The charge of `x op y` for `+`, `-` and `*` on ints of `xb` and `yb`
/// bits, refused before it runs when a product would pass the int cap or
/// what the memory budget has left.
pub(crate) fn add_sub_mul(op: crate::syntax::ast::Operator, xb: u64, yb: u64) -> R<Costly> {
    if op == crate::syntax::ast::Operator::Mult {
        if xb + yb > MAX_INT_BITS + 64 {
            return Err(int_too_large());
        }
        crate::runtime::meter::ensure(((xb + yb) / 8) as usize)?;
        mul(xb, yb)
    } else {
        linear(xb.max(yb))
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use crate::interp::{Limits, NoTools, RunOptions, Variables, run};

    fn run_for(src: &str, timeout: Duration) -> (Option<String>, String, Duration) {
        let (err, out, took, _) = run_msg(src, timeout);
        (err, out, took)
    }

    fn run_msg(src: &str, timeout: Duration) -> (Option<String>, String, Duration, String) {
        let module = crate::syntax::parse::parse(src).expect("parses");
        let opts = RunOptions {
            limits: Limits {
                timeout,
                ..Limits::default()
            },
            variables: Variables::Omit,
            ..RunOptions::default()
        };
        // CPU time: a bound on work that a loaded machine does not stretch.
        let (out, took) =
            lackpy_test_support::cpu::measure(|| run(&module, &mut NoTools, &[], &opts));
        (
            out.error_type,
            out.stdout,
            took,
            out.error.unwrap_or_default(),
        )
    }

    /// The run ended within 10% (or 50 ms) of its timeout.
    fn on_time(took: Duration, timeout: Duration) -> bool {
        took <= timeout + (timeout / 10).max(Duration::from_millis(50))
    }

    #[test]
    fn repeated_squaring_ends_at_the_deadline() {
        // Each squaring costs ~2.8 times the last; the one that would end
        // past the deadline is refused before it starts.
        let timeout = Duration::from_millis(1000);
        for src in [
            "x = 3\nfor i in range(40):\n    x = x * x\n",
            "x = 3\nfor i in range(40):\n    x *= x\n",
            "x = 3\nfor i in range(40):\n    x = x * x + 1\n",
            "x = [3]\nfor i in range(40):\n    x[0] = x[0] * x[0]\n",
        ] {
            let (err, _, took) = run_for(src, timeout);
            assert!(
                matches!(err.as_deref(), Some("TimeoutError" | "MemoryError")),
                "{src}: {err:?}"
            );
            assert!(on_time(took, timeout), "{src}: {took:?}");
        }
    }

    #[test]
    fn big_division_ends_at_the_deadline() {
        let timeout = Duration::from_millis(1500);
        let src = "x = 3\nfor i in range(21):\n    x = x * x\ny = x // 7 + 1\n\
                   for i in range(1000000):\n    z = (x * 12345) // (y // 3)\n    q = x % (y // 5)\n";
        let (err, _, took) = run_for(src, timeout);
        assert!(matches!(err.as_deref(), Some("TimeoutError")), "{err:?}");
        assert!(on_time(took, timeout), "{took:?}");
    }

    #[test]
    fn products_of_megabyte_ints_are_computed() {
        // Two 850 KB ints (CPython multiplies them); past 2**26 bits the
        // MemoryError names the limit.
        let src = "x = 3\nfor i in range(22):\n    x = x * x\ny = x + 1\n\
                   z = x * y\nprint(z.bit_length() > 13000000)\n";
        let (err, out, _) = run_for(src, Duration::from_secs(60));
        assert_eq!((err, out.as_str()), (None, "True\n"));
        // Past the limit: refused from the operands' sizes, named.
        let half = crate::value::Value::from_big(num_bigint::BigInt::from(1u8) << (1usize << 25));
        let e = crate::types::int::big::int_values(
            crate::syntax::ast::Operator::Mult,
            half.clone(),
            half,
        )
        .err()
        .map(|e| (e.kind, e.msg));
        assert_eq!(
            e,
            Some((
                crate::runtime::error::ExceptionKind::MemoryError,
                "int too large: lackpy's ints hold at most 2**26 bits".to_owned()
            ))
        );
        // Made from text in a power-of-two base (no digit limit there): the
        // same cap, to the bit.
        let src =
            "y = int('1' * 67108864, 2)\nprint(y.bit_length())\nz = int('f' * 16777217, 16)\n";
        let (err, out, _, msg) = run_msg(src, Duration::from_secs(60));
        assert_eq!(out, "67108864\n");
        assert_eq!(
            (err.as_deref(), msg.as_str()),
            (
                Some("MemoryError"),
                "int too large: lackpy's ints hold at most 2**26 bits"
            )
        );
    }
}
