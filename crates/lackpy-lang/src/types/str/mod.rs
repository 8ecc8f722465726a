//! Python strings: UTF-8 text that knows its length in code points.
//!
//! Python indexes strings by code point, so a string must tell at once
//! whether it is all ASCII (then byte and code point offsets agree) and
//! how many code points it holds. A `PyStr` is 32 bytes and its
//! reference-counted block ([`StrRc`]: the `PyStr` and a 4-byte count) is
//! 40 bytes, a 48-byte heap chunk:
//!
//! * Text up to [`SHORT`] bytes (words, keys, numbers, most lines and
//!   paths) is held in the block itself with a one-byte length, with
//!   nothing else: its ASCII test and code point count are computed on
//!   demand (at most two 16-byte loads), so making a short string never
//!   scans it, and a short string is one heap block, as in CPython.
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

pub(crate) mod call_args;
pub(crate) mod case;
pub(crate) mod join;
pub(crate) mod methods;
pub(crate) mod ops;
pub(crate) mod pad;
pub(crate) mod pieces;
pub(crate) mod predicates;
pub(crate) mod replace;
pub(crate) mod repr;
pub(crate) mod search;
pub(crate) mod split;
pub(crate) mod split_call;
pub(crate) mod strip;
pub(crate) mod translate;
pub(crate) mod values;

use std::cell::RefCell;

use compact_str::CompactString;

pub(crate) use self::values::{part_value, slice_str};
use crate::runtime::free_list::{self, FreeList};
use crate::runtime::memory;

/// A Python `str`.
pub(crate) struct PyStr {
    /// The text, in the form its byte length decides.
    repr: Repr,
}

/// How a string's text is held; the byte length alone decides the form,
/// so equal texts are stored alike.
enum Repr {
    /// Up to [`SHORT`] bytes, inline.
    Short(ShortText),
    /// More than [`SHORT`] bytes on the heap, followed by the trailer.
    Long(String),
}

/// Inline text with a one-byte length (31 bytes: with the form's tag,
/// a `PyStr` is 32).
type ShortText = heapless::String<SHORT, u8>;

// With a 4-byte count (and no weak count) the string's block is 40 bytes:
// a 48-byte chunk holding up to 30 bytes of text, where a `std::rc::Rc`
// (16 bytes of counts) would have left room for 24.
const _: () = assert!(std::mem::size_of::<PyStr>() == 32);

/// A shared string: a reference count without weak references, whose
/// block is the `PyStr` and a 4-byte count.
///
/// The count is `rclite`'s, whose release of the last reference would be
/// compiled inline into every value's drop (freeing the text and the
/// block: calls that make each drop save registers, even of an int).
/// Here the last reference goes to one out-of-line function instead, as
/// `std::rc::Rc` does. `None` is only ever seen inside `drop`.
///
/// The accessors here and on [`PyStr`] are always inlined in optimised
/// builds only: inlined at opt-level 0, their temporaries would each take
/// a slot in every recursive frame that reads a string (repr, JSON,
/// compare), and debug builds would reach the stack guard sooner.
pub(crate) struct StrRc(Option<rclite::Rc<PyStr>>);

impl StrRc {
    /// A new shared string.
    #[inline]
    pub(crate) fn new(s: PyStr) -> Self {
        StrRc(Some(block(s)))
    }

    /// Whether both are the same string object (one compare of the two
    /// pointers: no branch on the `None` that is never there).
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn ptr_eq(a: &Self, b: &Self) -> bool {
        std::ptr::eq(StrRc::as_ptr(a), StrRc::as_ptr(b))
    }

    /// The string object's address (its identity).
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn as_ptr(this: &Self) -> *const PyStr {
        this.0.as_ref().map_or(std::ptr::null(), rclite::Rc::as_ptr)
    }

    /// The string, to change in place, when nothing else holds it.
    #[inline]
    pub(crate) fn get_mut(this: &mut Self) -> Option<&mut PyStr> {
        this.0.as_mut().and_then(rclite::Rc::get_mut)
    }
}

