//! Python `==` between values.
//!
//! Numbers compare across int, float and bool exactly (no rounding through
//! f64); containers compare item by item with CPython's identity shortcut, so
//! a list that contains itself equals itself. Nesting past a bound raises
//! RecursionError instead of overflowing the Rust stack. Dict keys and
//! items views compare as sets, CPython's way (`dictobject.c`): membership
//! looks a key up (an items view then compares the value), and comparison
//! tests members one at a time, so it stops at the first answer.

use std::cmp::Ordering;

use super::{PyIter, Value, View, ViewKind};
use crate::runtime::error::{Exc, R};
use crate::types::int::{as_int, cmp_int_float};

const MAX_DEPTH: u32 = 500;

/// Python `a == b`.
pub(crate) fn py_eq(a: &Value, b: &Value) -> R<bool> {
    eq_at(a, b, 0)
}

/// Item equality as containers use it: identity first, then `==`.
#[inline]
pub(crate) fn item_eq(a: &Value, b: &Value, depth: u32) -> R<bool> {
    // Each visited element is work: shared structure (a DAG compared with
    // another) visits exponentially many, so this is where it is bounded.
    crate::runtime::meter::tick()?;
    // CPython's `PyObject_RichCompare(.., Py_EQ)` inside containers: the
    // same object is equal, a NaN included (floats carry identity).
    if a.is_same(b) {
        return Ok(true);
    }
    eq_at(a, b, depth)
}

