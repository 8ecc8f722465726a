//! Python strings: UTF-8 text that knows its length in code points.
//!
//! Python indexes strings by code point, so a string must tell at once
//! whether it is all ASCII (then byte and code point offsets agree) and
//! how many code points it holds. A `PyStr` is one `CompactString` (24
//! bytes, so its `Rc` block is 40 bytes: a 48-byte heap chunk):
//!
//! * Text up to [`INLINE`] bytes (most words, keys and numbers) is stored
//!   inline, with nothing else: its ASCII test and code point count are
//!   computed on demand (a few word operations over at most 24 bytes), so
//!   making a short string never scans it.
//! * Longer text lives on the heap followed by a short ASCII *trailer*
//!   that keeps the ASCII test and the count O(1): its last byte is the
//!   trailer's length `k`; `k == 1` means all ASCII (the count is the byte
//!   length), otherwise the `k - 1` bytes before it hold the count, 7 bits
//!   a byte, low bits first. The trailer is ASCII, so the text ends on a
//!   character boundary and [`PyStr::as_str`] is a slice of the buffer.
//!
//! The form is decided by the byte length alone, so equal texts are stored
//! alike. No hash is cached: a string is hashed when it is used as a key
//! (a few multiply rounds for short text; tables keep hash bits of their
//! own).

use compact_str::CompactString;

use super::mem;

/// A Python `str`.
pub(crate) struct PyStr {
    /// The text; past [`INLINE`] bytes, followed by its trailer.
    raw: CompactString,
}

// One word less than the text, count and hash it used to carry: a string's
// `Rc` block fits a 48-byte chunk.
const _: () = assert!(std::mem::size_of::<PyStr>() == 24);

/// Bytes charged for a string object besides its heap text: its `Rc`
/// block (two counts and the `PyStr`).
const OVERHEAD: usize = 16 + std::mem::size_of::<PyStr>();

/// The longest trailer: a marker and a count of up to 64 bits, 7 a byte.
const MAX_TRAILER: usize = 1 + 64_usize.div_ceil(7);

/// The trailer of heap text (see the module doc).
struct Trailer {
    buf: [u8; MAX_TRAILER],
    len: usize,
}

impl Trailer {
    /// The trailer of text of `nchars` code points (`ascii` when that is
    /// its byte length).
    #[inline]
    fn new(nchars: usize, ascii: bool) -> Self {
        let mut buf = [0u8; MAX_TRAILER];
        if ascii {
            buf[0] = 1;
            return Trailer { buf, len: 1 };
        }
        let mut n = nchars;
        let mut k = 0;
        loop {
            if let Some(b) = buf.get_mut(k) {
                *b = (n & 0x7f) as u8;
            }
            k += 1;
            n >>= 7;
            if n == 0 || k + 1 >= MAX_TRAILER {
                break;
            }
        }
        if let Some(b) = buf.get_mut(k) {
            *b = (k + 1) as u8;
        }
        Trailer { buf, len: k + 1 }
    }

    /// The trailer's characters (ASCII, so one byte each).
    #[inline]
    fn chars(&self) -> impl Iterator<Item = char> + '_ {
        self.buf.iter().take(self.len).map(|&b| char::from(b))
    }

    /// Appends the trailer to `s`, reserving exactly what it lacks.
    #[inline(never)]
    fn push_to(&self, s: &mut String) {
        s.reserve_exact(self.len);
        s.extend(self.chars());
    }
}

/// Appends the trailer of `s`'s text, `nchars` code points long: the
/// all-ASCII mark inline (a byte store when the buffer has room, as the
/// builders leave it), a count out of line.
#[inline(always)]
fn push_trailer(s: &mut String, nchars: usize) {
    if nchars == s.len() {
        if s.len() == s.capacity() {
            // Exactly, not the doubling a plain push would make.
            s.reserve_exact(1);
        }
        s.push('\u{1}');
    } else {
        Trailer::new(nchars, false).push_to(s);
    }
}

/// Room a builder of `len` bytes of heap text leaves for its trailer (so
/// sealing it does not reallocate): the longest trailer a text that long
/// can need.
#[inline]
pub(crate) fn trailer_room(len: usize) -> usize {
    let bits = usize::BITS - len.leading_zeros();
    1 + (bits as usize).div_ceil(7).max(1)
}

/// The stored form of `text` of `nchars` code points: short text as is,
/// longer text with its trailer appended (in place when the buffer has
/// room, else with an exact reallocation, never an amortised doubling).
#[inline]
fn seal(mut text: CompactString, nchars: usize) -> CompactString {
    if text.len() <= INLINE {
        return text;
    }
    seal_long(&mut text, nchars);
    text
}