impl std::ops::Deref for StrRc {
    type Target = PyStr;

    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn deref(&self) -> &PyStr {
        match &self.0 {
            Some(s) => s,
            None => dropped(),
        }
    }
}

/// What a string being dropped reads as (nothing reads it: `None` is only
/// set inside `drop`).
#[cold]
#[inline(never)]
fn dropped() -> &'static PyStr {
    static EMPTY: PyStr = PyStr::vacant();
    &EMPTY
}

impl Clone for StrRc {
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn clone(&self) -> Self {
        StrRc(self.0.clone())
    }
}

impl Drop for StrRc {
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn drop(&mut self) {
        if let Some(s) = self.0.take() {
            if s.strong_count() == 1 {
                release(s);
            } else {
                // Not the last: only the count goes down.
                drop(s);
            }
        }
    }
}

thread_local! {
    /// String blocks kept for the next strings made ([`FreeList`]).
    static FREE: RefCell<FreeList<PyStr>> = const { RefCell::new(FreeList::new()) };
}

/// A block holding `s`: a kept one when there is one.
#[inline]
fn block(s: PyStr) -> rclite::Rc<PyStr> {
    let kept = free_list::take_kept(&FREE);
    match kept {
        Some(mut rc) => match rclite::Rc::get_mut(&mut rc) {
            Some(slot) => {
                // The empty string kept in the block was never charged.
                std::mem::forget(std::mem::replace(slot, s));
                rc
            }
            // Never: a kept block has no other reference.
            None => rclite::Rc::new(s),
        },
        None => rclite::Rc::new(s),
    }
}

/// Frees a string's text and keeps or frees its block (its last
/// reference).
#[inline(never)]
fn release(mut rc: rclite::Rc<PyStr>) {
    let Some(slot) = rclite::Rc::get_mut(&mut rc) else {
        // Never: the caller holds the last reference.
        return;
    };
    // The string ends here (its charge is given back); the block keeps an
    // empty one.
    drop(std::mem::replace(slot, PyStr::vacant()));
    free_list::keep_or_free(&FREE, rc);
}

/// Starts keeping string blocks on this thread (a run starts).
pub(crate) fn open_free_list() {
    free_list::open_list(&FREE);
}

/// Frees the kept string blocks and keeps no more (the last run on this
/// thread ended).
pub(crate) fn close_free_list() {
    free_list::close_list(&FREE);
}

/// Bytes charged for a string object besides its heap text: its block
/// (the `PyStr` and the 4-byte count, padded to the `PyStr`'s alignment).
const OVERHEAD: usize =
    (std::mem::size_of::<PyStr>() + 4).next_multiple_of(std::mem::align_of::<PyStr>());

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
/// builders leave it), a count out of line. A buffer adopted with a malloc
/// granule or more to spare (a formatting buffer sized by an estimate) is
/// cut to its text: a string lives as long as the program keeps it, and a
/// list of such strings would hold the slack of each.
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
    if s.capacity() - s.len() >= SLACK {
        trim(s);
    }
}

/// Spare bytes past which an adopted buffer is cut to its text (a malloc
/// chunk's granule: less would free nothing).
const SLACK: usize = 16;

/// Cuts `s`'s buffer to its length (glibc shrinks in place and frees the
/// rest).
#[inline(never)]
fn trim(s: &mut String) {
    s.shrink_to_fit();
}

/// Room a builder of `len` bytes of heap text leaves for its trailer (so
/// sealing it does not reallocate): the longest trailer a text that long
/// can need.
#[inline]
pub(crate) fn trailer_room(len: usize) -> usize {
    let bits = usize::BITS - len.leading_zeros();
    1 + (bits as usize).div_ceil(7).max(1)
}

/// The stored form of `text` of `nchars` code points: short text inline,
/// longer text with its trailer appended (in place when the buffer has
/// room, else with an exact reallocation, never an amortised doubling).
#[inline]
fn seal(text: CompactString, nchars: usize) -> Repr {
    if text.len() <= SHORT {
        return Repr::Short(short_text(&text));
    }
    seal_long(text, nchars)
}

