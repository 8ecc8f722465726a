//! `str.replace`.

use super::call_args::{s_val, s_val_known};
use crate::runtime::Budget;
use crate::runtime::error::{Exc, R};
use crate::runtime::meter::{self, TextBuf};
use crate::text::search;
use crate::types::args::{self, Kw, between, no_kwargs};
use crate::types::str::{SHORT, StrBuilder, trailer_room};
use crate::value::empty_str;
use crate::value::{PyStr, StrRc, Value};

pub(super) fn replace(budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
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

/// `replace` of one ASCII character by another (`' '` by `'_'`): the
/// result is the text with those bytes swapped, the same length. An ASCII
/// byte never occurs inside a multi-byte character, so the text stays
/// UTF-8. `None` when nothing matches.
pub(super) fn replace_byte(
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
        return Ok(Some(crate::value::char_value(char::from(to))));
    }
    Ok(Some(Value::Str(StrRc::new(out.finish(s.char_len())))))
}

/// Matches a replace keeps on the stack before it builds the result.
pub(super) const FEW_MATCHES: usize = 16;

/// The text of `s` with `old` at each byte offset of `at` (in order, not
/// overlapping) replaced by `new`, sized exactly: short results are built
/// inline, longer ones in the buffer the string adopts (no UTF-8 check of
/// the result, no copy out of a growing buffer).
pub(super) fn replace_at(
    budget: &mut Budget,
    s: &PyStr,
    at: &[usize],
    old: &str,
    new: &str,
) -> R<Value> {
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
            &[b] if b.is_ascii() => crate::value::char_value(char::from(b)),
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
pub(super) fn splice(
    text: &str,
    at: &[usize],
    old_len: usize,
    new: &str,
    mut push: impl FnMut(&str),
) {
    let mut last = 0;
    for &p in at {
        push(text.get(last..p).unwrap_or_default());
        push(new);
        last = p + old_len;
    }
    push(text.get(last..).unwrap_or_default());
}

pub(super) fn replace_text(
    budget: &mut Budget,
    s: &StrRc,
    old: &str,
    new: &str,
    count: i64,
) -> R<Value> {
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
