//! Methods of `str`: the table and one function per method.

use crate::runtime::Budget;
use crate::runtime::error::{Exc, R};
use crate::runtime::meter::{self, Buf, TextBuf};
use crate::syntax::catalog::{MANY, MethodId as M};
use crate::text::search;
use crate::text::unicode::{self as uc, is_space};
use crate::types::args::{self, Kw, between, bind, no_kwargs, none, one, takes};
use crate::types::str::split::{Parts, split_lines, split_text};
use crate::types::table::{Methods, m};
use crate::value::iter::PyIter;

use crate::types::str::{SHORT, StrBuilder, short_str, trailer_room};
use crate::value::{PyStr, StrRc, Value};

use crate::types::str::part_value;
use crate::value::iter::empty_str;

fn s_val(s: String) -> Value {
    Value::str(s)
}

/// A str value of `s`, `nchars` code points long (known by the caller, so
/// the text is not rescanned); one ASCII character comes from the shared table.
fn s_val_known(s: String, nchars: usize) -> Value {
    if let &[b] = s.as_bytes() {
        return crate::value::iter::char_value(char::from(b));
    }
    Value::Str(StrRc::new(PyStr::from_string(s, nchars)))
}

/// The text of a str argument, or TypeError `must be str, not int`.
#[inline]
fn text_arg(v: &Value) -> R<&str> {
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
fn bound(v: Option<&Value>) -> R<Option<i64>> {
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
fn adjust(start: Option<i64>, end: Option<i64>, len: usize) -> (i64, i64) {
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
fn byte_at(s: &PyStr, i: i64) -> usize {
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
fn char_index(s: &PyStr, byte: usize) -> i64 {
    if s.is_ascii() {
        byte as i64
    } else {
        s.as_str()
            .get(..byte)
            .map(|p| p.chars().count())
            .unwrap_or(0) as i64
    }
}

fn strip_chars<'a>(v: Option<&'a Value>, name: &str) -> R<Option<&'a PyStr>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(Value::Str(s)) => Ok(Some(s)),
        Some(_) => Err(Exc::type_error(format!("{name} arg must be None or str"))),
    }
}

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

fn q(name: &str) -> String {
    format!("str.{name}")
}

/// `no_kwargs` for method `id`, naming it only when it fails (the name is
/// formatted on the error path, not per call).
#[inline(always)]
fn no_kw(id: M, kwargs: Kw) -> R<()> {
    if kwargs.is_empty() {
        Ok(())
    } else {
        no_kwargs(&q(id.name()), kwargs)
    }
}

/// `one` for method `id`, naming it only when it fails.
#[inline]
fn one_of<'a>(id: M, args: &'a [Value], kwargs: Kw) -> R<&'a Value> {
    match args {
        [a] if kwargs.is_empty() => Ok(a),
        _ => one(&q(id.name()), args, kwargs),
    }
}

fn upper(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    let text = s.as_str();
    none("str.upper", args, kwargs)?;
    if s.is_ascii() {
        return ascii_recase(s, |t| t.make_ascii_uppercase());
    }
    // Upper case can triple the bytes ('ΐ'): grow under the budget.
    map_text(text, |out, _, c| {
        for u in c.to_uppercase() {
            out.push(u)?;
        }
        Ok(())
    })
}

fn lower(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    none("str.lower", args, kwargs)?;
    if s.is_ascii() {
        return ascii_recase(s, |t| t.make_ascii_lowercase());
    }
    Ok(s_val(lower_text(s.as_str())?))
}

fn casefold(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    none("str.casefold", args, kwargs)?;
    if s.is_ascii() {
        // ASCII case folding is lower-casing.
        return ascii_recase(s, |t| t.make_ascii_lowercase());
    }
    let mut one = String::new();
    map_text(s.as_str(), |out, _, c| {
        one.clear();
        uc::push_fold(&mut one, c);
        out.push_str(&one)
    })
}

fn swapcase(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    let text = s.as_str();
    none("str.swapcase", args, kwargs)?;
    if s.is_ascii() {
        return ascii_map(s, |_, b| if b.is_ascii_alphabetic() { b ^ 0x20 } else { b });
    }
    map_text(text, |out, i, c| {
        if uc::is_upper(c) {
            push_lower(out, text, i, c)
        } else if uc::is_lower(c) {
            for u in c.to_uppercase() {
                out.push(u)?;
            }
            Ok(())
        } else {
            out.push(c)
        }
    })
}

