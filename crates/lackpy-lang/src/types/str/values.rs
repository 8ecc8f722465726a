//! Strings as values: a substring or a slice of a string as a new str
//! value (the shared empty and one-character strings where they apply).

use compact_str::CompactString;

use super::{PyStr, SHORT, StrRc, zeroed};
use crate::runtime::error::R;
use crate::runtime::meter;
use crate::value::{Value, char_value};

/// The str value of `part`, a substring of `whole`: a piece of ASCII text
/// has as many code points as bytes, so it is not rescanned; empty and
/// one-character ASCII pieces are the shared objects.
#[inline]
pub(crate) fn part_value(whole: &PyStr, part: &str) -> Value {
    super::split::make_part(whole.is_ascii(), part)
}

/// `st[start::step]` of `count` code points (indices already resolved by
/// the slice rules): substrings of ASCII text by bytes, of other text by
/// one walk to both ends; the length in code points is `count`, never
/// rescanned. The whole string slices to itself, as in CPython.
pub(crate) fn slice_str(st: &StrRc, start: i64, step: i64, count: usize) -> R<Value> {
    let text = st.as_str();
    let make = |t: &str| {
        if let &[b] = t.as_bytes() {
            // One ASCII character: the shared table, no allocation.
            return char_value(char::from(b));
        }
        Value::Str(StrRc::new(PyStr::from_text(t, count)))
    };
    if count == 0 {
        return Ok(make(""));
    }
    let start = usize::try_from(start).unwrap_or(0);
    if step == 1 {
        if start == 0 && count == st.char_len() {
            return Ok(Value::Str(st.clone()));
        }
        let (a, b) = if st.is_ascii() {
            (start, start + count)
        } else {
            let mut ends = text.char_indices().map(|(b, _)| b).chain([text.len()]);
            let a = ends.nth(start).unwrap_or(text.len());
            let b = ends.nth(count - 1).unwrap_or(text.len());
            (a, b)
        };
        return Ok(make(text.get(a..b).unwrap_or_default()));
    }
    meter::tick_n(count)?;
    if st.is_ascii() {
        meter::ensure(count)?;
        let bytes = text.as_bytes();
        // The slice rules keep every picked index inside the text: walk
        // it with a stride instead of indexing each pick.
        let stride = usize::try_from(step.unsigned_abs()).unwrap_or(usize::MAX);
        // Each pick is the first byte of a `stride`-long chunk going
        // forward, or the last byte of one going back: plain chunk walks,
        // and a reversed copy (`[::-1]`) is a copy then an in-place
        // (vectorised) reverse.
        let gather = |picked: &mut [u8]| {
            if step > 0 {
                let from = bytes.get(start..).unwrap_or_default();
                for (slot, chunk) in picked.iter_mut().zip(from.chunks(stride)) {
                    *slot = chunk.first().copied().unwrap_or_default();
                }
            } else if stride == 1 {
                let upto = bytes.get(..=start).unwrap_or_default();
                let tail = upto.get(upto.len().saturating_sub(picked.len())..);
                if let Some(tail) = tail.filter(|t| t.len() == picked.len()) {
                    picked.copy_from_slice(tail);
                    picked.reverse();
                }
            } else {
                let upto = bytes.get(..=start).unwrap_or_default();
                for (slot, chunk) in picked.iter_mut().zip(upto.rchunks(stride)) {
                    *slot = chunk.last().copied().unwrap_or_default();
                }
            }
        };
        if count <= SHORT {
            // Short picks gather on the stack and are stored inline.
            let mut small = [0u8; SHORT];
            let picked = small.get_mut(..count).unwrap_or_default();
            gather(picked);
            // ASCII bytes of ASCII text: valid UTF-8 (checked word-wise, no
            // lossy decoding).
            return Ok(make(std::str::from_utf8(picked).unwrap_or_default()));
        }
        // Longer picks gather in one exact buffer that becomes the
        // string's own (no second copy).
        let mut big = zeroed(count);
        gather(&mut big);
        let text = String::from_utf8(big).unwrap_or_default();
        return Ok(Value::Str(StrRc::new(PyStr::with_char_len(
            CompactString::from(text),
            count,
        ))));
    }
    // Walk the text instead of copying it into a char vector.
    let mut out = meter::TextBuf::new();
    let stride = step.unsigned_abs() as usize;
    if step > 0 {
        for c in text.chars().skip(start).step_by(stride).take(count) {
            out.push(c)?;
        }
    } else {
        let from_end = st.char_len().saturating_sub(start + 1);
        for c in text
            .chars()
            .rev()
            .skip(from_end)
            .step_by(stride)
            .take(count)
        {
            out.push(c)?;
        }
    }
    Ok(make(&out.into_string()))
}
