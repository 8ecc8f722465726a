//! Exact int arithmetic (`+ - * // %`) on ints of any size.
//!
//! One implementation serves the general operator path and the numeric
//! fast tree. Operands are [`Int`]s: a small int by value, a big one
//! borrowed where it lives, or a big temporary held by nothing else (the
//! `v * 3` of `v * 3 + w`), which is updated in place, reusing its buffer
//! and its `Rc`. A new big result fills a kept box ([`computed_big`]); a
//! small operand is applied with num-bigint's scalar operations, never made
//! a `BigInt`; `big % small` reads the digits without allocating and
//! `big // small` divides the digits by one. Results are normalised as
//! everywhere: one that fits `i64` is small, without a `BigInt` round trip.

use std::rc::Rc;

use num_bigint::{BigInt, Sign};
use num_traits::ToPrimitive;

use crate::runtime::error::{Exc, R};
use crate::syntax::ast::Operator;
use crate::types::int::{computed_big, floordiv_i64, mod_i64, new_big, retire};
use crate::value::{BigVal, Value};

use crate::types::int::big_cost::{self, MAX_INT_BITS, int_too_large};
use crate::types::int::{big_div, big_mul};
use crate::types::ops::int_fast;

/// An int operand.
pub(crate) enum Int<'a> {
    /// One that fits `i64` (a bool is 0 or 1).
    S(i64),
    /// A big int read where it lives.
    B(&'a BigInt),
    /// A big temporary held by nothing else: a result lands in it.
    O(Rc<BigVal>),
}

impl<'a> Int<'a> {
    /// The int a value holds (borrowed), if it holds one.
    #[inline(always)]
    pub(crate) fn of(v: &'a Value) -> Option<Int<'a>> {
        match v {
            Value::Int(_, i) => Some(Int::S(*i)),
            Value::Bool(b) => Some(Int::S(*b as i64)),
            Value::Big(b) => Some(Int::B(&b.0)),
            _ => None,
        }
    }

    /// The big digits, for a big operand.
    #[inline]
    fn big(&self) -> Option<&BigInt> {
        match self {
            Int::S(_) => None,
            Int::B(b) => Some(b),
            Int::O(rc) => Some(&rc.0),
        }
    }

    fn bits(&self) -> u64 {
        match self {
            Int::S(i) => 64 - u64::from(i.unsigned_abs().leading_zeros()),
            Int::B(b) => b.bits(),
            Int::O(rc) => rc.0.bits(),
        }
    }

    fn is_zero(&self) -> bool {
        matches!(self, Int::S(0))
    }

    /// As a value (a borrowed big int is copied; results are never
    /// borrowed).
    #[inline]
    pub(crate) fn into_value(self) -> Value {
        match self {
            Int::S(i) => Value::int(i),
            Int::B(b) => Value::from_big(b.clone()),
            Int::O(rc) => Value::Big(rc),
        }
    }

    /// Ends an operand: a temporary's box is kept for a later result.
    #[inline]
    fn release(self) {
        if let Int::O(rc) = self {
            retire(Value::Big(rc));
        }
    }
}

/// `x op y` for `+ - * // %`; `None` for any other operator.
#[inline]
pub(crate) fn int_op(op: Operator, x: Int<'_>, y: Int<'_>) -> Option<R<Int<'static>>> {
    match op {
        Operator::Add | Operator::Sub | Operator::Mult => Some(ring(op, x, y)),
        Operator::FloorDiv | Operator::Mod => Some(divide(op, x, y)),
        _ => None,
    }
}

/// `a op b` for `+ - * // %` when both are ints (or bools). A big operand
/// held by nothing else (a temporary) is updated in place or leaves its
/// box for the result.
pub(crate) fn int_values(op: Operator, a: Value, b: Value) -> R<Value> {
    let (mut ha, mut hb) = (None, None);
    let x = operand(a, &mut ha);
    let y = operand(b, &mut hb);
    int_op(op, x, y)
        .unwrap_or_else(|| Err(Exc::type_error("unsupported int operation")))
        .map(Int::into_value)
}

/// An int value as an operand: a big one held by nothing else is a
/// temporary, one held elsewhere is borrowed (kept alive in `held`).
fn operand(v: Value, held: &mut Option<Rc<BigVal>>) -> Int<'_> {
    match v {
        Value::Int(_, i) => Int::S(i),
        Value::Bool(b) => Int::S(b as i64),
        Value::Big(mut rc) => {
            if Rc::get_mut(&mut rc).is_some() {
                Int::O(rc)
            } else {
                Int::B(&held.insert(rc).0)
            }
        }
        // The callers send ints only.
        _ => Int::S(0),
    }
}

