//! Argument checking for builtins and methods, with CPython's messages.
//!
//! CPython words arity errors differently depending on how a function is
//! implemented; each helper here produces one of those wordings.

use std::rc::Rc;

use crate::runtime::error::{Exc, R};
use crate::types::int::as_int;
use crate::value::Value;

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
/// names cannot be given by keyword, none is required. See [`bind_req`].
pub(crate) fn bind(
    fname: &str,
    args: &[Value],
    kwargs: Kw,
    names: &[&str],
    posonly: usize,
) -> R<Vec<Option<Value>>> {
    bind_req(fname, args, kwargs, names, posonly, 0)
}

/// Binds arguments as CPython 3.11's Argument Clinic does
/// (`_PyArg_UnpackKeywords`), with its messages in its order: more
/// arguments in all than `names` (`split() takes at most 2 arguments (3
/// given)`, `keyword arguments` when none is positional); then a missing
/// required positional-only one (`takes at least 1 positional argument`);
/// then a missing required one (`missing required argument 'number' (pos
/// 1)`); then one given by name and position; then an unknown keyword
/// (`'x' is an invalid keyword argument for split()`). The first
/// `posonly` names cannot be given by keyword; the first `required` must
/// be given.
pub(crate) fn bind_req(
    fname: &str,
    args: &[Value],
    kwargs: Kw,
    names: &[&str],
    posonly: usize,
    required: usize,
) -> R<Vec<Option<Value>>> {
    let (nargs, given) = (args.len(), args.len() + kwargs.len());
    if given > names.len() {
        return Err(Exc::type_error(format!(
            "{fname}() takes at most {} {}argument{} ({given} given)",
            names.len(),
            if nargs == 0 { "keyword " } else { "" },
            plural(names.len()),
        )));
    }
    let required_posonly = posonly.min(required);
    if nargs < required_posonly {
        return Err(Exc::type_error(format!(
            "{fname}() takes {} {required_posonly} positional argument{} ({nargs} given)",
            if required_posonly < names.len() {
                "at least"
            } else {
                "exactly"
            },
            plural(required_posonly),
        )));
    }
    let mut out: Vec<Option<Value>> = vec![None; names.len()];
    for (slot, a) in out.iter_mut().zip(args) {
        *slot = Some(a.clone());
    }
    let find = |name: &str| kwargs.iter().find(|(k, _)| &**k == name).map(|(_, v)| v);
    let mut matched = 0;
    for (i, name) in names.iter().enumerate().skip(nargs.max(posonly)) {
        match find(name) {
            Some(v) => {
                matched += 1;
                if let Some(slot) = out.get_mut(i) {
                    *slot = Some(v.clone());
                }
            }
            None if i < required => {
                return Err(Exc::type_error(format!(
                    "{fname}() missing required argument '{name}' (pos {})",
                    i + 1
                )));
            }
            None => {}
        }
    }
    if matched < kwargs.len() {
        for (i, name) in names.iter().enumerate().take(nargs).skip(posonly) {
            if find(name).is_some() {
                return Err(Exc::type_error(format!(
                    "argument for {fname}() given by name ('{name}') and position ({})",
                    i + 1
                )));
            }
        }
        if let Some((k, _)) = kwargs
            .iter()
            .find(|(k, _)| !names.iter().skip(posonly).any(|n| *n == &**k))
        {
            return Err(Exc::type_error(format!(
                "'{k}' is an invalid keyword argument for {fname}()"
            )));
        }
    }
    Ok(out)
}

/// The start and stop of a sequence's `index(x, start, stop)` (arguments
/// 1 and 2 of `args`), clamped to `0..=len` as CPython clamps them.
pub(crate) fn search_bounds(args: &[Value], len: usize) -> R<(usize, usize)> {
    let n = len as i64;
    let clamp = |v: i64| -> usize {
        let v = if v < 0 { (v + n).max(0) } else { v };
        v.min(n) as usize
    };
    let start = match args.get(1) {
        Some(v) => clamp(index_clamped(v)?),
        None => 0,
    };
    let stop = match args.get(2) {
        Some(v) => clamp(index_clamped(v)?),
        None => len,
    };
    Ok((start, stop))
}

/// The ValueError of an empty separator (`split`, `partition`, … of str
/// and bytes, and the pieces of a split consumed directly).
#[cold]
pub(crate) fn empty_separator() -> Box<Exc> {
    Exc::value_error("empty separator")
}

