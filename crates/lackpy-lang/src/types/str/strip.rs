//! `str.strip`, `lstrip` and `rstrip`, and a strip followed by a case
//! method run as one step.

use super::call_args::{no_kw, strip_chars};
use super::case::{casefold, lower, recase_ascii_text, upper};
use crate::runtime::Budget;
use crate::runtime::error::{Exc, R};
use crate::syntax::catalog::MethodId as M;
use crate::text::unicode::is_space;
use crate::types::args::{Kw, between};
use crate::value::{PyStr, StrRc, Value};

pub(super) fn strip(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    strip_as(M::Strip, s, args, kwargs)
}

pub(super) fn lstrip(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    strip_as(M::Lstrip, s, args, kwargs)
}

pub(super) fn rstrip(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    strip_as(M::Rstrip, s, args, kwargs)
}

/// `strip`, `lstrip` or `rstrip` (`id`).
pub(super) fn strip_as(id: M, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
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
    let run = match recase {
        M::Lower => lower,
        M::Upper => upper,
        M::Casefold => casefold,
        other => return Err(Exc::no_attr(&Value::Str(s.clone()), other.name())),
    };
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
pub(super) fn stripped<'a>(id: M, s: &'a PyStr, args: &[Value], kwargs: Kw) -> R<&'a str> {
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
pub(super) const SPACE_MASK: u128 = 0x3e00 | 0xf000_0000 | 1 << 32;

/// `text` less the ASCII bytes in `mask` at its start (`lead`) and end
/// (`trail`). With `uni_space`, non-ASCII whitespace is stripped too: an
/// end stopped at a non-ASCII byte is trimmed on by chars. Every cut falls
/// next to an ASCII byte, so on a char boundary.
pub(super) fn trim_mask(text: &str, mask: u128, lead: bool, trail: bool, uni_space: bool) -> &str {
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
