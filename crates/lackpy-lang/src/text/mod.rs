//! The text layer: pure functions on characters, text, bytes and numbers.
//!
//! * [`unicode`]: CPython's character predicates and case mappings.
//! * [`format`]: `repr(float)`, the format-spec mini-language, printf-style
//!   `%` formatting and `str.format` templates.
//! * [`codecs`]: the text encodings of `str.encode` and `bytes.decode`.
//! * [`search`]: substring search in text and bytes (`find`, `split`, …).
//!
//! Nothing here knows about values, the budget or the interpreter: callers
//! pass plain data and a length cap, and turn errors into exceptions.

pub(crate) mod codecs;
pub(crate) mod format;
pub(crate) mod search;
pub(crate) mod unicode;
