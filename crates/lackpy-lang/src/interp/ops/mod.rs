//! Operators: arithmetic, comparison, membership, indexing and slicing,
//! with Python's semantics and error texts.

use std::cmp::Ordering;
use std::rc::Rc;

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{Signed, ToPrimitive, Zero};

use super::Interp;
use crate::ast::{CmpOp, Operator};
use crate::value::eq::{item_eq, py_eq};
use crate::value::errors::{Exc, R};
use crate::value::hash::hash_value;
use crate::value::int::{IntRef, as_int, cmp_int_float, divmod_big, floordiv_i64, mod_i64};
use crate::value::iter::{PyIter, char_value};
use crate::value::meter::Buf;
use crate::value::{List, Range, Set, Value, ViewKind};

/// Largest int result kept, in bits (bigger results are a MemoryError; far
/// beyond anything a tool composition needs, and it keeps a single
/// multiplication or division fast).
const MAX_INT_BITS: u64 = 1 << 23;

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
fn unsupported(op: Operator, a: &Value, b: &Value) -> Box<Exc> {
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
        IntRef::Big(b) => crate::format::int_to_float(b).map_err(|e| Exc::overflow(e.message)),
    }
}

fn num_f64(v: &Value) -> Option<R<f64>> {
    match v {
        Value::Float(f) => Some(Ok(*f)),
        _ => as_int(v).map(|i| int_f64(&i)),
    }
}

fn big_result(b: BigInt) -> R<Value> {
    if b.bits() > MAX_INT_BITS {
        return Err(Exc::memory());
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
pub(crate) fn binop(it: &mut Interp, op: Operator, a: Value, b: Value) -> R<Value> {
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
                    return Ok(Value::Float(x as f64 / y as f64));
                }
            }
            _ => {}
        }
    }
    match op {
        Operator::Add => add(it, a, b),
        Operator::Sub => sub(a, b),
        Operator::Mult => mul(it, a, b),
        Operator::Div | Operator::FloorDiv => arith(op, &a, &b),
        Operator::Mod => {
            if let Value::Str(s) = &a {
                let text = super::formatting::percent_format(it, s.as_str(), &b)?;
                return Ok(Value::str(text));
            }
            arith(op, &a, &b)
        }
        _ => Err(super::eval_expr::forbidden(walk_op_name(op), 0)),
    }
}

fn walk_op_name(op: Operator) -> &'static str {
    crate::walk::operator_name(op)
}