/// Whether `cur op rhs` (`+ - * // %`) can update `cur` in place and
/// cannot fail: `cur` is a big int held by nothing else, `rhs` an int, a
/// sum or product stays within the size limit and a divisor is not zero.
pub(crate) fn int_in_place(op: Operator, cur: &mut Value, rhs: &Value) -> bool {
    let Value::Big(rc) = cur else {
        return false;
    };
    let Some(y) = Int::of(rhs) else {
        return false;
    };
    let (xb, yb) = (rc.0.bits(), y.bits());
    let safe = match op {
        Operator::Add | Operator::Sub => xb.max(yb) < MAX_INT_BITS,
        // A product or a division long enough to run in pieces can be
        // interrupted: not in place.
        Operator::Mult => {
            xb + yb <= MAX_INT_BITS
                && big_mul::is_whole(xb, yb)
                && crate::runtime::meter::ensure(((xb + yb) / 8) as usize).is_ok()
                && crate::runtime::work::affordable(
                    crate::runtime::work::Kind::Mul,
                    big_cost::mul_ns(xb, yb),
                )
        }
        Operator::FloorDiv | Operator::Mod => {
            !y.is_zero()
                && big_div::is_whole(xb, yb)
                && crate::runtime::work::affordable(
                    crate::runtime::work::Kind::Div,
                    big_cost::div_ns(xb, yb),
                )
        }
        _ => false,
    };
    safe && Rc::get_mut(rc).is_some()
}

/// Whether a value is an int or a bool.
#[inline(always)]
pub(crate) fn is_int(v: &Value) -> bool {
    matches!(v, Value::Int(_, _) | Value::Bool(_) | Value::Big(_))
}

/// A temporary changed in place, keeping its charge exact.
#[inline]
fn update(rc: &mut Rc<BigVal>, f: impl FnOnce(&mut BigInt)) {
    match Rc::get_mut(rc) {
        Some(v) => v.update(f),
        // A temporary is held by nothing else; were it shared, the
        // result goes into a copy.
        None => *rc = computed_big(&rc.0, f),
    }
}

/// A big int changed or made, as an operand (small if it now fits).
#[inline]
fn normalised(rc: Rc<BigVal>) -> R<Int<'static>> {
    let bits = rc.0.bits();
    if bits > MAX_INT_BITS {
        return Err(int_too_large());
    }
    // Past 64 bits it cannot fit (the conversion is skipped).
    if bits <= 64
        && let Some(i) = rc.0.to_i64()
    {
        retire(Value::Big(rc));
        return Ok(Int::S(i));
    }
    Ok(Int::O(rc))
}

/// `x op= y` for `+ - *` (any other operator multiplies: the callers send
/// only these three).
#[inline]
fn apply(op: Operator, x: &mut BigInt, y: &Int) {
    match (op, y) {
        (Operator::Add, Int::S(s)) => *x += *s,
        (Operator::Sub, Int::S(s)) => *x -= *s,
        (_, Int::S(s)) => *x *= *s,
        (Operator::Add, Int::B(b)) => *x += *b,
        (Operator::Sub, Int::B(b)) => *x -= *b,
        (_, Int::B(b)) => *x *= *b,
        (Operator::Add, Int::O(rc)) => *x += &rc.0,
        (Operator::Sub, Int::O(rc)) => *x -= &rc.0,
        (_, Int::O(rc)) => *x *= &rc.0,
    }
}

