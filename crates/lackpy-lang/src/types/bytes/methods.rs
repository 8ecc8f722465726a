//! The methods of `bytes` a tool-composition program uses on tool output:
//! decoding, searching, splitting, stripping, replacing and `hex`, each
//! with CPython 3.11's argument rules and messages.

use crate::runtime::Budget;
use crate::runtime::error::{Exc, R};
use crate::syntax::catalog::MethodId as M;
use crate::types::args::{Kw, between, bind, index, no_kwargs, takes};
use crate::types::bytes::args::{bytes_like, bytes_val};
use crate::types::codec_args;
use crate::types::int::as_int;
use crate::types::table::{Methods, m};
use crate::value::Value;

/// A method of `bytes`: the budget, the receiver, positional and keyword
/// arguments.
pub(crate) type BytesMethod = fn(&mut Budget, &[u8], &[Value], Kw<'_>) -> R<Value>;

/// The methods of `bytes`.
pub(crate) static BYTES: Methods<BytesMethod> = Methods::new(&[
    m(M::Count, 1, 3, count),
    m(M::Decode, 0, 2, decode),
    m(M::Endswith, 1, 3, endswith),
    m(M::Find, 1, 3, find),
    m(M::Hex, 0, 2, hex),
    m(M::Index, 1, 3, index_of),
    m(M::Isalnum, 0, 0, super::text::isalnum),
    m(M::Isalpha, 0, 0, super::text::isalpha),
    m(M::Isascii, 0, 0, super::text::isascii),
    m(M::Isdigit, 0, 0, super::text::isdigit),
    m(M::Islower, 0, 0, super::text::islower),
    m(M::Isspace, 0, 0, super::text::isspace),
    m(M::Isupper, 0, 0, super::text::isupper),
    m(M::Join, 1, 1, super::text::join),
    m(M::Lower, 0, 0, super::text::lower),
    m(M::Lstrip, 0, 1, lstrip),
    m(M::Partition, 1, 1, super::text::partition),
    m(M::Removeprefix, 1, 1, super::text::removeprefix),
    m(M::Removesuffix, 1, 1, super::text::removesuffix),
    m(M::Replace, 2, 3, replace),
    m(M::Rpartition, 1, 1, super::text::rpartition),
    m(M::Upper, 0, 0, super::text::upper),
    m(M::Rfind, 1, 3, rfind),
    m(M::Rindex, 1, 3, rindex),
    m(M::Rsplit, 0, 2, rsplit),
    m(M::Rstrip, 0, 1, rstrip),
    m(M::Split, 0, 2, split),
    m(M::Splitlines, 0, 1, splitlines),
    m(M::Startswith, 1, 3, startswith),
    m(M::Strip, 0, 1, strip),
]);

/// What `find`/`count`/`index` look for: bytes, or an int as one byte.
fn needle(v: &Value) -> R<Vec<u8>> {
    if let Value::Bytes(b) = v {
        return Ok(b.to_vec());
    }
    match as_int(v) {
        Some(i) => match i.to_i64() {
            Some(n) if (0..256).contains(&n) => Ok(vec![n as u8]),
            _ => Err(Exc::value_error("byte must be in range(0, 256)")),
        },
        None => Err(Exc::type_error(format!(
            "argument should be integer or bytes-like object, not '{}'",
            v.type_name()
        ))),
    }
}

/// A `start`/`end` slice bound: None or an int, clamped to `0..=len`
/// after negative ones count from the end.
fn bound(v: Option<&Value>, len: usize, default: usize) -> R<usize> {
    let n = match v {
        None | Some(Value::None) => return Ok(default),
        Some(v) => match as_int(v) {
            Some(i) => i
                .to_i64()
                .unwrap_or(if i.is_negative() { i64::MIN } else { i64::MAX }),
            None => {
                return Err(Exc::type_error(
                    "slice indices must be integers or None or have an __index__ method",
                ));
            }
        },
    };
    let len = len as i64;
    Ok((if n < 0 { (n + len).max(0) } else { n.min(len) }) as usize)
}

/// A `[start, end)` range of the receiver.
type Span = (usize, usize);

/// The `(sub, start, end)` of a search method named `name`; `None` when
/// `start` is past the end (nothing, not even empty, is found there).
fn search_args(name: &str, b: &[u8], args: &[Value], kwargs: Kw) -> R<(Vec<u8>, Option<Span>)> {
    no_kwargs(&format!("bytes.{name}"), kwargs)?;
    takes(name, args, 1, 3)?;
    let sub = needle(&args[0])?;
    let raw_start = args.get(1);
    let start = bound(raw_start, b.len(), 0)?;
    let end = bound(args.get(2), b.len(), b.len())?;
    // A start past the end finds nothing (CPython compares before clamping).
    let past = match raw_start.and_then(as_int) {
        Some(i) => i.to_i64().is_none_or(|n| n > b.len() as i64),
        None => false,
    };
    Ok((sub, (!past && start <= end).then_some((start, end))))
}

/// The first `sub` in `hay` (the str methods' vectorised search).
fn find_in(hay: &[u8], sub: &[u8]) -> Option<usize> {
    crate::text::search::find(hay, sub)
}

/// The last `sub` in `hay`.
fn rfind_in(hay: &[u8], sub: &[u8]) -> Option<usize> {
    crate::text::search::rfind(hay, sub)
}

fn found(b: &[u8], name: &str, args: &[Value], kwargs: Kw, rev: bool) -> R<Option<usize>> {
    let (sub, span) = search_args(name, b, args, kwargs)?;
    let Some((start, end)) = span else {
        return Ok(None);
    };
    let hay = b.get(start..end).unwrap_or_default();
    Ok(if rev {
        rfind_in(hay, &sub)
    } else {
        find_in(hay, &sub)
    }
    .map(|i| i + start))
}

fn find(_: &mut Budget, b: &[u8], args: &[Value], kwargs: Kw) -> R<Value> {
    let at = found(b, "find", args, kwargs, false)?;
    Ok(Value::int(at.map_or(-1, |i| i as i64)))
}

fn rfind(_: &mut Budget, b: &[u8], args: &[Value], kwargs: Kw) -> R<Value> {
    let at = found(b, "rfind", args, kwargs, true)?;
    Ok(Value::int(at.map_or(-1, |i| i as i64)))
}

fn index_of(_: &mut Budget, b: &[u8], args: &[Value], kwargs: Kw) -> R<Value> {
    match found(b, "index", args, kwargs, false)? {
        Some(i) => Ok(Value::int(i as i64)),
        None => Err(Exc::value_error("subsection not found")),
    }
}

fn rindex(_: &mut Budget, b: &[u8], args: &[Value], kwargs: Kw) -> R<Value> {
    match found(b, "rindex", args, kwargs, true)? {
        Some(i) => Ok(Value::int(i as i64)),
        None => Err(Exc::value_error("subsection not found")),
    }
}

fn count(budget: &mut Budget, b: &[u8], args: &[Value], kwargs: Kw) -> R<Value> {
    let (sub, span) = search_args("count", b, args, kwargs)?;
    let Some((start, end)) = span else {
        return Ok(Value::int(0));
    };
    let hay = b.get(start..end).unwrap_or_default();
    if sub.is_empty() {
        return Ok(Value::int(hay.len() as i64 + 1));
    }
    let (mut n, mut rest) = (0i64, hay);
    while let Some(i) = find_in(rest, &sub) {
        n += 1;
        rest = &rest[i + sub.len()..];
        budget.poll()?;
    }
    Ok(Value::int(n))
}

/// `startswith`/`endswith`: a prefix or a tuple of prefixes in `[start, end)`.
fn affix(name: &str, b: &[u8], args: &[Value], kwargs: Kw, end_side: bool) -> R<Value> {
    no_kwargs(&format!("bytes.{name}"), kwargs)?;
    takes(name, args, 1, 3)?;
    let start = bound(args.get(1), b.len(), 0)?;
    let end = bound(args.get(2), b.len(), b.len())?;
    let past = match args.get(1).and_then(as_int) {
        Some(i) => i.to_i64().is_none_or(|n| n > b.len() as i64),
        None => false,
    };
    let test = |p: &[u8]| {
        if past || start > end {
            return false;
        }
        let hay = b.get(start..end).unwrap_or_default();
        if end_side {
            hay.ends_with(p)
        } else {
            hay.starts_with(p)
        }
    };
    match &args[0] {
        Value::Bytes(p) => Ok(Value::Bool(test(p))),
        Value::Tuple(t) => {
            for p in &t.items {
                if test(bytes_like(p)?) {
                    return Ok(Value::Bool(true));
                }
            }
            Ok(Value::Bool(false))
        }
        other => Err(Exc::type_error(format!(
            "{name} first arg must be bytes or a tuple of bytes, not {}",
            other.type_name()
        ))),
    }
}

fn startswith(_: &mut Budget, b: &[u8], args: &[Value], kwargs: Kw) -> R<Value> {
    affix("startswith", b, args, kwargs, false)
}

fn endswith(_: &mut Budget, b: &[u8], args: &[Value], kwargs: Kw) -> R<Value> {
    affix("endswith", b, args, kwargs, true)
}

fn decode(budget: &mut Budget, b: &[u8], args: &[Value], kwargs: Kw) -> R<Value> {
    let bound = bind("decode", args, kwargs, &["encoding", "errors"], 0)?;
    let arg = |i: usize| bound.get(i).and_then(Option::as_ref);
    codec_args::decode(budget, "decode", b, arg(0), arg(1))
}

/// ASCII whitespace, what `bytes.split()` and `bytes.strip()` cut at.
fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0b' | b'\x0c')
}

