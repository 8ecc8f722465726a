//! What validation answers: the verdict with its errors ([`Validation`]),
//! each error with where it was found ([`Diagnostic`]).

use serde::Serialize;

use crate::syntax::ast::{Col, Line};

/// The outcome of validating a program.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Validation {
    /// `true` when `errors` is empty.
    pub valid: bool,
    /// Every problem found, in check order, breadth-first within a check.
    pub errors: Vec<String>,
    /// The same problems, one for each of `errors` and in the same order,
    /// with where they are.
    pub diagnostics: Vec<Diagnostic>,
    /// Names of plainly called functions, breadth-first, duplicates kept.
    pub calls: Vec<String>,
    /// Direct `Name` targets of plain assignments, breadth-first.
    pub variables: Vec<String>,
}

/// One validation error and where it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// The error's text, as in [`Validation::errors`].
    pub message: String,
    /// The 1-based line the error is reported at, when it names one.
    pub line: Option<u32>,
    /// The 1-based column of the first character of the node the error
    /// reports (CPython's `col_offset` + 1, so counted in UTF-8 bytes), when
    /// known. Parse errors have none.
    pub column: Option<u32>,
}

impl Diagnostic {
    /// An error without a position.
    pub fn new(message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            message: message.into(),
            line: None,
            column: None,
        }
    }

    /// An error reported at a node that starts at `line`, `col` (CPython's
    /// 0-based `col_offset`).
    pub(crate) fn at(line: Line, col: Col, message: String) -> Diagnostic {
        Diagnostic {
            message,
            line: Some(line),
            column: Some(col.saturating_add(1)),
        }
    }
}

impl Validation {
    /// The verdict on a program refused before it could be checked (not
    /// text, an empty answer): `message` is its one error, with no
    /// position.
    pub fn failed(message: impl Into<String>) -> Validation {
        Validation::from_diagnostics(vec![Diagnostic::new(message)], Vec::new(), Vec::new())
    }

    pub(super) fn from_diagnostics(
        diagnostics: Vec<Diagnostic>,
        calls: Vec<String>,
        variables: Vec<String>,
    ) -> Validation {
        Validation {
            valid: diagnostics.is_empty(),
            errors: diagnostics.iter().map(|d| d.message.clone()).collect(),
            diagnostics,
            calls,
            variables,
        }
    }

    /// The verdict on a program that does not parse: its one error has the
    /// parse error's line and no column (CPython's `SyntaxError.offset` is
    /// not reproduced, so none is given).
    pub fn unparsed(e: &crate::syntax::parse::ParseError) -> Validation {
        let d = Diagnostic {
            message: e.to_string(),
            line: Some(e.line),
            column: None,
        };
        Validation::from_diagnostics(vec![d], Vec::new(), Vec::new())
    }
}