/// `x + y`, `x - y`, `x * y`.
fn ring(op: Operator, x: Int<'_>, y: Int<'_>) -> R<Int<'static>> {
    if let (Int::S(a), Int::S(b)) = (&x, &y) {
        if let Some(r) = int_fast(op, *a, *b) {
            return Ok(Int::S(r));
        }
        // An overflowing small case: exact in 128 bits.
        let (a, b) = (i128::from(*a), i128::from(*b));
        let r = match op {
            Operator::Add => a + b,
            Operator::Sub => a - b,
            _ => a * b,
        };
        return normalised(new_big(BigInt::from(r)));
    }
    let (xb, yb) = (x.bits(), y.bits());
    let cost = big_cost::add_sub_mul(op, xb, yb)?;
    if op == Operator::Mult && !big_mul::is_whole(xb, yb) {
        // Long enough to run in pieces (and fail between them).
        let p = big_mul::product(&big_ref(&x), &big_ref(&y))?;
        cost.done();
        x.release();
        y.release();
        return normalised(new_big(p));
    }
    let rc = match (x, y) {
        (Int::O(mut rc), y) => {
            update(&mut rc, |v| apply(op, v, &y));
            y.release();
            rc
        }
        (x, Int::O(mut rc)) => {
            match op {
                // `x - y` as `-y + x`.
                Operator::Sub => update(&mut rc, |v| {
                    *v = -std::mem::take(v);
                    apply(Operator::Add, v, &x);
                }),
                _ => update(&mut rc, |v| apply(op, v, &x)),
            }
            rc
        }
        (Int::B(a), Int::B(b)) if op == Operator::Mult => new_big(a * b),
        (Int::B(a), y) => computed_big(a, |v| apply(op, v, &y)),
        (x, Int::B(b)) => match op {
            Operator::Sub => computed_big(b, |v| {
                *v = -std::mem::take(v);
                apply(Operator::Add, v, &x);
            }),
            _ => computed_big(b, |v| apply(op, v, &x)),
        },
        // Both small: answered above.
        (x @ Int::S(_), y) => {
            let mut v = big_of(&x);
            apply(op, &mut v, &y);
            new_big(v)
        }
    };
    cost.done();
    normalised(rc)
}

/// An operand as an owned `BigInt` (a copy for a big one).
fn big_of(x: &Int) -> BigInt {
    big_ref(x).into_owned()
}

/// An operand as a `BigInt`, borrowed when it is big.
fn big_ref<'a>(x: &'a Int) -> std::borrow::Cow<'a, BigInt> {
    match x {
        Int::S(i) => std::borrow::Cow::Owned(BigInt::from(*i)),
        Int::B(b) => std::borrow::Cow::Borrowed(b),
        Int::O(rc) => std::borrow::Cow::Borrowed(&rc.0),
    }
}

/// `x // y` and `x % y`, floored as Python's.
fn divide(op: Operator, x: Int<'_>, y: Int<'_>) -> R<Int<'static>> {
    if y.is_zero() {
        return Err(super::zero_division(op));
    }
    let d = match y {
        Int::S(d) => {
            big_cost::linear(x.bits())?.done();
            d
        }
        y => {
            let cost = big_cost::div(x.bits(), y.bits())?;
            let (q, r) = big_div::div_mod_floor(&big_ref(&x), &big_ref(&y))?;
            cost.done();
            x.release();
            y.release();
            let v = if op == Operator::Mod { r } else { q };
            return Ok(match v.to_i64() {
                Some(i) => Int::S(i),
                None => Int::O(new_big(v)),
            });
        }
    };
    match (op, x) {
        (Operator::Mod, Int::S(a)) => Ok(Int::S(mod_i64(a, d))),
        (_, Int::S(a)) => match floordiv_i64(a, d) {
            Some(q) => Ok(Int::S(q)),
            // `-2**63 // -1`.
            None => normalised(new_big(-BigInt::from(a))),
        },
        (Operator::Mod, x) => {
            let r = x.big().map_or(0, |b| mod_small(b, d));
            x.release();
            Ok(Int::S(r))
        }
        (_, Int::O(mut rc)) => {
            let down = steps_down(&rc.0, d);
            update(&mut rc, |v| div_small(v, d, down));
            normalised(rc)
        }
        (_, Int::B(b)) => {
            let down = steps_down(b, d);
            normalised(computed_big(b, |v| div_small(v, d, down)))
        }
    }
}

/// Whether `b // d` is one below the truncated quotient: the signs differ
/// and the division is inexact.
#[inline]
fn steps_down(b: &BigInt, d: i64) -> bool {
    (b.sign() == Sign::Minus) != (d < 0) && rem_magnitude(b, d.unsigned_abs()) != 0
}

/// `v = v // d` for a nonzero small `d`, in place: the truncating scalar
/// division, one step down when `down`.
#[inline]
fn div_small(v: &mut BigInt, d: i64, down: bool) {
    let t = std::mem::take(v);
    let u = d.unsigned_abs();
    // By value: num-bigint divides the digits in place.
    let mut q = match u32::try_from(u) {
        Ok(u) => t / u,
        Err(_) => t / u,
    };
    if d < 0 {
        q = -q;
    }
    if down {
        q -= 1u8;
    }
    *v = q;
}

