//! The result of a run, with the serde shape of `runtime.md`.

use std::time::Duration;

use lackpy_lang::{Data, Grade, JsonText};
use lackpy_lang::{RunOutcome, TraceDropped, TraceEntry};
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
    /// The 1-based column (UTF-8 bytes) of the failure, when known: that of
    /// a validation error's node.
    pub error_column: Option<u32>,
    /// The tool calls, in order (under the trace's cap, the first and the
    /// last).
    pub trace: Vec<TraceEntry>,
    /// What the trace's cap left out, with the exact call count; `None`
    /// (and no `trace_dropped` in the JSON) when `trace` has every call.
    pub trace_dropped: Option<TraceDropped>,
    /// Module-level names after the run (empty on failure), as JSON text.
    pub variables: Vec<(String, JsonText)>,
    /// The grade of the tool set the program ran with.
    pub grade: Grade,
    /// Paths the file tools read.
    pub files_read: Vec<String>,
    /// Paths the file tools wrote.
    pub files_modified: Vec<String>,
    /// The whole run.
    pub duration: Duration,
    /// Set when the run stopped to wait for an approval (`error_type`
    /// `ApprovalRequired`): the call it waits at. Nothing of that call has
    /// happened.
    pub paused: Option<Paused>,
}

/// Where a paused run waits (runtime.md, "Paused runs").
#[derive(Debug, Clone, PartialEq)]
pub struct Paused {
    /// The id to resume the run with.
    pub run_id: String,
    /// The waiting call's 0-based step.
    pub step: usize,
    /// The name the program called.
    pub tool: String,
    /// Its arguments, as the trace previews them.
    pub args: Vec<(String, Data)>,
    /// The tool's grade.
    pub grade: Grade,
    /// The policy rule that asks for approval.
    pub rule: String,
    /// When the run's journal expires (RFC 3339, UTC); empty when the run
    /// cannot be resumed.
    pub expires_at: String,
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
            error_column: o.error_column,
            trace: o.trace,
            trace_dropped: o.trace_dropped,
            variables: o.variables,
            grade,
            files_read,
            files_modified,
            duration,
            paused: None,
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
            error_column: None,
            trace: Vec::new(),
            trace_dropped: None,
            variables: Vec::new(),
            grade,
            files_read: Vec::new(),
            files_modified: Vec::new(),
            duration,
            paused: None,
        }
    }
}

impl ExecutionResult {
    /// The result as one JSON object, written as lackpy (Python) writes it
    /// with `json.dumps(result, default=str)`: `", "` and `": "` between
    /// items, every non-ASCII character escaped, a non-finite float as
    /// `NaN`/`Infinity`, a big int with every digit.
    pub fn to_json(&self) -> String {
        let mut w = ObjectWriter::new();
        w.raw("success", Some(bool_text(self.success)));
        w.raw("output", self.output.as_ref().map(Data::to_json).as_deref());
        w.string("output_repr", self.output_repr.as_deref());
        w.string("stdout", Some(&self.stdout));
        w.raw(
            "effective_output",
            self.effective_output.as_ref().map(Data::to_json).as_deref(),
        );
        w.string("error", self.error.as_deref());
        w.string("error_type", self.error_type.as_deref());
        w.raw(
            "error_line",
            self.error_line.map(|n| n.to_string()).as_deref(),
        );
        w.raw(
            "error_column",
            self.error_column.map(|n| n.to_string()).as_deref(),
        );
        let trace: Vec<String> = self.trace.iter().map(trace_entry_json).collect();
        w.raw("trace", Some(&format!("[{}]", trace.join(", "))));
        if let Some(d) = &self.trace_dropped {
            w.raw("trace_dropped", Some(&trace_dropped_json(d)));
        }
        w.raw(
            "variables",
            Some(&named_json(
                self.variables.iter().map(|(k, v)| (k.as_str(), v.as_str())),
            )),
        );
        w.raw(
            "grade",
            Some(&format!(
                "{{\"w\": {}, \"d\": {}}}",
                self.grade.w, self.grade.d
            )),
        );
        w.raw("files_read", Some(&string_list(&self.files_read)));
        w.raw("files_modified", Some(&string_list(&self.files_modified)));
        w.raw("duration_ms", Some(millis(self.duration).as_str()));
        if let Some(p) = &self.paused {
            w.raw("paused", Some(&p.to_json()));
        }
        w.finish()
    }
}