#[cfg(test)]
mod bind_tests {
    use crate::interp::test_run::outcome;

    /// Each case: the call and CPython 3.11's answer.
    const CASES: &[(&str, &str)] = &[
        (
            "'hello'.expandtabs(4, tabsize=8)",
            "TypeError: expandtabs() takes at most 1 argument (2 given)",
        ),
        (
            "'a'.expandtabs(tabsize=1, foo=2)",
            "TypeError: expandtabs() takes at most 1 keyword argument (2 given)",
        ),
        (
            "int('5', 10, base=16)",
            "TypeError: int() takes at most 2 arguments (3 given)",
        ),
        (
            "'a'.split(sep=1, maxsplit=2, x=3)",
            "TypeError: split() takes at most 2 keyword arguments (3 given)",
        ),
        (
            "'hello'.rsplit('l', 1, maxsplit=1)",
            "TypeError: rsplit() takes at most 2 arguments (3 given)",
        ),
        (
            "'a b'.split(' ', sep=' ')",
            "TypeError: argument for split() given by name ('sep') and position (1)",
        ),
        (
            "'a'.split(foo=1)",
            "TypeError: 'foo' is an invalid keyword argument for split()",
        ),
        (
            "round(ndigits=1)",
            "TypeError: round() missing required argument 'number' (pos 1)",
        ),
        (
            "round(1.5, 0, ndigits=1)",
            "TypeError: round() takes at most 2 arguments (3 given)",
        ),
        (
            "sum(start=1)",
            "TypeError: sum() takes at least 1 positional argument (0 given)",
        ),
        (
            "sum([1], x=1)",
            "TypeError: 'x' is an invalid keyword argument for sum()",
        ),
        (
            "int(x=1)",
            "TypeError: 'x' is an invalid keyword argument for int()",
        ),
        ("round(number=2.5)", "=> 2"),
        ("'a-b'.split(maxsplit=1, sep='-')", "=> ['a', 'b']"),
    ];

    #[test]
    fn arguments_bind_with_cpython_3_11_wording_and_order() {
        for (src, want) in CASES {
            assert_eq!(outcome(src), *want, "{src}");
        }
    }
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

#[cfg(test)]
mod builtin_argument_tests {
    use crate::interp::test_run::outcome;

    /// Builtins that bind by hand, each with CPython 3.11's answer.
    const CASES: &[(&str, &str)] = &[
        (
            "max(nope=1)",
            "TypeError: max expected at least 1 argument, got 0",
        ),
        (
            "min([1], key=None, default=1, x=2)",
            "TypeError: min() takes at most 2 keyword arguments (3 given)",
        ),
        (
            "zip([1], foo=True)",
            "TypeError: 'foo' is an invalid keyword argument for zip()",
        ),
        ("{*42}", "TypeError: 'int' object is not iterable"),
        ("{1, *1.5}", "TypeError: 'float' object is not iterable"),
        (
            "[*42]",
            "TypeError: Value after * must be an iterable, not int",
        ),
        (
            "enumerate('ab', 1, start=1)",
            "TypeError: enumerate() takes at most 2 arguments (3 given)",
        ),
        (
            "enumerate(start=1)",
            "TypeError: 'start' is an invalid keyword argument for enumerate()",
        ),
        (
            "enumerate()",
            "TypeError: enumerate() missing required argument 'iterable'",
        ),
        ("list(enumerate(start=1, iterable='a'))", "=> [(1, 'a')]"),
        (
            "[2, 1].sort(None, None, 1)",
            "TypeError: sort() takes at most 2 arguments (3 given)",
        ),
        (
            "[2, 1].sort(1)",
            "TypeError: sort() takes no positional arguments",
        ),
        (
            "sorted([1], key=None, reverse='x', foo=1)",
            "TypeError: sort() takes at most 2 keyword arguments (3 given)",
        ),
        (
            "sorted([1], reverse='x', foo=1)",
            "TypeError: 'foo' is an invalid keyword argument for sort()",
        ),
        (
            "zip(strict=None, foo=2)",
            "TypeError: zip() takes at most 1 keyword argument (2 given)",
        ),
    ];

    #[test]
    fn hand_bound_builtins_use_cpython_3_11_wording() {
        for (src, want) in CASES {
            assert_eq!(outcome(src), *want, "{src}");
        }
    }
}
