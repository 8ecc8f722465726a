//! Numeric arithmetic on any mix of bool, int, float and complex, with
//! Python's semantics and error texts, and the int size limit.

use std::rc::Rc;

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive, Zero};

use crate::runtime::error::{Exc, R};
use crate::syntax::ast::Operator;
use crate::types::int::big_cost::{self, MAX_INT_BITS, int_too_large};
use crate::types::int::{IntRef, as_int, floordiv_i64, mod_i64};
use crate::value::Value;

pub(super) fn op_symbol(op: Operator) -> &'static str {
    match op {
        Operator::Add => "+",
        Operator::Sub => "-",
        Operator::Mult => "*",
        Operator::MatMult => "@",
        Operator::Div => "/",
        Operator::Mod => "%",
        Operator::Pow => "** or pow()",
        Operator::LShift => "<<",
        Operator::RShift => ">>",
        Operator::BitOr => "|",
        Operator::BitXor => "^",
        Operator::BitAnd => "&",
        Operator::FloorDiv => "//",
    }
}

#[cold]
pub(super) fn unsupported(op: Operator, a: &Value, b: &Value) -> Box<Exc> {
    Exc::type_error(format!(
        "unsupported operand type(s) for {}: '{}' and '{}'",
        op_symbol(op),
        a.type_name(),
        b.type_name()
    ))
}

/// Converts an int operand to float for mixed arithmetic.
fn int_f64(i: &IntRef) -> R<f64> {
    match i {
        IntRef::Small(i) => Ok(*i as f64),
        IntRef::Big(b) => {
            crate::text::format::int_to_float(b).map_err(|e| Exc::overflow(e.message))
        }
    }
}

fn num_f64(v: &Value) -> Option<R<f64>> {
    match v {
        Value::Float(_, f) => Some(Ok(f.get())),
        _ => as_int(v).map(|i| int_f64(&i)),
    }
}

fn big_result(b: BigInt) -> R<Value> {
    if b.bits() > MAX_INT_BITS {
        return Err(int_too_large());
    }
    Ok(Value::from_big(b))
}

/// `x op y` for small ints when it needs no error and no big int.
#[inline(always)]
pub(crate) fn int_fast(op: Operator, x: i64, y: i64) -> Option<i64> {
    match op {
        Operator::Add => x.checked_add(y),
        Operator::Sub => x.checked_sub(y),
        Operator::Mult => x.checked_mul(y),
        Operator::FloorDiv if y != 0 => floordiv_i64(x, y),
        Operator::Mod if y != 0 => Some(mod_i64(x, y)),
        _ => None,
    }
}

/// Numeric arithmetic on any mix of bool, int, float and complex.
pub(crate) fn arith(op: Operator, a: &Value, b: &Value) -> R<Value> {
    if matches!(a, Value::Complex(_)) || matches!(b, Value::Complex(_)) {
        return complex_arith(op, a, b);
    }
    if matches!(a, Value::Float(..)) || matches!(b, Value::Float(..)) {
        let (Some(x), Some(y)) = (num_f64(a), num_f64(b)) else {
            return Err(unsupported(op, a, b));
        };
        return float_arith(op, x?, y?);
    }
    let (Some(x), Some(y)) = (as_int(a), as_int(b)) else {
        return Err(unsupported(op, a, b));
    };
    if let (Some(x), Some(y)) = (x.to_i64(), y.to_i64()) {
        // Only overflowing small cases get here.
        let (x, y) = (x as i128, y as i128);
        let r = match op {
            Operator::Add => Some(x + y),
            Operator::Sub => Some(x - y),
            Operator::Mult => Some(x * y),
            _ => None,
        };
        if let Some(r) = r {
            return Ok(Value::from_big(BigInt::from(r)));
        }
    }
    match op {
        Operator::Add | Operator::Sub | Operator::Mult => {
            let (xb, yb) = (x.bits(), y.bits());
            let cost = big_cost::add_sub_mul(op, xb, yb)?;
            let (x, y) = (x.to_big(), y.to_big());
            let r = match op {
                Operator::Add => x + y,
                Operator::Sub => x - y,
                _ => crate::types::int::big_mul::product(&x, &y)?,
            };
            cost.done();
            big_result(r)
        }
        Operator::FloorDiv | Operator::Mod => {
            if y.is_zero() {
                return Err(crate::types::int::zero_division(op));
            }
            if let (Some(xs), Some(ys)) = (x.to_i64(), y.to_i64())
                && let Some(q) = floordiv_i64(xs, ys)
            {
                return Ok(Value::int(if op == Operator::Mod {
                    mod_i64(xs, ys)
                } else {
                    q
                }));
            }
            let cost = big_cost::div(x.bits(), y.bits())?;
            let (q, r) = crate::types::int::big_div::div_mod_floor(&x.to_big(), &y.to_big())?;
            cost.done();
            big_result(if op == Operator::Mod { r } else { q })
        }
        Operator::Div => {
            if y.is_zero() {
                return Err(crate::types::int::zero_division(op));
            }
            let cost = big_cost::div(x.bits().max(y.bits()) + 64, y.bits())?;
            let q = true_div(&x.to_big(), &y.to_big());
            cost.done();
            q.map(Value::float)
        }
        _ => Err(unsupported(op, a, b)),
    }
}

