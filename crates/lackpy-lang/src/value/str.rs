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