/// The `sep` and `maxsplit` of `split`/`rsplit` (`None`: whitespace;
/// a negative count: no limit).
fn split_args(name: &str, args: &[Value], kwargs: Kw) -> R<(Option<Vec<u8>>, usize)> {
    let bound = bind(name, args, kwargs, &["sep", "maxsplit"], 0)?;
    let sep = match bound.first().and_then(Option::as_ref) {
        None | Some(Value::None) => None,
        Some(v) => {
            let s = bytes_like(v)?;
            if s.is_empty() {
                return Err(crate::types::args::empty_separator());
            }
            Some(s.to_vec())
        }
    };
    let max = match bound.get(1).and_then(Option::as_ref) {
        None => usize::MAX,
        Some(v) => usize::try_from(index(v)?).unwrap_or(usize::MAX),
    };
    Ok((sep, max))
}

fn split(budget: &mut Budget, b: &[u8], args: &[Value], kwargs: Kw) -> R<Value> {
    let (sep, max) = split_args("split", args, kwargs)?;
    let mut out: Vec<Value> = Vec::new();
    match sep {
        Some(sep) => {
            let mut rest = b;
            while out.len() < max {
                let Some(i) = find_in(rest, &sep) else { break };
                out.push(bytes_val(rest[..i].to_vec()));
                rest = &rest[i + sep.len()..];
                budget.poll()?;
            }
            out.push(bytes_val(rest.to_vec()));
        }
        None => {
            let mut i = 0;
            loop {
                while b.get(i).copied().is_some_and(is_space) {
                    i += 1;
                }
                if i >= b.len() {
                    break;
                }
                if out.len() == max {
                    out.push(bytes_val(b[i..].to_vec()));
                    break;
                }
                let start = i;
                while b.get(i).copied().is_some_and(|c| !is_space(c)) {
                    i += 1;
                }
                out.push(bytes_val(b[start..i].to_vec()));
                budget.poll()?;
            }
        }
    }
    Ok(Value::list(out))
}