/// [`seal`] of heap text, out of line (short text is the common case):
/// the buffer is moved, not copied.
#[inline(never)]
fn seal_long(text: CompactString, nchars: usize) -> Repr {
    let mut s = text.into_string();
    push_trailer(&mut s, nchars);
    Repr::Long(s)
}

/// `text` (up to [`SHORT`] bytes) as inline text.
#[inline]
fn short_text(text: &str) -> ShortText {
    let mut m = ShortText::new();
    // It fits: callers pass at most `SHORT` bytes.
    let _ = m.push_str(text);
    m
}

/// The stored form of heap `text` of `nchars` code points, in one buffer.
#[inline(never)]
fn copy_long(text: &str, nchars: usize) -> Repr {
    let mut s = String::with_capacity(text.len() + trailer_room(text.len()));
    s.push_str(text);
    push_trailer(&mut s, nchars);
    Repr::Long(s)
}

/// Whether two texts of one length over 16 bytes are equal.
#[inline(never)]
fn long_eq(a: &[u8], b: &[u8]) -> bool {
    a == b
}

/// Whether short text (up to [`SHORT`] bytes) is all ASCII: at most two
/// overlapping loads, no loop (the std test's alignment handling costs
/// more than the test at these lengths).
#[inline(always)]
fn short_is_ascii(b: &[u8]) -> bool {
    let n = b.len();
    if let (Some(head), Some(tail)) = (b.first_chunk::<16>(), b.last_chunk::<16>()) {
        // [0, 16) and [n - 16, n) cover up to 32 bytes.
        const HIGH: u128 = u128::from_ne_bytes([0x80; 16]);
        (u128::from_ne_bytes(*head) | u128::from_ne_bytes(*tail)) & HIGH == 0
    } else if let (Some(head), Some(tail)) = (b.first_chunk::<8>(), b.last_chunk::<8>()) {
        (u64::from_ne_bytes(*head) | u64::from_ne_bytes(*tail)) & 0x8080_8080_8080_8080 == 0
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

/// The count of heap text `b` that is not all ASCII, from its trailer.
#[inline(never)]
fn counted_len(b: &[u8]) -> usize {
    let k = b.last().copied().unwrap_or_default() as usize;
    let digits = b.get(b.len().saturating_sub(k)..b.len().saturating_sub(1));
    digits
        .unwrap_or_default()
        .iter()
        .rev()
        .fold(0usize, |n, &d| (n << 7) | usize::from(d))
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
        if text.len() <= SHORT {
            return PyStr::stored(Repr::Short(short_text(&text)));
        }
        let nchars = if text.is_ascii() {
            text.len()
        } else {
            text.chars().count()
        };
        PyStr::stored(seal_long(text, nchars))
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
        if text.len() <= SHORT {
            return PyStr::stored(Repr::Short(short_text(text)));
        }
        PyStr::stored(copy_long(text, nchars))
    }

    /// Adopts `text` (its buffer, when the text is long: the trailer goes
    /// in the room past the text, else the buffer grows exactly),
    /// `nchars` code points long.
    #[inline]
    pub(crate) fn from_string(mut text: String, nchars: usize) -> Self {
        if text.len() <= SHORT {
            return PyStr::stored(Repr::Short(short_text(&text)));
        }
        push_trailer(&mut text, nchars);
        PyStr::stored(Repr::Long(text))
    }

    /// `a + b`, made at its final size: short text inline (its count is
    /// not needed, so neither side is counted), longer text in one buffer
    /// with room for the trailer.
    #[inline]
    pub(crate) fn concat(a: &PyStr, b: &PyStr) -> Self {
        let (x, y) = (a.as_str(), b.as_str());
        let len = x.len() + y.len();
        if len <= SHORT {
            let mut text = short_text(x);
            let _ = text.push_str(y);
            return PyStr::stored(Repr::Short(text));
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
        if text.len() <= SHORT {
            return PyStr::stored(Repr::Short(short_text(text)));
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

    /// The empty string a kept block holds ([`FreeList`]): never charged,
    /// and never dropped.
    const fn vacant() -> Self {
        PyStr {
            repr: Repr::Short(ShortText::new()),
        }
    }

    /// The string object of text already in its stored form.
    #[inline]
    fn stored(repr: Repr) -> Self {
        memory::charge(heap_bytes(&repr) + OVERHEAD);
        PyStr { repr }
    }

    /// The text.
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn as_str(&self) -> &str {
        match &self.repr {
            Repr::Short(t) => t.as_str(),
            Repr::Long(t) => {
                let k = t.as_bytes().last().copied().unwrap_or_default();
                t.get(..t.len().wrapping_sub(k as usize)).unwrap_or(t)
            }
        }
    }

    /// Length in code points (`len(s)`).
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn char_len(&self) -> usize {
        match &self.repr {
            Repr::Short(t) => count_chars(t.as_bytes()),
            Repr::Long(t) => {
                let b = t.as_bytes();
                match b.last() {
                    Some(1) => b.len() - 1,
                    _ => counted_len(b),
                }
            }
        }
    }

    /// Whether every code point is ASCII (so byte and char offsets agree).
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn is_ascii(&self) -> bool {
        match &self.repr {
            Repr::Short(t) => short_is_ascii(t.as_bytes()),
            Repr::Long(t) => t.as_bytes().last() == Some(&1),
        }
    }

    /// Appends in place (used when the string is not shared). Growth is
    /// amortised: the buffer grows by half again when full.
    pub(crate) fn push_str(&mut self, other: &PyStr) {
        let add = other.as_str();
        if add.is_empty() {
            return;
        }
        let before = heap_bytes(&self.repr);
        match &mut self.repr {
            Repr::Short(t) if t.len() + add.len() <= SHORT => {
                // Short text stays in the block, with no trailer.
                let _ = t.push_str(add);
                return;
            }
            Repr::Long(t) if t.as_bytes().last() == Some(&1) && add.is_ascii() => {
                // Long all-ASCII text (its trailer is the one byte saying
                // so) stays all-ASCII: the new text goes in before the
                // trailer, which is unchanged (one amortised reserve, no
                // re-encoding).
                let n = t.len();
                t.insert_str(n - 1, add);
                self.charge_growth(before);
                return;
            }
            _ => {}
        }
        let keep = self.as_str().len();
        let total = keep + add.len();
        let nchars = self.char_len() + other.char_len();
        let ascii = self.is_ascii() && other.is_ascii();
        match &mut self.repr {
            Repr::Long(t) => {
                let tail = Trailer::new(nchars, ascii);
                t.truncate(keep);
                t.reserve(add.len() + tail.len);
                t.push_str(add);
                t.extend(tail.chars());
            }
            Repr::Short(t) => {
                // Text held in the block moves to one exact buffer.
                let mut s = String::with_capacity(total + trailer_room(total));
                s.push_str(t.as_str());
                s.push_str(add);
                push_trailer(&mut s, nchars);
                self.repr = Repr::Long(s);
            }
        }
        self.charge_growth(before);
    }

    /// Charges what the heap text grew by since it held `before` bytes.
    #[inline]
    fn charge_growth(&self, before: usize) {
        let after = heap_bytes(&self.repr);
        if after > before {
            memory::charge(after - before);
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
    /// Up to [`SHORT`] bytes on the stack.
    Inline([u8; SHORT], usize),
    /// A heap buffer of the whole length, filled up to the cursor.
    Heap(Vec<u8>, usize),
}

/// The string of text of up to [`SHORT`] bytes copied from whole UTF-8
/// strings (so valid; the lossy branch is never taken), held inline.
pub(crate) fn short_str(bytes: &[u8]) -> PyStr {
    match std::str::from_utf8(bytes) {
        Ok(t) => PyStr::copied(t),
        Err(_) => PyStr::new(String::from_utf8_lossy(bytes).as_ref()),
    }
}

/// The longest text a string holds in its own block (no heap text).
pub(crate) const SHORT: usize = 30;

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
pub(crate) fn zeroed(n: usize) -> Vec<u8> {
    let mut buf = Vec::with_capacity(n + trailer_room(n));
    buf.resize(n, 0);
    buf
}

impl StrBuilder {
    /// A builder for `total` bytes.
    #[inline]
    pub(crate) fn with_len(total: usize) -> Self {
        if total <= SHORT {
            StrBuilder::Inline([0; SHORT], 0)
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
            // Short text needs no count.
            StrBuilder::Inline(buf, len) => short_str(buf.get(..len).unwrap_or_default()),
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
        memory::credit(heap_bytes(&self.repr) + OVERHEAD);
    }
}

/// Bytes the text holds outside the string object.
#[inline]
fn heap_bytes(repr: &Repr) -> usize {
    match repr {
        Repr::Short(_) => 0,
        Repr::Long(text) => text.capacity(),
    }
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
        for n in 0..=32 {
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

    /// Heap text adopted with room to spare (a formatting buffer sized by
    /// an estimate) keeps less than a malloc granule of it, ASCII or not,
    /// and the meter is charged what is kept.
    #[test]
    fn adopted_text_is_cut_to_size() {
        let _scope = crate::runtime::RunScope::counting();
        for unit in ["a", "é"] {
            let text = unit.repeat(40);
            let mut buf = String::with_capacity(200);
            buf.push_str(&text);
            let before = memory::used();
            let s = PyStr::from_string(buf, 40);
            assert_eq!(s.as_str(), text);
            assert_eq!(s.char_len(), 40);
            let heap = heap_bytes(&s.repr);
            assert!(
                heap < text.len() + trailer_room(text.len()) + SLACK,
                "{unit} {heap}"
            );
            assert_eq!(memory::used() - before, OVERHEAD + heap, "{unit}");
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

    /// Every way of making a string stores text of each length around the
    /// form edge (30 bytes) in the form its length decides, with
    /// the right text, count and ASCII test, and charges the meter exactly
    /// its block plus any heap text.
    #[test]
    fn each_length_gets_its_form() {
        let _scope = crate::runtime::RunScope::counting();
        for unit in ["a", "é", "€", "😀"] {
            for n in 0..=48_usize {
                // `n` bytes, ending in `unit` when it fits.
                let text = match n.checked_sub(unit.len()) {
                    Some(k) => "a".repeat(k) + unit,
                    None => "a".repeat(n),
                };
                let text = text.as_str();
                let nchars = text.chars().count();
                let half = text
                    .char_indices()
                    .nth(nchars / 2)
                    .map_or(text.len(), |(b, _)| b);
                let (a, b) = text.split_at(half);
                let mut built = StrBuilder::with_len(text.len());
                built.push_str(a);
                built.push_str(b);
                let mut grown = PyStr::new(a);
                grown.push_str(&PyStr::new(b));
                let made = [
                    PyStr::new(text),
                    PyStr::new(text.to_string()),
                    PyStr::from_text(text, nchars),
                    PyStr::from_string(text.to_string(), nchars),
                    PyStr::with_char_len(CompactString::from(text), nchars),
                    PyStr::copied(text),
                    PyStr::concat(&PyStr::new(a), &PyStr::new(b)),
                    short_or_copied(text),
                    built.finish(nchars),
                    grown,
                ];
                for s in made {
                    let len = text.len();
                    assert_eq!(s.as_str(), text, "{unit} {n}");
                    assert_eq!(s.char_len(), nchars, "{unit} {n}");
                    assert_eq!(s.is_ascii(), text.is_ascii(), "{unit} {n}");
                    let short = matches!(s.repr, Repr::Short(_));
                    assert_eq!(short, len <= SHORT, "{unit} {n}");
                    let before = memory::used();
                    let heap = heap_bytes(&s.repr);
                    assert_eq!(heap == 0, len <= SHORT, "{unit} {n}");
                    drop(s);
                    assert_eq!(before - memory::used(), OVERHEAD + heap, "{unit} {n}");
                }
            }
        }
    }

    /// [`short_str`] for text that fits, a copy otherwise.
    fn short_or_copied(text: &str) -> PyStr {
        if text.len() <= SHORT {
            short_str(text.as_bytes())
        } else {
            PyStr::copied(text)
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