fn capitalize(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    let text = s.as_str();
    none("str.capitalize", args, kwargs)?;
    if s.is_ascii() {
        return ascii_recase(s, |t| {
            t.make_ascii_lowercase();
            if let Some(first) = t.get_mut(..1) {
                first.make_ascii_uppercase();
            }
        });
    }
    // The rest is lowered in the context of the whole text (a final sigma
    // looks at the first character too).
    let mut one = String::new();
    map_text(text, |out, i, c| {
        if i == 0 {
            one.clear();
            uc::push_title(&mut one, c);
            out.push_str(&one)
        } else {
            push_lower(out, text, i, c)
        }
    })
}

fn title(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    let text = s.as_str();
    none("str.title", args, kwargs)?;
    if s.is_ascii() {
        // Among ASCII characters only letters are cased: all lowered, then
        // each letter after a non-letter (a word's first) raised.
        return ascii_recase(s, |t| {
            t.make_ascii_lowercase();
            let mut prev_cased = false;
            let mut i = 0;
            while i < t.len() {
                let alpha = t.get(i).is_some_and(u8::is_ascii_alphabetic);
                if alpha
                    && !prev_cased
                    && let Some(c) = t.get_mut(i..=i)
                {
                    c.make_ascii_uppercase();
                }
                prev_cased = alpha;
                i += 1;
            }
        });
    }
    let mut prev_cased = false;
    let mut one = String::new();
    map_text(text, |out, i, c| {
        if prev_cased {
            push_lower(out, text, i, c)?;
        } else {
            one.clear();
            uc::push_title(&mut one, c);
            out.push_str(&one)?;
        }
        prev_cased = uc::is_cased(c);
        Ok(())
    })
}

fn isalnum(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    pred_ascii(
        "str.isalnum",
        s,
        args,
        kwargs,
        u8::is_ascii_alphanumeric,
        uc::is_alnum,
    )
}

fn isalpha(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    pred_ascii(
        "str.isalpha",
        s,
        args,
        kwargs,
        u8::is_ascii_alphabetic,
        uc::is_alpha,
    )
}

fn isdecimal(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    pred_ascii(
        "str.isdecimal",
        s,
        args,
        kwargs,
        u8::is_ascii_digit,
        uc::is_decimal,
    )
}

fn isdigit(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    pred_ascii(
        "str.isdigit",
        s,
        args,
        kwargs,
        u8::is_ascii_digit,
        uc::is_digit,
    )
}

fn isnumeric(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    pred_ascii(
        "str.isnumeric",
        s,
        args,
        kwargs,
        u8::is_ascii_digit,
        uc::is_numeric,
    )
}

fn isspace(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    pred("str.isspace", s.as_str(), args, kwargs, is_space)
}

fn isascii(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    none("str.isascii", args, kwargs)?;
    Ok(Value::Bool(s.as_str().is_ascii()))
}

fn isprintable(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    none("str.isprintable", args, kwargs)?;
    Ok(Value::Bool(s.as_str().chars().all(uc::is_printable)))
}

fn isidentifier(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    none("str.isidentifier", args, kwargs)?;
    let mut cs = s.as_str().chars();
    Ok(Value::Bool(match cs.next() {
        Some(c) => uc::is_id_start(c) && cs.all(uc::is_id_continue),
        None => false,
    }))
}