/// `|x| % m` for a nonzero `m`, from the digits: half a digit at a time by
/// multiplying with a reciprocal while `m` fits 32 bits, 128-bit divisions
/// past that.
pub(crate) fn rem_magnitude(x: &BigInt, m: u64) -> u64 {
    if m <= u64::from(u32::MAX) {
        let red = Reducer::new(m);
        let mut r: u64 = 0;
        for d in x.iter_u64_digits().rev() {
            r = red.rem((r << 32) | (d >> 32));
            r = red.rem((r << 32) | (d & 0xffff_ffff));
        }
        return r;
    }
    let m = u128::from(m);
    let mut r: u128 = 0;
    for d in x.iter_u64_digits().rev() {
        r = ((r << 64) | u128::from(d)) % m;
    }
    r as u64
}

/// `n % m` for any `u64` `n` and a fixed nonzero `m`, by a multiplication
/// with `m`'s reciprocal in place of a hardware division (several times
/// slower), as the remainder of a long number by a small one needs one
/// reduction per half digit.
struct Reducer {
    m: u64,
    /// `floor((2**64 - 1) / m)`.
    inv: u64,
}

impl Reducer {
    fn new(m: u64) -> Self {
        Reducer {
            m,
            inv: u64::MAX / m,
        }
    }

    #[inline]
    fn rem(&self, n: u64) -> u64 {
        // The estimate is the true quotient or one less (`inv` is short of
        // 2**64 / m by less than one, so `n * inv / 2**64` is short of
        // `n / m` by less than one): one correction at most.
        let q = ((u128::from(n) * u128::from(self.inv)) >> 64) as u64;
        let r = n - q * self.m;
        if r >= self.m { r - self.m } else { r }
    }
}

/// `x % y` (Python's sign: the divisor's) for a nonzero small divisor,
/// from the digits, without allocating.
pub(crate) fn mod_small(x: &BigInt, y: i64) -> i64 {
    let r = rem_magnitude(x, y.unsigned_abs());
    // `r` is the remainder of |x|; fix the sign as floor modulo does.
    let negative_x = x.sign() == num_bigint::Sign::Minus;
    let r = if negative_x && r != 0 {
        y.unsigned_abs() - r
    } else {
        r
    };
    if y < 0 && r != 0 {
        (r as i128 - y.unsigned_abs() as i128) as i64
    } else {
        r as i64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lackpy_test_support::rng::Rng;
    use num_integer::Integer;

    #[test]
    fn the_reducer_matches_the_remainder() {
        let ms = [
            1u64, 2, 3, 7, 10, 1000003, 65535, 65536, 4294967291, 4294967295,
        ];
        let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
        for m in ms {
            let red = Reducer::new(m);
            for edge in [
                0,
                1,
                m - 1,
                m,
                m + 1,
                u64::MAX,
                u64::MAX - 1,
                u64::MAX / m * m,
            ] {
                assert_eq!(red.rem(edge), edge % m, "{edge} % {m}");
            }
            for _ in 0..10_000 {
                let n = rng.next();
                assert_eq!(red.rem(n), n % m, "{n} % {m}");
            }
        }
    }

    #[test]
    fn mod_small_matches_floor_modulo() {
        let one: BigInt = BigInt::from(1u8) << 200;
        let three: BigInt = (BigInt::from(3u8) << 100) + 17;
        // Long dividends, and divisors on both sides of 32 bits.
        let long: BigInt = (BigInt::from(1u8) << 2047) + 12345;
        let longer: BigInt = (BigInt::from(1u8) << 2048) - 1;
        let bigs = [
            one.clone(),
            -one,
            three.clone(),
            -three,
            long.clone(),
            -long,
            longer.clone(),
            -longer,
        ];
        let u32_max = i64::from(u32::MAX);
        for x in &bigs {
            for y in [
                1i64,
                2,
                3,
                7,
                -7,
                1000003,
                u32_max,
                -u32_max,
                u32_max + 1,
                i64::MAX,
                i64::MIN,
                -1,
            ] {
                let want = x.mod_floor(&BigInt::from(y));
                assert_eq!(BigInt::from(mod_small(x, y)), want, "{x} % {y}");
                let got = int_values(
                    Operator::FloorDiv,
                    Value::from_big(x.clone()),
                    Value::int(y),
                );
                let want = Value::from_big(x.div_floor(&BigInt::from(y)));
                match got {
                    Ok(v) => assert!(
                        matches!(crate::value::eq::py_eq(&v, &want), Ok(true)),
                        "{x} // {y}"
                    ),
                    _ => panic!("{x} // {y} declined or failed"),
                }
            }
        }
    }
}