fn rsplit(budget: &mut Budget, b: &[u8], args: &[Value], kwargs: Kw) -> R<Value> {
    let (sep, max) = split_args("rsplit", args, kwargs)?;
    let mut out: Vec<Value> = Vec::new();
    match sep {
        Some(sep) => {
            let mut rest = b;
            while out.len() < max {
                let Some(i) = rfind_in(rest, &sep) else { break };
                out.push(bytes_val(rest[i + sep.len()..].to_vec()));
                rest = &rest[..i];
                budget.poll()?;
            }
            out.push(bytes_val(rest.to_vec()));
        }
        None => {
            let mut end = b.len();
            loop {
                while end > 0 && is_space(b[end - 1]) {
                    end -= 1;
                }
                if end == 0 {
                    break;
                }
                if out.len() == max {
                    out.push(bytes_val(b[..end].to_vec()));
                    break;
                }
                let stop = end;
                while end > 0 && !is_space(b[end - 1]) {
                    end -= 1;
                }
                out.push(bytes_val(b[end..stop].to_vec()));
                budget.poll()?;
            }
        }
    }
    out.reverse();
    Ok(Value::list(out))
}

fn splitlines(_: &mut Budget, b: &[u8], args: &[Value], kwargs: Kw) -> R<Value> {
    let bound = bind("splitlines", args, kwargs, &["keepends"], 0)?;
    let keep = bound
        .first()
        .and_then(Option::as_ref)
        .is_some_and(Value::truthy);
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        let eol = match (b[i], b.get(i + 1)) {
            (b'\r', Some(b'\n')) => 2,
            (b'\r' | b'\n', _) => 1,
            _ => 0,
        };
        if eol == 0 {
            i += 1;
            continue;
        }
        let end = if keep { i + eol } else { i };
        out.push(bytes_val(b[start..end].to_vec()));
        i += eol;
        start = i;
    }
    if start < b.len() {
        out.push(bytes_val(b[start..].to_vec()));
    }
    Ok(Value::list(out))
}

