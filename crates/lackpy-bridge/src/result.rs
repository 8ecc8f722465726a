//! The result of a run, with the serde shape of `runtime.md`.

use std::time::Duration;

use lackpy_lang::interp::{RunOutcome, TraceEntry};
use lackpy_lang::{Data, Grade};
use serde::ser::{SerializeMap, SerializeStruct};
use serde::{Serialize, Serializer};
use serde_json::value::RawValue;

/// What `run_program` returns (see `runtime.md`).
#[derive(Debug, Clone, PartialEq)]
pub struct ExecutionResult {
    /// Whether the program ran to the end.
    pub success: bool,
    /// The value of a final expression statement.
    pub output: Option<Data>,
    /// Python's `repr` of the output.
    pub output_repr: Option<String>,
    /// Everything `print` wrote.
    pub stdout: String,
    /// `output`, else `stdout` stripped if non-empty, else `None`.
    pub effective_output: Option<Data>,
    /// The error message, as Python's `str(exc)`.
    pub error: Option<String>,
    /// The exception class name, or `ValidationError`, `TimeoutError`, …
    pub error_type: Option<String>,
    /// The source line of the failure.
    pub error_line: Option<u32>,
    /// The tool calls, in order.
    pub trace: Vec<TraceEntry>,
    /// Module-level names after the run (empty on failure).
    pub variables: Vec<(String, Data)>,
    /// The grade of the tool set the program ran with.
    pub grade: Grade,
    /// Paths the file tools read.
    pub files_read: Vec<String>,
    /// Paths the file tools wrote.
    pub files_modified: Vec<String>,
    /// The whole run.
    pub duration: Duration,
}

impl ExecutionResult {
    /// A result from the interpreter's outcome and what the bridge adds.
    pub fn from_outcome(
        o: RunOutcome,
        grade: Grade,
        files_read: Vec<String>,
        files_modified: Vec<String>,
        duration: Duration,
    ) -> ExecutionResult {
        ExecutionResult {
            success: o.success,
            output: o.output,
            output_repr: o.output_repr,
            stdout: o.stdout,
            effective_output: o.effective_output,
            error: o.error,
            error_type: o.error_type,
            error_line: o.error_line,
            trace: o.trace,
            variables: o.variables,
            grade,
            files_read,
            files_modified,
            duration,
        }
    }

    /// A run that failed before the program started (validation, refused
    /// params, an internal error): empty trace, nothing printed.
    pub fn failed(
        error_type: &str,
        error: String,
        grade: Grade,
        duration: Duration,
    ) -> ExecutionResult {
        ExecutionResult {
            success: false,
            output: None,
            output_repr: None,
            stdout: String::new(),
            effective_output: None,
            error: Some(error),
            error_type: Some(error_type.to_string()),
            error_line: None,
            trace: Vec::new(),
            variables: Vec::new(),
            grade,
            files_read: Vec::new(),
            files_modified: Vec::new(),
            duration,
        }
    }
}

/// A value written exactly as Python's `json.dumps(v, default=str)`.
struct Json<'a>(Option<&'a Data>);

impl Serialize for Json<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            None => s.serialize_none(),
            Some(d) => RawValue::from_string(d.to_json())
                .map_err(serde::ser::Error::custom)?
                .serialize(s),
        }
    }
}

/// Named values as a JSON object, in order.
struct Named<'a>(&'a [(String, Data)]);

impl Serialize for Named<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            m.serialize_entry(k, &Json(Some(v)))?;
        }
        m.end()
    }
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// One trace entry with the serde shape of `runtime.md`.
pub struct TraceRecord<'a>(pub &'a TraceEntry);

impl Serialize for TraceRecord<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let e = self.0;
        let mut st = s.serialize_struct("TraceEntry", 7)?;
        st.serialize_field("step", &e.step)?;
        st.serialize_field("tool", &e.tool)?;
        st.serialize_field("args", &Named(&e.args))?;
        st.serialize_field("result", &Json(e.result.as_ref()))?;
        st.serialize_field("duration_ms", &millis(e.duration))?;
        st.serialize_field("success", &e.success)?;
        st.serialize_field("error", &e.error)?;
        st.end()
    }
}

struct Trace<'a>(&'a [TraceEntry]);

impl Serialize for Trace<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(TraceRecord))
    }
}

impl Serialize for ExecutionResult {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("ExecutionResult", 14)?;
        st.serialize_field("success", &self.success)?;
        st.serialize_field("output", &Json(self.output.as_ref()))?;
        st.serialize_field("output_repr", &self.output_repr)?;
        st.serialize_field("stdout", &self.stdout)?;
        st.serialize_field("effective_output", &Json(self.effective_output.as_ref()))?;
        st.serialize_field("error", &self.error)?;
        st.serialize_field("error_type", &self.error_type)?;
        st.serialize_field("error_line", &self.error_line)?;
        st.serialize_field("trace", &Trace(&self.trace))?;
        st.serialize_field("variables", &Named(&self.variables))?;
        st.serialize_field("grade", &self.grade)?;
        st.serialize_field("files_read", &self.files_read)?;
        st.serialize_field("files_modified", &self.files_modified)?;
        st.serialize_field("duration_ms", &millis(self.duration))?;
        st.end()
    }
}