pub(crate) fn eq_at(a: &Value, b: &Value, depth: u32) -> R<bool> {
    match (a, b) {
        (Value::Int(_, x), Value::Int(_, y)) => Ok(x == y),
        (Value::Str(x), Value::Str(y)) => Ok(x.as_str() == y.as_str()),
        (Value::Float(_, x), Value::Float(_, y)) => Ok(x.get() == y.get()),
        (Value::None, Value::None) => Ok(true),
        (Value::Complex(x), Value::Complex(y)) => Ok(x.0 == y.0 && x.1 == y.1),
        (Value::Complex(c), other) | (other, Value::Complex(c)) => {
            if c.1 != 0.0 {
                return Ok(false);
            }
            match other {
                Value::Float(_, f) => Ok(c.0 == f.get()),
                _ => match as_int(other) {
                    Some(i) => Ok(cmp_int_float(&i, c.0) == Some(Ordering::Equal)),
                    None => Ok(false),
                },
            }
        }
        (Value::Float(_, f), other) | (other, Value::Float(_, f)) => match as_int(other) {
            Some(i) => Ok(cmp_int_float(&i, f.get()) == Some(Ordering::Equal)),
            None => Ok(false),
        },
        (
            Value::Bool(_) | Value::Int(_, _) | Value::Big(_),
            Value::Bool(_) | Value::Int(_, _) | Value::Big(_),
        ) => match (as_int(a), as_int(b)) {
            (Some(x), Some(y)) => Ok(match (x.to_i64(), y.to_i64()) {
                (Some(x), Some(y)) => x == y,
                (None, None) => x.to_big() == y.to_big(),
                _ => false,
            }),
            _ => Ok(false),
        },
        (Value::Bytes(x), Value::Bytes(y)) => Ok(x == y),
        (Value::List(x), Value::List(y)) => {
            if std::rc::Rc::ptr_eq(x, y) {
                return Ok(true);
            }
            guard(depth)?;
            let (Ok(x), Ok(y)) = (x.try_borrow(), y.try_borrow()) else {
                return Ok(false);
            };
            seq_eq(&x.items, &y.items, depth)
        }
        (Value::Tuple(x), Value::Tuple(y)) => {
            if super::TupleRc::ptr_eq(x, y) {
                return Ok(true);
            }
            guard(depth)?;
            seq_eq(&x.items, &y.items, depth)
        }
        (Value::Dict(x), Value::Dict(y)) => {
            if std::rc::Rc::ptr_eq(x, y) {
                return Ok(true);
            }
            guard(depth)?;
            let (Ok(x), Ok(y)) = (x.try_borrow(), y.try_borrow()) else {
                return Ok(false);
            };
            if x.len() != y.len() {
                return Ok(false);
            }
            for (k, v) in x.iter() {
                match y.get(k)? {
                    Some(w) => {
                        if !item_eq(v, w, depth + 1)? {
                            return Ok(false);
                        }
                    }
                    None => return Ok(false),
                }
            }
            Ok(true)
        }
        (Value::Set(x), Value::Set(y)) => {
            if std::rc::Rc::ptr_eq(x, y) {
                return Ok(true);
            }
            let (Ok(x), Ok(y)) = (x.try_borrow(), y.try_borrow()) else {
                return Ok(false);
            };
            if x.len() != y.len() {
                return Ok(false);
            }
            for k in x.iter() {
                crate::runtime::meter::tick()?;
                if !y.contains(k)? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
        (Value::View(v), _) | (_, Value::View(v)) if v.kind != ViewKind::Values => {
            // Keys and items views compare as sets, member by member.
            view_eq(a, b)
        }
        (Value::Range(x), Value::Range(y)) => Ok(x.same_items(y)),
        (Value::Alias(x), Value::Alias(y)) => {
            guard(depth)?;
            Ok(x.origin == y.origin && seq_eq(&x.args, &y.args, depth)?)
        }
        _ => Ok(a.is_same(b)),
    }
}

fn guard(depth: u32) -> R<()> {
    if depth > MAX_DEPTH || crate::runtime::stack::exhausted() {
        Err(Exc::recursion(
            "maximum recursion depth exceeded in comparison",
        ))
    } else {
        Ok(())
    }
}

// Kept out of line: the scalar cases of `eq_at` (dict lookups) stay small.
#[inline(never)]
fn seq_eq(x: &[Value], y: &[Value], depth: u32) -> R<bool> {
    if x.len() != y.len() {
        return Ok(false);
    }
    for (a, b) in x.iter().zip(y) {
        let same = match (a, b) {
            (Value::Int(_, p), Value::Int(_, q)) => p == q,
            (Value::Str(p), Value::Str(q)) => p.as_str() == q.as_str(),
            _ => item_eq(a, b, depth + 1)?,
        };
        if !same {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The RuntimeError of a dict changed while a view is walked.
fn busy() -> Box<Exc> {
    Exc::runtime_error("dict changed size during iteration")
}

/// `item in view` for a keys or items view.
pub(crate) fn view_contains(v: &View, item: &Value) -> R<bool> {
    let d = v.dict.try_borrow().map_err(|_| busy())?;
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
            // The key is looked up: an unhashable one is an error.
            match d.get(k)? {
                Some(x) => item_eq(x, val, 0),
                None => Ok(false),
            }
        }
    }
}

/// Whether `v` is a set or a keys or items view (what view comparisons
/// accept), and its length.
pub(crate) fn set_like_len(v: &Value) -> Option<usize> {
    match v {
        Value::Set(s) => s.try_borrow().ok().map(|s| s.len()),
        Value::View(w) if w.kind != ViewKind::Values => w.dict.try_borrow().ok().map(|d| d.len()),
        _ => None,
    }
}

/// `item in container` for a set or a view.
pub(crate) fn contained(item: &Value, container: &Value) -> R<bool> {
    match container {
        Value::Set(s) => s.try_borrow().map_err(|_| busy())?.contains(item),
        Value::View(w) => view_contains(w, item),
        _ => Ok(false),
    }
}

/// Whether every member of `a` is in `b` (both sets or views).
pub(crate) fn all_contained_in(a: &Value, b: &Value) -> R<bool> {
    let mut items = PyIter::of(a)?;
    while let Some(x) = items.next()? {
        if !contained(&x, b)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// `a == b` where one side is a keys or items view: both set-like, of one
/// length, and every member of `a` in `b`.
pub(crate) fn view_eq(a: &Value, b: &Value) -> R<bool> {
    match (set_like_len(a), set_like_len(b)) {
        (Some(n), Some(m)) => Ok(n == m && all_contained_in(a, b)?),
        _ => Ok(false),
    }
}
