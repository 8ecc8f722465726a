//! What a run answers.

use std::borrow::Cow;
use std::time::Duration;

use super::trace::TraceEntry;
use super::trace_cap::TraceDropped;
use crate::data::Data;
use crate::data::json_text::JsonText;

/// The outcome of one run (the `ExecutionResult` of runtime.md, minus the
/// fields the service adds).
#[derive(Debug, Clone, PartialEq)]
pub struct RunOutcome {
    /// Whether the program ran to the end.
    pub success: bool,
    /// Value of the last top-level statement if it is an expression
    /// statement, else `None`; `None` on failure. Held as its JSON text
    /// (runtime.md's rules), written straight from the value: the output
    /// is only ever read as JSON, and a tree of [`Data`] would take many
    /// times the text's bytes ([`RunOutcome::output_data`] builds one).
    pub output: Option<JsonText>,
    /// The output as a [`Data`] tree keeping its Python forms, only when
    /// the run was asked for it
    /// ([`RunOptions::output_value`](crate::RunOptions::output_value)).
    pub output_value: Option<Data>,
    /// Python's `repr()` of the output (`"None"` when there is none).
    pub output_repr: Option<String>,
    /// Everything `print` wrote, also on failure.
    pub stdout: String,
    /// The error message (`str(exc)`), on failure.
    pub error: Option<String>,
    /// The exception class name, on failure.
    pub error_type: Option<String>,
    /// The source line of the failure, when known.
    pub error_line: Option<u32>,
    /// The 1-based column (UTF-8 bytes) of the failure, when known. A run's
    /// own errors know their line only; the service fills this for a
    /// program refused by validation.
    pub error_column: Option<u32>,
    /// Tool calls in order: all of them, or under
    /// [`Limits::max_trace_entries`](crate::Limits::max_trace_entries) the
    /// first and the last.
    pub trace: Vec<TraceEntry>,
    /// What the trace left out under its cap, with the run's exact call
    /// count; `None` when every call is in `trace`.
    pub trace_dropped: Option<TraceDropped>,
    /// Module-level names after a successful run, in binding order, minus
    /// tools, builtins, params and names starting with `_`; empty on failure
    /// and when the run was asked to [`Omit`](crate::Variables::Omit) them.
    /// Each value is already JSON text (runtime.md's rules).
    pub variables: Vec<(String, JsonText)>,
    /// Wall-clock time of the whole run.
    pub duration: Duration,
}

impl RunOutcome {
    /// `output` if not None, else `stdout` stripped if non-empty, else
    /// `None`; `None` on failure. Derived, not stored, so that the output
    /// is held once.
    pub fn effective_output(&self) -> Option<Cow<'_, JsonText>> {
        if !self.success {
            return None;
        }
        if let Some(text) = &self.output {
            return Some(Cow::Borrowed(text));
        }
        let stripped = self.stdout.trim_matches(crate::text::unicode::is_space);
        (!stripped.is_empty()).then(|| Cow::Owned(JsonText::string(stripped)))
    }

    /// The output as a [`Data`] tree (tuples read back as lists, sets as
    /// their `str()` text, as a JSON reader sees them).
    pub fn output_data(&self) -> Option<Data> {
        self.output.as_ref().map(JsonText::to_data)
    }

    /// A failed outcome with nothing run.
    pub(crate) fn refused(error_type: &str, message: String, duration: Duration) -> Self {
        RunOutcome {
            success: false,
            output: None,
            output_value: None,
            output_repr: Some("None".to_owned()),
            stdout: String::new(),
            error: Some(message),
            error_type: Some(error_type.to_owned()),
            error_line: None,
            error_column: None,
            trace: Vec::new(),
            trace_dropped: None,
            variables: Vec::new(),
            duration,
        }
    }
}
