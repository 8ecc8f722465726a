//! The padding methods of `str`: `zfill`, `ljust`, `rjust` and `center`.
//!
//! Most padded strings are short (table cells, zero-filled numbers) and
//! padded with an ASCII character. Such a result is laid out in one stack
//! buffer pre-filled with the fill byte, with the text copied over its
//! middle, and stored inline in the new string: no builder, no per-piece
//! capacity checks. Longer results and non-ASCII fills are written once
//! into a buffer of the exact length.

use crate::runtime::Budget;
use crate::runtime::error::{Exc, R};
use crate::syntax::catalog::MethodId as M;
use crate::types::args::{self, Kw};
use crate::types::str::{SHORT, StrBuilder, short_str};
use crate::value::{PyStr, StrRc, Value};

/// `str.center(width[, fillchar])`.
pub(super) fn center(budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    justify(M::Center, budget, s, args, kwargs)
}

/// `str.ljust(width[, fillchar])`.
pub(super) fn ljust(budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    justify(M::Ljust, budget, s, args, kwargs)
}

/// `str.rjust(width[, fillchar])`.
pub(super) fn rjust(budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    justify(M::Rjust, budget, s, args, kwargs)
}

/// The width argument: an int read directly, anything else through
/// `__index__` (bools, big ints, and the TypeError for the rest).
#[inline(always)]
fn width_arg(v: &Value) -> R<i64> {
    match v {
        Value::Int(_, i) => Ok(*i),
        other => args::index(other),
    }
}

/// `center`, `ljust` or `rjust` (`id`). The checks run in CPython's order:
/// the argument count, the width, then the fill character.
#[inline(always)]
fn justify(id: M, budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    let (w, fill) = match args {
        [w] if kwargs.is_empty() => (w, None),
        [w, f] if kwargs.is_empty() => (w, Some(f)),
        _ => return Err(bad_call(id, args, kwargs)),
    };
    let width = width_arg(w)?;
    let fill = fill_char(fill)?;
    let len = s.char_len() as i64;
    if width <= len {
        return Ok(Value::Str(s.clone()));
    }
    let marg = (width - len) as usize;
    let (left, right) = match id {
        // CPython's split: the odd column goes left only when both the
        // margin and the width are odd.
        M::Center => {
            let left = marg / 2 + (marg & width as usize & 1);
            (left, marg - left)
        }
        M::Ljust => (0, marg),
        _ => (marg, 0),
    };
    pad(budget, s, fill, left, right)
}

/// The error of a call with the wrong arguments (out of line).
#[cold]
#[inline(never)]
fn bad_call(id: M, args: &[Value], kwargs: Kw) -> Box<Exc> {
    let name = id.name();
    if !kwargs.is_empty() {
        return match args::no_kwargs(&format!("str.{name}"), kwargs) {
            Err(e) => e,
            Ok(()) => Exc::type_error(format!("str.{name}() takes no keyword arguments")),
        };
    }
    match args::between(name, args, 1, 2) {
        Err(e) => e,
        Ok(()) => Exc::type_error(format!("{name} expected at most 2 arguments")),
    }
}

/// The fill character (a space when absent): a str of exactly one
/// character, else CPython's TypeError.
#[inline(always)]
fn fill_char(v: Option<&Value>) -> R<char> {
    match v {
        None => Ok(' '),
        Some(Value::Str(f)) if f.char_len() == 1 => {
            f.as_str().chars().next().ok_or_else(|| bad_fill(v))
        }
        Some(_) => Err(bad_fill(v)),
    }
}

#[cold]
#[inline(never)]
fn bad_fill(v: Option<&Value>) -> Box<Exc> {
    match v {
        Some(Value::Str(_)) | None => {
            Exc::type_error("The fill character must be exactly one character long")
        }
        Some(other) => Exc::type_error(format!(
            "The fill character must be a unicode character, not {}",
            other.type_name()
        )),
    }
}

/// `s` with `left` and `right` copies of `fill` around it.
#[inline(always)]
fn pad(budget: &mut Budget, s: &PyStr, fill: char, left: usize, right: usize) -> R<Value> {
    let text = s.as_str().as_bytes();
    let total = (left + right)
        .saturating_mul(fill.len_utf8())
        .saturating_add(text.len());
    if fill.is_ascii() && total <= SHORT {
        // One buffer of fill bytes with the text copied over its middle.
        let mut buf = [fill as u8; SHORT];
        if let Some(mid) = buf.get_mut(left..left + text.len()) {
            mid.copy_from_slice(text);
        }
        return Ok(Value::Str(StrRc::new(short_str(
            buf.get(..total).unwrap_or_default(),
        ))));
    }
    budget.check_memory(total)?;
    Ok(Value::Str(StrRc::new(pad_long(
        s, fill, left, right, total,
    ))))
}

/// [`pad`] for a result that is long or has a non-ASCII fill: written
/// once into a buffer of the exact length.
#[inline(never)]
fn pad_long(s: &PyStr, fill: char, left: usize, right: usize, total: usize) -> PyStr {
    let mut out = StrBuilder::with_len(total);
    out.push_repeat(fill, left);
    out.push_str(s.as_str());
    out.push_repeat(fill, right);
    out.finish(s.char_len() + left + right)
}

/// `str.zfill(width)`: zeros after a leading sign, up to `width`.
pub(super) fn zfill(budget: &mut Budget, s: &StrRc, args: &[Value], kwargs: Kw) -> R<Value> {
    let w = match args {
        [w] if kwargs.is_empty() => w,
        _ => return Err(zfill_call(args, kwargs)),
    };
    let width = width_arg(w)?;
    let len = s.char_len() as i64;
    if width <= len {
        return Ok(Value::Str(s.clone()));
    }
    let zeros = (width - len) as usize;
    let text = s.as_str().as_bytes();
    let total = zeros.saturating_add(text.len());
    // The sign (if any) moves to the front; the zeros go after it.
    let sign = usize::from(matches!(text.first(), Some(b'+' | b'-')));
    let nchars = s.char_len() + zeros;
    if total <= SHORT {
        let mut buf = [b'0'; SHORT];
        if let (Some(head), Some(tail)) = (text.get(..sign), text.get(sign..)) {
            if let Some(d) = buf.get_mut(..sign) {
                d.copy_from_slice(head);
            }
            if let Some(d) = buf.get_mut(sign + zeros..total) {
                d.copy_from_slice(tail);
            }
        }
        return Ok(Value::Str(StrRc::new(short_str(
            buf.get(..total).unwrap_or_default(),
        ))));
    }
    budget.check_memory(total)?;
    let mut out = StrBuilder::with_len(total);
    let (head, tail) = s.as_str().split_at(sign);
    out.push_str(head);
    out.push_repeat('0', zeros);
    out.push_str(tail);
    Ok(Value::Str(StrRc::new(out.finish(nchars))))
}

/// The error of a `zfill` call with the wrong arguments (out of line).
#[cold]
#[inline(never)]
fn zfill_call(args: &[Value], kwargs: Kw) -> Box<Exc> {
    match args::one("str.zfill", args, kwargs) {
        Err(e) => e,
        Ok(_) => Exc::type_error("str.zfill() takes exactly one argument"),
    }
}
