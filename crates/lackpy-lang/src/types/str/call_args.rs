//! The argument readers and result makers the str methods share.

use crate::runtime::error::{Exc, R};
use crate::syntax::catalog::MethodId as M;
use crate::types::args::{Kw, no_kwargs, one};
use crate::value::{PyStr, StrRc, Value};

pub(super) fn s_val(s: String) -> Value {
    Value::str(s)
}

/// A str value of `s`, `nchars` code points long (known by the caller, so
/// the text is not rescanned); one ASCII character comes from the shared table.
pub(super) fn s_val_known(s: String, nchars: usize) -> Value {
    if let &[b] = s.as_bytes() {
        return crate::value::char_value(char::from(b));
    }
    Value::Str(StrRc::new(PyStr::from_string(s, nchars)))
}

/// The text of a str argument, or TypeError `must be str, not int`.
#[inline]
pub(super) fn text_arg(v: &Value) -> R<&str> {
    match v {
        Value::Str(s) => Ok(s.as_str()),
        other => Err(Exc::type_error(format!(
            "must be str, not {}",
            other.type_name()
        ))),
    }
}

/// Optional slice-style bound (`None` allowed).
#[inline]
pub(super) fn bound(v: Option<&Value>) -> R<Option<i64>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(v) => match crate::types::int::as_int(v) {
            Some(i) => Ok(Some(i.to_i64().unwrap_or(if i.is_negative() {
                i64::MIN / 2
            } else {
                i64::MAX / 2
            }))),
            None => Err(Exc::type_error(
                "slice indices must be integers or None or have an __index__ method",
            )),
        },
    }
}

/// CPython's `ADJUST_INDICES` for a string of `len` code points.
#[inline]
pub(super) fn adjust(start: Option<i64>, end: Option<i64>, len: usize) -> (i64, i64) {
    let n = len as i64;
    let mut end = end.unwrap_or(n);
    if end > n {
        end = n;
    } else if end < 0 {
        end = (end + n).max(0);
    }
    let mut start = start.unwrap_or(0);
    if start < 0 {
        start = (start + n).max(0);
    }
    (start, end)
}

/// The byte offset of code point `i` (clamped to the end).
#[inline(always)]
pub(super) fn byte_at(s: &PyStr, i: i64) -> usize {
    if i <= 0 {
        0
    } else if i as usize >= s.char_len() {
        // The end needs no walk, even in a non-ASCII string.
        s.as_str().len()
    } else {
        s.byte_offset(i as usize)
    }
}

#[inline(always)]
pub(super) fn char_index(s: &PyStr, byte: usize) -> i64 {
    if s.is_ascii() {
        byte as i64
    } else {
        s.as_str()
            .get(..byte)
            .map(|p| p.chars().count())
            .unwrap_or(0) as i64
    }
}

pub(super) fn strip_chars<'a>(v: Option<&'a Value>, name: &str) -> R<Option<&'a PyStr>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(Value::Str(s)) => Ok(Some(s)),
        Some(_) => Err(Exc::type_error(format!("{name} arg must be None or str"))),
    }
}

pub(super) fn q(name: &str) -> String {
    format!("str.{name}")
}

/// `no_kwargs` for method `id`, naming it only when it fails (the name is
/// formatted on the error path, not per call).
#[inline(always)]
pub(super) fn no_kw(id: M, kwargs: Kw) -> R<()> {
    if kwargs.is_empty() {
        Ok(())
    } else {
        no_kwargs(&q(id.name()), kwargs)
    }
}

/// `one` for method `id`, naming it only when it fails.
#[inline]
pub(super) fn one_of<'a>(id: M, args: &'a [Value], kwargs: Kw) -> R<&'a Value> {
    match args {
        [a] if kwargs.is_empty() => Ok(a),
        _ => one(&q(id.name()), args, kwargs),
    }
}
