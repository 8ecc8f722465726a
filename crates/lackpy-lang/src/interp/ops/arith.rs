//! Arithmetic: `a op b` and `a op= b` dispatch, and numeric arithmetic on
//! any mix of bool, int, float and complex, with Python's semantics and
//! error texts.

use std::rc::Rc;

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{Signed, ToPrimitive, Zero};

use super::super::Interp;
use super::super::limits::Budget;
use super::big_cost;
use super::collect_iterable;
use super::sequence::{add, mul, repeat_count, sub};
use crate::syntax::ast::Operator;
use crate::value::Value;
use crate::value::errors::{Exc, R};
use crate::value::int::{IntRef, as_int, divmod_big, floordiv_i64, mod_i64};

/// Largest int result kept, in bits: 8 MiB of digits (bigger results are a
/// MemoryError naming this limit). Ten times the 850 KB operands a program
/// may multiply; it bounds one multiplication to seconds, which is what a
/// run waits for cancellation at worst (the deadline is checked before the
/// operation from its estimated cost: `big_cost`).
pub(crate) const MAX_INT_BITS: u64 = 1 << 26;

/// The MemoryError of a result past [`MAX_INT_BITS`].
#[cold]
pub(crate) fn int_too_large() -> Box<Exc> {
    Exc::limit(
        crate::value::errors::ExcKind::MemoryError,
        "int too large: lackpy's ints hold at most 2**26 bits",
    )
}

fn op_symbol(op: Operator) -> &'static str {
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
        Value::Float(f) => Some(Ok(f.get())),
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

/// `a op b`.
pub(crate) fn binop(budget: &mut Budget, op: Operator, a: Value, b: Value) -> R<Value> {
    // The small-int fast path.
    if let (Value::Int(x), Value::Int(y)) = (&a, &b) {
        let (x, y) = (*x, *y);
        match op {
            Operator::Add => {
                if let Some(r) = x.checked_add(y) {
                    return Ok(Value::Int(r));
                }
            }
            Operator::Sub => {
                if let Some(r) = x.checked_sub(y) {
                    return Ok(Value::Int(r));
                }
            }
            Operator::Mult => {
                if let Some(r) = x.checked_mul(y) {
                    return Ok(Value::Int(r));
                }
            }
            Operator::FloorDiv => {
                if y == 0 {
                    return Err(Exc::zero_division("integer division or modulo by zero"));
                }
                if let Some(r) = floordiv_i64(x, y) {
                    return Ok(Value::Int(r));
                }
            }
            Operator::Mod => {
                if y == 0 {
                    return Err(Exc::zero_division("integer modulo by zero"));
                }
                return Ok(Value::Int(mod_i64(x, y)));
            }
            Operator::Div => {
                if y == 0 {
                    return Err(Exc::zero_division("division by zero"));
                }
                if x.unsigned_abs() < (1 << 53) && y.unsigned_abs() < (1 << 53) {
                    return Ok(Value::float(x as f64 / y as f64));
                }
            }
            _ => {}
        }
    }
    // Floats, and a float with a small int (converted as CPython does,
    // correctly rounded): straight to the float arithmetic.
    if is_numeric_op(op) {
        let pair = match (&a, &b) {
            (Value::Float(x), Value::Float(y)) => Some((x.get(), y.get())),
            (Value::Float(x), Value::Int(y)) => Some((x.get(), *y as f64)),
            (Value::Int(x), Value::Float(y)) => Some((*x as f64, y.get())),
            _ => None,
        };
        if let Some((x, y)) = pair {
            return float_arith(op, x, y);
        }
    }
    // Ints of any size (an overflowing small case included) and bools:
    // exact int arithmetic, a big temporary updated in place.
    if matches!(
        op,
        Operator::Add | Operator::Sub | Operator::Mult | Operator::FloorDiv | Operator::Mod
    ) && super::big::is_int(&a)
        && super::big::is_int(&b)
    {
        return super::big::int_values(op, a, b);
    }
    match op {
        Operator::Add => add(budget, a, b),
        Operator::Sub => sub(a, b),
        Operator::Mult => mul(budget, a, b),
        Operator::Div | Operator::FloorDiv => arith(op, &a, &b),
        Operator::Mod => {
            if let Value::Str(s) = &a {
                let text = super::super::formatting::percent_format(budget, s.as_str(), &b)?;
                return Ok(Value::str(text));
            }
            arith(op, &a, &b)
        }
        _ => Err(super::super::eval_expr::forbidden(walk_op_name(op), 0)),
    }
}

