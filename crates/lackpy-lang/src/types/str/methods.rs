//! The methods of `str`: the table (one row per method, each run by a
//! function in this folder by concern) and the few methods of no family.

use super::call_args::s_val;
use super::case::{capitalize, casefold, lower, map_text, swapcase, title, upper};
use super::join::join;
use super::predicates::{
    isalnum, isalpha, isascii, isdecimal, isdigit, isidentifier, islower, isnumeric, isprintable,
    isspace, istitle, isupper,
};
use super::replace::replace;
use super::search::{
    count, endswith, find, index, partition, removeprefix, removesuffix, rfind, rindex, rpartition,
    startswith,
};
use super::split_call::{rsplit, split, splitlines};
use super::strip::{lstrip, rstrip, strip};
use crate::runtime::Budget;
use crate::runtime::error::R;
use crate::syntax::catalog::{MANY, MethodId as M};
use crate::types::args::{self, Kw, bind, one};
use crate::types::table::{Methods, m};
use crate::value::{StrRc, Value};

/// A `str` method: the run's budget, the receiver, positional and keyword
/// arguments.
pub(crate) type StrMethod = fn(&mut Budget, &StrRc, &[Value], Kw<'_>) -> R<Value>;

/// The methods of `str`.
pub(crate) static METHODS: Methods<StrMethod> = Methods::new(&[
    m(M::Capitalize, 0, 0, capitalize),
    m(M::Casefold, 0, 0, casefold),
    m(M::Center, 1, 2, super::pad::center),
    m(M::Count, 1, 3, count),
    m(M::Encode, 0, 2, encode),
    m(M::Endswith, 1, 3, endswith),
    m(M::Expandtabs, 0, 1, expandtabs),
    m(M::Find, 1, 3, find),
    m(M::Format, 0, MANY, format),
    m(M::FormatMap, 1, 1, format_map),
    m(M::Index, 1, 3, index),
    m(M::Isalnum, 0, 0, isalnum),
    m(M::Isalpha, 0, 0, isalpha),
    m(M::Isascii, 0, 0, isascii),
    m(M::Isdecimal, 0, 0, isdecimal),
    m(M::Isdigit, 0, 0, isdigit),
    m(M::Isidentifier, 0, 0, isidentifier),
    m(M::Islower, 0, 0, islower),
    m(M::Isnumeric, 0, 0, isnumeric),
    m(M::Isprintable, 0, 0, isprintable),
    m(M::Isspace, 0, 0, isspace),
    m(M::Istitle, 0, 0, istitle),
    m(M::Isupper, 0, 0, isupper),
    m(M::Join, 1, 1, join),
    m(M::Ljust, 1, 2, super::pad::ljust),
    m(M::Lower, 0, 0, lower),
    m(M::Lstrip, 0, 1, lstrip),
    m(M::Partition, 1, 1, partition),
    m(M::Removeprefix, 1, 1, removeprefix),
    m(M::Removesuffix, 1, 1, removesuffix),
    m(M::Replace, 2, 3, replace),
    m(M::Rfind, 1, 3, rfind),
    m(M::Rindex, 1, 3, rindex),
    m(M::Rjust, 1, 2, super::pad::rjust),
    m(M::Rpartition, 1, 1, rpartition),
    m(M::Rsplit, 0, 2, rsplit),
    m(M::Rstrip, 0, 1, rstrip),
    m(M::Split, 0, 2, split),
    m(M::Splitlines, 0, 1, splitlines),
    m(M::Startswith, 1, 3, startswith),
    m(M::Strip, 0, 1, strip),
    m(M::Swapcase, 0, 0, swapcase),
    m(M::Title, 0, 0, title),
    m(M::Translate, 1, 1, crate::types::str::translate::translate),
    m(M::Maketrans, 1, 3, maketrans_of),
    m(M::Upper, 0, 0, upper),
    m(M::Zfill, 1, 1, super::pad::zfill),
]);

pub(super) fn expandtabs(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    let b = bind("expandtabs", args, kwargs, &["tabsize"], 0)?;
    let size = match b.first().cloned().flatten() {
        Some(v) => args::c_int(&v)?,
        None => 8,
    };
    let mut col: i64 = 0;
    map_text(s.as_str(), |out, _, c| {
        match c {
            '\t' => {
                if size > 0 {
                    let n = size - col % size;
                    out.reserve(n as usize)?;
                    for _ in 0..n {
                        out.push(' ')?;
                    }
                    col += n;
                }
            }
            '\n' | '\r' => {
                out.push(c)?;
                col = 0;
            }
            c => {
                out.push(c)?;
                col += 1;
            }
        }
        Ok(())
    })
}

pub(super) fn format(budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    let out = crate::types::formatting::str_format(budget, s.as_str(), args, kwargs)?;
    Ok(s_val(out))
}

pub(super) fn format_map(budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    let m = one("str.format_map", args, kwargs)?;
    let out = crate::types::formatting::str_format_map(budget, s.as_str(), m)?;
    Ok(s_val(out))
}

/// `s.maketrans(...)`: the static method reached through an instance.
pub(super) fn maketrans_of(_: &mut Budget, _: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    crate::types::str::translate::maketrans(args, kwargs)
}

pub(super) fn encode(budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    let b = bind("encode", args, kwargs, &["encoding", "errors"], 0)?;
    let arg = |i: usize| b.get(i).and_then(Option::as_ref);
    crate::types::codec_args::encode(budget, "encode", s.as_str(), arg(0), arg(1))
}
