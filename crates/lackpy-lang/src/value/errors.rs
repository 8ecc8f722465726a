//! Python exceptions as the interpreter raises them.
//!
//! A run stops at the first uncaught exception (lackpy has no `try`), so an
//! exception is just its class name, its message (`str(exc)`) and the line
//! it was raised on.

use std::fmt;

use crate::value::Value;

/// The exception classes the interpreter raises, plus any class a tool
/// reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ExcKind {
    TypeError,
    ValueError,
    KeyError,
    IndexError,
    NameError,
    UnboundLocalError,
    AttributeError,
    ZeroDivisionError,
    OverflowError,
    RecursionError,
    MemoryError,
    RuntimeError,
    TimeoutError,
    StepLimitError,
    Cancelled,
    ValidationError,
    /// The run finished but its result (output, variables, trace) is over
    /// the result size limit.
    ResultTooLargeError,
    /// A class named by a tool error (`ToolError`, `FileNotFoundError`, …).
    Other(String),
}

impl ExcKind {
    /// The class name.
    pub(crate) fn name(&self) -> &str {
        match self {
            ExcKind::TypeError => "TypeError",
            ExcKind::ValueError => "ValueError",
            ExcKind::KeyError => "KeyError",
            ExcKind::IndexError => "IndexError",
            ExcKind::NameError => "NameError",
            ExcKind::UnboundLocalError => "UnboundLocalError",
            ExcKind::AttributeError => "AttributeError",
            ExcKind::ZeroDivisionError => "ZeroDivisionError",
            ExcKind::OverflowError => "OverflowError",
            ExcKind::RecursionError => "RecursionError",
            ExcKind::MemoryError => "MemoryError",
            ExcKind::RuntimeError => "RuntimeError",
            ExcKind::TimeoutError => "TimeoutError",
            ExcKind::StepLimitError => "StepLimitError",
            ExcKind::Cancelled => "Cancelled",
            ExcKind::ValidationError => "ValidationError",
            ExcKind::ResultTooLargeError => "ResultTooLargeError",
            ExcKind::Other(s) => s,
        }
    }
}

/// A raised exception.
#[derive(Debug, Clone)]
pub(crate) struct Exc {
    pub kind: ExcKind,
    /// `str(exc)`.
    pub msg: String,
    /// The line it was raised on (0 until known).
    pub line: u32,
}

/// Result of anything that may raise.
pub(crate) type R<T> = Result<T, Box<Exc>>;

impl fmt::Display for Exc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.name(), self.msg)
    }
}

macro_rules! ctor {
    ($($fn:ident => $kind:ident),* $(,)?) => {
        impl Exc {
            $(
                #[doc = concat!("A new `", stringify!($kind), "`.")]
                #[cold]
                pub(crate) fn $fn(msg: impl Into<String>) -> Box<Exc> {
                    Exc::new(ExcKind::$kind, msg)
                }
            )*
        }
    };
}

ctor! {
    type_error => TypeError,
    value_error => ValueError,
    index_error => IndexError,
    name_error => NameError,
    attribute_error => AttributeError,
    zero_division => ZeroDivisionError,
    overflow => OverflowError,
    recursion => RecursionError,
    runtime_error => RuntimeError,
}

impl Exc {
    /// A new exception.
    #[cold]
    pub(crate) fn new(kind: ExcKind, msg: impl Into<String>) -> Box<Exc> {
        Box::new(Exc {
            kind,
            msg: msg.into(),
            line: 0,
        })
    }

    /// A limit error (timeout, steps, memory, depth, cancellation).
    #[cold]
    pub(crate) fn limit(kind: ExcKind, msg: impl Into<String>) -> Box<Exc> {
        Exc::new(kind, msg)
    }

    /// `KeyError(key)`: its message is the key's repr.
    #[cold]
    pub(crate) fn key_error(key: &Value) -> Box<Exc> {
        let msg = crate::value::repr::repr(key).unwrap_or_else(|e| e.msg);
        Exc::new(ExcKind::KeyError, msg)
    }

    /// `KeyError('text')`.
    #[cold]
    pub(crate) fn key_error_text(text: &str) -> Box<Exc> {
        let mut msg = String::new();
        crate::value::repr::push_str_repr(&mut msg, text, false);
        Exc::new(ExcKind::KeyError, msg)
    }

    /// `MemoryError()`.
    #[cold]
    pub(crate) fn memory() -> Box<Exc> {
        Exc::limit(ExcKind::MemoryError, "")
    }

    /// TypeError for a value that is not iterable.
    #[cold]
    pub(crate) fn not_iterable(v: &Value) -> Box<Exc> {
        Exc::type_error(format!("'{}' object is not iterable", v.type_name()))
    }

    /// TypeError for an int-like argument of the wrong type.
    #[cold]
    pub(crate) fn not_index(v: &Value) -> Box<Exc> {
        Exc::type_error(format!(
            "'{}' object cannot be interpreted as an integer",
            v.type_name()
        ))
    }

    /// AttributeError for a missing attribute.
    #[cold]
    pub(crate) fn no_attr(v: &Value, name: &str) -> Box<Exc> {
        match v {
            Value::Type(t) => Exc::attribute_error(format!(
                "type object '{}' has no attribute '{}'",
                t.name(),
                name
            )),
            _ => Exc::attribute_error(format!(
                "'{}' object has no attribute '{}'",
                v.type_name(),
                name
            )),
        }
    }
}
