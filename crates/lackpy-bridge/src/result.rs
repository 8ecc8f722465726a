//! The result of a run: the interpreter's outcome and what the bridge
//! adds. Its JSON (runtime.md) is declared once, in [`crate::result_json`].

use std::ops::{Deref, DerefMut};
use std::time::Duration;

use lackpy_lang::{Data, Grade, RunOutcome};

/// What `run_program` returns (see `runtime.md`): the interpreter's
/// [`RunOutcome`] (reached through `Deref`: `result.success`,
/// `result.trace`, …), whose `duration` is the whole run's, with the
/// grade, the files touched and where a paused run waits.
#[derive(Debug, Clone, PartialEq)]
pub struct ExecutionResult {
    /// What the program did: success, output, stdout, error, trace,
    /// variables and the run's duration.
    pub outcome: RunOutcome,
    /// The grade of the tool set the program ran with.
    pub grade: Grade,
    /// Paths the file tools read.
    pub files_read: Vec<String>,
    /// Paths the file tools wrote.
    pub files_modified: Vec<String>,
    /// Set when the run stopped to wait for an approval (`error_type`
    /// `ApprovalRequired`): the call it waits at. Nothing of that call has
    /// happened.
    pub paused: Option<Paused>,
}

impl Deref for ExecutionResult {
    type Target = RunOutcome;

    fn deref(&self) -> &RunOutcome {
        &self.outcome
    }
}

impl DerefMut for ExecutionResult {
    fn deref_mut(&mut self) -> &mut RunOutcome {
        &mut self.outcome
    }
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
    /// A result from the interpreter's outcome and what the bridge adds;
    /// `duration` (the whole run) replaces the interpreter's own.
    pub fn from_outcome(
        mut outcome: RunOutcome,
        grade: Grade,
        files_read: Vec<String>,
        files_modified: Vec<String>,
        duration: Duration,
    ) -> ExecutionResult {
        outcome.duration = duration;
        ExecutionResult {
            outcome,
            grade,
            files_read,
            files_modified,
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
        let outcome = RunOutcome {
            success: false,
            output: None,
            output_value: None,
            output_repr: None,
            stdout: String::new(),
            error: Some(error),
            error_type: Some(error_type.to_string()),
            error_line: None,
            error_column: None,
            trace: Vec::new(),
            trace_dropped: None,
            variables: Vec::new(),
            duration,
        };
        ExecutionResult::from_outcome(outcome, grade, Vec::new(), Vec::new(), duration)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lackpy_lang::{JsonText, TraceDropped};

    #[test]
    fn serde_gives_strict_json_and_to_json_gives_python_text() {
        let mut r = ExecutionResult::failed("X", "e".into(), Grade::UNKNOWN, Duration::ZERO);
        r.output = Some(JsonText::from(&Data::List(vec![
            Data::Float(f64::NAN),
            Data::Str("NaN".into()),
        ])));
        r.variables = vec![("x".into(), JsonText::from(&Data::Float(f64::INFINITY)))];
        let text = r.to_json();
        assert!(text.contains(r#""output": [NaN, "NaN"]"#), "{text}");
        assert!(text.contains(r#""variables": {"x": Infinity}"#), "{text}");
        let strict: serde_json::Value =
            serde_json::from_str(&r.to_strict_json()).expect("strict JSON");
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
        let strict: serde_json::Value =
            serde_json::from_str(&r.to_strict_json()).expect("strict JSON");
        assert_eq!(
            strict["trace_dropped"]["by_tool"]["send"]["approvals"]["api"],
            1
        );
    }
}
