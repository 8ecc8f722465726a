//! Substring search methods of `str`: `find`, `rfind`, `index`, `rindex`,
//! `count`, `startswith`, `endswith`, `partition`, `rpartition`,
//! `removeprefix` and `removesuffix`.

use super::call_args::{adjust, bound, byte_at, char_index, no_kw, one_of, text_arg};
use crate::runtime::Budget;
use crate::runtime::error::{Exc, R};
use crate::syntax::catalog::MethodId as M;
use crate::text::search;
use crate::types::args::{Kw, takes};
use crate::types::str::part_value;
use crate::value::empty_str;
use crate::value::{PyStr, StrRc, Value};

pub(super) fn startswith(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    affix_as(M::Startswith, s, args, kwargs)
}

pub(super) fn endswith(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    affix_as(M::Endswith, s, args, kwargs)
}

/// `startswith` or `endswith` (`id`).
pub(super) fn affix_as(id: M, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    let text = s.as_str();
    let name = id.name();
    if !kwargs.is_empty() {
        return Err(Exc::type_error(format!(
            "str.{name}() takes no keyword arguments"
        )));
    }
    takes(name, args, 1, 3)?;
    let (start, end) = adjust(bound(args.get(1))?, bound(args.get(2))?, s.char_len());
    // Without bounds the window is the whole text (no offsets to find).
    let window = if args.len() == 1 {
        text
    } else {
        text.get(byte_at(s, start)..byte_at(s, end)).unwrap_or("")
    };
    let test = |p: &PyStr| -> bool {
        // The affix's length in code points is cached: no rescan.
        if start.saturating_add(p.char_len() as i64) > end {
            return false;
        }
        if id == M::Startswith {
            window.starts_with(p.as_str())
        } else {
            window.ends_with(p.as_str())
        }
    };
    match &args[0] {
        Value::Str(p) => Ok(Value::Bool(test(p))),
        Value::Tuple(t) => {
            for p in &t.items {
                match p {
                    Value::Str(p) => {
                        if test(p) {
                            return Ok(Value::Bool(true));
                        }
                    }
                    other => {
                        return Err(Exc::type_error(format!(
                            "tuple for {name} must only contain str, not {}",
                            other.type_name()
                        )));
                    }
                }
            }
            Ok(Value::Bool(false))
        }
        other => Err(Exc::type_error(format!(
            "{name} first arg must be str or a tuple of str, not {}",
            other.type_name()
        ))),
    }
}

pub(super) fn find(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    search_as(M::Find, s, args, kwargs)
}

pub(super) fn rfind(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    search_as(M::Rfind, s, args, kwargs)
}

pub(super) fn index(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    search_as(M::Index, s, args, kwargs)
}

pub(super) fn rindex(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    search_as(M::Rindex, s, args, kwargs)
}

pub(super) fn count(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    search_as(M::Count, s, args, kwargs)
}