/// `strip`/`lstrip`/`rstrip` (`left`, `right`: which ends).
fn strip_with(
    name: &str,
    b: &[u8],
    args: &[Value],
    kwargs: Kw,
    left: bool,
    right: bool,
) -> R<Value> {
    no_kwargs(&format!("bytes.{name}"), kwargs)?;
    between(name, args, 0, 1)?;
    let chars: Option<&[u8]> = match args.first() {
        None | Some(Value::None) => None,
        Some(v) => Some(bytes_like(v)?),
    };
    let strip = |c: u8| chars.map_or(is_space(c), |cs| cs.contains(&c));
    let mut s = 0;
    let mut e = b.len();
    if left {
        while s < e && strip(b[s]) {
            s += 1;
        }
    }
    if right {
        while e > s && strip(b[e - 1]) {
            e -= 1;
        }
    }
    Ok(bytes_val(b[s..e].to_vec()))
}

fn strip(_: &mut Budget, b: &[u8], args: &[Value], kwargs: Kw) -> R<Value> {
    strip_with("strip", b, args, kwargs, true, true)
}

fn lstrip(_: &mut Budget, b: &[u8], args: &[Value], kwargs: Kw) -> R<Value> {
    strip_with("lstrip", b, args, kwargs, true, false)
}

fn rstrip(_: &mut Budget, b: &[u8], args: &[Value], kwargs: Kw) -> R<Value> {
    strip_with("rstrip", b, args, kwargs, false, true)
}

