//! Python strings: UTF-8 text that knows its length in code points.
//!
//! Python indexes strings by code point. Keeping the code point count lets an
//! all-ASCII string (the common case) be indexed in O(1); other strings walk
//! their text. The hash is computed once and cached, as CPython does.
//! Text up to 24 bytes (most words, keys and numbers) is stored inline, so
//! such a string is one allocation (its `Rc`), not two.

use std::cell::Cell;

use compact_str::CompactString;

use super::mem;

/// A Python `str`.
pub(crate) struct PyStr {
    text: CompactString,
    nchars: usize,
    hash: Cell<i64>,
}

/// Bytes charged for a string object besides its text.
const OVERHEAD: usize = 40;

impl PyStr {
    /// Wraps `text`, charging its size to the live-value count.
    #[inline]
    pub(crate) fn new(text: impl Into<CompactString>) -> Self {
        let text: CompactString = text.into();
        let nchars = if text.is_ascii() {
            text.len()
        } else {
            text.chars().count()
        };
        mem::charge(heap_bytes(&text) + OVERHEAD);
        PyStr {
            text,
            nchars,
            hash: Cell::new(0),
        }
    }

    /// Wraps `text` whose length in code points the caller knows already
    /// (a join or slice of known parts): no rescan of the text.
    #[inline]
    pub(crate) fn with_char_len(text: CompactString, nchars: usize) -> Self {
        debug_assert_eq!(text.chars().count(), nchars);
        mem::charge(heap_bytes(&text) + OVERHEAD);
        PyStr {
            text,
            nchars,
            hash: Cell::new(0),
        }
    }

    /// The text.
    #[inline]
    pub(crate) fn as_str(&self) -> &str {
        &self.text
    }

    /// Length in code points (`len(s)`).
    #[inline]
    pub(crate) fn char_len(&self) -> usize {
        self.nchars
    }

    /// Whether every code point is ASCII (so byte and char offsets agree).
    #[inline]
    pub(crate) fn is_ascii(&self) -> bool {
        self.nchars == self.text.len()
    }

    /// Appends in place (used when the string is not shared).
    pub(crate) fn push_str(&mut self, other: &PyStr) {
        let before = heap_bytes(&self.text);
        self.text.push_str(&other.text);
        self.nchars += other.nchars;
        self.hash.set(0);
        let after = heap_bytes(&self.text);
        if after > before {
            mem::charge(after - before);
        }
    }

    /// Byte offset of code point `i` (`i <= char_len`).
    pub(crate) fn byte_offset(&self, i: usize) -> usize {
        if self.is_ascii() {
            return i.min(self.text.len());
        }
        self.text
            .char_indices()
            .nth(i)
            .map(|(b, _)| b)
            .unwrap_or(self.text.len())
    }

    /// The code point at index `i` (`i < char_len`).
    pub(crate) fn char_at(&self, i: usize) -> Option<char> {
        if self.is_ascii() {
            return self.text.as_bytes().get(i).map(|&b| b as char);
        }
        self.text.chars().nth(i)
    }

    /// The cached hash (0 means not yet computed).
    #[inline]
    pub(crate) fn cached_hash(&self) -> i64 {
        self.hash.get()
    }

    /// Stores the hash.
    #[inline]
    pub(crate) fn set_hash(&self, h: i64) {
        self.hash.set(h)
    }
}

/// Builds the text of a new string whose byte length is known up front:
/// short text (the inline limit) in a stack buffer, longer text in one
/// buffer of exactly that length, so the string object is made with no
/// reallocation and no copy out of a growing buffer. Pieces are written at
/// a cursor with no capacity logic, and short pieces (most words) without
/// a call to `memcpy`.
pub(crate) enum StrBuilder {
    /// Up to [`INLINE`] bytes on the stack.
    Inline([u8; INLINE], usize),
    /// A heap buffer of the whole length, filled up to the cursor.
    Heap(Vec<u8>, usize),
}

/// Inline text of bytes copied from whole UTF-8 strings (so valid; the
/// lossy branch is never taken).
pub(crate) fn inline_text(bytes: &[u8]) -> CompactString {
    match std::str::from_utf8(bytes) {
        Ok(t) => CompactString::from(t),
        Err(_) => CompactString::from(String::from_utf8_lossy(bytes).as_ref()),
    }
}

/// The longest text a string holds inline.
pub(crate) const INLINE: usize = 24;

