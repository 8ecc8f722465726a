//! What `delegate` and `generate` return.
//!
//! The delegate result has lackpy's fields (`success, program, grade,
//! generation_tier, generation_time_ms, execution_time_ms, total_time_ms,
//! trace, files_read, files_modified, output, stdout, error,
//! correction_attempts`) and ours, `trace_dropped` (when the run's trace
//! was capped, as in `ExecutionResult`) and `generation_errors`: what each tier
//! tried before the one that wrote the program last said (every tier's,
//! when none did). `output` is the
//! run's effective output (the final expression's value, else what it
//! printed). Like `ExecutionResult`, [`DelegateResult::to_json`] writes
//! Python's JSON (`NaN`, big ints in full) and the serde form is strict.

use std::time::Duration;

use lackpy_bridge::{ExecutionResult, python_json_to_strict, trace_dropped_json, trace_entry_json};
use lackpy_lang::TraceEntry;
use lackpy_lang::{Data, Grade};
use serde::{Serialize, Serializer};
use serde_json::value::RawValue;

use super::tiers::TierErrors;

/// What `delegate` returns.
#[derive(Debug, Clone, PartialEq)]
pub struct DelegateResult {
    /// A program was generated and ran to the end.
    pub success: bool,
    /// The generated program (`None` when no tier yielded one).
    pub program: Option<String>,
    /// The grade of the namespace.
    pub grade: Grade,
    /// The tier that wrote the program: `templates`, `rules` or a
    /// provider's name; `None` when none did.
    pub generation_tier: Option<String>,
    /// Time spent generating.
    pub generation_time: Duration,
    /// Time spent after generation (validating again and running).
    pub execution_time: Duration,
    /// The whole call.
    pub total_time: Duration,
    /// The run's tool calls.
    pub trace: Vec<TraceEntry>,
    /// Files the run read.
    pub files_read: Vec<String>,
    /// Files the run wrote.
    pub files_modified: Vec<String>,
    /// The run's effective output.
    pub output: Option<Data>,
    /// What the run printed.
    pub stdout: String,
    /// Why it failed.
    pub error: Option<String>,
    /// Correction rounds sent to the model.
    pub correction_attempts: u32,
    /// What each tier tried before the one that wrote the program last
    /// said (every tier, when none did).
    pub generation_errors: Vec<TierErrors>,
    /// The run behind the result (its `error_type`, `error_line`, … for
    /// callers that want them; not part of the JSON).
    pub run: Option<ExecutionResult>,
}

impl DelegateResult {
    /// The result of a generation that yielded no program.
    pub fn not_generated(
        grade: Grade,
        tier_errors: Vec<TierErrors>,
        correction_attempts: u32,
        generation_time: Duration,
        total_time: Duration,
    ) -> DelegateResult {
        let summary: Vec<String> = tier_errors
            .iter()
            .map(|t| format!("{}: {}", t.tier, t.errors.join("; ")))
            .collect();
        DelegateResult {
            success: false,
            program: None,
            grade,
            generation_tier: None,
            generation_time,
            execution_time: total_time.saturating_sub(generation_time),
            total_time,
            trace: Vec::new(),
            files_read: Vec::new(),
            files_modified: Vec::new(),
            output: None,
            stdout: String::new(),
            error: Some(format!(
                "no tier generated a valid program ({})",
                summary.join(" | ")
            )),
            correction_attempts,
            generation_errors: tier_errors,
            run: None,
        }
    }

    /// The result of a delegate cancelled while its program was generated.
    pub fn cancelled(grade: Grade, elapsed: Duration) -> DelegateResult {
        let mut r = DelegateResult::not_generated(grade, Vec::new(), 0, elapsed, elapsed);
        r.error = Some("cancelled while the program was generated".to_string());
        r
    }

    /// A delegate that was not started (`Busy`: no place to run it).
    pub fn refused(message: String) -> DelegateResult {
        let mut r = DelegateResult::not_generated(
            Grade::UNKNOWN,
            Vec::new(),
            0,
            Duration::ZERO,
            Duration::ZERO,
        );
        r.error = Some(format!("Busy: {message}"));
        r
    }

    /// The result of a generated program's run.
    pub fn ran(
        program: String,
        tier: String,
        tier_errors: Vec<TierErrors>,
        correction_attempts: u32,
        generation_time: Duration,
        total_time: Duration,
        run: ExecutionResult,
    ) -> DelegateResult {
        DelegateResult {
            success: run.success,
            program: Some(program),
            grade: run.grade,
            generation_tier: Some(tier),
            generation_time,
            execution_time: total_time.saturating_sub(generation_time),
            total_time,
            trace: run.trace.clone(),
            files_read: run.files_read.clone(),
            files_modified: run.files_modified.clone(),
            output: run.effective_output.clone(),
            stdout: run.stdout.clone(),
            error: run.error.clone(),
            correction_attempts,
            generation_errors: tier_errors,
            run: Some(run),
        }
    }

