//! The JSON shape of a run's result (runtime.md), declared once: serde
//! writes it (Python's text and the strict form, [`crate::py_json`]) and
//! schemars derives the schema the MCP server publishes from the same
//! structs, so the two cannot drift apart.
//!
//! The structs borrow from the result: writing one copies nothing of the
//! program's values, which reach the writer as the interpreter's JSON
//! text ([`Raw`]).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io;
use std::time::Duration;

use lackpy_lang::{Data, DroppedCalls, JsonText, TraceDropped, TraceEntry};
use schemars::JsonSchema;
use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::py_json::{self, Raw};
use crate::result::{ExecutionResult, Paused};

/// A program value as JSON (any JSON value; in Python's text a
/// non-finite float is `NaN`/`Infinity`, in the strict form `null`).
#[derive(Debug, Clone)]
pub struct ProgramValue<'a>(pub Cow<'a, str>);

impl<'a> ProgramValue<'a> {
    /// The interpreter's JSON text, borrowed.
    pub fn text(text: &'a JsonText) -> ProgramValue<'a> {
        ProgramValue(Cow::Borrowed(text.as_str()))
    }

    /// A value written now (trace previews are small).
    pub fn data(d: &Data) -> ProgramValue<'static> {
        ProgramValue(Cow::Owned(d.to_json()))
    }
}

impl<'a> From<Cow<'a, JsonText>> for ProgramValue<'a> {
    fn from(t: Cow<'a, JsonText>) -> ProgramValue<'a> {
        match t {
            Cow::Borrowed(t) => ProgramValue::text(t),
            Cow::Owned(t) => ProgramValue(Cow::Owned(t.into_string())),
        }
    }
}

impl Serialize for ProgramValue<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Raw(&self.0).serialize(s)
    }
}

impl JsonSchema for ProgramValue<'_> {
    fn schema_name() -> Cow<'static, str> {
        "ProgramValue".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({})
    }
}

/// `{"name": value, …}` in the order given.
#[derive(Debug, Clone)]
pub struct Named<'a, V>(pub Vec<(&'a str, V)>);

impl<V: Serialize> Serialize for Named<'_, V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<V: JsonSchema> JsonSchema for Named<'_, V> {
    fn schema_name() -> Cow<'static, str> {
        format!("Named_{}", V::schema_name()).into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <BTreeMap<String, V>>::json_schema(g)
    }
}

/// A duration in milliseconds (a float, as Python writes it).
pub fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// A tool set's grade (declared beside the tool model, which lists grades too).
pub use lackpy_sources::GradeJson;

/// The `ExecutionResult` object of runtime.md.
#[derive(serde::Serialize, JsonSchema)]
pub struct ExecutionResultJson<'a> {
    /// Whether the program ran to the end.
    pub success: bool,
    /// The value of a final expression statement.
    pub output: Option<ProgramValue<'a>>,
    /// Python's `repr` of the output.
    pub output_repr: Option<&'a str>,
    /// Everything `print` wrote.
    pub stdout: &'a str,
    /// output, else stdout stripped, else null.
    pub effective_output: Option<ProgramValue<'a>>,
    /// The error message, as Python's `str(exc)`.
    pub error: Option<&'a str>,
    /// The exception class name, or `ValidationError`, `TimeoutError`, …
    pub error_type: Option<&'a str>,
    /// The source line of the failure.
    pub error_line: Option<u32>,
    /// The 1-based column (UTF-8 bytes) of the failure, when known.
    pub error_column: Option<u32>,
    /// The tool calls, in order (under the trace's cap, the first and the
    /// last).
    pub trace: Vec<TraceEntryJson<'a>>,
    /// Present only when the trace was capped: what it left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace_dropped: Option<TraceDroppedJson<'a>>,
    /// Module-level names after the run (empty on failure).
    pub variables: Named<'a, ProgramValue<'a>>,
    /// The grade of the tool set the program ran with.
    pub grade: GradeJson,
    /// Paths the file tools read.
    pub files_read: &'a [String],
    /// Paths the file tools wrote.
    pub files_modified: &'a [String],
    /// The whole run, in milliseconds.
    pub duration_ms: f64,
    /// Present only when the run waits for an approval.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paused: Option<PausedJson<'a>>,
}