impl Paused {
    /// The `paused` object of a paused run's result, as JSON text.
    pub fn to_json(&self) -> String {
        paused_json(self)
    }
}

fn paused_json(p: &Paused) -> String {
    let args: Vec<(&str, String)> = p
        .args
        .iter()
        .map(|(k, v)| (k.as_str(), v.to_json()))
        .collect();
    let mut w = ObjectWriter::new();
    w.string("run_id", Some(&p.run_id));
    w.raw("step", Some(&p.step.to_string()));
    w.string("tool", Some(&p.tool));
    w.raw(
        "args",
        Some(&named_json(args.iter().map(|(k, v)| (*k, v.as_str())))),
    );
    w.raw(
        "grade",
        Some(&format!("{{\"w\": {}, \"d\": {}}}", p.grade.w, p.grade.d)),
    );
    w.string("rule", Some(&p.rule));
    w.string(
        "expires_at",
        (!p.expires_at.is_empty()).then_some(p.expires_at.as_str()),
    );
    w.finish()
}

/// One trace entry as JSON text (see [`ExecutionResult::to_json`]).
pub fn trace_entry_json(e: &TraceEntry) -> String {
    let args: Vec<(&str, String)> = e
        .args
        .iter()
        .map(|(k, v)| (k.as_str(), v.to_json()))
        .collect();
    let mut w = ObjectWriter::new();
    w.raw("step", Some(&e.step.to_string()));
    w.string("tool", Some(&e.tool));
    w.raw(
        "args",
        Some(&named_json(args.iter().map(|(k, v)| (*k, v.as_str())))),
    );
    w.raw("result", e.result.as_ref().map(Data::to_json).as_deref());
    w.raw("duration_ms", Some(millis(e.duration).as_str()));
    w.raw("success", Some(bool_text(e.success)));
    w.string("error", e.error.as_deref());
    if let Some(note) = &e.note {
        w.string("note", Some(note));
    }
    if let Some(by) = &e.approval {
        w.string("approval", Some(by));
    }
    if e.replayed {
        w.raw("replayed", Some("true"));
    }
    w.finish()
}

/// The `trace_dropped` object of a result whose trace was capped, as JSON
/// text: the exact counts, the steps left out, and per tool how many of
/// its entries were left out and their time; `failed`, `approvals`,
/// `replayed` and `notes` only where some entry left out had them.
pub fn trace_dropped_json(d: &TraceDropped) -> String {
    let tools: Vec<(&str, String)> = d
        .by_tool
        .iter()
        .map(|t| {
            let mut w = ObjectWriter::new();
            w.raw("dropped", Some(&t.dropped.to_string()));
            w.raw("duration_ms", Some(millis(t.duration).as_str()));
            for (key, n) in [("failed", t.failed), ("replayed", t.replayed)] {
                if n > 0 {
                    w.raw(key, Some(&n.to_string()));
                }
            }
            if !t.approvals.is_empty() {
                let counts: Vec<(&str, String)> = t
                    .approvals
                    .iter()
                    .map(|(by, n)| (by.as_str(), n.to_string()))
                    .collect();
                w.raw(
                    "approvals",
                    Some(&named_json(counts.iter().map(|(k, v)| (*k, v.as_str())))),
                );
            }
            if t.notes > 0 {
                w.raw("notes", Some(&t.notes.to_string()));
            }
            (t.tool.as_str(), w.finish())
        })
        .collect();
    let mut w = ObjectWriter::new();
    w.raw("total_calls", Some(&d.total_calls.to_string()));
    w.raw("dropped", Some(&d.dropped.to_string()));
    w.raw("first_step", Some(&d.first_step.to_string()));
    w.raw("last_step", Some(&d.last_step.to_string()));
    w.raw(
        "by_tool",
        Some(&named_json(tools.iter().map(|(k, v)| (*k, v.as_str())))),
    );
    w.finish()
}

