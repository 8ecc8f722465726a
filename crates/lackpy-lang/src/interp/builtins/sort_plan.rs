//! The pre-sort check: one pass over the keys decides whether every pair of
//! them is comparable under a total order, and which comparator serves.
//!
//! When it is, no comparison can raise and `<` agrees with a total order,
//! so any stable sort gives exactly the order CPython's sort gives, and the
//! keys are compared in place by a typed comparator (no `Result`, no copies
//! of tuple items). Anything else (NaN, types that do not compare, nesting
//! past a bound) is left to the general sort, which asks Python's `<`.

use std::cmp::Ordering;

use crate::value::Value;
use crate::value::int::{as_int, cmp_int_float};

/// Nesting of tuples and lists the check follows before giving up.
const MAX_DEPTH: u32 = 16;

/// What every key at one place is, merged over all keys.
#[derive(Debug)]
enum Shape {
    /// No key seen here yet.
    Nothing,
    /// Small ints only.
    Int,
    /// Floats only, none NaN.
    Float,
    /// Ints (any size), bools and non-NaN floats mixed.
    Num,
    /// Strings.
    Str,
    /// Tuples, with the shape of each position.
    Tuple(Vec<Shape>),
    /// Lists, with the shape of each position.
    List(Vec<Shape>),
}

/// The comparator a sort may use for its keys.
pub(super) enum Plan {
    /// Every key is an `i64`.
    Ints,
    /// Every key is a non-NaN float.
    Floats,
    /// Every key is a string.
    Strs,
    /// Every pair of keys compares under [`total_cmp`].
    Total,
    /// Some pair may raise or compare outside a total order.
    General,
}

/// Decides the plan for `keys`.
pub(super) fn plan(keys: &[Value]) -> Plan {
    // The common homogeneous cases in one quick pass.
    match keys.first() {
        Some(Value::Int(_)) if keys.iter().all(|k| matches!(k, Value::Int(_))) => {
            return Plan::Ints;
        }
        Some(Value::Str(_)) if keys.iter().all(|k| matches!(k, Value::Str(_))) => {
            return Plan::Strs;
        }
        _ => {}
    }
    let mut shape = Shape::Nothing;
    for k in keys {
        if !merge(&mut shape, k, 0) {
            return Plan::General;
        }
    }
    match shape {
        Shape::Int => Plan::Ints,
        Shape::Float => Plan::Floats,
        Shape::Str => Plan::Strs,
        _ => Plan::Total,
    }
}

/// Merges one value into the shape at its place; `false` when the value
/// may not compare with the others (or cannot be proven to).
fn merge(shape: &mut Shape, v: &Value, depth: u32) -> bool {
    match (&mut *shape, v) {
        (Shape::Int, Value::Int(_))
        | (Shape::Str, Value::Str(_))
        | (Shape::Num, Value::Int(_) | Value::Bool(_) | Value::Big(_)) => true,
        (Shape::Float | Shape::Num, Value::Float(f)) => !f.get().is_nan(),
        (Shape::Tuple(items), Value::Tuple(t)) => merge_items(items, &t.items, depth),
        (Shape::List(items), Value::List(l)) => match l.try_borrow() {
            Ok(l) => merge_items(items, &l.items, depth),
            Err(_) => false,
        },
        (
            Shape::Int | Shape::Float,
            Value::Int(_) | Value::Bool(_) | Value::Big(_) | Value::Float(..),
        ) => {
            *shape = Shape::Num;
            merge(shape, v, depth)
        }
        (Shape::Nothing, _) => match v {
            Value::Int(_) => {
                *shape = Shape::Int;
                true
            }
            Value::Float(f) => {
                *shape = Shape::Float;
                !f.get().is_nan()
            }
            Value::Bool(_) | Value::Big(_) => {
                *shape = Shape::Num;
                true
            }
            Value::Str(_) => {
                *shape = Shape::Str;
                true
            }
            Value::Tuple(_) => {
                *shape = Shape::Tuple(Vec::new());
                merge(shape, v, depth)
            }
            Value::List(_) => {
                *shape = Shape::List(Vec::new());
                merge(shape, v, depth)
            }
            _ => false,
        },
        _ => false,
    }
}

fn merge_items(shapes: &mut Vec<Shape>, items: &[Value], depth: u32) -> bool {
    if depth >= MAX_DEPTH || crate::value::stack::exhausted() {
        return false;
    }
    for (i, item) in items.iter().enumerate() {
        if shapes.len() <= i {
            shapes.push(Shape::Nothing);
        }
        let Some(s) = shapes.get_mut(i) else {
            return false;
        };
        if !merge(s, item, depth + 1) {
            return false;
        }
    }
    true
}

/// The order of two keys that [`plan`] found comparable: Python's `<`
/// made total. Tuples and lists are walked in place, item by item.
pub(super) fn total_cmp(a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => x.cmp(y),
        (Value::Str(x), Value::Str(y)) => x.as_str().cmp(y.as_str()),
        (Value::Float(x), Value::Float(y)) => {
            x.get().partial_cmp(&y.get()).unwrap_or(Ordering::Equal)
        }
        (Value::Tuple(x), Value::Tuple(y)) => seq_cmp(&x.items, &y.items),
        (Value::List(x), Value::List(y)) => match (x.try_borrow(), y.try_borrow()) {
            (Ok(x), Ok(y)) => seq_cmp(&x.items, &y.items),
            _ => Ordering::Equal,
        },
        (Value::Float(f), other) => match as_int(other) {
            Some(i) => cmp_int_float(&i, f.get()).map_or(Ordering::Equal, Ordering::reverse),
            None => Ordering::Equal,
        },
        (other, Value::Float(f)) => match as_int(other) {
            Some(i) => cmp_int_float(&i, f.get()).unwrap_or(Ordering::Equal),
            None => Ordering::Equal,
        },
        _ => match (as_int(a), as_int(b)) {
            (Some(x), Some(y)) => match (x.to_i64(), y.to_i64()) {
                (Some(x), Some(y)) => x.cmp(&y),
                _ => x.to_big().cmp(&y.to_big()),
            },
            _ => Ordering::Equal,
        },
    }
}

fn seq_cmp(x: &[Value], y: &[Value]) -> Ordering {
    for (p, q) in x.iter().zip(y) {
        let o = total_cmp(p, q);
        if o != Ordering::Equal {
            return o;
        }
    }
    x.len().cmp(&y.len())
}