/// One tool call of the trace.
#[derive(serde::Serialize, JsonSchema)]
pub struct TraceEntryJson<'a> {
    /// 0-based index of the call in the run.
    pub step: usize,
    /// The name the program called.
    pub tool: &'a str,
    /// Previews of the arguments, by name.
    pub args: Named<'a, ProgramValue<'static>>,
    /// A preview of the result (null on failure).
    pub result: Option<ProgramValue<'static>>,
    /// How long the call took, in milliseconds.
    pub duration_ms: f64,
    /// Whether the call succeeded.
    pub success: bool,
    /// The tool's error message on failure.
    pub error: Option<&'a str>,
    /// What the host noted about the call.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<&'a str>,
    /// Who decided the call could run, when it needed a decision.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub approval: Option<&'a str>,
    /// Present (true) when the call was answered from a journal.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub replayed: bool,
}

impl<'a> From<&'a TraceEntry> for TraceEntryJson<'a> {
    fn from(e: &'a TraceEntry) -> TraceEntryJson<'a> {
        TraceEntryJson {
            step: e.step,
            tool: &e.tool,
            args: Named(
                e.args
                    .iter()
                    .map(|(k, v)| (k.as_str(), ProgramValue::data(v)))
                    .collect(),
            ),
            result: e.result.as_ref().map(ProgramValue::data),
            duration_ms: millis(e.duration),
            success: e.success,
            error: e.error.as_deref(),
            note: e.note.as_deref(),
            approval: e.approval.as_deref(),
            replayed: e.replayed,
        }
    }
}

/// What a capped trace left out: exact counts, and per tool what its
/// dropped entries were.
#[derive(serde::Serialize, JsonSchema)]
pub struct TraceDroppedJson<'a> {
    /// Every tool call of the run, kept or not.
    pub total_calls: usize,
    /// Entries left out.
    pub dropped: usize,
    /// Step of the first entry left out.
    pub first_step: usize,
    /// Step of the last entry left out.
    pub last_step: usize,
    /// The entries left out, by tool.
    pub by_tool: Named<'a, DroppedCallsJson<'a>>,
}

impl<'a> From<&'a TraceDropped> for TraceDroppedJson<'a> {
    fn from(d: &'a TraceDropped) -> TraceDroppedJson<'a> {
        TraceDroppedJson {
            total_calls: d.total_calls,
            dropped: d.dropped,
            first_step: d.first_step,
            last_step: d.last_step,
            by_tool: Named(
                d.by_tool
                    .iter()
                    .map(|t| (t.tool.as_str(), t.into()))
                    .collect(),
            ),
        }
    }
}

/// One tool's entries left out of a capped trace; `failed`, `replayed`,
/// `approvals` and `notes` only where some entry had them.
#[derive(serde::Serialize, JsonSchema)]
pub struct DroppedCallsJson<'a> {
    /// How many of its entries were left out.
    pub dropped: usize,
    /// Their calls' durations, added up, in milliseconds.
    pub duration_ms: f64,
    /// How many of them failed.
    #[serde(skip_serializing_if = "is_zero")]
    pub failed: usize,
    /// How many were answered from a journal.
    #[serde(skip_serializing_if = "is_zero")]
    pub replayed: usize,
    /// Who decided those that needed a decision, with how many each.
    #[serde(skip_serializing_if = "is_empty")]
    pub approvals: Named<'a, usize>,
    /// How many carried a note.
    #[serde(skip_serializing_if = "is_zero")]
    pub notes: usize,
}

