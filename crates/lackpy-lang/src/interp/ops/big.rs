//! Int arithmetic with a big operand.
//!
//! Operands are borrowed, never copied into fresh `BigInt`s; a big left
//! operand held by nothing else (the temporary of `v * 3 + w`, a name's
//! value once its slot was emptied) is updated in place, reusing its buffer
//! and its `Rc`; `big % small` reads the digits without allocating. Results
//! are normalised as everywhere (one that fits `i64` is `Value::Int`).

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::ToPrimitive;

use crate::ast::Operator;
use std::rc::Rc;

use crate::value::errors::{Exc, R};
use crate::value::int::{IntRef, as_int, computed_big, new_big, retire};
use crate::value::{BigVal, Value};

use super::arith::MAX_INT_BITS;

/// `a op b` for `+ - * // %` when both are ints (or bools) and one is big;
/// `Err(a)` hands the left operand back for any other case.
pub(crate) fn big_arith(op: Operator, a: Value, b: &Value) -> Result<R<Value>, Value> {
    let (Some(x), Some(y)) = (as_int(&a), as_int(b)) else {
        return Err(a);
    };
    if matches!(x, IntRef::Small(_)) && matches!(y, IntRef::Small(_)) {
        return Err(a);
    }
    match op {
        Operator::Add | Operator::Sub | Operator::Mult => {
            if op == Operator::Mult && x.bits() + y.bits() > MAX_INT_BITS + 64 {
                return Ok(Err(Exc::memory()));
            }
            Ok(ring(op, a, y))
        }
        Operator::FloorDiv | Operator::Mod => {
            if y.is_zero() {
                return Ok(Err(Exc::zero_division(if op == Operator::Mod {
                    "integer modulo by zero"
                } else {
                    "integer division or modulo by zero"
                })));
            }
            if op == Operator::FloorDiv
                && let (IntRef::Big(xb), IntRef::Small(d)) = (&x, &y)
            {
                // Truncating scalar division, one step down when the
                // remainder is nonzero and the signs differ.
                let d = *d;
                let down = (xb.sign() == num_bigint::Sign::Minus) != (d < 0)
                    && rem_magnitude(xb, d.unsigned_abs()) != 0;
                return Ok(Ok(floor_div_small(a, d, down)));
            }
            Ok(Ok(match (op, &x, &y) {
                (Operator::Mod, IntRef::Big(x), IntRef::Small(y)) => Value::Int(mod_small(x, *y)),
                (Operator::Mod, _, _) => Value::from_big(big_of(&x).mod_floor(&big_of(&y))),
                _ => Value::from_big(big_of(&x).div_floor(&big_of(&y))),
            }))
        }
        _ => Err(a),
    }
}

/// A borrowed big int, or a small one made big.
fn big_of<'a>(i: &'a IntRef<'a>) -> std::borrow::Cow<'a, BigInt> {
    match i {
        IntRef::Small(v) => std::borrow::Cow::Owned(BigInt::from(*v)),
        IntRef::Big(b) => std::borrow::Cow::Borrowed(b),
    }
}

/// `a + b`, `a - b`, `a * b` (one operand big, the size of a product
/// already checked).
fn ring(op: Operator, a: Value, y: IntRef) -> R<Value> {
    match a {
        Value::Big(mut rc) => {
            if let Some(v) = Rc::get_mut(&mut rc) {
                v.update(|x| apply(op, x, &y));
                if v.0.bits() > MAX_INT_BITS {
                    return Err(Exc::memory());
                }
                return Ok(normalised(rc));
            }
            fresh(op, IntRef::Big(&rc.0), y)
        }
        other => match as_int(&other) {
            Some(x) => fresh(op, x, y),
            None => Err(super::arith::unsupported(op, &other, &Value::None)),
        },
    }
}

/// `x op= y` for `+ - *` (any other operator multiplies: the caller
/// sends only these three).
fn apply(op: Operator, x: &mut BigInt, y: &IntRef) {
    match (op, y) {
        (Operator::Add, IntRef::Small(y)) => *x += *y,
        (Operator::Add, IntRef::Big(y)) => *x += *y,
        (Operator::Sub, IntRef::Small(y)) => *x -= *y,
        (Operator::Sub, IntRef::Big(y)) => *x -= *y,
        (_, IntRef::Small(y)) => *x *= *y,
        (_, IntRef::Big(y)) => *x *= *y,
    }
}

