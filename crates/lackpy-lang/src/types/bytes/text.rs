//! The ASCII text methods of `bytes`: case, the `is*` predicates,
//! `join`, `partition` and the prefix and suffix removers, with CPython
//! 3.11's rules and messages.

use crate::runtime::Budget;
use crate::runtime::error::{Exc, R};
use crate::types::args::{Kw, none, one};
use crate::value::PyIter;
use crate::value::Value;

use crate::types::bytes::args::{bytes_like, bytes_val};

/// `b.upper()`: ASCII letters uppercased.
pub(crate) fn upper(_: &mut Budget, b: &[u8], args: &[Value], kwargs: Kw) -> R<Value> {
    none("bytes.upper", args, kwargs)?;
    Ok(bytes_val(b.to_ascii_uppercase()))
}

/// `b.lower()`: ASCII letters lowercased.
pub(crate) fn lower(_: &mut Budget, b: &[u8], args: &[Value], kwargs: Kw) -> R<Value> {
    none("bytes.lower", args, kwargs)?;
    Ok(bytes_val(b.to_ascii_lowercase()))
}

/// An `is*` predicate: `name`, true for non-empty bytes all of which
/// pass `test`.
fn all_of(name: &str, b: &[u8], args: &[Value], kwargs: Kw, test: fn(&u8) -> bool) -> R<Value> {
    none(&format!("bytes.{name}"), args, kwargs)?;
    Ok(Value::Bool(!b.is_empty() && b.iter().all(test)))
}

/// `b.isdigit()`: non-empty, all ASCII digits.
pub(crate) fn isdigit(_: &mut Budget, b: &[u8], args: &[Value], kwargs: Kw) -> R<Value> {
    all_of("isdigit", b, args, kwargs, u8::is_ascii_digit)
}

/// `b.isalpha()`: non-empty, all ASCII letters.
pub(crate) fn isalpha(_: &mut Budget, b: &[u8], args: &[Value], kwargs: Kw) -> R<Value> {
    all_of("isalpha", b, args, kwargs, u8::is_ascii_alphabetic)
}

/// `b.isalnum()`: non-empty, all ASCII letters or digits.
pub(crate) fn isalnum(_: &mut Budget, b: &[u8], args: &[Value], kwargs: Kw) -> R<Value> {
    all_of("isalnum", b, args, kwargs, u8::is_ascii_alphanumeric)
}

/// `b.isspace()`: non-empty, all ASCII whitespace.
pub(crate) fn isspace(_: &mut Budget, b: &[u8], args: &[Value], kwargs: Kw) -> R<Value> {
    all_of("isspace", b, args, kwargs, |c| {
        matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0b' | b'\x0c')
    })
}

/// `b.isascii()`: every byte below 128.
pub(crate) fn isascii(_: &mut Budget, b: &[u8], args: &[Value], kwargs: Kw) -> R<Value> {
    none("bytes.isascii", args, kwargs)?;
    // Empty bytes are ASCII.
    Ok(Value::Bool(b.is_ascii()))
}

/// `islower`/`isupper`: some cased byte, and none of the other case.
fn cased(name: &str, b: &[u8], args: &[Value], kwargs: Kw, lower: bool) -> R<Value> {
    none(&format!("bytes.{name}"), args, kwargs)?;
    let has_lower = b.iter().any(u8::is_ascii_lowercase);
    let has_upper = b.iter().any(u8::is_ascii_uppercase);
    Ok(Value::Bool(if lower {
        has_lower && !has_upper
    } else {
        has_upper && !has_lower
    }))
}

/// `b.islower()`: some ASCII lowercase letter and no uppercase one.
pub(crate) fn islower(_: &mut Budget, b: &[u8], args: &[Value], kwargs: Kw) -> R<Value> {
    cased("islower", b, args, kwargs, true)
}

/// `b.isupper()`: some ASCII uppercase letter and no lowercase one.
pub(crate) fn isupper(_: &mut Budget, b: &[u8], args: &[Value], kwargs: Kw) -> R<Value> {
    cased("isupper", b, args, kwargs, false)
}

