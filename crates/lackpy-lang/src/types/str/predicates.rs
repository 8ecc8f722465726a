//! The `is…` predicates of `str` (`isdigit`, `isupper`, `istitle`, …).

use crate::runtime::Budget;
use crate::runtime::error::R;
use crate::text::unicode::{self as uc, is_space};
use crate::types::args::{Kw, none};
use crate::value::{PyStr, StrRc, Value};

pub(super) fn isalnum(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    pred_ascii(
        "str.isalnum",
        s,
        args,
        kwargs,
        u8::is_ascii_alphanumeric,
        uc::is_alnum,
    )
}

pub(super) fn isalpha(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    pred_ascii(
        "str.isalpha",
        s,
        args,
        kwargs,
        u8::is_ascii_alphabetic,
        uc::is_alpha,
    )
}

pub(super) fn isdecimal(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    pred_ascii(
        "str.isdecimal",
        s,
        args,
        kwargs,
        u8::is_ascii_digit,
        uc::is_decimal,
    )
}

pub(super) fn isdigit(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    pred_ascii(
        "str.isdigit",
        s,
        args,
        kwargs,
        u8::is_ascii_digit,
        uc::is_digit,
    )
}

pub(super) fn isnumeric(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    pred_ascii(
        "str.isnumeric",
        s,
        args,
        kwargs,
        u8::is_ascii_digit,
        uc::is_numeric,
    )
}

pub(super) fn isspace(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    pred("str.isspace", s.as_str(), args, kwargs, is_space)
}

pub(super) fn isascii(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    none("str.isascii", args, kwargs)?;
    Ok(Value::Bool(s.as_str().is_ascii()))
}

pub(super) fn isprintable(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    none("str.isprintable", args, kwargs)?;
    Ok(Value::Bool(s.as_str().chars().all(uc::is_printable)))
}

pub(super) fn isidentifier(
    _budget: &mut Budget,
    s: &StrRc,
    args: &[Value],
    kwargs: Kw,
) -> R<Value> {
    none("str.isidentifier", args, kwargs)?;
    let mut cs = s.as_str().chars();
    Ok(Value::Bool(match cs.next() {
        Some(c) => uc::is_id_start(c) && cs.all(uc::is_id_continue),
        None => false,
    }))
}

pub(super) fn islower(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    none("str.islower", args, kwargs)?;
    if s.is_ascii() {
        return Ok(Value::Bool(ascii_cased(
            s.as_str().as_bytes(),
            u8::is_ascii_lowercase,
        )));
    }
    let mut cased = false;
    for c in s.as_str().chars() {
        if uc::is_upper(c) || uc::is_title(c) {
            return Ok(Value::Bool(false));
        }
        if uc::is_lower(c) {
            cased = true;
        }
    }
    Ok(Value::Bool(cased))
}

pub(super) fn isupper(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    none("str.isupper", args, kwargs)?;
    if s.is_ascii() {
        return Ok(Value::Bool(ascii_cased(
            s.as_str().as_bytes(),
            u8::is_ascii_uppercase,
        )));
    }
    let mut cased = false;
    for c in s.as_str().chars() {
        if uc::is_lower(c) || uc::is_title(c) {
            return Ok(Value::Bool(false));
        }
        if uc::is_upper(c) {
            cased = true;
        }
    }
    Ok(Value::Bool(cased))
}

pub(super) fn istitle(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    none("str.istitle", args, kwargs)?;
    let mut cased = false;
    let mut prev_cased = false;
    for c in s.as_str().chars() {
        if uc::is_upper(c) || uc::is_title(c) {
            if prev_cased {
                return Ok(Value::Bool(false));
            }
            prev_cased = true;
            cased = true;
        } else if uc::is_lower(c) {
            if !prev_cased {
                return Ok(Value::Bool(false));
            }
            prev_cased = true;
            cased = true;
        } else {
            prev_cased = false;
        }
    }
    Ok(Value::Bool(cased))
}

/// A character-class test (`isdigit`, ...): each caller's test is inlined
/// into its own copy of the loop.
#[inline(always)]
/// [`pred`] with `ascii`, the same test on ASCII bytes, for ASCII text
/// (no decoding, no table lookups).
pub(super) fn pred_ascii(
    qual: &str,
    s: &PyStr,
    args: &[Value],
    kwargs: Kw,
    ascii: fn(&u8) -> bool,
    f: impl Fn(char) -> bool,
) -> R<Value> {
    if !s.is_ascii() {
        return pred(qual, s.as_str(), args, kwargs, f);
    }
    none(qual, args, kwargs)?;
    let text = s.as_str().as_bytes();
    Ok(Value::Bool(!text.is_empty() && text.iter().all(ascii)))
}

/// Whether an ASCII text has a letter and no letter of the other case
/// than `is_case` (`islower`/`isupper` of ASCII text).
pub(super) fn ascii_cased(text: &[u8], is_case: fn(&u8) -> bool) -> bool {
    let mut cased = false;
    for b in text {
        if b.is_ascii_alphabetic() {
            if !is_case(b) {
                return false;
            }
            cased = true;
        }
    }
    cased
}

pub(super) fn pred(
    qual: &str,
    text: &str,
    args: &[Value],
    kwargs: Kw,
    f: impl Fn(char) -> bool,
) -> R<Value> {
    none(qual, args, kwargs)?;
    Ok(Value::Bool(!text.is_empty() && text.chars().all(f)))
}
