//! Comparison: `==`, `!=`, `is`, `in` and the orderings `<`, `<=`, `>`,
//! `>=`, with Python's semantics and error texts.

use std::cmp::Ordering;

use crate::runtime::error::{Exc, R};
use crate::runtime::meter;
use crate::syntax::ast::CmpOp;
use crate::types::int::{as_int, cmp_int_float};
use crate::types::ops::contains;
use crate::value::eq::{item_eq, py_eq};
use crate::value::{Set, Value, ViewKind};

/// `x op y` for an order comparison; `None` for `is`/`in` and their
/// negations. For floats these are IEEE comparisons: NaN is unequal and
/// unordered, as in Python.
#[inline(always)]
pub(crate) fn ordered<T: PartialOrd>(op: CmpOp, x: T, y: T) -> Option<bool> {
    Some(match op {
        CmpOp::Eq => x == y,
        CmpOp::NotEq => x != y,
        CmpOp::Lt => x < y,
        CmpOp::LtE => x <= y,
        CmpOp::Gt => x > y,
        CmpOp::GtE => x >= y,
        _ => return None,
    })
}

/// A comparison operator applied to two values.
pub(crate) fn compare(op: CmpOp, a: &Value, b: &Value) -> R<bool> {
    // Two small ints or two floats: the answer at once, for every operator
    // but the containment and identity ones.
    match (a, b) {
        (Value::Int(_, x), Value::Int(_, y)) => {
            if let Some(r) = ordered(op, x, y) {
                return Ok(r);
            }
        }
        (Value::Float(_, x), Value::Float(_, y)) => {
            if let Some(r) = ordered(op, x.get(), y.get()) {
                return Ok(r);
            }
        }
        _ => {}
    }
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
    if let (Value::Int(_, x), Value::Int(_, y)) = (a, b) {
        return Ok(x < y);
    }
    if let (Value::Str(x), Value::Str(y)) = (a, b) {
        return Ok(x.as_str() < y.as_str());
    }
    if let (Value::Float(_, x), Value::Float(_, y)) = (a, b) {
        return Ok(x.get() < y.get());
    }
    order(CmpOp::Lt, a, b, 0)
}

/// `<`, `<=`, `>`, `>=`.
pub(crate) fn order(op: CmpOp, a: &Value, b: &Value, depth: u32) -> R<bool> {
    match (a, b) {
        (Value::Int(_, x), Value::Int(_, y)) => return Ok(apply(op, x.cmp(y))),
        (Value::Float(_, x), Value::Float(_, y)) => {
            let (x, y) = (x.get(), y.get());
            return Ok(match op {
                CmpOp::Lt => x < y,
                CmpOp::LtE => x <= y,
                CmpOp::Gt => x > y,
                _ => x >= y,
            });
        }
        (Value::Str(x), Value::Str(y)) => return Ok(apply(op, x.as_str().cmp(y.as_str()))),
        (Value::Bytes(x), Value::Bytes(y)) => return Ok(apply(op, x.as_slice().cmp(y.as_slice()))),
        (Value::Float(_, f), other) | (other, Value::Float(_, f)) => {
            let Some(i) = as_int(other) else {
                return Err(not_supported(op, a, b));
            };
            let Some(o) = cmp_int_float(&i, f.get()) else {
                return Ok(false);
            };
            let o = if matches!(a, Value::Float(..)) {
                o.reverse()
            } else {
                o
            };
            return Ok(apply(op, o));
        }
        (Value::List(_), Value::List(_)) | (Value::Tuple(_), Value::Tuple(_)) => {
            if depth > 500 || crate::runtime::stack::exhausted() {
                return Err(Exc::recursion(
                    "maximum recursion depth exceeded in comparison",
                ));
            }
            // Item by item in place: neither sequence nor any item is copied
            // (no program code runs in a comparison, so a borrowed list
            // cannot change under it).
            return match (a, b) {
                (Value::Tuple(x), Value::Tuple(y)) => seq_order(op, &x.items, &y.items, depth),
                (Value::List(x), Value::List(y)) => match (x.try_borrow(), y.try_borrow()) {
                    (Ok(x), Ok(y)) => seq_order(op, &x.items, &y.items, depth),
                    _ => Ok(apply(op, Ordering::Equal)),
                },
                _ => Ok(false),
            };
        }
        (Value::View(_), Value::Set(_) | Value::View(_)) | (Value::Set(_), Value::View(_)) => {
            use crate::value::eq::{all_contained_in, set_like_len};
            let (Some(n), Some(m)) = (set_like_len(a), set_like_len(b)) else {
                return Err(not_supported(op, a, b));
            };
            return Ok(match op {
                CmpOp::Lt => n < m && all_contained_in(a, b)?,
                CmpOp::LtE => n <= m && all_contained_in(a, b)?,
                CmpOp::Gt => n > m && all_contained_in(b, a)?,
                _ => n >= m && all_contained_in(b, a)?,
            });
        }
        (Value::Set(_), Value::Set(_)) => {
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
        Value::View(view) if view.kind != ViewKind::Values => {
            Some(crate::types::set::ops::from_view(view)?)
        }
        _ => None,
    })
}

/// `op` between two sequences: at the first items that are not equal,
/// `op` between them; with none, `op` between the lengths.
fn seq_order(op: CmpOp, x: &[Value], y: &[Value], depth: u32) -> R<bool> {
    for (p, q) in x.iter().zip(y) {
        match (p, q) {
            // The inline cases are work too (a sort of long int rows).
            (Value::Int(_, i), Value::Int(_, j)) => {
                meter::tick()?;
                if i != j {
                    return Ok(apply(op, i.cmp(j)));
                }
            }
            (Value::Str(i), Value::Str(j)) => {
                meter::tick()?;
                let o = i.as_str().cmp(j.as_str());
                if o != Ordering::Equal {
                    return Ok(apply(op, o));
                }
            }
            _ => {
                if !item_eq(p, q, depth + 1)? {
                    return order(op, p, q, depth + 1);
                }
            }
        }
    }
    Ok(apply(op, x.len().cmp(&y.len())))
}