fn replace(budget: &mut Budget, b: &[u8], args: &[Value], kwargs: Kw) -> R<Value> {
    no_kwargs("bytes.replace", kwargs)?;
    between("replace", args, 2, 3)?;
    let old = bytes_like(&args[0])?;
    let new = bytes_like(&args[1])?;
    let max = match args.get(2) {
        None => usize::MAX,
        Some(v) => usize::try_from(index(v)?).unwrap_or(usize::MAX),
    };
    let mut out = Vec::with_capacity(b.len());
    // The result is checked against the budget (and the deadline polled)
    // each time another CHECK_EVERY bytes have been written.
    const CHECK_EVERY: usize = 1 << 16;
    let mut checked = 0;
    let mut check = |out: &Vec<u8>, budget: &mut Budget| -> R<()> {
        if out.len() - checked >= CHECK_EVERY {
            checked = out.len();
            budget.check_memory(out.len())?;
            budget.poll_now()?;
        }
        Ok(())
    };
    let mut n = 0;
    if old.is_empty() {
        // The new bytes go before each byte and at the end.
        for &c in b {
            if n < max {
                budget.check_memory(out.len() + new.len())?;
                out.extend_from_slice(new);
                n += 1;
            }
            out.push(c);
            check(&out, budget)?;
        }
        if n < max {
            out.extend_from_slice(new);
        }
        return Ok(bytes_val(out));
    }
    let mut rest = b;
    while n < max {
        let Some(i) = find_in(rest, old) else { break };
        budget.check_memory(out.len() + i + new.len())?;
        out.extend_from_slice(&rest[..i]);
        out.extend_from_slice(new);
        rest = &rest[i + old.len()..];
        n += 1;
        check(&out, budget)?;
    }
    out.extend_from_slice(rest);
    Ok(bytes_val(out))
}

/// `hex(sep=..., bytes_per_sep=1)`: groups of `bytes_per_sep` bytes
/// counted from the right (from the left when negative).
fn hex(budget: &mut Budget, b: &[u8], args: &[Value], kwargs: Kw) -> R<Value> {
    let bound = bind("hex", args, kwargs, &["sep", "bytes_per_sep"], 0)?;
    // Argument Clinic converts the int first; `sep` is checked after.
    let per = match bound.get(1).and_then(Option::as_ref) {
        None => 1,
        Some(v) => index(v)?,
    };
    let sep = match bound.first().and_then(Option::as_ref) {
        None => None,
        Some(v) => {
            let text: Vec<u8> = match v {
                Value::Str(s) if !s.as_str().is_ascii() => {
                    return Err(Exc::value_error("sep must be ASCII."));
                }
                Value::Str(s) => s.as_str().as_bytes().to_vec(),
                Value::Bytes(x) => x.to_vec(),
                other => {
                    return Err(Exc::type_error(format!(
                        "object of type '{}' has no len()",
                        other.type_name()
                    )));
                }
            };
            match text[..] {
                [c] => Some(c),
                _ => return Err(Exc::value_error("sep must be length 1.")),
            }
        }
    };
    budget.check_memory(b.len().saturating_mul(3))?;
    let digits = |x: &u8| format!("{x:02x}");
    let Some(sep) = sep.filter(|_| per != 0 && !b.is_empty()) else {
        return Ok(Value::str(b.iter().map(digits).collect::<String>()));
    };
    let group = usize::try_from(per.unsigned_abs()).unwrap_or(usize::MAX);
    let mut out = String::with_capacity(b.len() * 3);
    for (i, x) in b.iter().enumerate() {
        // From the right, a group ends where the bytes left are a multiple.
        let boundary = if per > 0 {
            i > 0 && (b.len() - i).is_multiple_of(group)
        } else {
            i > 0 && i.is_multiple_of(group)
        };
        if boundary {
            out.push(char::from(sep));
        }
        out.push_str(&digits(x));
    }
    Ok(Value::str(out))
}

#[cfg(test)]
mod tests {
    use crate::interp::test_run::outcome;