/// Builds `{"k": v, ...}` text from already-written values.
struct ObjectWriter {
    out: String,
}

impl ObjectWriter {
    fn new() -> Self {
        ObjectWriter {
            out: String::from("{"),
        }
    }

    fn key(&mut self, key: &str) {
        if self.out.len() > 1 {
            self.out.push_str(", ");
        }
        self.out.push_str(JsonText::string(key).as_str());
        self.out.push_str(": ");
    }

    /// A string field (`None` → `null`).
    fn string(&mut self, key: &str, text: Option<&str>) {
        self.key(key);
        match text {
            Some(s) => self.out.push_str(JsonText::string(s).as_str()),
            None => self.out.push_str("null"),
        }
    }

    /// A field whose value is already JSON text (`None` → `null`).
    fn raw(&mut self, key: &str, text: Option<&str>) {
        self.key(key);
        self.out.push_str(text.unwrap_or("null"));
    }

    fn finish(mut self) -> String {
        self.out.push('}');
        self.out
    }
}

fn bool_text(b: bool) -> &'static str {
    if b { "true" } else { "false" }
}

/// `["a", "b"]` with Python's separators.
fn string_list(items: &[String]) -> String {
    let items: Vec<JsonText> = items.iter().map(|s| JsonText::string(s)).collect();
    let items: Vec<&str> = items.iter().map(JsonText::as_str).collect();
    format!("[{}]", items.join(", "))
}

/// `{"name": value, ...}` from names and JSON texts, in order.
fn named_json<'a>(items: impl Iterator<Item = (&'a str, &'a str)>) -> String {
    let mut out = String::from("{");
    for (n, (k, v)) in items.enumerate() {
        if n > 0 {
            out.push_str(", ");
        }
        out.push_str(JsonText::string(k).as_str());
        out.push_str(": ");
        out.push_str(v);
    }
    out.push('}');
    out
}

/// A duration in milliseconds, as JSON text (a float, as Python writes it).
fn millis(d: Duration) -> JsonText {
    JsonText::float(d.as_secs_f64() * 1000.0)
}

/// Serialises as the object [`ExecutionResult::to_json`] writes. Strict
/// JSON has no non-finite floats: where Python writes `NaN`, `Infinity` or
/// `-Infinity`, this writes `null` (what serde_json does with such floats).
impl Serialize for ExecutionResult {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        strict_raw(self.to_json())
            .map_err(serde::ser::Error::custom)?
            .serialize(s)
    }
}

/// A trace entry with the serde shape of `runtime.md`.
pub struct TraceRecord<'a>(pub &'a TraceEntry);

impl Serialize for TraceRecord<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        strict_raw(trace_entry_json(self.0))
            .map_err(serde::ser::Error::custom)?
            .serialize(s)
    }
}

/// Python-style JSON text as a strict raw value: non-finite floats outside
/// strings become `null`.
fn strict_raw(text: String) -> Result<Box<RawValue>, serde_json::Error> {
    RawValue::from_string(python_json_to_strict(text))
}

/// Python's JSON text (`json.dumps`, which writes `NaN`, `Infinity` and
/// `-Infinity`) as strict JSON: those tokens, outside strings, become
/// `null`.
pub fn python_json_to_strict(text: String) -> String {
    if text.contains("NaN") || text.contains("Infinity") {
        nulls_for_non_finite(&text)
    } else {
        text
    }
}