/// Copies `src` into `dst` (of the same length). Up to 16 bytes are moved
/// as two overlapping fixed-size words, which compile to plain loads and
/// stores: a libc `memcpy` call costs more than the copy for pieces this
/// short.
#[inline(always)]
fn copy_bytes(dst: &mut [u8], src: &[u8]) {
    let n = src.len();
    if n != dst.len() {
        return;
    }
    match n {
        0 => {}
        1 => dst[0] = src[0],
        2..=3 => {
            dst[..2].copy_from_slice(&src[..2]);
            dst[n - 2..].copy_from_slice(&src[n - 2..]);
        }
        4..=7 => {
            dst[..4].copy_from_slice(&src[..4]);
            dst[n - 4..].copy_from_slice(&src[n - 4..]);
        }
        8..=16 => {
            dst[..8].copy_from_slice(&src[..8]);
            dst[n - 8..].copy_from_slice(&src[n - 8..]);
        }
        _ => dst.copy_from_slice(src),
    }
}

/// `n` zero bytes for text to be written over: a `malloc` and a fill
/// (`vec![0; n]` is a `calloc`, which costs more at the sizes of most
/// strings). Out of line, so the callers that inline the short-text path
/// stay small.
#[inline(never)]
#[allow(
    clippy::slow_vector_initialization,
    reason = "calloc measured slower than malloc and a fill for string-sized buffers"
)]
fn zeroed(n: usize) -> Vec<u8> {
    let mut buf = Vec::with_capacity(n);
    buf.resize(n, 0);
    buf
}

impl StrBuilder {
    /// A builder for `total` bytes.
    #[inline]
    pub(crate) fn with_len(total: usize) -> Self {
        if total <= INLINE {
            StrBuilder::Inline([0; INLINE], 0)
        } else {
            StrBuilder::Heap(zeroed(total), 0)
        }
    }

    /// Appends text (past the announced length the buffer grows: slower,
    /// never wrong).
    #[inline]
    pub(crate) fn push_str(&mut self, s: &str) {
        let src = s.as_bytes();
        let (buf, len): (&mut [u8], &mut usize) = match self {
            StrBuilder::Inline(buf, len) => (buf, len),
            StrBuilder::Heap(buf, len) => (buf, len),
        };
        let end = *len + src.len();
        if let Some(dst) = buf.get_mut(*len..end) {
            copy_bytes(dst, src);
            *len = end;
        } else {
            self.grow(src);
        }
    }

    /// Appends the pieces with `sep` between them (a join): the buffer is
    /// looked up once for the whole run, not per piece. Kept out of line:
    /// inlined into the caller, its short copies were compiled as `memcpy`
    /// calls (a 1.2x slower join, seen in instruction counts).
    #[inline(never)]
    pub(crate) fn push_joined<'a>(&mut self, sep: &str, pieces: impl Iterator<Item = &'a str>) {
        let mut pieces = pieces.peekable();
        let (buf, len): (&mut [u8], &mut usize) = match self {
            StrBuilder::Inline(buf, len) => (buf, len),
            StrBuilder::Heap(buf, len) => (buf, len),
        };
        let mut pos = *len;
        let mut need_sep = false;
        let sep = sep.as_bytes();
        // Fast path while everything fits (it does when the caller's length
        // was right).
        let mut pending: Option<&str> = None;
        for p in pieces.by_ref() {
            let src = p.as_bytes();
            let at = pos + if need_sep { sep.len() } else { 0 };
            let Some(dst) = buf.get_mut(pos..at + src.len()) else {
                pending = Some(p);
                break;
            };
            let (gap, body) = dst.split_at_mut(at - pos);
            if need_sep {
                copy_bytes(gap, sep);
            }
            copy_bytes(body, src);
            pos = at + src.len();
            need_sep = true;
        }
        *len = pos;
        // Past the announced length: the slow, growing path.
        let sep = std::str::from_utf8(sep).unwrap_or_default();
        for p in pending.into_iter().chain(pieces) {
            if need_sep {
                self.push_str(sep);
            }
            self.push_str(p);
            need_sep = true;
        }
    }

    /// Appends past the announced length: the text moves to a heap buffer
    /// that grows.
    #[cold]
    fn grow(&mut self, src: &[u8]) {
        let mut text = match std::mem::replace(self, StrBuilder::Heap(Vec::new(), 0)) {
            StrBuilder::Inline(buf, len) => buf.get(..len).unwrap_or_default().to_vec(),
            StrBuilder::Heap(mut buf, len) => {
                buf.truncate(len);
                buf
            }
        };
        text.extend_from_slice(src);
        let len = text.len();
        *self = StrBuilder::Heap(text, len);
    }

    /// The bytes written so far, to patch in place (a caller that breaks
    /// UTF-8 gets replacement characters from [`StrBuilder::finish`], never
    /// invalid text).
    pub(crate) fn filled_mut(&mut self) -> &mut [u8] {
        match self {
            StrBuilder::Inline(buf, len) => buf.get_mut(..*len).unwrap_or_default(),
            StrBuilder::Heap(buf, len) => buf.get_mut(..*len).unwrap_or_default(),
        }
    }

    /// Appends `n` copies of `c`.
    pub(crate) fn push_repeat(&mut self, c: char, n: usize) {
        if c.is_ascii() {
            let (buf, len): (&mut [u8], &mut usize) = match self {
                StrBuilder::Inline(buf, len) => (buf, len),
                StrBuilder::Heap(buf, len) => (buf, len),
            };
            if let Some(dst) = buf.get_mut(*len..*len + n) {
                dst.fill(c as u8);
                *len += n;
                return;
            }
        }
        let mut one = [0u8; 4];
        let one: &str = c.encode_utf8(&mut one);
        for _ in 0..n {
            self.push_str(one);
        }
    }

    /// The string object of the text, `nchars` code points long.
    pub(crate) fn finish(self, nchars: usize) -> PyStr {
        let text = match self {
            // Whole UTF-8 strings were copied in, so this borrows.
            StrBuilder::Inline(buf, len) => inline_text(buf.get(..len).unwrap_or_default()),
            StrBuilder::Heap(mut buf, len) => {
                buf.truncate(len);
                // Whole UTF-8 strings were copied in: the check passes (its
                // word-wise ASCII scan is cheap next to the copy).
                match String::from_utf8(buf) {
                    Ok(t) => CompactString::from(t),
                    Err(e) => CompactString::from(String::from_utf8_lossy(e.as_bytes()).as_ref()),
                }
            }
        };
        PyStr::with_char_len(text, nchars)
    }
}