/// `sep.join(iterable)`: every item must be bytes.
pub(crate) fn join(budget: &mut Budget, sep: &[u8], args: &[Value], kwargs: Kw) -> R<Value> {
    let items = one("bytes.join", args, kwargs)?;
    let mut it = PyIter::of(items)?;
    let mut out = Vec::new();
    let mut i = 0usize;
    while let Some(v) = it.next()? {
        let Value::Bytes(piece) = &v else {
            return Err(Exc::type_error(format!(
                "sequence item {i}: expected a bytes-like object, {} found",
                v.type_name()
            )));
        };
        if i > 0 {
            out.extend_from_slice(sep);
        }
        budget.check_memory(out.len() + piece.len())?;
        out.extend_from_slice(piece);
        i += 1;
        budget.poll()?;
    }
    Ok(bytes_val(out))
}

/// `partition`/`rpartition` at the first (last) `sep`.
fn split_at(name: &str, b: &[u8], args: &[Value], kwargs: Kw, last: bool) -> R<Value> {
    let sep = bytes_like(one(&format!("bytes.{name}"), args, kwargs)?)?;
    if sep.is_empty() {
        return Err(crate::types::args::empty_separator());
    }
    let at = if last {
        crate::text::search::rfind(b, sep)
    } else {
        crate::text::search::find(b, sep)
    };
    let part = |x: &[u8]| bytes_val(x.to_vec());
    Ok(match at {
        Some(i) => Value::triple(part(&b[..i]), part(sep), part(&b[i + sep.len()..])),
        None if last => Value::triple(part(&[]), part(&[]), part(b)),
        None => Value::triple(part(b), part(&[]), part(&[])),
    })
}

/// `b.partition(sep)`: split at the first `sep`.
pub(crate) fn partition(_: &mut Budget, b: &[u8], args: &[Value], kwargs: Kw) -> R<Value> {
    split_at("partition", b, args, kwargs, false)
}

/// `b.rpartition(sep)`: split at the last `sep`.
pub(crate) fn rpartition(_: &mut Budget, b: &[u8], args: &[Value], kwargs: Kw) -> R<Value> {
    split_at("rpartition", b, args, kwargs, true)
}

/// `b.removeprefix(prefix)`.
pub(crate) fn removeprefix(_: &mut Budget, b: &[u8], args: &[Value], kwargs: Kw) -> R<Value> {
    let p = bytes_like(one("bytes.removeprefix", args, kwargs)?)?;
    Ok(bytes_val(b.strip_prefix(p).unwrap_or(b).to_vec()))
}

/// `b.removesuffix(suffix)`.
pub(crate) fn removesuffix(_: &mut Budget, b: &[u8], args: &[Value], kwargs: Kw) -> R<Value> {
    let p = bytes_like(one("bytes.removesuffix", args, kwargs)?)?;
    Ok(bytes_val(b.strip_suffix(p).unwrap_or(b).to_vec()))
}

#[cfg(test)]
mod tests {
    use crate::interp::test_run::outcome;

    /// Each case: a program and CPython 3.11's answer.
    const CASES: &[(&str, &str)] = &[
        ("b'aXb'.lower()", "=> b'axb'"),
        ("b'aXb\\xe9'.upper()", "=> b'AXB\\xe9'"),
        (
            "b'a'.upper(1)",
            "TypeError: bytes.upper() takes no arguments (1 given)",
        ),
        (
            "[b''.isdigit(), b'12'.isdigit(), b'a1'.islower(), b'aB'.islower()]",
            "=> [False, True, True, False]",
        ),
        (
            "[b' \\t'.isspace(), b'a b'.isalpha(), b''.isascii(), b'\\x80'.isascii()]",
            "=> [True, False, True, False]",
        ),
        ("b'-'.join([b'a', b'b'])", "=> b'a-b'"),
        (
            "b'-'.join([b'a', 1])",
            "TypeError: sequence item 1: expected a bytes-like object, int found",
        ),
        (
            "b'a'.join()",
            "TypeError: bytes.join() takes exactly one argument (0 given)",
        ),
        ("b'a=b=c'.rpartition(b'=')", "=> (b'a=b', b'=', b'c')"),
        ("b'abc'.partition(b'x')", "=> (b'abc', b'', b'')"),
        ("b'abc'.rpartition(b'x')", "=> (b'', b'', b'abc')"),
        ("b'a'.partition(b'')", "ValueError: empty separator"),
        (
            "b'a'.removesuffix('a')",
            "TypeError: a bytes-like object is required, not 'str'",
        ),
        ("b'key=v'.removeprefix(b'key=')", "=> b'v'"),
    ];

    #[test]
    fn bytes_text_methods_match_cpython() {
        for (src, want) in CASES {
            assert_eq!(outcome(src), *want, "{src}");
        }
    }
}