fn walk_op_name(op: Operator) -> &'static str {
    crate::syntax::walk::operator_name(op)
}

/// `a op= b`: lists extend in place, everything else as `a op b`.
pub(crate) fn inplace(it: &mut Interp, op: Operator, a: Value, b: Value) -> R<Value> {
    match (&a, op) {
        (Value::List(l), Operator::Add) => {
            let items = collect_iterable(&b)?;
            it.budget.check_memory(items.len() * 16)?;
            let items = items.into_vec();
            let has_container = items.iter().any(Value::is_container);
            match l.try_borrow_mut() {
                Ok(mut l) => {
                    l.items.extend(items);
                    l.sync();
                }
                Err(_) => return Err(Exc::runtime_error("list modified during operation")),
            }
            if has_container {
                it.note_list_cycle(l);
            }
            Ok(a)
        }
        (Value::List(l), Operator::Mult) => {
            let n = repeat_count(&b)?;
            let len = l.try_borrow().map(|l| l.items.len()).unwrap_or(0);
            it.budget
                .check_memory(len.saturating_mul(n).saturating_mul(16))?;
            if let Ok(mut l) = l.try_borrow_mut() {
                if n == 0 {
                    l.items.clear();
                } else {
                    let orig = l.items.clone();
                    for _ in 1..n {
                        l.items.extend(orig.iter().cloned());
                    }
                }
                l.sync();
            }
            Ok(a)
        }
        // `s -= t` updates `s` in place, as CPython does (the dummies it
        // leaves decide the later iteration order).
        (Value::Set(s), Operator::Sub) if matches!(b, Value::Set(_)) => {
            crate::interp::methods::set::isub(&mut it.budget, s, &b)?;
            Ok(a)
        }
        // Python names the augmented operator when no method applies
        // (`unsupported operand type(s) for -=: 'str' and 'bool'`).
        _ => binop(&mut it.budget, op, a, b).map_err(|mut e| {
            let plain = format!("unsupported operand type(s) for {}:", op_symbol(op));
            if e.msg.starts_with(&plain) {
                e.msg = e.msg.replacen(
                    &plain,
                    &format!("unsupported operand type(s) for {}=:", op_symbol(op)),
                    1,
                );
            }
            e
        }),
    }
}

/// Numeric arithmetic on any mix of bool, int, float and complex.
pub(super) fn arith(op: Operator, a: &Value, b: &Value) -> R<Value> {
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
                _ => x * y,
            };
            cost.done();
            big_result(r)
        }
        Operator::FloorDiv | Operator::Mod => {
            if y.is_zero() {
                return Err(Exc::zero_division(if op == Operator::Mod {
                    "integer modulo by zero"
                } else {
                    "integer division or modulo by zero"
                }));
            }
            if let (Some(xs), Some(ys)) = (x.to_i64(), y.to_i64())
                && let Some(q) = floordiv_i64(xs, ys)
            {
                return Ok(Value::Int(if op == Operator::Mod {
                    mod_i64(xs, ys)
                } else {
                    q
                }));
            }
            let cost = big_cost::div(x.bits(), y.bits())?;
            let (q, r) = divmod_big(&x.to_big(), &y.to_big());
            cost.done();
            big_result(if op == Operator::Mod { r } else { q })
        }
        Operator::Div => {
            if y.is_zero() {
                return Err(Exc::zero_division("division by zero"));
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
    let (q, r) = n.div_rem(&d);
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

fn float_arith(op: Operator, x: f64, y: f64) -> R<Value> {
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
