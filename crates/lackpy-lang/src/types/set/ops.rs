//! `-` of sets and of dict key and item views (set difference).

use crate::runtime::error::{Exc, R};
use crate::syntax::ast::Operator;
use crate::types::ops::arith::arith;
use crate::value::iter::PyIter;
use crate::value::{Set, Value, ViewKind};

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
            let mine = Set::from_view(v)?;
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