fn islower(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
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

fn isupper(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
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

fn istitle(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
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

fn strip(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    strip_as(M::Strip, s, args, kwargs)
}

fn lstrip(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    strip_as(M::Lstrip, s, args, kwargs)
}

fn rstrip(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    strip_as(M::Rstrip, s, args, kwargs)
}

/// `strip`, `lstrip` or `rstrip` (`id`).
fn strip_as(id: M, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    let text = s.as_str();
    let out = stripped(id, s, args, kwargs)?;
    if out.len() == text.len() {
        return Ok(Value::Str(s.clone()));
    }
    Ok(crate::types::str::part_value(s, out))
}

/// Whether `id` is `strip`, `lstrip` or `rstrip`.
pub(crate) fn is_strip(id: M) -> bool {
    matches!(id, M::Strip | M::Lstrip | M::Rstrip)
}

/// Whether `id` is `lower`, `upper` or `casefold`.
pub(crate) fn is_recase(id: M) -> bool {
    matches!(id, M::Lower | M::Upper | M::Casefold)
}

/// `s.<strip>(args).<recase>()` (`strip` a strip method, `recase` a case
/// method called with no arguments), as the two calls give it but with no
/// string in between: the stripped part of ASCII text is case-mapped
/// straight into the result. Other text makes the part and calls the
/// method on it.
pub(crate) fn strip_then_recase(
    budget: &mut Budget,
    strip: M,
    recase: M,
    s: &StrRc,
    args: &[Value],
    kwargs: Kw,
) -> R<Value> {
    let part = stripped(strip, s, args, kwargs)?;
    budget.step()?;
    if s.is_ascii() && !part.is_empty() {
        return recase_ascii_text(part, |t| {
            if recase == M::Upper {
                t.make_ascii_uppercase();
            } else {
                // ASCII case folding is lower-casing.
                t.make_ascii_lowercase();
            }
        });
    }
    let run = METHODS
        .get(recase)
        .ok_or_else(|| Exc::no_attr(&Value::Str(s.clone()), recase.name()))?;
    let whole;
    let recv = if part.len() == s.as_str().len() {
        s
    } else {
        whole = match crate::types::str::part_value(s, part) {
            Value::Str(p) => p,
            _ => StrRc::new(PyStr::new(part)),
        };
        &whole
    };
    run(budget, recv, &[], &[])
}

/// The text `strip`, `lstrip` or `rstrip` (`id`) of `s` gives, checked as
/// the method checks its arguments.
fn stripped<'a>(id: M, s: &'a PyStr, args: &[Value], kwargs: Kw) -> R<&'a str> {
    let text = s.as_str();
    let name = id.name();
    no_kw(id, kwargs)?;
    between(name, args, 0, 1)?;
    let chars = strip_chars(args.first(), name)?;
    let (lead, trail) = (id != M::Rstrip, id != M::Lstrip);
    let out = match chars {
        // Whitespace, or a set of ASCII characters: the ends are trimmed
        // by bytes against a bit mask.
        None => trim_mask(text, SPACE_MASK, lead, trail, true),
        Some(cs) if cs.is_ascii() => {
            let mask = cs.as_str().bytes().fold(0u128, |m, b| m | 1u128 << b);
            trim_mask(text, mask, lead, trail, false)
        }
        Some(cs) => {
            let is_strip = |c: char| cs.as_str().contains(c);
            match id {
                M::Strip => text.trim_matches(is_strip),
                M::Lstrip => text.trim_start_matches(is_strip),
                _ => text.trim_end_matches(is_strip),
            }
        }
    };
    Ok(out)
}

/// Python's ASCII whitespace as a bit mask: `\t`-`\r`, `\x1c`-`\x1f`, space.
const SPACE_MASK: u128 = 0x3e00 | 0xf000_0000 | 1 << 32;

/// `text` less the ASCII bytes in `mask` at its start (`lead`) and end
/// (`trail`). With `uni_space`, non-ASCII whitespace is stripped too: an
/// end stopped at a non-ASCII byte is trimmed on by chars. Every cut falls
/// next to an ASCII byte, so on a char boundary.
fn trim_mask(text: &str, mask: u128, lead: bool, trail: bool, uni_space: bool) -> &str {
    let bytes = text.as_bytes();
    let hit = |b: u8| b < 128 && (mask >> b) & 1 == 1;
    let (mut a, mut z) = (0, bytes.len());
    if lead {
        while a < z && bytes.get(a).is_some_and(|&b| hit(b)) {
            a += 1;
        }
    }
    if trail {
        while z > a && bytes.get(z - 1).is_some_and(|&b| hit(b)) {
            z -= 1;
        }
    }
    let mut out = text.get(a..z).unwrap_or(text);
    if uni_space {
        if lead && out.as_bytes().first().is_some_and(|&b| b >= 0x80) {
            out = out.trim_start_matches(is_space);
        }
        if trail && out.as_bytes().last().is_some_and(|&b| b >= 0x80) {
            out = out.trim_end_matches(is_space);
        }
    }
    out
}

fn split(budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    split_as(M::Split, budget, s, args, kwargs)
}

fn rsplit(budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    split_as(M::Rsplit, budget, s, args, kwargs)
}

/// `split` or `rsplit` (`id`).
fn split_as(id: M, budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
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

fn splitlines(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
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

fn join(budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    let arg = one("str.join", args, kwargs)?;
    join_items(budget, s.as_str(), arg)
}

fn replace(budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    no_kwargs("str.replace", kwargs)?;
    between("replace", args, 2, 3)?;
    let old = match &args[0] {
        Value::Str(x) => x.as_str(),
        other => {
            return Err(Exc::type_error(format!(
                "replace() argument 1 must be str, not {}",
                other.type_name()
            )));
        }
    };
    let new = match &args[1] {
        Value::Str(x) => x.as_str(),
        other => {
            return Err(Exc::type_error(format!(
                "replace() argument 2 must be str, not {}",
                other.type_name()
            )));
        }
    };
    let count = match args.get(2) {
        Some(v) => args::index(v)?,
        None => -1,
    };
    replace_text(budget, s, old, new, count)
}

fn startswith(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    affix_as(M::Startswith, s, args, kwargs)
}

fn endswith(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    affix_as(M::Endswith, s, args, kwargs)
}

/// `startswith` or `endswith` (`id`).
fn affix_as(id: M, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
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

fn find(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    search_as(M::Find, s, args, kwargs)
}

fn rfind(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    search_as(M::Rfind, s, args, kwargs)
}

fn index(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    search_as(M::Index, s, args, kwargs)
}

fn rindex(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    search_as(M::Rindex, s, args, kwargs)
}

fn count(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    search_as(M::Count, s, args, kwargs)
}

/// `find`, `rfind`, `index`, `rindex` or `count` (`id`): a substring
/// search within optional bounds.
fn search_as(id: M, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
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

fn partition(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    partition_as(M::Partition, s, args, kwargs)
}

fn rpartition(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    partition_as(M::Rpartition, s, args, kwargs)
}

/// `partition` or `rpartition` (`id`).
fn partition_as(id: M, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
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

fn expandtabs(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
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

fn removeprefix(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    remove_affix_as(M::Removeprefix, s, args, kwargs)
}

fn removesuffix(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    remove_affix_as(M::Removesuffix, s, args, kwargs)
}

/// `removeprefix` or `removesuffix` (`id`).
fn remove_affix_as(id: M, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
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

fn format(budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    let out = crate::types::formatting::str_format(budget, s.as_str(), args, kwargs)?;
    Ok(s_val(out))
}

fn format_map(budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    let m = one("str.format_map", args, kwargs)?;
    let out = crate::types::formatting::str_format_map(budget, s.as_str(), m)?;
    Ok(s_val(out))
}

/// `s.maketrans(...)`: the static method reached through an instance.
fn maketrans_of(_: &mut Budget, _: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    crate::types::str::translate::maketrans(args, kwargs)
}

fn encode(budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    let b = bind("encode", args, kwargs, &["encoding", "errors"], 0)?;
    let arg = |i: usize| b.get(i).and_then(Option::as_ref);
    crate::types::codec_args::encode(budget, "encode", s.as_str(), arg(0), arg(1))
}

/// Lowercases `c` (at byte `i` of `text`), with Greek final sigma as
/// CPython applies it.
fn push_lower(out: &mut TextBuf, text: &str, i: usize, c: char) -> R<()> {
    if c != '\u{3a3}' {
        for l in c.to_lowercase() {
            out.push(l)?;
        }
        return Ok(());
    }
    // Rust's lowercasing applies the same Final_Sigma rule with the full
    // Case_Ignorable property: ask it about a window on each side (a run of
    // more than SIGMA_WINDOW ignorable characters is not looked past).
    let before_text = text.get(..i).unwrap_or_default();
    let before_from = before_text
        .char_indices()
        .rev()
        .nth(SIGMA_WINDOW)
        .map_or(0, |(b, _)| b);
    let mut probe = String::with_capacity(4 * SIGMA_WINDOW);
    probe.push_str(before_text.get(before_from..).unwrap_or_default());
    probe.push('\u{3a3}');
    // Final when nothing follows: the preceding context alone decides.
    let before = probe.to_lowercase().ends_with('\u{3c2}');
    probe.clear();
    probe.push_str("A\u{3a3}");
    let after_text = text.get(i + c.len_utf8()..).unwrap_or_default();
    probe.extend(after_text.chars().take(SIGMA_WINDOW));
    // After a cased 'A', the sigma stays medial exactly when a cased
    // character follows.
    let after = probe.to_lowercase().starts_with("a\u{3c3}");
    out.push(if before && !after {
        '\u{3c2}'
    } else {
        '\u{3c3}'
    })
}

/// Characters on each side of a capital sigma that decide its lower case.
const SIGMA_WINDOW: usize = 64;

/// `text.lower()`: lower case grows text by at most half ('İ' → 'i̇'), so
/// the budget is checked for that before the library call.
fn lower_text(text: &str) -> R<String> {
    meter::ensure(text.len().saturating_add(text.len() / 2))?;
    meter::tick_n(text.len())?;
    Ok(if text.is_ascii() {
        text.to_ascii_lowercase()
    } else {
        text.to_lowercase()
    })
}

/// An ASCII string re-cased in place by `f` on a copy of its text (ASCII
/// case changes keep every byte ASCII; whole-text changes are vectorised).
fn ascii_recase(s: &PyStr, f: impl FnOnce(&mut [u8])) -> R<Value> {
    recase_ascii_text(s.as_str(), f)
}

/// [`ascii_recase`] of ASCII `text`: text a string holds in its own block
/// is re-cased on the stack, longer text in the buffer the string adopts
/// (with room for its trailer: no reallocation).
fn recase_ascii_text(text: &str, f: impl FnOnce(&mut [u8])) -> R<Value> {
    meter::ensure(text.len())?;
    meter::tick_n(text.len())?;
    if text.len() <= SHORT {
        let mut buf = [0u8; SHORT];
        let bytes = buf.get_mut(..text.len()).unwrap_or_default();
        bytes.copy_from_slice(text.as_bytes());
        f(bytes);
        return Ok(Value::Str(StrRc::new(short_str(bytes))));
    }
    let mut out = Vec::with_capacity(text.len() + trailer_room(text.len()));
    out.extend_from_slice(text.as_bytes());
    f(&mut out);
    // ASCII stays ASCII: the check passes (word-wise, next to the copy).
    let out = String::from_utf8(out)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    Ok(Value::Str(StrRc::new(PyStr::from_string(out, text.len()))))
}

/// Maps each byte of an ASCII string (with its index) to an ASCII byte:
/// the case methods' fast path, building the result in place of the
/// same length (inline for short text).
fn ascii_map(s: &PyStr, mut f: impl FnMut(usize, u8) -> u8) -> R<Value> {
    // Every byte stays below 0x80, so the bytes stay valid UTF-8.
    recase_ascii_text(s.as_str(), |bytes| {
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = f(i, *b) & 0x7f;
        }
    })
}

/// Maps each character of `text` (with its byte offset) into a buffer
/// that is checked before it grows and ticks per character.
fn map_text(text: &str, mut f: impl FnMut(&mut TextBuf, usize, char) -> R<()>) -> R<Value> {
    let mut out = TextBuf::with_capacity(text.len())?;
    for (i, c) in text.char_indices() {
        f(&mut out, i, c)?;
    }
    Ok(s_val(out.into_string()))
}

/// A character-class test (`isdigit`, ...): each caller's test is inlined
/// into its own copy of the loop.
#[inline(always)]
/// [`pred`] with `ascii`, the same test on ASCII bytes, for ASCII text
/// (no decoding, no table lookups).
fn pred_ascii(
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
fn ascii_cased(text: &[u8], is_case: fn(&u8) -> bool) -> bool {
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

fn pred(qual: &str, text: &str, args: &[Value], kwargs: Kw, f: impl Fn(char) -> bool) -> R<Value> {
    none(qual, args, kwargs)?;
    Ok(Value::Bool(!text.is_empty() && text.chars().all(f)))
}

fn join_items(budget: &mut Budget, sep: &str, arg: &Value) -> R<Value> {
    match arg {
        // A list or tuple is read in place: no copy of its items.
        Value::List(l) => join_slice(budget, sep, &l.borrow().items),
        Value::Tuple(t) => join_slice(budget, sep, &t.items),
        other => {
            let mut iter =
                PyIter::of(other).map_err(|_| Exc::type_error("can only join an iterable"))?;
            let mut out = Buf::new();
            while let Some(x) = iter.next()? {
                out.push(x)?;
            }
            join_slice(budget, sep, &out)
        }
    }
}

/// `replace` of one ASCII character by another (`' '` by `'_'`): the
/// result is the text with those bytes swapped, the same length. An ASCII
/// byte never occurs inside a multi-byte character, so the text stays
/// UTF-8. `None` when nothing matches.
fn replace_byte(
    budget: &mut Budget,
    s: &StrRc,
    from: u8,
    to: u8,
    limit: usize,
) -> R<Option<Value>> {
    let text = s.as_str();
    let Some(first) = memchr::memchr(from, text.as_bytes()) else {
        return Ok(None);
    };
    budget.check_memory(text.len())?;
    let mut out = StrBuilder::with_len(text.len());
    out.push_str(text);
    let rest = out.filled_mut().get_mut(first..).unwrap_or_default();
    if limit >= rest.len() {
        // Every occurrence: a branch-free pass the compiler vectorises.
        for b in rest {
            *b = if *b == from { to } else { *b };
        }
    } else {
        let mut left = limit;
        for b in rest {
            if left == 0 {
                break;
            }
            if *b == from {
                *b = to;
                left -= 1;
            }
        }
    }
    if text.len() == 1 {
        // The text was `from`, now `to`: the shared one-character string.
        return Ok(Some(crate::value::iter::char_value(char::from(to))));
    }
    Ok(Some(Value::Str(StrRc::new(out.finish(s.char_len())))))
}

/// Joins `items` (all str) with `sep` into a string sized exactly once.
fn join_slice(budget: &mut Budget, sep: &str, items: &[Value]) -> R<Value> {
    let mut total = sep.len().saturating_mul(items.len().saturating_sub(1));
    let sep_chars = if sep.is_ascii() {
        sep.len()
    } else {
        sep.chars().count()
    };
    let mut nchars = sep_chars.saturating_mul(items.len().saturating_sub(1));
    for (i, x) in items.iter().enumerate() {
        match x {
            Value::Str(s) => {
                total = total.saturating_add(s.as_str().len());
                nchars = nchars.saturating_add(s.char_len());
            }
            other => {
                return Err(Exc::type_error(format!(
                    "sequence item {i}: expected str instance, {} found",
                    other.type_name()
                )));
            }
        }
    }
    if let [Value::Str(only)] = items {
        return Ok(Value::Str(only.clone()));
    }
    budget.check_memory(total)?;
    meter::tick_n(items.len())?;
    let mut out = StrBuilder::with_len(total);
    // Every item was checked to be a str above.
    out.push_joined(
        sep,
        items.iter().map(|x| match x {
            Value::Str(s) => s.as_str(),
            _ => "",
        }),
    );
    // The length in code points is the sum of the parts': no rescan.
    Ok(Value::Str(StrRc::new(out.finish(nchars))))
}

/// Matches a replace keeps on the stack before it builds the result.
const FEW_MATCHES: usize = 16;

/// The text of `s` with `old` at each byte offset of `at` (in order, not
/// overlapping) replaced by `new`, sized exactly: short results are built
/// inline, longer ones in the buffer the string adopts (no UTF-8 check of
/// the result, no copy out of a growing buffer).
fn replace_at(budget: &mut Budget, s: &PyStr, at: &[usize], old: &str, new: &str) -> R<Value> {
    let text = s.as_str();
    let k = at.len();
    let total = (text.len() - k * old.len()).saturating_add(k.saturating_mul(new.len()));
    budget.check_memory(total)?;
    meter::tick_n(k)?;
    // Each match swaps old's code points for new's.
    let nchars = (s.char_len() + k * new.chars().count()).saturating_sub(k * old.chars().count());
    if total <= SHORT {
        let mut out = StrBuilder::with_len(total);
        splice(text, at, old.len(), new, |piece| out.push_str(piece));
        let made = out.finish(nchars);
        return Ok(match made.as_str().as_bytes() {
            [] => empty_str(),
            &[b] if b.is_ascii() => crate::value::iter::char_value(char::from(b)),
            _ => Value::Str(StrRc::new(made)),
        });
    }
    let mut out = String::with_capacity(total + trailer_room(total));
    splice(text, at, old.len(), new, |piece| out.push_str(piece));
    Ok(Value::Str(StrRc::new(PyStr::from_string(out, nchars))))
}

/// Gives `push` the pieces of `text` with `new` in place of the `old_len`
/// bytes at each offset of `at`, in order.
#[inline(always)]
fn splice(text: &str, at: &[usize], old_len: usize, new: &str, mut push: impl FnMut(&str)) {
    let mut last = 0;
    for &p in at {
        push(text.get(last..p).unwrap_or_default());
        push(new);
        last = p + old_len;
    }
    push(text.get(last..).unwrap_or_default());
}

fn replace_text(budget: &mut Budget, s: &StrRc, old: &str, new: &str, count: i64) -> R<Value> {
    let text = s.as_str();
    let limit = if count < 0 {
        usize::MAX
    } else {
        count as usize
    };
    // Nothing to do (or the same text back): the object itself, as in
    // CPython.
    if limit == 0 || old == new {
        return Ok(Value::Str(s.clone()));
    }
    if let (&[from], &[to]) = (old.as_bytes(), new.as_bytes()) {
        return Ok(
            replace_byte(budget, s, from, to, limit)?.unwrap_or_else(|| Value::Str(s.clone()))
        );
    }
    if old.is_empty() {
        let n = (s.char_len() + 1).min(limit);
        budget.check_memory(text.len().saturating_add(n.saturating_mul(new.len())))?;
        let mut out = String::with_capacity(text.len() + n * new.len());
        let mut done = 0;
        for c in text.chars() {
            if done < limit {
                out.push_str(new);
                done += 1;
            }
            out.push(c);
        }
        if done < limit {
            out.push_str(new);
        }
        return Ok(s_val(out));
    }
    // Most replaces match a few times: the matches are found first (kept
    // on the stack), so the result is sized exactly and written once into
    // the storage the string keeps. More matches take the growing path.
    let mut at = [0usize; FEW_MATCHES];
    let mut found = 0;
    let mut more = false;
    search::for_matches(text, old, |p| {
        match at.get_mut(found) {
            Some(slot) => *slot = p,
            None => {
                more = true;
                return false;
            }
        }
        found += 1;
        found < limit
    });
    if found == 0 {
        return Ok(Value::Str(s.clone()));
    }
    if !more {
        return replace_at(budget, s, at.get(..found).unwrap_or_default(), old, new);
    }
    // One pass: the text between matches is copied as each match is
    // found; the buffer checks the budget before it grows.
    let mut out: Option<TextBuf> = None;
    let mut last = 0;
    let mut done = 0;
    let mut result = Ok(());
    search::for_matches(text, old, |p| {
        let buf = match &mut out {
            Some(b) => b,
            None => {
                match TextBuf::with_capacity(text.len().max(text.len() - old.len() + new.len())) {
                    Ok(b) => out.insert(b),
                    Err(e) => {
                        result = Err(e);
                        return false;
                    }
                }
            }
        };
        result = buf
            .push_str(&text[last..p])
            .and_then(|()| buf.push_str(new));
        last = p + old.len();
        done += 1;
        result.is_ok() && done < limit
    });
    result?;
    match out {
        None => Ok(Value::Str(s.clone())),
        Some(mut buf) => {
            buf.push_str(&text[last..])?;
            // Each match swaps old's code points for new's: the length is
            // known without rescanning the result.
            let nchars = (s.char_len() + done * new.chars().count())
                .saturating_sub(done * old.chars().count());
            Ok(s_val_known(buf.into_string(), nchars))
        }
    }
}
