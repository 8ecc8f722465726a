//! The parse error type and its constructors.

/// A parse failure: CPython's message and the line CPython reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// CPython's message (`invalid syntax`, `unexpected indent`, …).
    pub message: String,
    /// The 1-based line CPython reports.
    pub line: u32,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Parse error: {} (line {})", self.message, self.line)
    }
}

impl std::error::Error for ParseError {}

/// Result alias used throughout the parser.
pub(crate) type PResult<T> = Result<T, ParseError>;

/// Builds an error; kept out of line so the hot paths stay small.
#[cold]
#[inline(never)]
pub(crate) fn err(message: impl Into<String>, line: u32) -> ParseError {
    ParseError {
        message: message.into(),
        line,
    }
}
