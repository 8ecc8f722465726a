//! Indexing: `obj[idx]` (assignment, which may note a reference cycle in
//! the interpreter, is [`crate::types::ops::set_item`]).

use num_bigint::BigInt;
use num_traits::Signed;

use crate::runtime::error::{Exc, R};
use crate::types::int::as_int;
use crate::value::Value;
use crate::value::char_value;

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
        return Err(Exc::index_error(if what == "index" {
            // Bytes (whose `what` is "index").
            "index out of range".to_owned()
        } else {
            format!("{what} index out of range")
        }));
    }
    Ok(j as usize)
}

fn unreachable_index(idx: &Value, what: &str) -> R<i64> {
    Err(match what {
        "string" => Exc::type_error(format!(
            "string indices must be integers, not '{}'",
            idx.type_name()
        )),
        // Bytes say "index out of range" but "byte indices".
        "index" => Exc::type_error(format!(
            "byte indices must be integers or slices, not {}",
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
            if let Value::Int(_, i) = idx {
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
            Ok(Value::int(b.get(j).copied().unwrap_or(0) as i64))
        }
        Value::Type(t) if crate::value::alias::subscriptable(*t) => {
            Ok(crate::value::alias::of(*t, idx))
        }
        other => Err(not_subscriptable(other)),
    }
}

/// The error of subscripting `obj`, in CPython's words for each kind.
#[cold]
pub(crate) fn not_subscriptable(obj: &Value) -> Box<crate::runtime::error::Exc> {
    match obj {
        Value::Type(t) => Exc::type_error(format!("type '{}' is not subscriptable", t.name())),
        Value::Alias(_) => match crate::value::repr::repr(obj) {
            Ok(r) => Exc::type_error(format!("{r} is not a generic class")),
            Err(e) => e,
        },
        other => Exc::type_error(format!(
            "'{}' object is not subscriptable",
            other.type_name()
        )),
    }
}
