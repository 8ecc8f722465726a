//! The `split`, `rsplit` and `splitlines` methods: their arguments
//! (read here for the method and for a loop that consumes a split
//! directly, `pieces.rs`) and the lists they return.

use crate::runtime::Budget;
use crate::runtime::error::{Exc, R};
use crate::syntax::catalog::MethodId as M;
use crate::types::args::{self, Kw, bind};
use crate::types::str::split::{Parts, split_lines, split_text};
use crate::value::{PyStr, StrRc, Value};

pub(super) fn split(budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    split_as(M::Split, budget, s, args, kwargs)
}

pub(super) fn rsplit(budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    split_as(M::Rsplit, budget, s, args, kwargs)
}

/// `split` or `rsplit` (`id`).
pub(super) fn split_as(
    id: M,
    budget: &mut Budget,
    s: &StrRc,
    args: &[Value],
    kwargs: Kw,
) -> R<Value> {
    let (sep, maxsplit) = split_args(id, args, kwargs)?;
    let mut parts = Parts::new(s.is_ascii());
    split_text(
        s.as_str(),
        sep.as_deref().map(PyStr::as_str),
        maxsplit,
        id == M::Rsplit,
        &mut parts,
    )?;
    budget.check_memory(parts.len() * 64)?;
    Ok(Value::list(parts.into_values()?))
}

/// The separator and `maxsplit` of a `split` or `rsplit` (`id`) call,
/// checked (the separator's emptiness is checked by the split).
#[inline(always)]
pub(super) fn split_args(id: M, args: &[Value], kwargs: Kw) -> R<(Option<StrRc>, i64)> {
    let bound;
    // Positional arguments need no binding (and no allocation).
    let (sep, maxsplit) = if kwargs.is_empty() && args.len() <= 2 {
        (args.first(), args.get(1))
    } else {
        bound = bind(id.name(), args, kwargs, &["sep", "maxsplit"], 0)?;
        (
            bound.first().and_then(Option::as_ref),
            bound.get(1).and_then(Option::as_ref),
        )
    };
    let sep = match sep {
        None | Some(Value::None) => None,
        Some(Value::Str(x)) => Some(x.clone()),
        Some(other) => {
            return Err(Exc::type_error(format!(
                "must be str or None, not {}",
                other.type_name()
            )));
        }
    };
    let maxsplit = match maxsplit {
        None => -1,
        Some(v) => args::index(v)?,
    };
    Ok((sep, maxsplit))
}

pub(super) fn splitlines(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    let keep = keepends_arg(args, kwargs)?;
    let mut parts = Parts::new(s.is_ascii());
    split_lines(s.as_str(), keep, &mut parts)?;
    Ok(Value::list(parts.into_values()?))
}

/// The `keepends` argument of a `splitlines` call, checked.
pub(super) fn keepends_arg(args: &[Value], kwargs: Kw) -> R<bool> {
    let b = bind("splitlines", args, kwargs, &["keepends"], 0)?;
    // An int-like flag, as a C int (CPython's converter).
    match b.first().and_then(Option::as_ref) {
        None => Ok(false),
        Some(v) => match crate::types::int::as_int(v) {
            Some(i) => match i.to_i64().and_then(|i| i32::try_from(i).ok()) {
                Some(i) => Ok(i != 0),
                None => Err(Exc::overflow("Python int too large to convert to C int")),
            },
            None => Err(Exc::not_index(v)),
        },
    }
}