impl<'a> From<&'a DroppedCalls> for DroppedCallsJson<'a> {
    fn from(t: &'a DroppedCalls) -> DroppedCallsJson<'a> {
        DroppedCallsJson {
            dropped: t.dropped,
            duration_ms: millis(t.duration),
            failed: t.failed,
            replayed: t.replayed,
            approvals: Named(
                t.approvals
                    .iter()
                    .map(|(by, n)| (by.as_str(), *n))
                    .collect(),
            ),
            notes: t.notes,
        }
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

fn is_empty<V>(m: &Named<'_, V>) -> bool {
    m.0.is_empty()
}

/// Where a paused run waits.
#[derive(serde::Serialize, JsonSchema)]
pub struct PausedJson<'a> {
    /// The id to resume the run with (empty when it cannot be resumed).
    pub run_id: &'a str,
    /// The waiting call's 0-based step.
    pub step: usize,
    /// The name the program called.
    pub tool: &'a str,
    /// Its arguments, as the trace previews them.
    pub args: Named<'a, ProgramValue<'static>>,
    /// The tool's grade.
    pub grade: GradeJson,
    /// The policy rule that asks for approval.
    pub rule: &'a str,
    /// When the run's journal expires (RFC 3339, UTC); null when the run
    /// cannot be resumed.
    pub expires_at: Option<&'a str>,
}

impl<'a> From<&'a Paused> for PausedJson<'a> {
    fn from(p: &'a Paused) -> PausedJson<'a> {
        PausedJson {
            run_id: &p.run_id,
            step: p.step,
            tool: &p.tool,
            args: Named(
                p.args
                    .iter()
                    .map(|(k, v)| (k.as_str(), ProgramValue::data(v)))
                    .collect(),
            ),
            grade: p.grade.into(),
            rule: &p.rule,
            expires_at: (!p.expires_at.is_empty()).then_some(p.expires_at.as_str()),
        }
    }
}

impl<'a> From<&'a ExecutionResult> for ExecutionResultJson<'a> {
    fn from(r: &'a ExecutionResult) -> ExecutionResultJson<'a> {
        let o = &r.outcome;
        ExecutionResultJson {
            success: o.success,
            output: o.output.as_ref().map(ProgramValue::text),
            output_repr: o.output_repr.as_deref(),
            stdout: &o.stdout,
            effective_output: o.effective_output().map(ProgramValue::from),
            error: o.error.as_deref(),
            error_type: o.error_type.as_deref(),
            error_line: o.error_line,
            error_column: o.error_column,
            trace: o.trace.iter().map(TraceEntryJson::from).collect(),
            trace_dropped: o.trace_dropped.as_ref().map(TraceDroppedJson::from),
            variables: Named(
                o.variables
                    .iter()
                    .map(|(k, v)| (k.as_str(), ProgramValue::text(v)))
                    .collect(),
            ),
            grade: r.grade.into(),
            files_read: &r.files_read,
            files_modified: &r.files_modified,
            duration_ms: millis(o.duration),
            paused: r.paused.as_ref().map(PausedJson::from),
        }
    }
}

/// Serialises as the object of runtime.md, with the program's values as
/// the interpreter's JSON text: for serde_json's serializers only (see
/// [`ExecutionResult::to_json`] and [`ExecutionResult::to_strict_json`]).
impl Serialize for ExecutionResult {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        ExecutionResultJson::from(self).serialize(s)
    }
}

impl ExecutionResult {
    /// The result as one JSON object, written as lackpy (Python) writes it
    /// with `json.dumps(result, default=str)`: `", "` and `": "` between
    /// items, every non-ASCII character escaped, a non-finite float as
    /// `NaN`/`Infinity`, a big int with every digit.
    pub fn to_json(&self) -> String {
        py_json::to_python_string(self)
    }

    /// Writes [`ExecutionResult::to_json`]'s text to `w`, streamed: no copy
    /// of the output is made on the way.
    pub fn write_json<W: io::Write>(&self, w: W) -> io::Result<()> {
        py_json::write_python(w, self)
    }

    /// The same object as strict JSON: where Python writes `NaN`,
    /// `Infinity` or `-Infinity`, this writes `null`.
    pub fn to_strict_json(&self) -> String {
        py_json::to_strict_string(self)
    }

    /// The JSON Schema of the result's object, derived from the structs
    /// that write it.
    pub fn json_schema() -> schemars::Schema {
        output_schema::<ExecutionResultJson<'static>>()
    }
}

/// The JSON Schema of what `T` writes (serde's serialising view: a field
/// skipped when empty is optional, every other one required).
pub fn output_schema<T: JsonSchema>() -> schemars::Schema {
    schemars::generate::SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator()
        .into_root_schema_for::<T>()
}

impl Paused {
    /// The `paused` object of a paused run's result, as Python's JSON text.
    pub fn to_json(&self) -> String {
        py_json::to_python_string(&PausedJson::from(self))
    }
}
