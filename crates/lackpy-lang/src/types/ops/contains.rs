//! Membership: `item in container`.

use crate::runtime::error::{Exc, R};
use crate::runtime::meter;
use crate::types::int::as_int;
use crate::value::PyIter;
use crate::value::eq::item_eq;
use crate::value::{Range, Value};

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
            seq_contains(&l.items, item)
        }
        Value::Tuple(t) => seq_contains(&t.items, item),
        Value::Dict(d) => d
            .try_borrow()
            .map_err(|_| Exc::runtime_error("dict busy"))?
            .contains(item),
        // CPython looks a set up as a frozenset, which no set here can
        // hold (there is no frozenset type).
        Value::Set(_) if matches!(item, Value::Set(_)) => Ok(false),
        Value::Set(s) => s
            .try_borrow()
            .map_err(|_| Exc::runtime_error("set busy"))?
            .contains(item),
        Value::View(v) => crate::value::eq::view_contains(v, item),
        Value::Range(r) => Ok(range_contains(r, item)),
        Value::Bytes(b) => match item {
            Value::Bytes(x) => Ok(memchr::memmem::find(b, x).is_some()),
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

/// `item in items` for a list's or tuple's items, in place. A small int
/// or a string is matched against items of its own kind directly (a str
/// equals only a str; an int may equal a bool, float or complex too, which
/// take the general `==`).
fn seq_contains(items: &[Value], item: &Value) -> R<bool> {
    let mut found = false;
    seq_scan(items, item, |_| {
        found = true;
        false
    })?;
    Ok(found)
}

/// Walks the items of `items` equal to `item` (Python `==`, as `in`,
/// `list.index`, `list.count` and `list.remove` compare), handing each
/// one's index to `hit` until it answers `false`. An int or str needle is
/// compared inline against the items of the kinds that can equal it (an
/// int never equals a str, `None` or a sequence; a str equals only a str),
/// and the budget is ticked per block of items; any other item goes
/// through [`item_eq`] (which ticks per item).
pub(crate) fn seq_scan(items: &[Value], item: &Value, mut hit: impl FnMut(usize) -> bool) -> R<()> {
    match item {
        Value::Int(_, i) => {
            for (n, x) in items.iter().enumerate() {
                let eq = match x {
                    Value::Int(_, j) => i == j,
                    Value::Str(_) | Value::None | Value::Tuple(_) | Value::List(_) => false,
                    _ => item_eq(x, item, 0)?,
                };
                if eq && !hit(n) {
                    return Ok(());
                }
                if n % 1024 == 1023 {
                    meter::tick_n(1024)?;
                }
            }
        }
        Value::Str(s) => {
            for (n, x) in items.iter().enumerate() {
                if let Value::Str(t) = x
                    && s.as_str() == t.as_str()
                    && !hit(n)
                {
                    return Ok(());
                }
                if n % 1024 == 1023 {
                    meter::tick_n(1024)?;
                }
            }
        }
        _ => {
            for (n, x) in items.iter().enumerate() {
                if item_eq(x, item, 0)? && !hit(n) {
                    return Ok(());
                }
            }
        }
    }
    Ok(())
}

/// `item in r` for a range.
pub(crate) fn range_contains(r: &Range, item: &Value) -> bool {
    if let (Range::Small { start, stop, step }, Value::Int(_, i)) = (r, item) {
        let (start, stop, step, i) = (*start as i128, *stop as i128, *step as i128, *i as i128);
        let inside = if step > 0 {
            i >= start && i < stop
        } else {
            i <= start && i > stop
        };
        return inside && (i - start) % step == 0;
    }
    let i = match item {
        Value::Float(_, f) => match crate::types::int::f64_to_int(f.get()) {
            Some(v) if f.get().fract() == 0.0 => match as_int(&v) {
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
