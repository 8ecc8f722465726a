//! `-` of sets and of dict key and item views (set difference).

use crate::runtime::error::{Exc, R};
use crate::syntax::ast::Operator;
use crate::types::ops::arith::arith;
use crate::value::PyIter;
use crate::value::{Set, Value, View, ViewKind};

/// `a - b` for sets and dict views; anything else is arithmetic.
pub(crate) fn sub(a: Value, b: Value) -> R<Value> {
    match (&a, &b) {
        (Value::Set(x), Value::Set(y)) => {
            let (Ok(x), Ok(y)) = (x.try_borrow(), y.try_borrow()) else {
                return Err(Exc::runtime_error("set changed during operation"));
            };
            Ok(Value::set(crate::types::set::methods::difference(&x, &y)))
        }
        (Value::View(v), other) if v.kind != ViewKind::Values => {
            let mine = from_view(v)?;
            let mut out = mine.copy();
            let mut items = PyIter::of(other)?;
            while let Some(i) = items.next()? {
                out.discard(&i)?;
            }
            Ok(Value::set(out))
        }
        // `x - view` for any iterable `x` is `set(x)` less the view's
        // members (CPython's `dictviews_sub` answers the reflected call).
        (other, Value::View(v)) if v.kind != ViewKind::Values => {
            let mut out = Set::new();
            let mut items = PyIter::of(other)?;
            while let Some(i) = items.next()? {
                out.add(i)?;
            }
            let mut theirs = PyIter::of(&b)?;
            while let Some(i) = theirs.next()? {
                out.discard(&i)?;
            }
            Ok(Value::set(out))
        }
        _ => arith(Operator::Sub, &a, &b),
    }
}

/// The members of a keys or items view, as a new set.
pub(crate) fn from_view(v: &View) -> R<Set> {
    let mut s = Set::new();
    let Ok(d) = v.dict.try_borrow() else {
        return Ok(s);
    };
    // A temporary as big as the dict: checked before it is built.
    crate::runtime::meter::ensure(d.len().saturating_mul(
        4 * std::mem::size_of::<u32>() + std::mem::size_of::<crate::types::set::Entry<Value>>(),
    ))?;
    match v.kind {
        ViewKind::Keys => {
            s.reserve_for_dict(d.len());
            for (k, h) in d.iter_hashed() {
                s.add_h(k.clone(), h);
            }
        }
        _ => {
            for (k, val) in d.iter() {
                s.add(Value::pair(k.clone(), val.clone()))?;
            }
        }
    }
    Ok(s)
}
