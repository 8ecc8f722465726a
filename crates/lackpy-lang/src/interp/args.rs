//! Argument checking for builtins and methods, with CPython's messages.
//!
//! CPython words arity errors differently depending on how a function is
//! implemented; each helper here produces one of those wordings.

use std::rc::Rc;

use crate::value::Value;
use crate::value::errors::{Exc, R};
use crate::value::int::as_int;

/// Keyword arguments as passed to builtins.
pub(crate) type Kw<'a> = &'a [(Rc<str>, Value)];

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// `len() takes no keyword arguments`.
pub(crate) fn no_kwargs(name: &str, kwargs: Kw) -> R<()> {
    if kwargs.is_empty() {
        Ok(())
    } else {
        Err(Exc::type_error(format!(
            "{name}() takes no keyword arguments"
        )))
    }
}

/// `str.upper() takes no arguments (1 given)`.
pub(crate) fn none(qual: &str, args: &[Value], kwargs: Kw) -> R<()> {
    no_kwargs(qual, kwargs)?;
    if args.is_empty() {
        Ok(())
    } else {
        Err(Exc::type_error(format!(
            "{qual}() takes no arguments ({} given)",
            args.len()
        )))
    }
}

/// `list.append() takes exactly one argument (0 given)`.
#[inline]
pub(crate) fn one<'a>(qual: &str, args: &'a [Value], kwargs: Kw) -> R<&'a Value> {
    no_kwargs(qual, kwargs)?;
    match args {
        [a] => Ok(a),
        _ => Err(Exc::type_error(format!(
            "{qual}() takes exactly one argument ({} given)",
            args.len()
        ))),
    }
}

/// `insert expected 2 arguments, got 1` / `pop expected at most 1
/// argument, got 2` / `get expected at least 1 argument, got 0`.
pub(crate) fn between(name: &str, args: &[Value], min: usize, max: usize) -> R<()> {
    let n = args.len();
    if n >= min && n <= max {
        return Ok(());
    }
    Err(Exc::type_error(if min == max {
        format!("{name} expected {min} argument{}, got {n}", plural(min))
    } else if n < min {
        format!(
            "{name} expected at least {min} argument{}, got {n}",
            plural(min)
        )
    } else {
        format!(
            "{name} expected at most {max} argument{}, got {n}",
            plural(max)
        )
    }))
}

/// `find() takes at least 1 argument (0 given)` / `split() takes at most 2
/// arguments (3 given)`.
pub(crate) fn takes(name: &str, args: &[Value], min: usize, max: usize) -> R<()> {
    let n = args.len();
    if n < min {
        return Err(Exc::type_error(format!(
            "{name}() takes at least {min} argument{} ({n} given)",
            plural(min)
        )));
    }
    if n > max {
        return Err(Exc::type_error(format!(
            "{name}() takes at most {max} argument{} ({n} given)",
            plural(max)
        )));
    }
    Ok(())
}

/// Binds positional and keyword arguments to `names`; the first `posonly`
/// names cannot be given by keyword. Unknown keywords are CPython's
/// `'x' is an invalid keyword argument for split()`.
pub(crate) fn bind(
    fname: &str,
    args: &[Value],
    kwargs: Kw,
    names: &[&str],
    posonly: usize,
) -> R<Vec<Option<Value>>> {
    if args.len() > names.len() {
        return Err(Exc::type_error(format!(
            "{fname}() takes at most {} argument{} ({} given)",
            names.len(),
            plural(names.len()),
            args.len() + kwargs.len()
        )));
    }
    let mut out: Vec<Option<Value>> = vec![None; names.len()];
    for (slot, a) in out.iter_mut().zip(args) {
        *slot = Some(a.clone());
    }
    for (k, v) in kwargs {
        match names.iter().position(|n| *n == &**k) {
            Some(i) if i >= posonly => {
                if let Some(slot) = out.get_mut(i) {
                    if slot.is_some() {
                        return Err(Exc::type_error(format!(
                            "argument for {fname}() given by name ('{k}') and position ({})",
                            i + 1
                        )));
                    }
                    *slot = Some(v.clone());
                }
            }
            _ => {
                return Err(Exc::type_error(format!(
                    "'{k}' is an invalid keyword argument for {fname}()"
                )));
            }
        }
    }
    Ok(out)
}

/// An `__index__` conversion: ints and bools, else TypeError.
pub(crate) fn index(v: &Value) -> R<i64> {
    match as_int(v) {
        Some(i) => i
            .to_i64()
            .ok_or_else(|| Exc::overflow("Python int too large to convert to C ssize_t")),
        None => Err(Exc::not_index(v)),
    }
}

/// An `__index__` conversion to a C `int` (`str.expandtabs`' tab size).
pub(crate) fn c_int(v: &Value) -> R<i64> {
    match as_int(v) {
        Some(i) => i
            .to_i64()
            .filter(|i| i32::try_from(*i).is_ok())
            .ok_or_else(|| Exc::overflow("Python int too large to convert to C int")),
        None => Err(Exc::not_index(v)),
    }
}

/// A clamped `__index__` conversion (big values saturate, as slice bounds).
pub(crate) fn index_clamped(v: &Value) -> R<i64> {
    match as_int(v) {
        Some(i) => Ok(i
            .to_i64()
            .unwrap_or(if i.is_negative() { i64::MIN } else { i64::MAX })),
        None => Err(Exc::not_index(v)),
    }
}