/// [`seal`] of heap text, out of line (short text is the common case).
/// The text goes through a `String` (the buffer is moved, not copied),
/// whose byte pushes are cheaper than the `CompactString` ones.
#[inline(never)]
fn seal_long(text: &mut CompactString, nchars: usize) {
    let mut s = std::mem::take(text).into_string();
    push_trailer(&mut s, nchars);
    *text = CompactString::from(s);
}

/// The stored form of heap `text` of `nchars` code points, in one buffer.
#[inline(never)]
fn copy_long(text: &str, nchars: usize) -> CompactString {
    let mut s = String::with_capacity(text.len() + trailer_room(text.len()));
    s.push_str(text);
    push_trailer(&mut s, nchars);
    CompactString::from(s)
}

/// Whether two texts of one length over 16 bytes are equal.
#[inline(never)]
fn long_eq(a: &[u8], b: &[u8]) -> bool {
    a == b
}

/// Whether short text (up to [`INLINE`] bytes) is all ASCII: up to three
/// overlapping word loads, no loop (the std test's alignment handling
/// costs more than the test at these lengths).
#[inline(always)]
fn short_is_ascii(b: &[u8]) -> bool {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let n = b.len();
    if let (Some(head), Some(tail)) = (b.first_chunk::<8>(), b.last_chunk::<8>()) {
        // [0, 8), [mid, mid + 8) and [n - 8, n) cover up to 24 bytes.
        let mid = b
            .get((n - 8) / 2..)
            .and_then(|m| m.first_chunk::<8>())
            .unwrap_or(head);
        let word = |w: &[u8; 8]| u64::from_ne_bytes(*w);
        (word(head) | word(mid) | word(tail)) & HIGH == 0
    } else if n >= 4 {
        let four = |at: usize| {
            let mut w = [0u8; 4];
            if let Some(src) = b.get(at..at + 4) {
                w.copy_from_slice(src);
            }
            u32::from_ne_bytes(w)
        };
        (four(0) | four(n - 4)) & 0x8080_8080 == 0
    } else {
        b.iter().fold(0, |acc, &c| acc | c) < 0x80
    }
}

/// Code points in short text: its length when ASCII, else the bytes that
/// do not continue a character.
#[inline]
fn count_chars(b: &[u8]) -> usize {
    if short_is_ascii(b) {
        b.len()
    } else {
        count_wide(b)
    }
}

/// Code points in short text that is not all ASCII.
#[inline(never)]
fn count_wide(b: &[u8]) -> usize {
    b.iter().filter(|&&c| (c as i8) >= -0x40).count()
}

impl PyStr {
    /// Wraps `text`, charging its size to the live-value count.
    #[inline]
    pub(crate) fn new(text: impl Into<CompactString>) -> Self {
        let text: CompactString = text.into();
        if text.len() <= INLINE {
            return PyStr::stored(text);
        }
        let nchars = if text.is_ascii() {
            text.len()
        } else {
            text.chars().count()
        };
        PyStr::stored(seal(text, nchars))
    }

    /// Wraps `text` whose length in code points the caller knows already
    /// (a join or slice of known parts): no rescan of the text.
    #[inline]
    pub(crate) fn with_char_len(text: CompactString, nchars: usize) -> Self {
        debug_assert_eq!(text.chars().count(), nchars);
        PyStr::stored(seal(text, nchars))
    }

    /// A copy of `text`, `nchars` code points long: heap text is copied
    /// once into a buffer with exact room for its trailer.
    #[inline]
    pub(crate) fn from_text(text: &str, nchars: usize) -> Self {
        if text.len() <= INLINE {
            return PyStr::stored(CompactString::from(text));
        }
        PyStr::stored(copy_long(text, nchars))
    }

    /// Adopts `text` (its buffer, when the text is long: the trailer goes
    /// in the room past the text, else the buffer grows exactly),
    /// `nchars` code points long.
    #[inline]
    pub(crate) fn from_string(mut text: String, nchars: usize) -> Self {
        if text.len() > INLINE {
            push_trailer(&mut text, nchars);
        }
        PyStr::stored(CompactString::from(text))
    }

    /// `a + b`, made at its final size: short text inline (its count is
    /// not needed, so neither side is counted), longer text in one buffer
    /// with room for the trailer.
    #[inline]
    pub(crate) fn concat(a: &PyStr, b: &PyStr) -> Self {
        let (x, y) = (a.as_str(), b.as_str());
        let len = x.len() + y.len();
        if len <= INLINE {
            let mut text = CompactString::with_capacity(len);
            text.push_str(x);
            text.push_str(y);
            return PyStr::stored(text);
        }
        let mut text = String::with_capacity(len + trailer_room(len));
        text.push_str(x);
        text.push_str(y);
        PyStr::from_string(text, a.char_len() + b.char_len())
    }