/// `find`, `rfind`, `index`, `rindex` or `count` (`id`): a substring
/// search within optional bounds.
pub(super) fn search_as(id: M, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    let text = s.as_str();
    let name = id.name();
    no_kw(id, kwargs)?;
    takes(name, args, 1, 3)?;
    let sub = text_arg(&args[0])?;
    // The needle's length in code points is cached on its string.
    let sub_chars = match &args[0] {
        Value::Str(x) => x.char_len(),
        _ => sub.chars().count(),
    };
    let n = s.char_len();
    let (start, end) = adjust(bound(args.get(1))?, bound(args.get(2))?, n);
    // Without bounds the window is the whole text (no offsets to find).
    let window_of = |a: usize| {
        if args.len() == 1 {
            text
        } else {
            text.get(a..byte_at(s, end)).unwrap_or("")
        }
    };
    if id == M::Count {
        if start > n as i64 || end < start {
            return Ok(Value::int(0));
        }
        if sub.is_empty() {
            return Ok(Value::int(end - start + 1));
        }
        let window = window_of(byte_at(s, start));
        if let &[b] = sub.as_bytes() {
            // One byte (so ASCII, never inside a multi-byte character): a
            // branch-free count the compiler vectorises, not a search per
            // match.
            let n = window.bytes().filter(|&c| c == b).count();
            return Ok(Value::int(i64::try_from(n).unwrap_or(i64::MAX)));
        }
        let mut n = 0i64;
        search::for_matches(window, sub, |_| {
            n += 1;
            true
        });
        return Ok(Value::int(n));
    }
    let found = if start > n as i64 || end - start < sub_chars as i64 {
        None
    } else {
        let a = byte_at(s, start);
        let window = window_of(a);
        let pos = if matches!(id, M::Find | M::Index) {
            search::find(window.as_bytes(), sub.as_bytes())
        } else {
            search::rfind(window.as_bytes(), sub.as_bytes())
        };
        pos.map(|p| char_index(s, a + p))
    };
    match found {
        Some(i) => Ok(Value::int(i)),
        None if matches!(id, M::Index | M::Rindex) => Err(Exc::value_error("substring not found")),
        None => Ok(Value::int(-1)),
    }
}

pub(super) fn partition(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    partition_as(M::Partition, s, args, kwargs)
}

pub(super) fn rpartition(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    partition_as(M::Rpartition, s, args, kwargs)
}

/// `partition` or `rpartition` (`id`).
pub(super) fn partition_as(id: M, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    let [a, b, c] = partition_parts(id, s, args, kwargs)?;
    Ok(Value::triple(a, b, c))
}

/// The three parts of a `partition` or `rpartition` (`id`) call, checked
/// as the method checks them (unpacked with no tuple by the caller).
#[inline]
pub(crate) fn partition_parts(id: M, s: &StrRc, args: &[Value], kwargs: Kw) -> R<[Value; 3]> {
    let text = s.as_str();
    let sep_v = one_of(id, args, kwargs)?;
    let sep = text_arg(sep_v)?;
    if sep.is_empty() {
        return Err(crate::types::args::empty_separator());
    }
    let (hay, needle) = (text.as_bytes(), sep.as_bytes());
    let pos = if id == M::Partition {
        search::find(hay, needle)
    } else {
        search::rfind(hay, needle)
    };
    // The separator and an unsplit text are the objects passed in, as in
    // CPython; only the new pieces are made. A match of whole UTF-8 text
    // starts and ends on char boundaries, so the slices cannot fail.
    let whole = Value::Str(s.clone());
    Ok(match pos {
        Some(p) => [
            part_value(s, text.get(..p).unwrap_or_default()),
            sep_v.clone(),
            part_value(s, text.get(p + sep.len()..).unwrap_or_default()),
        ],
        None if id == M::Partition => [whole, empty_str(), empty_str()],
        None => [empty_str(), empty_str(), whole],
    })
}

pub(super) fn removeprefix(
    _budget: &mut Budget,
    s: &StrRc,
    args: &[Value],
    kwargs: Kw,
) -> R<Value> {
    remove_affix_as(M::Removeprefix, s, args, kwargs)
}

pub(super) fn removesuffix(
    _budget: &mut Budget,
    s: &StrRc,
    args: &[Value],
    kwargs: Kw,
) -> R<Value> {
    remove_affix_as(M::Removesuffix, s, args, kwargs)
}

/// `removeprefix` or `removesuffix` (`id`).
pub(super) fn remove_affix_as(id: M, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    let text = s.as_str();
    let arg = text_arg(one_of(id, args, kwargs)?)?;
    let out = if id == M::Removeprefix {
        text.strip_prefix(arg)
    } else {
        text.strip_suffix(arg)
    };
    match out {
        Some(o) => Ok(Value::str(o)),
        None => Ok(Value::Str(s.clone())),
    }
}
