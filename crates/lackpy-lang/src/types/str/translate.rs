//! `str.translate` and `str.maketrans`: characters mapped through a table
//! by code point, as CPython does.

use std::rc::Rc;

use crate::runtime::Budget;
use crate::runtime::error::{Exc, ExceptionKind, R};
use crate::runtime::meter::TextBuf;
use crate::types::args::{Kw, between, no_kwargs, one};
use crate::types::int::as_int;
use crate::value::{Dict, StrRc, Value};

/// `s.translate(table)`: each character's code point is looked up in
/// `table` (anything subscriptable); a missing key or index keeps the
/// character, `None` drops it, an int is a code point and a str is
/// inserted.
pub(crate) fn translate(budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    let table = one("str.translate", args, kwargs)?;
    let mut out = TextBuf::new();
    for (n, c) in s.as_str().chars().enumerate() {
        if n % 1024 == 1023 {
            budget.poll_now()?;
        }
        match lookup(table, c)? {
            None => out.push(c)?,
            Some(Value::None) => {}
            Some(Value::Str(t)) => out.push_str(t.as_str())?,
            Some(v) => match as_int(&v) {
                Some(i) => {
                    let ch = i
                        .to_i64()
                        .and_then(|n| u32::try_from(n).ok())
                        .filter(|&n| n < 0x11_0000)
                        .ok_or_else(|| {
                            Exc::value_error("character mapping must be in range(0x110000)")
                        })?;
                    // A surrogate code point has no char: lackpy's strings
                    // hold none, so it is refused as out of range.
                    let ch = char::from_u32(ch).ok_or_else(|| {
                        Exc::value_error("character mapping must be in range(0x110000)")
                    })?;
                    out.push(ch)?;
                }
                None => {
                    return Err(Exc::type_error(
                        "character mapping must return integer, None or str",
                    ));
                }
            },
        }
    }
    Ok(Value::str(out.into_string()))
}

/// `table[ord(c)]`, or `None` when the table has no such key or index.
fn lookup(table: &Value, c: char) -> R<Option<Value>> {
    let key = Value::int(i64::from(u32::from(c)));
    if let Value::Dict(d) = table {
        let d = d
            .try_borrow()
            .map_err(|_| Exc::type_error("dict is being modified"))?;
        return Ok(d.get(&key)?.cloned());
    }
    match crate::types::ops::get_item(table, &key) {
        Ok(v) => Ok(Some(v)),
        Err(e) if matches!(e.kind, ExceptionKind::KeyError | ExceptionKind::IndexError) => Ok(None),
        Err(e) => Err(e),
    }
}

/// `str.maketrans(x[, y[, z]])`: a dict of code points. One argument:
/// a dict whose keys (single characters or ints) become code points; two:
/// equal-length strs mapped character by character; a third: characters
/// mapped to None.
pub(crate) fn maketrans(args: &[Value], kwargs: Kw) -> R<Value> {
    no_kwargs("str.maketrans", kwargs)?;
    between("maketrans", args, 1, 3)?;
    // Argument Clinic checks the types of `y` and `z` first.
    let text = |i: usize| -> R<Option<&StrRc>> {
        match args.get(i) {
            None => Ok(None),
            Some(Value::Str(s)) => Ok(Some(s)),
            Some(other) => Err(Exc::type_error(format!(
                "maketrans() argument {} must be str, not {}",
                i + 1,
                other.type_name()
            ))),
        }
    };
    let (y, z) = (text(1)?, text(2)?);
    let mut out = Dict::new();
    let code = |c: char| Value::int(i64::from(u32::from(c)));
    let Some(y) = y else {
        let Value::Dict(d) = &args[0] else {
            return Err(Exc::type_error(
                "if you give only one argument to maketrans it must be a dict",
            ));
        };
        let d = d
            .try_borrow()
            .map_err(|_| Exc::type_error("dict is being modified"))?;
        for (k, v) in d.iter() {
            let key = match k {
                Value::Str(s) => {
                    let mut cs = s.as_str().chars();
                    match (cs.next(), cs.next()) {
                        (Some(c), None) => code(c),
                        _ => {
                            return Err(Exc::value_error(
                                "string keys in translate table must be of length 1",
                            ));
                        }
                    }
                }
                Value::Int(_, _) | Value::Big(_) | Value::Bool(_) => k.clone(),
                _ => {
                    return Err(Exc::type_error(
                        "keys in translate table must be strings or integers",
                    ));
                }
            };
            out.insert(key, v.clone())?;
        }
        return Ok(Value::Dict(Rc::new(std::cell::RefCell::new(out))));
    };
    let Value::Str(x) = &args[0] else {
        return Err(Exc::type_error(
            "first maketrans argument must be a string if there is a second argument",
        ));
    };
    if x.as_str().chars().count() != y.as_str().chars().count() {
        return Err(Exc::value_error(
            "the first two maketrans arguments must have equal length",
        ));
    }
    for (a, b) in x.as_str().chars().zip(y.as_str().chars()) {
        out.insert(code(a), code(b))?;
    }
    if let Some(z) = z {
        for c in z.as_str().chars() {
            out.insert(code(c), Value::None)?;
        }
    }
    Ok(Value::Dict(Rc::new(std::cell::RefCell::new(out))))
}