/// A big int changed in place, back as a value (an `i64` if it now fits).
fn normalised(rc: Rc<BigVal>) -> Value {
    match rc.0.to_i64() {
        Some(i) => {
            retire(Value::Big(rc));
            Value::Int(i)
        }
        None => Value::Big(rc),
    }
}

/// `a // d` for a big `a` and a nonzero small `d`, `down` saying whether
/// the truncated quotient steps down by one; in place when `a` is held by
/// nothing else, else into a copy (a recycled buffer: the scalar division
/// runs over the digits in place either way).
fn floor_div_small(a: Value, d: i64, down: bool) -> Value {
    let op = |q: &mut BigInt| {
        *q /= d;
        if down {
            *q -= 1u8;
        }
    };
    match a {
        Value::Big(mut rc) => {
            if let Some(v) = Rc::get_mut(&mut rc) {
                v.update(op);
                return normalised(rc);
            }
            normalised(computed_big(&rc.0, op))
        }
        // Only a big left operand comes here; anything else is exact too.
        other => match as_int(&other) {
            Some(x) => {
                let mut q = x.to_big();
                op(&mut q);
                Value::from_big(q)
            }
            None => other,
        },
    }
}

/// `x op y` into a new int: the big operand copied (into the buffer of a
/// dropped int, kept with its box) and the other applied in place, so a
/// result usually allocates nothing.
fn fresh(op: Operator, x: IntRef, y: IntRef) -> R<Value> {
    let r: Rc<BigVal> = match (op, x, y) {
        (Operator::Mult, IntRef::Big(x), IntRef::Big(y)) => new_big(x * y),
        (Operator::Add | Operator::Mult, IntRef::Small(x), IntRef::Big(y)) => {
            computed_big(y, |r| apply(op, r, &IntRef::Small(x)))
        }
        (Operator::Sub, IntRef::Small(x), IntRef::Big(y)) => computed_big(y, |r| {
            *r = -std::mem::take(r);
            *r += x;
        }),
        (_, IntRef::Big(x), y) => computed_big(x, |r| apply(op, r, &y)),
        (_, IntRef::Small(x), y) => {
            let mut r = BigInt::from(x);
            apply(op, &mut r, &y);
            new_big(r)
        }
    };
    if r.0.bits() > MAX_INT_BITS {
        return Err(Exc::memory());
    }
    Ok(normalised(r))
}

/// `|x| % m` for a nonzero `m`, from the digits: half a digit at a time by
/// multiplying with a reciprocal while `m` fits 32 bits, 128-bit divisions
/// past that.
fn rem_magnitude(x: &BigInt, m: u64) -> u64 {
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
fn mod_small(x: &BigInt, y: i64) -> i64 {
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

    #[test]
    fn the_reducer_matches_the_remainder() {
        let ms = [
            1u64, 2, 3, 7, 10, 1000003, 65535, 65536, 4294967291, 4294967295,
        ];
        let mut n: u64 = 0x9e37_79b9_7f4a_7c15;
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
                n ^= n << 13;
                n ^= n >> 7;
                n ^= n << 17;
                assert_eq!(red.rem(n), n % m, "{n} % {m}");
            }
        }
    }

    #[test]
    fn mod_small_matches_floor_modulo() {
        let one: BigInt = BigInt::from(1u8) << 200;
        let three: BigInt = (BigInt::from(3u8) << 100) + 17;
        let bigs = [one.clone(), -one, three.clone(), -three];
        for x in &bigs {
            for y in [1i64, 2, 7, -7, 1000003, i64::MAX, i64::MIN, -1] {
                let want = x.mod_floor(&BigInt::from(y));
                assert_eq!(BigInt::from(mod_small(x, y)), want, "{x} % {y}");
                let got = big_arith(
                    Operator::FloorDiv,
                    Value::from_big(x.clone()),
                    &Value::Int(y),
                );
                let want = Value::from_big(x.div_floor(&BigInt::from(y)));
                match got {
                    Ok(Ok(v)) => assert!(
                        matches!(crate::value::eq::py_eq(&v, &want), Ok(true)),
                        "{x} // {y}"
                    ),
                    _ => panic!("{x} // {y} declined or failed"),
                }
            }
        }
    }
}