/// `a op= b`: lists extend in place, everything else as `a op b`.
pub(crate) fn inplace(it: &mut Interp, op: Operator, a: Value, b: Value) -> R<Value> {
    match (&a, op) {
        (Value::List(l), Operator::Add) => {
            let items = collect_iterable(it, &b)?;
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
        // Python names the augmented operator when no method applies
        // (`unsupported operand type(s) for -=: 'str' and 'bool'`).
        _ => binop(it, op, a, b).map_err(|mut e| {
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

fn add(it: &mut Interp, a: Value, b: Value) -> R<Value> {
    match (a, b) {
        (Value::Str(mut x), Value::Str(y)) => {
            it.budget
                .check_memory(x.as_str().len() + y.as_str().len())?;
            if let Some(s) = Rc::get_mut(&mut x) {
                s.push_str(&y);
                return Ok(Value::Str(x));
            }
            let mut s = String::with_capacity(x.as_str().len() + y.as_str().len());
            s.push_str(x.as_str());
            s.push_str(y.as_str());
            Ok(Value::str(s))
        }
        (Value::Str(_), other) => Err(Exc::type_error(format!(
            "can only concatenate str (not \"{}\") to str",
            other.type_name()
        ))),
        (Value::List(x), Value::List(y)) => {
            let (xl, yl) = (x.try_borrow(), y.try_borrow());
            let (Ok(xl), Ok(yl)) = (xl, yl) else {
                return Err(Exc::runtime_error("list modified during operation"));
            };
            it.budget
                .check_memory((xl.items.len() + yl.items.len()) * 16)?;
            let mut items = Vec::with_capacity(xl.items.len() + yl.items.len());
            items.extend(xl.items.iter().cloned());
            items.extend(yl.items.iter().cloned());
            Ok(Value::list(items))
        }
        (Value::List(_), other) => Err(Exc::type_error(format!(
            "can only concatenate list (not \"{}\") to list",
            other.type_name()
        ))),
        (Value::Tuple(x), Value::Tuple(y)) => {
            it.budget
                .check_memory((x.items.len() + y.items.len()) * 16)?;
            let mut items = Vec::with_capacity(x.items.len() + y.items.len());
            items.extend(x.items.iter().cloned());
            items.extend(y.items.iter().cloned());
            Ok(Value::tuple(items))
        }
        (Value::Tuple(_), other) => Err(Exc::type_error(format!(
            "can only concatenate tuple (not \"{}\") to tuple",
            other.type_name()
        ))),
        (Value::Bytes(x), Value::Bytes(y)) => {
            let mut v = (*x).clone();
            v.extend_from_slice(&y);
            Ok(Value::Bytes(Rc::new(v)))
        }
        (a, b) => arith(Operator::Add, &a, &b),
    }
}

fn sub(a: Value, b: Value) -> R<Value> {
    match (&a, &b) {
        (Value::Set(x), Value::Set(y)) => {
            let (Ok(x), Ok(y)) = (x.try_borrow(), y.try_borrow()) else {
                return Err(Exc::runtime_error("set changed during operation"));
            };
            Ok(Value::set(super::methods_set::difference(&x, &y)))
        }
        (Value::View(v), other) if v.kind != ViewKind::Values => {
            let mine = Set::from_view(v)?;
            let mut out = mine.copy();
            let mut items = PyIter::of(other)?;
            while let Some(i) = items.next()? {
                out.discard(&i)?;
            }
            Ok(Value::set(out))
        }
        _ => arith(Operator::Sub, &a, &b),
    }
}

/// The count of a sequence repetition (`seq * n`).
fn repeat_count(n: &Value) -> R<usize> {
    match as_int(n) {
        Some(i) => match i.to_i64() {
            Some(k) => Ok(if k < 0 { 0 } else { k as usize }),
            None => Err(Exc::overflow(
                "cannot fit 'int' into an index-sized integer",
            )),
        },
        None => Err(Exc::type_error(format!(
            "can't multiply sequence by non-int of type '{}'",
            n.type_name()
        ))),
    }
}

fn mul(it: &mut Interp, a: Value, b: Value) -> R<Value> {
    let (seq, n) = match (&a, &b) {
        (Value::Str(_) | Value::List(_) | Value::Tuple(_) | Value::Bytes(_), _) => (&a, &b),
        (_, Value::Str(_) | Value::List(_) | Value::Tuple(_) | Value::Bytes(_))
            if as_int(&a).is_some() =>
        {
            (&b, &a)
        }
        (_, Value::Str(_) | Value::List(_) | Value::Tuple(_) | Value::Bytes(_)) => {
            return Err(Exc::type_error(format!(
                "can't multiply sequence by non-int of type '{}'",
                a.type_name()
            )));
        }
        _ => return arith(Operator::Mult, &a, &b),
    };
    let n = repeat_count(n)?;
    match seq {
        Value::Str(s) => {
            let len = s.as_str().len();
            if (s.char_len() as u128) * (n as u128) > isize::MAX as u128 {
                return Err(Exc::overflow("repeated string is too long"));
            }
            let total = len.checked_mul(n).ok_or_else(Exc::memory)?;
            it.budget.check_memory(total)?;
            if n == 1 {
                return Ok(seq.clone());
            }
            Ok(Value::str(s.as_str().repeat(n)))
        }
        Value::List(l) => {
            let items = l.try_borrow().map(|l| l.items.clone()).unwrap_or_default();
            let total = items.len().checked_mul(n).ok_or_else(Exc::memory)?;
            it.budget.check_memory(total.saturating_mul(16))?;
            let mut out = Vec::with_capacity(total);
            for _ in 0..n {
                out.extend(items.iter().cloned());
            }
            Ok(Value::list(out))
        }
        Value::Tuple(t) => {
            let total = t.items.len().checked_mul(n).ok_or_else(Exc::memory)?;
            it.budget.check_memory(total.saturating_mul(16))?;
            if n == 1 {
                return Ok(seq.clone());
            }
            let mut out = Vec::with_capacity(total);
            for _ in 0..n {
                out.extend(t.items.iter().cloned());
            }
            Ok(Value::tuple(out))
        }
        Value::Bytes(b) => {
            let total = b.len().checked_mul(n).ok_or_else(Exc::memory)?;
            it.budget.check_memory(total)?;
            Ok(Value::Bytes(Rc::new(b.repeat(n))))
        }
        _ => Err(unsupported(Operator::Mult, &a, &b)),
    }
}

/// Numeric arithmetic on any mix of bool, int, float and complex.
fn arith(op: Operator, a: &Value, b: &Value) -> R<Value> {
    if matches!(a, Value::Complex(_)) || matches!(b, Value::Complex(_)) {
        return complex_arith(op, a, b);
    }
    if matches!(a, Value::Float(_)) || matches!(b, Value::Float(_)) {
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
            if op == Operator::Mult && x.bits() + y.bits() > MAX_INT_BITS + 64 {
                return Err(Exc::memory());
            }
            let (x, y) = (x.to_big(), y.to_big());
            big_result(match op {
                Operator::Add => x + y,
                Operator::Sub => x - y,
                _ => x * y,
            })
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
            let (q, r) = divmod_big(&x.to_big(), &y.to_big());
            big_result(if op == Operator::Mod { r } else { q })
        }
        Operator::Div => {
            if y.is_zero() {
                return Err(Exc::zero_division("division by zero"));
            }
            true_div(&x.to_big(), &y.to_big()).map(Value::Float)
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
    Ok(Value::Float(match op {
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

/// A comparison operator applied to two values.
pub(crate) fn compare(op: CmpOp, a: &Value, b: &Value) -> R<bool> {
    match op {
        CmpOp::Eq => py_eq(a, b),
        CmpOp::NotEq => py_eq(a, b).map(|e| !e),
        CmpOp::Is => Ok(a.is_same(b)),
        CmpOp::IsNot => Ok(!a.is_same(b)),
        CmpOp::In => contains(b, a),
        CmpOp::NotIn => contains(b, a).map(|c| !c),
        CmpOp::Lt | CmpOp::LtE | CmpOp::Gt | CmpOp::GtE => order(op, a, b, 0),
    }
}

fn cmp_symbol(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Lt => "<",
        CmpOp::LtE => "<=",
        CmpOp::Gt => ">",
        CmpOp::GtE => ">=",
        _ => "==",
    }
}

#[cold]
fn not_supported(op: CmpOp, a: &Value, b: &Value) -> Box<Exc> {
    Exc::type_error(format!(
        "'{}' not supported between instances of '{}' and '{}'",
        cmp_symbol(op),
        a.type_name(),
        b.type_name()
    ))
}

fn apply(op: CmpOp, o: Ordering) -> bool {
    match op {
        CmpOp::Lt => o == Ordering::Less,
        CmpOp::LtE => o != Ordering::Greater,
        CmpOp::Gt => o == Ordering::Greater,
        _ => o != Ordering::Less,
    }
}

/// `a < b` as sorting uses it.
pub(crate) fn lt(a: &Value, b: &Value) -> R<bool> {
    if let (Value::Int(x), Value::Int(y)) = (a, b) {
        return Ok(x < y);
    }
    if let (Value::Str(x), Value::Str(y)) = (a, b) {
        return Ok(x.as_str() < y.as_str());
    }
    order(CmpOp::Lt, a, b, 0)
}

/// `<`, `<=`, `>`, `>=`.
pub(crate) fn order(op: CmpOp, a: &Value, b: &Value, depth: u32) -> R<bool> {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => return Ok(apply(op, x.cmp(y))),
        (Value::Float(x), Value::Float(y)) => {
            return Ok(match op {
                CmpOp::Lt => x < y,
                CmpOp::LtE => x <= y,
                CmpOp::Gt => x > y,
                _ => x >= y,
            });
        }
        (Value::Str(x), Value::Str(y)) => return Ok(apply(op, x.as_str().cmp(y.as_str()))),
        (Value::Bytes(x), Value::Bytes(y)) => return Ok(apply(op, x.as_slice().cmp(y.as_slice()))),
        (Value::Float(f), other) | (other, Value::Float(f)) => {
            let Some(i) = as_int(other) else {
                return Err(not_supported(op, a, b));
            };
            let Some(o) = cmp_int_float(&i, *f) else {
                return Ok(false);
            };
            let o = if matches!(a, Value::Float(_)) {
                o.reverse()
            } else {
                o
            };
            return Ok(apply(op, o));
        }
        (Value::List(_), Value::List(_)) | (Value::Tuple(_), Value::Tuple(_)) => {
            if depth > 500 || crate::value::stack::exhausted() {
                return Err(Exc::recursion(
                    "maximum recursion depth exceeded in comparison",
                ));
            }
            // Item by item without copying either sequence.
            let mut i = 0;
            loop {
                let (Some(x), Some(y)) = (seq_item(a, i), seq_item(b, i)) else {
                    return Ok(apply(op, seq_len(a).cmp(&seq_len(b))));
                };
                if !item_eq(&x, &y, depth + 1)? {
                    return order(op, &x, &y, depth + 1);
                }
                i += 1;
            }
        }
        (Value::Set(_) | Value::View(_), Value::Set(_) | Value::View(_)) => {
            let (Some(x), Some(y)) = (set_of(a)?, set_of(b)?) else {
                return Err(not_supported(op, a, b));
            };
            let sub = |p: &Set, q: &Set| -> R<bool> {
                for k in p.iter() {
                    if !q.contains(k)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            };
            return Ok(match op {
                CmpOp::Lt => x.len() < y.len() && sub(&x, &y)?,
                CmpOp::LtE => x.len() <= y.len() && sub(&x, &y)?,
                CmpOp::Gt => x.len() > y.len() && sub(&y, &x)?,
                _ => x.len() >= y.len() && sub(&y, &x)?,
            });
        }
        _ => {}
    }
    match (as_int(a), as_int(b)) {
        (Some(x), Some(y)) => {
            let o = match (x.to_i64(), y.to_i64()) {
                (Some(x), Some(y)) => x.cmp(&y),
                _ => x.to_big().cmp(&y.to_big()),
            };
            Ok(apply(op, o))
        }
        _ => Err(not_supported(op, a, b)),
    }
}

fn set_of(v: &Value) -> R<Option<Set>> {
    Ok(match v {
        Value::Set(s) => s.try_borrow().ok().map(|s| s.copy()),
        Value::View(view) if view.kind != ViewKind::Values => Some(Set::from_view(view)?),
        _ => None,
    })
}

fn seq_item(v: &Value, i: usize) -> Option<Value> {
    match v {
        Value::List(l) => l.try_borrow().ok().and_then(|l| l.items.get(i).cloned()),
        Value::Tuple(t) => t.items.get(i).cloned(),
        _ => None,
    }
}

fn seq_len(v: &Value) -> usize {
    match v {
        Value::List(l) => l.try_borrow().map(|l| l.items.len()).unwrap_or(0),
        Value::Tuple(t) => t.items.len(),
        _ => 0,
    }
}

/// `item in container`.
pub(crate) fn contains(container: &Value, item: &Value) -> R<bool> {
    match container {
        Value::Str(s) => match item {
            Value::Str(x) => Ok(s.as_str().contains(x.as_str())),
            other => Err(Exc::type_error(format!(
                "'in <string>' requires string as left operand, not {}",
                other.type_name()
            ))),
        },
        Value::List(l) => {
            // Comparisons run no program code: no copy of the items needed.
            let Ok(l) = l.try_borrow() else {
                return Ok(false);
            };
            for x in &l.items {
                if item_eq(x, item, 0)? {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        Value::Tuple(t) => {
            for x in &t.items {
                if item_eq(x, item, 0)? {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        Value::Dict(d) => d
            .try_borrow()
            .map_err(|_| Exc::runtime_error("dict busy"))?
            .contains(item),
        Value::Set(s) => s
            .try_borrow()
            .map_err(|_| Exc::runtime_error("set busy"))?
            .contains(item),
        Value::View(v) => {
            let d = v
                .dict
                .try_borrow()
                .map_err(|_| Exc::runtime_error("dict busy"))?;
            match v.kind {
                ViewKind::Keys => d.contains(item),
                ViewKind::Values => {
                    for (_, x) in d.iter() {
                        if item_eq(x, item, 0)? {
                            return Ok(true);
                        }
                    }
                    Ok(false)
                }
                ViewKind::Items => {
                    let Value::Tuple(t) = item else {
                        return Ok(false);
                    };
                    let [k, val] = t.items.as_slice() else {
                        return Ok(false);
                    };
                    match d.get(k) {
                        Ok(Some(x)) => item_eq(x, val, 0),
                        _ => Ok(false),
                    }
                }
            }
        }
        Value::Range(r) => Ok(range_contains(r, item)),
        Value::Bytes(b) => match item {
            Value::Bytes(x) => Ok(x.is_empty() || b.windows(x.len()).any(|w| w == x.as_slice())),
            _ => match as_int(item).and_then(|i| i.to_i64()) {
                Some(i) if (0..256).contains(&i) => Ok(b.contains(&(i as u8))),
                Some(_) => Err(Exc::value_error("byte must be in range(0, 256)")),
                None => Err(Exc::type_error(format!(
                    "a bytes-like object is required, not '{}'",
                    item.type_name()
                ))),
            },
        },
        Value::Iter(_) => {
            let mut it = PyIter::of(container)?;
            while let Some(x) = it.next()? {
                if item_eq(&x, item, 0)? {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        other => Err(Exc::type_error(format!(
            "argument of type '{}' is not iterable",
            other.type_name()
        ))),
    }
}

fn range_contains(r: &Range, item: &Value) -> bool {
    let i = match item {
        Value::Float(f) => match crate::value::int::f64_to_int(*f) {
            Some(v) if f.fract() == 0.0 => match as_int(&v) {
                Some(i) => i.to_big(),
                None => return false,
            },
            _ => return false,
        },
        _ => match as_int(item) {
            Some(i) => i.to_big(),
            None => return false,
        },
    };
    r.contains_int(&i)
}

/// `len(v)`.
pub(crate) fn py_len(v: &Value) -> R<usize> {
    Ok(match v {
        Value::Str(s) => s.char_len(),
        Value::List(l) => l.try_borrow().map(|l| l.items.len()).unwrap_or(0),
        Value::Tuple(t) => t.items.len(),
        Value::Dict(d) => d.try_borrow().map(|d| d.len()).unwrap_or(0),
        Value::Set(s) => s.try_borrow().map(|s| s.len()).unwrap_or(0),
        Value::View(v) => v.dict.try_borrow().map(|d| d.len()).unwrap_or(0),
        Value::Bytes(b) => b.len(),
        Value::Range(r) => match r.len_u64() {
            Some(n) if n <= i64::MAX as u64 => n as usize,
            _ => {
                return Err(Exc::overflow(
                    "Python int too large to convert to C ssize_t",
                ));
            }
        },
        other => {
            return Err(Exc::type_error(format!(
                "object of type '{}' has no len()",
                other.type_name()
            )));
        }
    })
}

/// Normalises an index for a sequence of length `len`.
fn seq_index(idx: &Value, len: usize, what: &str) -> R<usize> {
    let i = match as_int(idx) {
        Some(i) => match i.to_i64() {
            Some(i) => i,
            None => {
                return Err(Exc::index_error(
                    "cannot fit 'int' into an index-sized integer",
                ));
            }
        },
        None => unreachable_index(idx, what)?,
    };
    let n = len as i64;
    let j = if i < 0 { i + n } else { i };
    if j < 0 || j >= n {
        return Err(Exc::index_error(format!("{what} index out of range")));
    }
    Ok(j as usize)
}

fn unreachable_index(idx: &Value, what: &str) -> R<i64> {
    Err(match what {
        "string" => Exc::type_error(format!(
            "string indices must be integers, not '{}'",
            idx.type_name()
        )),
        "range object" => Exc::type_error(format!(
            "range indices must be integers or slices, not {}",
            idx.type_name()
        )),
        _ => Exc::type_error(format!(
            "{what} indices must be integers or slices, not {}",
            idx.type_name()
        )),
    })
}

/// `obj[idx]` (not a slice).
pub(crate) fn get_item(obj: &Value, idx: &Value) -> R<Value> {
    match obj {
        Value::List(l) => {
            let l = l
                .try_borrow()
                .map_err(|_| Exc::runtime_error("list busy"))?;
            if let Value::Int(i) = idx {
                let n = l.items.len() as i64;
                let j = if *i < 0 { *i + n } else { *i };
                if j >= 0 && j < n {
                    return Ok(l.items.get(j as usize).cloned().unwrap_or(Value::None));
                }
            }
            let j = seq_index(idx, l.items.len(), "list")?;
            Ok(l.items.get(j).cloned().unwrap_or(Value::None))
        }
        Value::Tuple(t) => {
            let j = seq_index(idx, t.items.len(), "tuple")?;
            Ok(t.items.get(j).cloned().unwrap_or(Value::None))
        }
        Value::Str(s) => {
            let j = seq_index(idx, s.char_len(), "string")?;
            Ok(s.char_at(j).map(char_value).unwrap_or(Value::None))
        }
        Value::Dict(d) => {
            let d = d
                .try_borrow()
                .map_err(|_| Exc::runtime_error("dict busy"))?;
            match d.get(idx)? {
                Some(v) => Ok(v.clone()),
                None => Err(Exc::key_error(idx)),
            }
        }
        Value::Range(r) => {
            let n = r.len_big();
            let i = match as_int(idx) {
                Some(i) => i.to_big(),
                None => BigInt::from(unreachable_index(idx, "range object")?),
            };
            let j = if i.is_negative() { i + &n } else { i };
            if j.is_negative() || j >= n {
                return Err(Exc::index_error("range object index out of range"));
            }
            Ok(Value::from_big(r.item(&j)))
        }
        Value::Bytes(b) => {
            let j = seq_index(idx, b.len(), "index")?;
            Ok(Value::Int(b.get(j).copied().unwrap_or(0) as i64))
        }
        other => Err(Exc::type_error(format!(
            "'{}' object is not subscriptable",
            other.type_name()
        ))),
    }
}

/// Evaluated bounds of a slice (`None` for absent or `None`).
pub(crate) struct SliceArgs {
    pub lo: Option<Value>,
    pub hi: Option<Value>,
    pub step: Option<Value>,
}

fn slice_int(v: &Option<Value>) -> R<Option<i64>> {
    match v {
        None => Ok(None),
        Some(v) => match as_int(v) {
            Some(i) => Ok(Some(match i.to_i64() {
                Some(x) => x,
                None => {
                    if i.is_negative() {
                        i64::MIN + 1
                    } else {
                        i64::MAX
                    }
                }
            })),
            None => Err(Exc::type_error(
                "slice indices must be integers or None or have an __index__ method",
            )),
        },
    }
}

/// `(start, step, count)` of a slice over `len` items, as `PySlice_AdjustIndices`.
pub(crate) fn slice_indices(s: &SliceArgs, len: usize) -> R<(i64, i64, usize)> {
    let step = slice_int(&s.step)?.unwrap_or(1).max(-i64::MAX); // -i64::MIN would overflow; -i64::MAX picks the same items
    if step == 0 {
        return Err(Exc::value_error("slice step cannot be zero"));
    }
    let n = len as i64;
    let lo = slice_int(&s.lo)?;
    let hi = slice_int(&s.hi)?;
    let adjust = |v: Option<i64>, default: i64, lower: i64, upper: i64| -> i64 {
        match v {
            None => default,
            Some(v) => {
                let v = if v < 0 { v.saturating_add(n) } else { v };
                v.clamp(lower, upper)
            }
        }
    };
    let (start, stop) = if step > 0 {
        (adjust(lo, 0, 0, n), adjust(hi, n, 0, n))
    } else {
        (adjust(lo, n - 1, -1, n - 1), adjust(hi, -1, -1, n - 1))
    };
    let count = if step > 0 {
        if stop > start {
            ((stop - start - 1) / step + 1) as usize
        } else {
            0
        }
    } else if start > stop {
        ((start - stop - 1) / (-step) + 1) as usize
    } else {
        0
    };
    Ok((start, step, count))
}

fn pick<T: Clone>(items: &[T], start: i64, step: i64, count: usize) -> R<Vec<T>> {
    crate::value::meter::ensure(count.saturating_mul(std::mem::size_of::<T>()))?;
    crate::value::meter::tick_n(count)?;
    let mut out = Vec::with_capacity(count);
    let mut i = start;
    for _ in 0..count {
        if let Some(x) = items.get(i as usize) {
            out.push(x.clone());
        }
        // Past the last item the index may leave i64 (a step near i64::MAX).
        i = i.wrapping_add(step);
    }
    Ok(out)
}

/// `obj[lo:hi:step]`.
pub(crate) fn get_slice(_it: &mut Interp, obj: &Value, s: &SliceArgs) -> R<Value> {
    match obj {
        Value::List(l) => {
            let l = l
                .try_borrow()
                .map_err(|_| Exc::runtime_error("list busy"))?;
            let (start, step, count) = slice_indices(s, l.items.len())?;
            Ok(Value::list(pick(&l.items, start, step, count)?))
        }
        Value::Tuple(t) => {
            let (start, step, count) = slice_indices(s, t.items.len())?;
            if step == 1 && count == t.items.len() {
                return Ok(obj.clone());
            }
            Ok(Value::tuple(pick(&t.items, start, step, count)?))
        }
        Value::Str(st) => {
            let (start, step, count) = slice_indices(s, st.char_len())?;
            if st.is_ascii() {
                let bytes = st.as_str().as_bytes();
                if step == 1 {
                    let a = start as usize;
                    let text = st.as_str().get(a..a + count).unwrap_or("");
                    return Ok(Value::str(text));
                }
                let picked = pick(bytes, start, step, count)?;
                return Ok(Value::str(String::from_utf8_lossy(&picked).into_owned()));
            }
            // Walk the text instead of copying it into a char vector.
            let mut out = crate::value::meter::TextBuf::new();
            if count > 0 {
                let stride = step.unsigned_abs() as usize;
                if step > 0 {
                    let picked = st.as_str().chars().skip(start as usize).step_by(stride);
                    for c in picked.take(count) {
                        out.push(c)?;
                    }
                } else {
                    let from_end = st.char_len().saturating_sub(start as usize + 1);
                    let picked = st.as_str().chars().rev().skip(from_end).step_by(stride);
                    for c in picked.take(count) {
                        out.push(c)?;
                    }
                }
            }
            Ok(Value::str(out.into_string()))
        }
        Value::Bytes(b) => {
            let (start, step, count) = slice_indices(s, b.len())?;
            Ok(Value::Bytes(Rc::new(pick(b, start, step, count)?)))
        }
        Value::Range(r) => {
            let big = |v: &Option<Value>| -> R<Option<BigInt>> {
                match v {
                    None => Ok(None),
                    Some(v) => match as_int(v) {
                        Some(i) => Ok(Some(i.to_big())),
                        None => Err(Exc::type_error(
                            "slice indices must be integers or None or have an __index__ method",
                        )),
                    },
                }
            };
            let (lo, hi, step) = (big(&s.lo)?, big(&s.hi)?, big(&s.step)?);
            match r.slice(lo, hi, step) {
                Some(sliced) => Ok(Value::Range(Rc::new(sliced))),
                None => Err(Exc::value_error("slice step cannot be zero")),
            }
        }
        Value::Dict(_) => Err(Exc::type_error("unhashable type: 'slice'")),
        other => Err(Exc::type_error(format!(
            "'{}' object is not subscriptable",
            other.type_name()
        ))),
    }
}

/// `obj[idx] = v`.
pub(crate) fn set_item(it: &mut Interp, obj: &Value, idx: Value, v: Value) -> R<()> {
    match obj {
        Value::List(l) => {
            let container = v.is_container();
            {
                let mut lb = l
                    .try_borrow_mut()
                    .map_err(|_| Exc::runtime_error("list busy"))?;
                let n = lb.items.len();
                let j = match as_int(&idx) {
                    Some(i) => {
                        let i = i.to_i64().ok_or_else(|| {
                            Exc::index_error("cannot fit 'int' into an index-sized integer")
                        })?;
                        let j = if i < 0 { i + n as i64 } else { i };
                        if j < 0 || j >= n as i64 {
                            return Err(Exc::index_error("list assignment index out of range"));
                        }
                        j as usize
                    }
                    None => {
                        return Err(Exc::type_error(format!(
                            "list indices must be integers or slices, not {}",
                            idx.type_name()
                        )));
                    }
                };
                if let Some(slot) = lb.items.get_mut(j) {
                    *slot = v;
                }
            }
            if container {
                it.note_list_cycle(l);
            }
            Ok(())
        }
        Value::Dict(d) => {
            let container = v.is_container() || idx.is_container();
            let h = hash_value(&idx)?;
            d.try_borrow_mut()
                .map_err(|_| Exc::runtime_error("dict busy"))?
                .insert_h(idx, h, v);
            if container {
                it.note_dict_cycle(d);
            }
            Ok(())
        }
        other => Err(Exc::type_error(format!(
            "'{}' object does not support item assignment",
            other.type_name()
        ))),
    }
}

/// `obj[lo:hi:step] = v`.
pub(crate) fn set_slice(it: &mut Interp, obj: &Value, s: &SliceArgs, v: Value) -> R<()> {
    let Value::List(l) = obj else {
        return Err(Exc::type_error(format!(
            "'{}' object does not support item assignment",
            obj.type_name()
        )));
    };
    let items = match &v {
        Value::List(_)
        | Value::Tuple(_)
        | Value::Str(_)
        | Value::Dict(_)
        | Value::Set(_)
        | Value::Range(_)
        | Value::View(_)
        | Value::Iter(_)
        | Value::Bytes(_) => collect_iterable(it, &v)?.into_vec(),
        _ => return Err(Exc::type_error("can only assign an iterable")),
    };
    let container = items.iter().any(Value::is_container);
    {
        let mut lb = l
            .try_borrow_mut()
            .map_err(|_| Exc::runtime_error("list busy"))?;
        let n = lb.items.len();
        let (start, step, count) = slice_indices(s, n)?;
        if step == 1 {
            let a = start.clamp(0, n as i64) as usize;
            let b = (a + count).min(n);
            lb.items.splice(a..b, items);
        } else {
            if items.len() != count {
                return Err(Exc::value_error(format!(
                    "attempt to assign sequence of size {} to extended slice of size {}",
                    items.len(),
                    count
                )));
            }
            let mut i = start;
            for x in items {
                if let Some(slot) = lb.items.get_mut(i as usize) {
                    *slot = x;
                }
                i += step;
            }
        }
        lb.sync();
    }
    if container {
        it.note_list_cycle(l);
    }
    Ok(())
}

/// All items of an iterable, checking the budget as it goes.
///
/// This is how builtins drain an iterable: the buffer is charged and
/// checked before it grows, and every item ticks the meter, so a huge or
/// endless source ends with MemoryError or TimeoutError.
pub(crate) fn collect_iterable(_it: &mut Interp, v: &Value) -> R<Buf<Value>> {
    match v {
        Value::List(l) => {
            let Ok(l) = l.try_borrow() else {
                return Ok(Buf::new());
            };
            let mut out = Buf::with_capacity(l.items.len())?;
            out.extend_from_slice(&l.items)?;
            Ok(out)
        }
        Value::Tuple(t) => {
            let mut out = Buf::with_capacity(t.items.len())?;
            out.extend_from_slice(&t.items)?;
            Ok(out)
        }
        _ => {
            let mut iter = PyIter::of(v)?;
            if let Some(n) = iter.known_len() {
                crate::value::meter::ensure(n.saturating_mul(std::mem::size_of::<Value>()))?;
            }
            let mut out = Buf::with_capacity(iter.size_hint())?;
            while let Some(x) = iter.next()? {
                out.push(x)?;
            }
            Ok(out)
        }
    }
}

/// A new list value from items (charged to the budget).
pub(crate) fn new_list(items: Vec<Value>) -> Value {
    Value::List(Rc::new(std::cell::RefCell::new(List::new(items))))
}
