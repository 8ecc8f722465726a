//! `str.join`.

use crate::runtime::Budget;
use crate::runtime::error::{Exc, R};
use crate::runtime::meter::{self, Buf};
use crate::types::args::{Kw, one};
use crate::types::str::StrBuilder;
use crate::value::PyIter;
use crate::value::{StrRc, Value};

pub(super) fn join(budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    let arg = one("str.join", args, kwargs)?;
    join_items(budget, s.as_str(), arg)
}

pub(super) fn join_items(budget: &mut Budget, sep: &str, arg: &Value) -> R<Value> {
    match arg {
        // A list or tuple is read in place: no copy of its items.
        Value::List(l) => join_slice(budget, sep, &l.borrow().items),
        Value::Tuple(t) => join_slice(budget, sep, &t.items),
        other => {
            let mut iter =
                PyIter::of(other).map_err(|_| Exc::type_error("can only join an iterable"))?;
            let mut out = Buf::new();
            while let Some(x) = iter.next()? {
                out.push(x)?;
            }
            join_slice(budget, sep, &out)
        }
    }
}

/// Joins `items` (all str) with `sep` into a string sized exactly once.
pub(super) fn join_slice(budget: &mut Budget, sep: &str, items: &[Value]) -> R<Value> {
    let mut total = sep.len().saturating_mul(items.len().saturating_sub(1));
    let sep_chars = if sep.is_ascii() {
        sep.len()
    } else {
        sep.chars().count()
    };
    let mut nchars = sep_chars.saturating_mul(items.len().saturating_sub(1));
    for (i, x) in items.iter().enumerate() {
        match x {
            Value::Str(s) => {
                total = total.saturating_add(s.as_str().len());
                nchars = nchars.saturating_add(s.char_len());
            }
            other => {
                return Err(Exc::type_error(format!(
                    "sequence item {i}: expected str instance, {} found",
                    other.type_name()
                )));
            }
        }
    }
    if let [Value::Str(only)] = items {
        return Ok(Value::Str(only.clone()));
    }
    budget.check_memory(total)?;
    meter::tick_n(items.len())?;
    let mut out = StrBuilder::with_len(total);
    // Every item was checked to be a str above.
    out.push_joined(
        sep,
        items.iter().map(|x| match x {
            Value::Str(s) => s.as_str(),
            _ => "",
        }),
    );
    // The length in code points is the sum of the parts': no rescan.
    Ok(Value::Str(StrRc::new(out.finish(nchars))))
}