    /// Each case: a program and CPython 3.11's answer.
    const CASES: &[(&str, &str)] = &[
        ("b'abc'.find(b'', 5)", "=> -1"),
        ("b'abc'.find(b'', 3)", "=> 3"),
        ("b'abc'.count(b'', 1)", "=> 3"),
        ("b'abcabc'.rfind(b'b', 0, -1)", "=> 4"),
        ("b'abc'.count(98, 0, 10)", "=> 1"),
        (
            "b'abc'.find(300)",
            "ValueError: byte must be in range(0, 256)",
        ),
        (
            "b'abc'.find('a')",
            "TypeError: argument should be integer or bytes-like object, not 'str'",
        ),
        (
            "b'abc'.startswith('a')",
            "TypeError: startswith first arg must be bytes or a tuple of bytes, not str",
        ),
        ("b'abc'.startswith((b'x', b'ab'))", "=> True"),
        ("b'abc'.endswith(b'c', 0, -1)", "=> False"),
        ("b'abc'.index(b'z')", "ValueError: subsection not found"),
        (
            "b'abc'.count(b'a', 1.5)",
            "TypeError: slice indices must be integers or None or have an __index__ method",
        ),
        (
            "b'a'.find()",
            "TypeError: find() takes at least 1 argument (0 given)",
        ),
        (
            "b'a'.startswith(b'a', x=1)",
            "TypeError: bytes.startswith() takes no keyword arguments",
        ),
        ("b' a\\n b '.split()", "=> [b'a', b'b']"),
        ("b'a,b,,c'.split(b',')", "=> [b'a', b'b', b'', b'c']"),
        ("b'a,b,,c'.rsplit(b',', 1)", "=> [b'a,b,', b'c']"),
        ("b'  a  b  '.rsplit(None, 1)", "=> [b'  a', b'b']"),
        ("b'  a  b  '.split(maxsplit=1)", "=> [b'a', b'b  ']"),
        ("b'a b'.split(b'')", "ValueError: empty separator"),
        (
            "b'a b'.split('a')",
            "TypeError: a bytes-like object is required, not 'str'",
        ),
        (
            "b'a\\r\\nb\\rc\\n'.splitlines(True)",
            "=> [b'a\\r\\n', b'b\\r', b'c\\n']",
        ),
        ("b'  x \\t'.strip()", "=> b'x'"),
        ("b'xxaxx'.lstrip(b'x')", "=> b'axx'"),
        (
            "b'a'.strip(b'a', b'b')",
            "TypeError: strip expected at most 1 argument, got 2",
        ),
        ("b'abc'.replace(b'', b'-', 2)", "=> b'-a-bc'"),
        ("b'aaa'.replace(b'a', b'bb', 2)", "=> b'bbbba'"),
        (
            "b'a'.replace(b'a')",
            "TypeError: replace expected at least 2 arguments, got 1",
        ),
        ("b'abcdef'.hex(':', 2)", "=> '6162:6364:6566'"),
        ("b'abcdef'.hex(b'-', 4)", "=> '6162-63646566'"),
        ("b'abcdef'.hex('-', -4)", "=> '61626364-6566'"),
        ("b'a'.hex('::')", "ValueError: sep must be length 1."),
        (
            "b'ab'.hex(1, None)",
            "TypeError: 'NoneType' object cannot be interpreted as an integer",
        ),
        (
            "b'a'.hex(x=1)",
            "TypeError: 'x' is an invalid keyword argument for hex()",
        ),
    ];

    #[test]
    fn bytes_methods_match_cpython() {
        for (src, want) in CASES {
            assert_eq!(outcome(src), *want, "{src}");
        }
    }
}

#[cfg(test)]
mod search_cost_tests {
    use std::time::Duration;

    use lackpy_test_support::cpu::measure;

    use crate::interp::test_run::outcome;

    #[test]
    fn a_near_miss_needle_costs_a_linear_search() {
        // Compared window by window, each of these is 10**10 byte compares.
        // Bounded in CPU time, which a loaded machine does not stretch.
        let ((), took) = measure(|| {
            for op in ["find", "rfind", "count", "split", "partition"] {
                let src = format!("b = b'a' * 3000000\nn = b'a' * 3000 + b'b'\nr = b.{op}(n)\n0");
                assert_eq!(outcome(&src), "=> 0", "{op}");
            }
            assert_eq!(
                outcome("b = b'a' * 3000000\n(b'a' * 3000 + b'b') in b"),
                "=> False"
            );
        });
        assert!(took < Duration::from_secs(5), "{took:?} of CPU");
    }
}
