//! Text formatting primitives, byte-identical to CPython 3.11.
//!
//! * [`float_repr`]: `repr(float)` (and `str(float)`).
//! * [`parse_spec`] / [`parse_spec_for`] and [`format_int`], [`format_float`],
//!   [`format_str`]: the format-spec mini-language behind f-strings,
//!   `format()` and `str.format`.
//! * [`parse_percent`] and [`percent_int`], [`percent_float`],
//!   [`percent_text`]: `%`-formatting.
//! * [`parse_template`]: `str.format` templates.
//!
//! Everything here is pure: the interpreter looks values up, converts them
//! and raises; these functions only turn numbers and text into text. Every
//! function that can produce a long result takes `max_len` and fails with a
//! `MemoryError` before allocating anything larger.

mod float_repr;
mod float_text;
mod format_spec;
mod printf;
mod template;

use std::fmt;

pub use float_repr::{float_repr, push_fixed};
pub use float_text::float_text;
pub use format_spec::{
    FormatSpec, format_float, format_i64, format_int, format_str, int_to_float, parse_spec,
    parse_spec_for,
};
pub use printf::{
    Count, FORMAT_REQUIRES_MAPPING, NOT_ALL_ARGUMENTS_CONVERTED, NOT_ENOUGH_ARGUMENTS,
    PERCENT_C_REQUIRES_INT_OR_CHAR, PercentPiece, PercentSpec, STAR_WANTS_INT,
    percent_char_from_int, percent_char_from_str, percent_float, percent_float_required,
    percent_int, percent_integer_required, percent_pieces, percent_real_number_required,
    percent_text, star_precision, star_width,
};
pub use template::{
    AUTO_TO_MANUAL_NUMBERING, FieldName, MANUAL_TO_AUTO_NUMBERING, MAX_STRING_RECURSION,
    TemplatePiece, replacement_index_out_of_range, template_pieces,
};

/// Hard ceiling, in characters, on any single formatting result, whatever
/// `max_len` the caller passes.
pub const MAX_FORMAT_WIDTH: usize = 100_000_000;

/// CPython's default `sys.get_int_max_str_digits()`: decimal conversion of
/// an int with more digits than this is a `ValueError`.
pub const INT_MAX_STR_DIGITS: usize = 4300;

/// The message of a [`FormatErrorKind::MemoryError`] raised for an oversized
/// result.
pub const TOO_LARGE: &str = "format result too large";

/// The Python exception class of a [`FormatError`].
#[allow(
    clippy::enum_variant_names,
    reason = "the variants are Python exception class names"
)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FormatErrorKind {
    /// `ValueError`
    ValueError,
    /// `TypeError`
    TypeError,
    /// `OverflowError`
    OverflowError,
    /// `MemoryError`
    MemoryError,
}

impl FormatErrorKind {
    /// The Python class name, e.g. `"ValueError"`.
    pub fn name(self) -> &'static str {
        match self {
            FormatErrorKind::ValueError => "ValueError",
            FormatErrorKind::TypeError => "TypeError",
            FormatErrorKind::OverflowError => "OverflowError",
            FormatErrorKind::MemoryError => "MemoryError",
        }
    }
}

/// A formatting failure: Python's exception class and message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatError {
    /// The Python exception class.
    pub kind: FormatErrorKind,
    /// The exception message, exactly as CPython 3.11 words it.
    pub message: String,
}

impl FormatError {
    /// An error of `kind` with `message`.
    pub fn new(kind: FormatErrorKind, message: impl Into<String>) -> Self {
        FormatError {
            kind,
            message: message.into(),
        }
    }

    pub(crate) fn value(message: impl Into<String>) -> Self {
        Self::new(FormatErrorKind::ValueError, message)
    }

    pub(crate) fn type_error(message: impl Into<String>) -> Self {
        Self::new(FormatErrorKind::TypeError, message)
    }

    pub(crate) fn overflow(message: impl Into<String>) -> Self {
        Self::new(FormatErrorKind::OverflowError, message)
    }

    pub(crate) fn too_large() -> Self {
        Self::new(FormatErrorKind::MemoryError, TOO_LARGE)
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.name(), self.message)
    }
}

impl std::error::Error for FormatError {}

/// Fails with a `MemoryError` when `len` characters exceed the caller's
/// budget or [`MAX_FORMAT_WIDTH`].
pub(crate) fn check_len(len: usize, max_len: usize) -> Result<(), FormatError> {
    if len > max_len.min(MAX_FORMAT_WIDTH) {
        Err(FormatError::too_large())
    } else {
        Ok(())
    }
}

/// How CPython shows an offending code character in its messages:
/// printable ASCII as itself, anything else as `\x` plus lowercase hex.
pub(crate) fn code_char(c: char) -> String {
    let n = u32::from(c);
    if n > 32 && n < 128 {
        c.to_string()
    } else {
        format!("\\x{n:x}")
    }
}

/// Appends `n` copies of `c`.
pub(crate) fn push_repeated(out: &mut String, c: char, n: usize) {
    if let Ok(b) = u8::try_from(c)
        && b.is_ascii()
    {
        // An ASCII fill (space, zero, `*`) in runs of bytes, not char by
        // char.
        let run = [b; 32];
        let mut left = n;
        while left > 0 {
            let k = left.min(run.len());
            // ASCII bytes: valid UTF-8.
            out.push_str(std::str::from_utf8(&run[..k]).unwrap_or_default());
            left -= k;
        }
        return;
    }
    out.extend(std::iter::repeat_n(c, n));
}

#[cfg(test)]
pub(crate) mod test_rng {
    //! The workspace's seeded test RNG (`lackpy-test-support`), and random
    //! text for the fuzz tests.

    pub(crate) use lackpy_test_support::rng::Rng;

    /// A random text over `alphabet`, up to `max` pieces long.
    pub(crate) fn random_text(rng: &mut Rng, alphabet: &[&str], max: usize) -> String {
        let len = rng.below(max + 1);
        (0..len).map(|_| rng.pick(alphabet)).collect()
    }
}
