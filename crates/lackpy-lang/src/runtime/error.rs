//! Python exceptions as the interpreter raises them.
//!
//! A run stops at the first uncaught exception (lackpy has no `try`), so an
//! exception is just its class name, its message (`str(exc)`) and the line
//! it was raised on.

use std::fmt;

/// The class of an exception that stops a run: the interpreter's own, the
/// classes lackpy adds around a run (validation, limits, results too large,
/// its own failures) and any class a tool reports. Its [`name`](Self::name)
/// is a result's `error_type`; crates above name these rather than spell
/// the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExceptionKind {
    /// Python's `TypeError`.
    TypeError,
    /// Python's `ValueError`.
    ValueError,
    /// Python's `KeyError`.
    KeyError,
    /// Python's `IndexError`.
    IndexError,
    /// Python's `NameError`.
    NameError,
    /// Python's `UnboundLocalError`.
    UnboundLocalError,
    /// Python's `AttributeError`.
    AttributeError,
    /// Python's `ZeroDivisionError`.
    ZeroDivisionError,
    /// Python's `OverflowError`.
    OverflowError,
    /// Python's `RecursionError` (the stack depth limit included).
    RecursionError,
    /// Python's `MemoryError` (the memory limit included).
    MemoryError,
    /// Python's `RuntimeError`.
    RuntimeError,
    /// The run's time limit passed.
    TimeoutError,
    /// The run's step limit was reached.
    StepLimitError,
    /// The run was cancelled from outside.
    Cancelled,
    /// The program was refused before it ran (it does not parse, or breaks
    /// a rule), or reached a construct the validator refuses.
    ValidationError,
    /// The run finished but its result (output, variables, trace) is over
    /// the result size limit.
    ResultTooLargeError,
    /// lackpy itself failed around the run (the interpreter panicked, the
    /// bridge was shut down): never the program's fault.
    InternalError,
    /// A class named by a tool error (`ToolError`, `FileNotFoundError`, …).
    Other(String),
}

impl ExceptionKind {
    /// The class name, as a result's `error_type` holds it.
    pub fn name(&self) -> &str {
        match self {
            ExceptionKind::TypeError => "TypeError",
            ExceptionKind::ValueError => "ValueError",
            ExceptionKind::KeyError => "KeyError",
            ExceptionKind::IndexError => "IndexError",
            ExceptionKind::NameError => "NameError",
            ExceptionKind::UnboundLocalError => "UnboundLocalError",
            ExceptionKind::AttributeError => "AttributeError",
            ExceptionKind::ZeroDivisionError => "ZeroDivisionError",
            ExceptionKind::OverflowError => "OverflowError",
            ExceptionKind::RecursionError => "RecursionError",
            ExceptionKind::MemoryError => "MemoryError",
            ExceptionKind::RuntimeError => "RuntimeError",
            ExceptionKind::TimeoutError => "TimeoutError",
            ExceptionKind::StepLimitError => "StepLimitError",
            ExceptionKind::Cancelled => "Cancelled",
            ExceptionKind::ValidationError => "ValidationError",
            ExceptionKind::ResultTooLargeError => "ResultTooLargeError",
            ExceptionKind::InternalError => "InternalError",
            ExceptionKind::Other(s) => s,
        }
    }
}

impl fmt::Display for ExceptionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A raised exception.
#[derive(Debug, Clone)]
pub(crate) struct Exc {
    pub kind: ExceptionKind,
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
    /// The error for a construct the language does not admit.
    #[cold]
    pub(crate) fn forbidden(kind: &str, line: u32) -> Box<Exc> {
        let mut e = if kind.contains(' ') {
            Exc::new(ExceptionKind::ValidationError, kind.to_owned())
        } else {
            Exc::new(
                ExceptionKind::ValidationError,
                format!("Forbidden AST node: {kind} at line {line}"),
            )
        };
        e.line = line;
        e
    }

            $(
                #[doc = concat!("A new `", stringify!($kind), "`.")]
                #[cold]
                pub(crate) fn $fn(msg: impl Into<String>) -> Box<Exc> {
                    Exc::new(ExceptionKind::$kind, msg)
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
    pub(crate) fn new(kind: ExceptionKind, msg: impl Into<String>) -> Box<Exc> {
        Box::new(Exc {
            kind,
            msg: msg.into(),
            line: 0,
        })
    }

    /// A limit error (timeout, steps, memory, depth, cancellation).
    #[cold]
    pub(crate) fn limit(kind: ExceptionKind, msg: impl Into<String>) -> Box<Exc> {
        Exc::new(kind, msg)
    }

    /// `MemoryError()`.
    #[cold]
    pub(crate) fn memory() -> Box<Exc> {
        Exc::limit(ExceptionKind::MemoryError, "")
    }
}
