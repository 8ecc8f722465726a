//! Dict key and item views as sets, the way CPython's `dictobject.c`
//! treats them: membership looks a key up (an items view then compares the
//! value), and comparisons and `isdisjoint` test members one at a time, so
//! they stop at the first answer and never hash what they need not.

/// Which view of a dict.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum ViewKind {
    Keys,
    Values,
    Items,
}

/// A live view of a dict.
pub(crate) struct View {
    pub dict: Rc<RefCell<Dict>>,
    pub kind: ViewKind,
}

use crate::value::eq::item_eq;
use crate::value::iter::PyIter;
use std::cell::RefCell;
use std::rc::Rc;

use super::Dict;
use crate::runtime::error::{Exc, R};
use crate::value::Value;

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
fn contained(item: &Value, container: &Value) -> R<bool> {
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

/// `view.isdisjoint(other)`: the smaller of two set-likes is walked, any
/// other iterable is walked against the view.
pub(crate) fn isdisjoint(view: &Value, other: &Value) -> R<bool> {
    let (walk, probe) = match (set_like_len(view), set_like_len(other)) {
        (Some(n), Some(m)) if m > n => (view, other),
        _ => (other, view),
    };
    let mut items = PyIter::of(walk)?;
    while let Some(x) = items.next()? {
        if contained(&x, probe)? {
            return Ok(false);
        }
    }
    Ok(true)
}
