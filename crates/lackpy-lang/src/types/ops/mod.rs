//! Operators, with Python's semantics and error texts, one concern per
//! file: the dispatch of `a op b` ([`binop`]), numeric arithmetic
//! ([`arith`]; big ints are `types/int/big.rs`), which type's `+` and `*`
//! of sequences runs ([`sequence`]), comparison ([`compare`]), membership ([`contains`]),
//! indexing ([`index`], [`set_item`]), slicing ([`slice`]) and the unary
//! operators ([`unary`]); here, what they share.

pub(crate) mod arith;
mod binop;
mod compare;
mod contains;
mod index;
mod sequence;
mod set_item;
mod slice;
mod unary;

use std::rc::Rc;

use crate::runtime::error::{Exc, R};
use crate::runtime::meter::Buf;
pub(crate) use crate::types::ops::arith::{float_divmod, int_fast, is_numeric_op};
pub(crate) use crate::types::ops::binop::{binop, inplace};
pub(crate) use crate::types::ops::compare::{compare, lt, order, ordered};
pub(crate) use crate::types::ops::contains::{contains, range_contains, seq_scan};
pub(crate) use crate::types::ops::index::get_item;
pub(crate) use crate::types::ops::set_item::set_item;
pub(crate) use crate::types::ops::slice::{SliceArgs, get_slice, set_slice};
pub(crate) use crate::types::ops::unary::unary;
use crate::value::PyIter;
use crate::value::{List, Value};

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

/// All items of an iterable, checking the budget as it goes.
///
/// This is how builtins drain an iterable: the buffer is charged and
/// checked before it grows, and every item ticks the meter, so a huge or
/// endless source ends with MemoryError or TimeoutError.
pub(crate) fn collect_iterable(v: &Value) -> R<Buf<Value>> {
    match v {
        Value::List(l) => {
            let Ok(l) = l.try_borrow() else {
                return Ok(Buf::new());
            };
            Ok(Buf::adopt(crate::value::bulk::copied(&l.items)?))
        }
        Value::Tuple(t) => Ok(Buf::adopt(crate::value::bulk::copied(&t.items)?)),
        _ => {
            let mut iter = PyIter::of(v)?;
            if let Some(n) = iter.known_len() {
                crate::runtime::meter::ensure(n.saturating_mul(std::mem::size_of::<Value>()))?;
            }
            let n = iter.size_hint();
            crate::runtime::meter::ensure(n.saturating_mul(std::mem::size_of::<Value>()))?;
            let mut out = Buf::adopt(crate::value::pool::values(n));
            iter.drain_into(&mut out)?;
            Ok(out)
        }
    }
}

/// A new list value from items (charged to the budget).
pub(crate) fn new_list(items: Vec<Value>) -> Value {
    Value::List(Rc::new(std::cell::RefCell::new(List::new(items))))
}