/// Correctly rounded `a / b` for ints.
fn true_div(a: &BigInt, b: &BigInt) -> R<f64> {
    let negative = a.is_negative() != b.is_negative();
    let (na, nb) = (a.abs(), b.abs());
    if na.is_zero() {
        return Ok(if negative { -0.0 } else { 0.0 });
    }
    if na.bits() <= 53 && nb.bits() <= 53 {
        let r = na.to_f64().unwrap_or(0.0) / nb.to_f64().unwrap_or(1.0);
        return Ok(if negative { -r } else { r });
    }
    // Scale so the quotient has 55 or 56 bits, then round once.
    let shift: i64 = nb.bits() as i64 - na.bits() as i64 + 55;
    let (n, d) = if shift >= 0 {
        (na << shift as usize, nb)
    } else {
        (na, nb << (-shift) as usize)
    };
    let (q, r) = crate::types::int::big_div::div_mod_floor(&n, &d)?;
    let mut q = q.to_u64().unwrap_or(u64::MAX);
    if !r.is_zero() {
        q |= 1;
    }
    let r = ldexp(q as f64, -shift);
    if r.is_infinite() {
        return Err(Exc::overflow(
            "integer division result too large for a float",
        ));
    }
    Ok(if negative { -r } else { r })
}

/// `x * 2**e`.
pub(crate) fn ldexp(mut x: f64, mut e: i64) -> f64 {
    while e > 1000 {
        x *= f64::from_bits((1023 + 1000) << 52);
        e -= 1000;
        if x.is_infinite() {
            return x;
        }
    }
    while e < -1000 {
        x *= f64::from_bits((1023 - 1000) << 52);
        e += 1000;
        if x == 0.0 {
            return x;
        }
    }
    x * 2f64.powi(e as i32)
}

pub(super) fn float_arith(op: Operator, x: f64, y: f64) -> R<Value> {
    Ok(Value::float(match op {
        Operator::Add => x + y,
        Operator::Sub => x - y,
        Operator::Mult => x * y,
        Operator::Div => {
            if y == 0.0 {
                return Err(Exc::zero_division("float division by zero"));
            }
            x / y
        }
        Operator::FloorDiv => {
            if y == 0.0 {
                return Err(Exc::zero_division("float floor division by zero"));
            }
            float_divmod(x, y).0
        }
        Operator::Mod => {
            if y == 0.0 {
                return Err(Exc::zero_division("float modulo"));
            }
            float_divmod(x, y).1
        }
        _ => return Err(Exc::type_error("unsupported float operation")),
    }))
}

/// CPython's float floor division and modulo.
pub(crate) fn float_divmod(vx: f64, wx: f64) -> (f64, f64) {
    let mut m = vx % wx;
    let mut div = (vx - m) / wx;
    if m != 0.0 {
        if (wx < 0.0) != (m < 0.0) {
            m += wx;
            div -= 1.0;
        }
    } else {
        m = 0.0f64.copysign(wx);
    }
    let floordiv = if div != 0.0 {
        let mut f = div.floor();
        if div - f > 0.5 {
            f += 1.0;
        }
        f
    } else {
        0.0f64.copysign(vx / wx)
    };
    (floordiv, m)
}

fn complex_arith(op: Operator, a: &Value, b: &Value) -> R<Value> {
    let parts = |v: &Value| -> Option<R<(f64, f64)>> {
        match v {
            Value::Complex(c) => Some(Ok((c.0, c.1))),
            _ => num_f64(v).map(|r| r.map(|f| (f, 0.0))),
        }
    };
    let (Some(x), Some(y)) = (parts(a), parts(b)) else {
        return Err(unsupported(op, a, b));
    };
    let ((ar, ai), (br, bi)) = (x?, y?);
    let (r, i) = match op {
        Operator::Add => (ar + br, ai + bi),
        Operator::Sub => (ar - br, ai - bi),
        Operator::Mult => (ar * br - ai * bi, ar * bi + ai * br),
        Operator::Div => {
            // CPython's algorithm (Smith's method).
            let (abr, abi) = (br.abs(), bi.abs());
            if abr >= abi {
                if abr == 0.0 {
                    return Err(Exc::zero_division("complex division by zero"));
                }
                let ratio = bi / br;
                let denom = br + bi * ratio;
                ((ar + ai * ratio) / denom, (ai - ar * ratio) / denom)
            } else if abi >= abr {
                let ratio = br / bi;
                let denom = br * ratio + bi;
                ((ar * ratio + ai) / denom, (ai * ratio - ar) / denom)
            } else {
                (f64::NAN, f64::NAN)
            }
        }
        _ => return Err(unsupported(op, a, b)),
    };
    Ok(Value::Complex(Rc::new((r, i))))
}

/// The operators with a float form for every pair of numbers (`+ - * / // %`).
#[inline(always)]
pub(crate) fn is_numeric_op(op: Operator) -> bool {
    matches!(
        op,
        Operator::Add
            | Operator::Sub
            | Operator::Mult
            | Operator::Div
            | Operator::FloorDiv
            | Operator::Mod
    )
}