#[cfg(test)]
mod tests {
    use crate::interp::test_run::outcome;

    /// Each case: a program and CPython 3.11's answer.
    const CASES: &[(&str, &str)] = &[
        ("'abc'.translate({97: None, 98: 'XY', 99: 100})", "=> 'XYd'"),
        ("'abc'.translate('xyz')", "=> 'abc'"),
        ("'abc'.translate({'a': 'x'})", "=> 'abc'"),
        ("'abc'.translate({97: True})", "=> '\\x01bc'"),
        (
            "'abc'.translate({97: 1.5})",
            "TypeError: character mapping must return integer, None or str",
        ),
        (
            "'abc'.translate({97: -1})",
            "ValueError: character mapping must be in range(0x110000)",
        ),
        (
            "'abc'.translate(1)",
            "TypeError: 'int' object is not subscriptable",
        ),
        (
            "'abc'.translate(table={})",
            "TypeError: str.translate() takes no keyword arguments",
        ),
        (
            "'banana'.translate(str.maketrans('an', 'xy', 'b'))",
            "=> 'xyxyx'",
        ),
        (
            "str.maketrans('aba', 'xyz', 'qa')",
            "=> {97: None, 98: 121, 113: None}",
        ),
        ("'x'.maketrans('a', 'b')", "=> {97: 98}"),
        ("str.maketrans({'a': 1, 98: 'c'})", "=> {97: 1, 98: 'c'}"),
        (
            "str.maketrans('ab', 'x')",
            "ValueError: the first two maketrans arguments must have equal length",
        ),
        (
            "str.maketrans('abc')",
            "TypeError: if you give only one argument to maketrans it must be a dict",
        ),
        (
            "str.maketrans({'ab': 1})",
            "ValueError: string keys in translate table must be of length 1",
        ),
        (
            "str.maketrans('a', 'b', 1)",
            "TypeError: maketrans() argument 3 must be str, not int",
        ),
        (
            "str.maketrans()",
            "TypeError: maketrans expected at least 1 argument, got 0",
        ),
        (
            "str.maketrans(1, 'a')",
            "TypeError: first maketrans argument must be a string if there is a second argument",
        ),
        (
            "'{a}-{b!r:>4}'.format_map({'a': 3, 'b': 'x'})",
            "=> \"3- 'x'\"",
        ),
        ("'{c}'.format_map({'a': 1})", "KeyError: 'c'"),
        (
            "'{0}'.format_map({})",
            "ValueError: Format string contains positional fields",
        ),
        (
            "'{a}'.format_map([1])",
            "TypeError: list indices must be integers or slices, not str",
        ),
    ];

    #[test]
    fn translate_maketrans_and_format_map_match_cpython() {
        for (src, want) in CASES {
            assert_eq!(outcome(src), *want, "{src}");
        }
    }
}