    /// The result as one JSON object, written as lackpy (Python) writes it.
    pub fn to_json(&self) -> String {
        let mut fields: Vec<(&str, String)> = Vec::with_capacity(15);
        fields.push(("success", ser(&self.success)));
        fields.push(("program", ser(&self.program)));
        fields.push((
            "grade",
            format!("{{\"w\": {}, \"d\": {}}}", self.grade.w, self.grade.d),
        ));
        fields.push(("generation_tier", ser(&self.generation_tier)));
        fields.push(("generation_time_ms", ser(&millis(self.generation_time))));
        fields.push(("execution_time_ms", ser(&millis(self.execution_time))));
        fields.push(("total_time_ms", ser(&millis(self.total_time))));
        let trace: Vec<String> = self.trace.iter().map(trace_entry_json).collect();
        fields.push(("trace", format!("[{}]", trace.join(", "))));
        if let Some(d) = self.run.as_ref().and_then(|r| r.trace_dropped.as_ref()) {
            // A capped trace says what it left out, as run_program's does.
            fields.push(("trace_dropped", trace_dropped_json(d)));
        }
        fields.push(("files_read", ser(&self.files_read)));
        fields.push(("files_modified", ser(&self.files_modified)));
        fields.push((
            "output",
            self.output
                .as_ref()
                .map_or_else(|| "null".to_string(), Data::to_json),
        ));
        fields.push(("stdout", ser(&self.stdout)));
        fields.push(("error", ser(&self.error)));
        fields.push(("correction_attempts", ser(&self.correction_attempts)));
        fields.push(("generation_errors", ser(&self.generation_errors)));
        if let Some(p) = self.run.as_ref().and_then(|r| r.paused.as_ref()) {
            // A paused run says where it waits, as run_program's result does.
            fields.push(("paused", p.to_json()));
        }
        let members: Vec<String> = fields
            .into_iter()
            .map(|(k, v)| format!("\"{k}\": {v}"))
            .collect();
        format!("{{{}}}", members.join(", "))
    }
}

/// Serialises as the object [`DelegateResult::to_json`] writes, with
/// non-finite floats as `null` (strict JSON).
impl Serialize for DelegateResult {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        RawValue::from_string(python_json_to_strict(self.to_json()))
            .map_err(serde::ser::Error::custom)?
            .serialize(s)
    }
}

/// What `generate` returns.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GenerateResult {
    /// A tier yielded a valid program.
    pub success: bool,
    /// The program.
    pub program: Option<String>,
    /// The tier that wrote it.
    pub provider: Option<String>,
    /// Time spent generating, ms.
    pub generation_time_ms: f64,
    /// Correction rounds sent to the model.
    pub correction_attempts: u32,
    /// Why there is no program.
    pub error: Option<String>,
    /// What each tier tried before the one that wrote the program last
    /// said (every tier, when none did).
    pub generation_errors: Vec<TierErrors>,
    /// The template file that wrote it (not part of the JSON).
    #[serde(skip)]
    pub template: Option<std::path::PathBuf>,
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// A field serde writes: scalars and lists that hold no float that is not
/// finite, so the text is the same in Python's JSON and in strict JSON.
fn ser<T: Serialize + ?Sized>(value: &T) -> String {
    // Plain data: serialising cannot fail.
    serde_json::to_string(value).unwrap_or_else(|_| "null".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_names_and_order_are_lackpy_s() {
        let r = DelegateResult::not_generated(
            Grade::new(0, 0),
            vec![TierErrors {
                tier: "rules".into(),
                errors: vec!["no rule matches the intent".into()],
            }],
            0,
            Duration::from_millis(2),
            Duration::from_millis(3),
        );
        let v: serde_json::Value = serde_json::from_str(&r.to_json()).expect("JSON");
        let keys: Vec<&str> = v
            .as_object()
            .expect("object")
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            [
                "success",
                "program",
                "grade",
                "generation_tier",
                "generation_time_ms",
                "execution_time_ms",
                "total_time_ms",
                "trace",
                "files_read",
                "files_modified",
                "output",
                "stdout",
                "error",
                "correction_attempts",
                "generation_errors"
            ]
        );
        assert_eq!(v["generation_tier"], serde_json::Value::Null);
        assert_eq!(v["generation_errors"][0]["tier"], "rules");
        assert!(
            v["error"]
                .as_str()
                .is_some_and(|e| e.contains("rules: no rule matches the intent")),
            "{v}"
        );
    }

    #[test]
    fn serde_is_strict_json() {
        let mut run = ExecutionResult::failed("X", "e".into(), Grade::UNKNOWN, Duration::ZERO);
        run.effective_output = Some(Data::Float(f64::NAN));
        let r = DelegateResult::ran(
            "float('nan')".into(),
            "rules".into(),
            Vec::new(),
            0,
            Duration::ZERO,
            Duration::ZERO,
            run,
        );
        assert!(r.to_json().contains("\"output\": NaN"));
        let strict = serde_json::to_value(&r).expect("strict");
        assert_eq!(strict["output"], serde_json::Value::Null);
    }
}