    /// A copy of `text`, counted only when long (short text needs no
    /// count; long text is scanned once, word-wise when ASCII).
    #[inline]
    pub(crate) fn copied(text: &str) -> Self {
        if text.len() <= INLINE {
            return PyStr::stored(CompactString::from(text));
        }
        let nchars = if text.is_ascii() {
            text.len()
        } else {
            text.chars().count()
        };
        PyStr::stored(copy_long(text, nchars))
    }

    /// Whether two strings have the same text: by length, then short text
    /// (most keys) with a few fixed-size word compares inline, longer text
    /// with `memcmp`. Equal texts are stored alike, but compared as text
    /// (the trailer is not part of it).
    #[inline(always)]
    pub(crate) fn same_text(&self, other: &PyStr) -> bool {
        let (a, b) = (self.as_str().as_bytes(), other.as_str().as_bytes());
        let n = a.len();
        if n != b.len() {
            return false;
        }
        if n > 16 {
            return long_eq(a, b);
        }
        if let (Some(ah), Some(bh), Some(at), Some(bt)) = (
            a.first_chunk::<8>(),
            b.first_chunk::<8>(),
            a.last_chunk::<8>(),
            b.last_chunk::<8>(),
        ) {
            return ah == bh && at == bt;
        }
        if let (Some(ah), Some(bh), Some(at), Some(bt)) = (
            a.first_chunk::<4>(),
            b.first_chunk::<4>(),
            a.last_chunk::<4>(),
            b.last_chunk::<4>(),
        ) {
            return ah == bh && at == bt;
        }
        // Up to three bytes: the first, middle and last cover them.
        n == 0 || (a.first() == b.first() && a.get(n / 2) == b.get(n / 2) && a.last() == b.last())
    }

    /// The string object of text already in its stored form.
    #[inline]
    fn stored(raw: CompactString) -> Self {
        mem::charge(heap_bytes(&raw) + OVERHEAD);
        PyStr { raw }
    }

    /// The text.
    #[inline]
    pub(crate) fn as_str(&self) -> &str {
        let t = self.raw.as_str();
        let n = t.len();
        if n <= INLINE {
            return t;
        }
        let k = t.as_bytes().last().copied().unwrap_or_default();
        t.get(..n.wrapping_sub(k as usize)).unwrap_or(t)
    }

    /// Length in code points (`len(s)`).
    #[inline]
    pub(crate) fn char_len(&self) -> usize {
        let b = self.raw.as_bytes();
        let n = b.len();
        if n <= INLINE {
            return count_chars(b);
        }
        match b.last() {
            Some(1) => n - 1,
            _ => self.counted_len(),
        }
    }

    /// The count of heap text that is not all ASCII, from its trailer.
    #[inline(never)]
    fn counted_len(&self) -> usize {
        let b = self.raw.as_bytes();
        let k = b.last().copied().unwrap_or_default() as usize;
        let digits = b.get(b.len().saturating_sub(k)..b.len().saturating_sub(1));
        digits
            .unwrap_or_default()
            .iter()
            .rev()
            .fold(0usize, |n, &d| (n << 7) | usize::from(d))
    }

    /// Whether every code point is ASCII (so byte and char offsets agree).
    #[inline]
    pub(crate) fn is_ascii(&self) -> bool {
        let b = self.raw.as_bytes();
        if b.len() <= INLINE {
            short_is_ascii(b)
        } else {
            b.last() == Some(&1)
        }
    }

    /// Appends in place (used when the string is not shared). Growth is
    /// amortised: the buffer grows by half again when full.
    pub(crate) fn push_str(&mut self, other: &PyStr) {
        let add = other.as_str();
        if add.is_empty() {
            return;
        }
        let n = self.raw.len();
        if n > INLINE && self.raw.as_bytes().last() == Some(&1) && add.is_ascii() {
            // Long all-ASCII text (its trailer is the one byte saying so)
            // stays all-ASCII: the new text goes in before the trailer,
            // which is unchanged (one amortised reserve, no re-encoding).
            let before = heap_bytes(&self.raw);
            self.raw.insert_str(n - 1, add);
            let after = heap_bytes(&self.raw);
            if after > before {
                mem::charge(after - before);
            }
            return;
        }
        let before = heap_bytes(&self.raw);
        let keep = self.as_str().len();
        if keep + add.len() <= INLINE {
            // Short text has no trailer.
            self.raw.push_str(add);
        } else {
            let nchars = self.char_len() + other.char_len();
            let tail = Trailer::new(nchars, self.is_ascii() && other.is_ascii());
            self.raw.truncate(keep);
            self.raw.reserve(add.len() + tail.len);
            self.raw.push_str(add);
            self.raw.extend(tail.chars());
        }
        let after = heap_bytes(&self.raw);
        if after > before {
            mem::charge(after - before);
        }
    }

