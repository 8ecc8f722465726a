//! The case methods of `str` (`upper`, `lower`, `casefold`, `swapcase`,
//! `capitalize`, `title`) and the case mappings they share.

use super::call_args::s_val;
use crate::runtime::Budget;
use crate::runtime::error::R;
use crate::runtime::meter::{self, TextBuf};
use crate::text::unicode::{self as uc};
use crate::types::args::{Kw, none};
use crate::types::str::{SHORT, short_str, trailer_room};
use crate::value::{PyStr, StrRc, Value};

pub(super) fn upper(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
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

pub(super) fn lower(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    none("str.lower", args, kwargs)?;
    if s.is_ascii() {
        return ascii_recase(s, |t| t.make_ascii_lowercase());
    }
    Ok(s_val(lower_text(s.as_str())?))
}

pub(super) fn casefold(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
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

pub(super) fn swapcase(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
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

pub(super) fn capitalize(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
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

pub(super) fn title(_budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
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

/// Lowercases `c` (at byte `i` of `text`), with Greek final sigma as
/// CPython applies it.
pub(super) fn push_lower(out: &mut TextBuf, text: &str, i: usize, c: char) -> R<()> {
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
pub(super) const SIGMA_WINDOW: usize = 64;

/// `text.lower()`: lower case grows text by at most half ('İ' → 'i̇'), so
/// the budget is checked for that before the library call.
pub(super) fn lower_text(text: &str) -> R<String> {
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
pub(super) fn ascii_recase(s: &PyStr, f: impl FnOnce(&mut [u8])) -> R<Value> {
    recase_ascii_text(s.as_str(), f)
}

/// [`ascii_recase`] of ASCII `text`: text a string holds in its own block
/// is re-cased on the stack, longer text in the buffer the string adopts
/// (with room for its trailer: no reallocation).
pub(super) fn recase_ascii_text(text: &str, f: impl FnOnce(&mut [u8])) -> R<Value> {
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
pub(super) fn ascii_map(s: &PyStr, mut f: impl FnMut(usize, u8) -> u8) -> R<Value> {
    // Every byte stays below 0x80, so the bytes stay valid UTF-8.
    recase_ascii_text(s.as_str(), |bytes| {
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = f(i, *b) & 0x7f;
        }
    })
}

/// Maps each character of `text` (with its byte offset) into a buffer
/// that is checked before it grows and ticks per character.
pub(super) fn map_text(
    text: &str,
    mut f: impl FnMut(&mut TextBuf, usize, char) -> R<()>,
) -> R<Value> {
    let mut out = TextBuf::with_capacity(text.len())?;
    for (i, c) in text.char_indices() {
        f(&mut out, i, c)?;
    }
    Ok(s_val(out.into_string()))
}
