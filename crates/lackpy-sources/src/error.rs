//! [`ToolError`]: how a tool call fails.
//!
//! A failure carries the message a program sees (`str(exc)` in lackpy) and
//! the Python exception class lackpy would have raised, so results and traces
//! read the same as the reference.

use std::borrow::Cow;
use std::fmt;

/// The broad reason a call failed; callers dispatch on this, never on text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ToolErrorKind {
    /// The tool ran and failed (non-zero exit, a raised exception, …).
    Failed,
    /// The call's arguments do not fit the tool (`TypeError`).
    Type,
    /// An argument has the right type but a bad value (`ValueError`).
    Value,
    /// The operating system refused (`FileNotFoundError`, `PermissionError`, …).
    Os,
    /// The call's deadline passed (`TimeoutError`).
    Timeout,
    /// The run was cancelled while the call was in flight (`Cancelled`).
    Cancelled,
    /// The tool cannot be called right now (withdrawn, runtime missing).
    Unavailable,
}

impl ToolErrorKind {
    /// The class name used when the error does not name one itself.
    pub fn default_type(self) -> &'static str {
        match self {
            ToolErrorKind::Failed | ToolErrorKind::Unavailable => "ToolError",
            ToolErrorKind::Type => "TypeError",
            ToolErrorKind::Value => "ValueError",
            ToolErrorKind::Os => "OSError",
            ToolErrorKind::Timeout => "TimeoutError",
            ToolErrorKind::Cancelled => "Cancelled",
        }
    }
}

/// A failed tool call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError {
    kind: ToolErrorKind,
    error_type: Cow<'static, str>,
    message: String,
}

impl ToolError {
    /// An error of `kind` whose class is the kind's default.
    pub fn new(kind: ToolErrorKind, message: impl Into<String>) -> ToolError {
        ToolError {
            kind,
            error_type: Cow::Borrowed(kind.default_type()),
            message: message.into(),
        }
    }

    /// The same error reported under another Python class name.
    pub fn with_type(mut self, error_type: impl Into<Cow<'static, str>>) -> ToolError {
        self.error_type = error_type.into();
        self
    }

    /// A tool failure (`ToolError`).
    pub fn failed(message: impl Into<String>) -> ToolError {
        ToolError::new(ToolErrorKind::Failed, message)
    }

    /// A `TypeError`.
    pub fn type_error(message: impl Into<String>) -> ToolError {
        ToolError::new(ToolErrorKind::Type, message)
    }

    /// A `ValueError`.
    pub fn value_error(message: impl Into<String>) -> ToolError {
        ToolError::new(ToolErrorKind::Value, message)
    }

    /// A `TimeoutError`.
    pub fn timeout(message: impl Into<String>) -> ToolError {
        ToolError::new(ToolErrorKind::Timeout, message)
    }

    /// The call was cancelled.
    pub fn cancelled() -> ToolError {
        ToolError::new(ToolErrorKind::Cancelled, "the call was cancelled")
    }

    /// The tool cannot be called right now.
    pub fn unavailable(message: impl Into<String>) -> ToolError {
        ToolError::new(ToolErrorKind::Unavailable, message)
    }

    /// Why the call failed, broadly.
    pub fn kind(&self) -> ToolErrorKind {
        self.kind
    }

    /// The Python exception class name (`FileNotFoundError`, `TypeError`,
    /// `TimeoutError`, `ToolError`, …) for `error_type` in results.
    pub fn error_type(&self) -> &str {
        &self.error_type
    }

    /// The message a program sees, as Python's `str(exc)`.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ToolError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_have_python_class_names() {
        assert_eq!(ToolError::type_error("x").error_type(), "TypeError");
        assert_eq!(ToolError::timeout("x").error_type(), "TimeoutError");
        assert_eq!(ToolError::cancelled().error_type(), "Cancelled");
        let e = ToolError::new(ToolErrorKind::Os, "[Errno 2] x").with_type("FileNotFoundError");
        assert_eq!(e.error_type(), "FileNotFoundError");
        assert_eq!(e.kind(), ToolErrorKind::Os);
        assert_eq!(e.to_string(), "[Errno 2] x");
    }
}