    /// Byte offset of code point `i` (`i <= char_len`).
    pub(crate) fn byte_offset(&self, i: usize) -> usize {
        let text = self.as_str();
        if self.is_ascii() {
            return i.min(text.len());
        }
        text.char_indices()
            .nth(i)
            .map(|(b, _)| b)
            .unwrap_or(text.len())
    }

    /// The code point at index `i` (`i < char_len`).
    pub(crate) fn char_at(&self, i: usize) -> Option<char> {
        let text = self.as_str();
        if self.is_ascii() {
            return text.as_bytes().get(i).map(|&b| b as char);
        }
        text.chars().nth(i)
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
/// strings), with room for the string's trailer past them. Out of line, so
/// the callers that inline the short-text path stay small.
#[inline(never)]
#[allow(
    clippy::slow_vector_initialization,
    reason = "calloc measured slower than malloc and a fill for string-sized buffers"
)]
fn zeroed(n: usize) -> Vec<u8> {
    let mut buf = Vec::with_capacity(n + trailer_room(n));
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
        match self {
            // Whole UTF-8 strings were copied in, so this borrows.
            StrBuilder::Inline(buf, len) => {
                PyStr::with_char_len(inline_text(buf.get(..len).unwrap_or_default()), nchars)
            }
            StrBuilder::Heap(mut buf, len) => {
                buf.truncate(len);
                // Whole UTF-8 strings were copied in: the check passes (its
                // word-wise ASCII scan is cheap next to the copy).
                match String::from_utf8(buf) {
                    Ok(t) => PyStr::from_string(t, nchars),
                    Err(e) => PyStr::new(String::from_utf8_lossy(e.as_bytes()).as_ref()),
                }
            }
        }
    }
}

impl Drop for PyStr {
    fn drop(&mut self) {
        mem::credit(heap_bytes(&self.raw) + OVERHEAD);
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
        _ if whole.is_ascii() => Value::Str(std::rc::Rc::new(PyStr::from_text(part, part.len()))),
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
        Value::Str(std::rc::Rc::new(PyStr::from_text(t, count)))
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

    /// The short ASCII test and count agree with the std ones at every
    /// length and position of a non-ASCII byte.
    #[test]
    fn short_tests_match_std() {
        for n in 0..=INLINE {
            let ascii = vec![b'a'; n];
            assert!(short_is_ascii(&ascii), "{n}");
            assert_eq!(count_chars(&ascii), n);
            for at in 0..n {
                let mut b = ascii.clone();
                b[at] = 0xc3;
                assert!(!short_is_ascii(&b), "{n} {at}");
            }
            for at in 0..n.saturating_sub(1) {
                let mut t = "a".repeat(n - 2);
                t.insert(at, 'é');
                assert_eq!(count_chars(t.as_bytes()), t.chars().count(), "{n} {at}");
            }
        }
    }

    /// Heap text keeps its count in its trailer at every trailer length
    /// (one to three count bytes), whichever way it was made.
    #[test]
    fn heap_text_keeps_its_count() {
        for n in [13, 25, 127, 128, 16_383, 16_384, 40_000] {
            for unit in ["a", "é", "€", "😀"] {
                let text = unit.repeat(n);
                let ascii = unit.len() == 1;
                for s in [
                    PyStr::new(text.as_str()),
                    PyStr::new(text.clone()),
                    PyStr::from_text(&text, n),
                    PyStr::with_char_len(CompactString::from(text.as_str()), n),
                ] {
                    assert_eq!(s.as_str(), text);
                    assert_eq!(s.char_len(), n);
                    assert_eq!(s.is_ascii(), ascii);
                }
            }
        }
    }

    /// `+=` in place across the inline edge and on: text, count and
    /// ASCII test stay right, and the meter is charged what is held.
    #[test]
    fn push_grows_across_the_edge() {
        for piece in ["ab", "é", "z€😀"] {
            let mut s = PyStr::new("");
            let mut want = String::new();
            for _ in 0..40 {
                let add = PyStr::new(piece);
                s.push_str(&add);
                want.push_str(piece);
                assert_eq!(s.as_str(), want);
                assert_eq!(s.char_len(), want.chars().count());
                assert_eq!(s.is_ascii(), want.is_ascii());
            }
        }
    }

    /// Text equality agrees with `==` at every length up to past the
    /// word compares, wherever the one differing byte is.
    #[test]
    fn same_text_matches_eq() {
        for n in 0..=40 {
            let a = PyStr::new("q".repeat(n));
            assert!(a.same_text(&PyStr::new("q".repeat(n))), "{n}");
            assert!(!a.same_text(&PyStr::new("q".repeat(n + 1))), "{n}");
            for at in 0..n {
                let mut t = "q".repeat(n).into_bytes();
                t[at] = b'r';
                let b = PyStr::new(String::from_utf8(t).unwrap_or_default());
                assert!(!a.same_text(&b), "{n} {at}");
            }
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