impl Drop for PyStr {
    fn drop(&mut self) {
        mem::credit(heap_bytes(&self.text) + OVERHEAD);
    }
}

/// Bytes the text holds outside the string object.
#[inline]
fn heap_bytes(text: &CompactString) -> usize {
    if text.is_heap_allocated() {
        text.capacity()
    } else {
        0
    }
}

/// The str value of `part`, a substring of `whole`: a piece of ASCII text
/// has as many code points as bytes, so it is not rescanned; empty and
/// one-character ASCII pieces are the shared objects.
#[inline]
pub(crate) fn part_value(whole: &PyStr, part: &str) -> super::Value {
    use super::{Value, iter};
    match part.as_bytes() {
        [] => iter::empty_str(),
        &[b] if b.is_ascii() => iter::char_value(char::from(b)),
        _ if whole.is_ascii() => Value::Str(std::rc::Rc::new(PyStr::with_char_len(
            part.into(),
            part.len(),
        ))),
        _ => Value::str(part),
    }
}

/// `st[start::step]` of `count` code points (indices already resolved by
/// the slice rules): substrings of ASCII text by bytes, of other text by
/// one walk to both ends; the length in code points is `count`, never
/// rescanned. The whole string slices to itself, as in CPython.
pub(crate) fn slice_str(
    st: &std::rc::Rc<PyStr>,
    start: i64,
    step: i64,
    count: usize,
) -> super::errors::R<super::Value> {
    use super::Value;
    use super::meter;
    let text = st.as_str();
    let make = |t: &str| {
        if let &[b] = t.as_bytes() {
            // One ASCII character: the shared table, no allocation.
            return super::iter::char_value(char::from(b));
        }
        Value::Str(std::rc::Rc::new(PyStr::with_char_len(t.into(), count)))
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
        if count <= INLINE {
            // Short picks gather on the stack and are stored inline.
            let mut small = [0u8; INLINE];
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
        return Ok(Value::Str(std::rc::Rc::new(PyStr::with_char_len(
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The text built, whatever the announced length: exact, too short
    /// (the buffer grows, inline or heap) or too long (the rest is cut).
    #[test]
    fn builder_gives_the_text_for_any_announced_length() {
        let pieces = ["ab", "", "cdefghijklmnopq", "é😀", "rstuvwxyz0123456789"];
        let want = pieces.join(", ");
        for total in [0, 3, 24, 25, want.len(), want.len() + 9] {
            let mut b = StrBuilder::with_len(total);
            b.push_joined(", ", pieces.iter().copied());
            assert_eq!(b.finish(want.chars().count()).as_str(), want, "{total}");
            let mut b = StrBuilder::with_len(total);
            for (i, p) in pieces.iter().enumerate() {
                if i > 0 {
                    b.push_str(", ");
                }
                b.push_str(p);
            }
            b.push_repeat('é', 3);
            b.push_repeat('-', 2);
            let s = b.finish(want.chars().count() + 5);
            assert_eq!(s.as_str(), format!("{want}ééé--"), "{total}");
        }
    }

    /// Short pieces of every length up to 17 bytes copy exactly.
    #[test]
    fn short_copies_are_exact() {
        let src: Vec<u8> = (0..17u8).collect();
        for n in 0..=17 {
            let mut dst = vec![0xffu8; n];
            copy_bytes(&mut dst, &src[..n]);
            assert_eq!(dst, &src[..n]);
        }
    }
}