/// Replaces the `NaN`, `Infinity` and `-Infinity` tokens of Python's JSON
/// (never inside strings) with `null`.
fn nulls_for_non_finite(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
        } else if let Some(token) = ["NaN", "Infinity", "-Infinity"]
            .into_iter()
            .find(|t| rest.starts_with(t))
        {
            out.push_str("null");
            rest = &rest[token.len()..];
            continue;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_gives_strict_json_and_to_json_gives_python_text() {
        let mut r = ExecutionResult::failed("X", "e".into(), Grade::UNKNOWN, Duration::ZERO);
        r.output = Some(Data::List(vec![
            Data::Float(f64::NAN),
            Data::Str("NaN".into()),
        ]));
        r.variables = vec![("x".into(), JsonText::from(&Data::Float(f64::INFINITY)))];
        let text = r.to_json();
        assert!(text.contains(r#""output": [NaN, "NaN"]"#), "{text}");
        assert!(text.contains(r#""variables": {"x": Infinity}"#), "{text}");
        let strict = serde_json::to_value(&r).expect("strict JSON");
        assert_eq!(strict["output"], serde_json::json!([null, "NaN"]));
        assert_eq!(strict["variables"]["x"], serde_json::Value::Null);
        assert_eq!(strict["error_type"], "X");
    }

    #[test]
    fn every_string_is_escaped_as_json_dumps_escapes_it() {
        let mut r = ExecutionResult::failed(
            "ValueError",
            "bad 'é' \u{1}".into(),
            Grade::UNKNOWN,
            Duration::from_nanos(10),
        );
        r.stdout = "☃\n".into();
        r.output_repr = Some("'𝄞'".into());
        r.variables = vec![("é".into(), JsonText::from(&Data::Str("é".into())))];
        let text = r.to_json();
        assert!(text.is_ascii(), "{text}");
        for part in [
            r#""error": "bad '\u00e9' \u0001""#,
            r#""stdout": "\u2603\n""#,
            r#""output_repr": "'\ud834\udd1e'""#,
            r#""variables": {"\u00e9": "\u00e9"}"#,
            // 0.00001 ms as Python writes it (serde writes "1e-5").
            r#""duration_ms": 1e-05}"#,
        ] {
            assert!(text.contains(part), "{part} in {text}");
        }
    }

    #[test]
    fn a_capped_trace_says_what_it_left_out_and_only_then() {
        let mut r = ExecutionResult::failed("X", "e".into(), Grade::UNKNOWN, Duration::ZERO);
        assert!(!r.to_json().contains("trace_dropped"));
        r.trace_dropped = Some(TraceDropped {
            total_calls: 9,
            dropped: 9,
            first_step: 0,
            last_step: 8,
            by_tool: vec![
                lackpy_lang::DroppedCalls {
                    tool: "read_file".into(),
                    dropped: 7,
                    duration: Duration::from_micros(1500),
                    ..Default::default()
                },
                lackpy_lang::DroppedCalls {
                    tool: "send".into(),
                    dropped: 2,
                    duration: Duration::from_millis(2),
                    failed: 1,
                    approvals: vec![("policy".into(), 1), ("api".into(), 1)],
                    replayed: 1,
                    notes: 0,
                },
            ],
        });
        let text = r.to_json();
        let want = r#""trace": [], "trace_dropped": {"total_calls": 9, "dropped": 9, "first_step": 0, "last_step": 8, "by_tool": {"read_file": {"dropped": 7, "duration_ms": 1.5}, "send": {"dropped": 2, "duration_ms": 2.0, "failed": 1, "replayed": 1, "approvals": {"policy": 1, "api": 1}}}}, "variables""#;
        assert!(text.contains(want), "{text}");
        let strict = serde_json::to_value(&r).expect("strict JSON");
        assert_eq!(
            strict["trace_dropped"]["by_tool"]["send"]["approvals"]["api"],
            1
        );
    }

    #[test]
    fn non_finite_floats_become_null_outside_strings_only() {
        assert_eq!(
            nulls_for_non_finite(r#"[NaN, -Infinity, Infinity, "NaN \" Infinity", 1]"#),
            r#"[null, null, null, "NaN \" Infinity", 1]"#
        );
    }
}
