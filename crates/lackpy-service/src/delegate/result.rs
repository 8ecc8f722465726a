//! What `delegate` and `generate` return.
//!
//! The delegate result has lackpy's fields (`success, program, grade,
//! generation_tier, generation_time_ms, execution_time_ms, total_time_ms,
//! trace, files_read, files_modified, output, stdout, error,
//! correction_attempts`) and ours, `trace_dropped` (when the run's trace
//! was capped, as in `ExecutionResult`) and `generation_errors`: what each tier
//! tried before the one that wrote the program last said (every tier's,
//! when none did). `output` is the run's effective output (the final
//! expression's value, else what it printed). The run's fields are not
//! copied: the result holds the run, and [`DelegateResultJson`] (the one
//! declaration of the JSON and of its schema) borrows them.

use std::io;
use std::time::Duration;

use lackpy_bridge::ExecutionResult;
use lackpy_bridge::py_json;
use lackpy_bridge::result_json::{
    GradeJson, PausedJson, ProgramValue, TraceDroppedJson, TraceEntryJson, millis, output_schema,
};
use lackpy_lang::Grade;
use schemars::JsonSchema;
use serde::{Serialize, Serializer};

use super::tiers::{Generation, TierErrors};

/// What `delegate` returns.
#[derive(Debug, Clone, PartialEq)]
pub struct DelegateResult {
    /// The generated program (`None` when no tier yielded one).
    pub program: Option<String>,
    /// The tier that wrote the program: `templates`, `rules` or a
    /// provider's name; `None` when none did.
    pub generation_tier: Option<String>,
    /// Time spent generating.
    pub generation_time: Duration,
    /// The whole call.
    pub total_time: Duration,
    /// Correction rounds sent to the model.
    pub correction_attempts: u32,
    /// What each tier tried before the one that wrote the program last
    /// said (every tier, when none did).
    pub generation_errors: Vec<TierErrors>,
    /// The run, or why there was none.
    pub outcome: DelegateOutcome,
}

/// How a delegate ended.
#[derive(Debug, Clone, PartialEq)]
pub enum DelegateOutcome {
    /// The generated program ran: its result, whole (boxed: a result is
    /// large beside the other variant).
    Ran(Box<ExecutionResult>),
    /// No program ran.
    NotRun {
        /// The grade of the namespace.
        grade: Grade,
        /// Why.
        error: String,
    },
}

/// The message of a generation that yielded no program.
pub fn not_generated_error(tier_errors: &[TierErrors]) -> String {
    let summary: Vec<String> = tier_errors
        .iter()
        .map(|t| format!("{}: {}", t.tier, t.errors.join("; ")))
        .collect();
    format!(
        "no tier generated a valid program ({})",
        summary.join(" | ")
    )
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
        DelegateResult {
            program: None,
            generation_tier: None,
            generation_time,
            total_time,
            correction_attempts,
            outcome: DelegateOutcome::NotRun {
                grade,
                error: not_generated_error(&tier_errors),
            },
            generation_errors: tier_errors,
        }
    }

    /// The result of a delegate cancelled while its program was generated.
    pub fn cancelled(grade: Grade, elapsed: Duration) -> DelegateResult {
        let mut r = DelegateResult::not_generated(grade, Vec::new(), 0, elapsed, elapsed);
        r.outcome = DelegateOutcome::NotRun {
            grade,
            error: "cancelled while the program was generated".to_string(),
        };
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
        r.outcome = DelegateOutcome::NotRun {
            grade: Grade::UNKNOWN,
            error: format!("Busy: {message}"),
        };
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
            program: Some(program),
            generation_tier: Some(tier),
            generation_time,
            total_time,
            correction_attempts,
            generation_errors: tier_errors,
            outcome: DelegateOutcome::Ran(Box::new(run)),
        }
    }

    /// The run behind the result, when a program ran.
    pub fn run(&self) -> Option<&ExecutionResult> {
        match &self.outcome {
            DelegateOutcome::Ran(run) => Some(run),
            DelegateOutcome::NotRun { .. } => None,
        }
    }

    /// A program was generated and ran to the end.
    pub fn success(&self) -> bool {
        self.run().is_some_and(|r| r.success)
    }

    /// The grade of the namespace (the run's, when it ran).
    pub fn grade(&self) -> Grade {
        match &self.outcome {
            DelegateOutcome::Ran(run) => run.grade,
            DelegateOutcome::NotRun { grade, .. } => *grade,
        }
    }

    /// Why it failed.
    pub fn error(&self) -> Option<&str> {
        match &self.outcome {
            DelegateOutcome::Ran(run) => run.error.as_deref(),
            DelegateOutcome::NotRun { error, .. } => Some(error),
        }
    }

    /// Time spent after generation (validating again and running).
    pub fn execution_time(&self) -> Duration {
        self.total_time.saturating_sub(self.generation_time)
    }

    /// The result as one JSON object, written as lackpy (Python) writes it.
    pub fn to_json(&self) -> String {
        py_json::to_python_string(self)
    }

    /// Writes [`DelegateResult::to_json`]'s text to `w`, streamed.
    pub fn write_json<W: io::Write>(&self, w: W) -> io::Result<()> {
        py_json::write_python(w, self)
    }

    /// The same object as strict JSON (`null` for non-finite floats).
    pub fn to_strict_json(&self) -> String {
        py_json::to_strict_string(self)
    }

    /// The JSON Schema of the result's object, derived from the struct
    /// that writes it.
    pub fn json_schema() -> schemars::Schema {
        output_schema::<DelegateResultJson<'static>>()
    }
}

/// The delegate result's JSON object.
#[derive(Serialize, JsonSchema)]
pub struct DelegateResultJson<'a> {
    /// A program was generated and ran to the end.
    pub success: bool,
    /// The generated program (null when no tier yielded one).
    pub program: Option<&'a str>,
    /// The grade of the namespace.
    pub grade: GradeJson,
    /// templates, rules, or the provider that wrote the program.
    pub generation_tier: Option<&'a str>,
    /// Time spent generating, in milliseconds.
    pub generation_time_ms: f64,
    /// Time spent validating again and running, in milliseconds.
    pub execution_time_ms: f64,
    /// The whole call, in milliseconds.
    pub total_time_ms: f64,
    /// The run's tool calls.
    pub trace: Vec<TraceEntryJson<'a>>,
    /// Present only when the run's trace was capped: what it left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace_dropped: Option<TraceDroppedJson<'a>>,
    /// Files the run read.
    pub files_read: &'a [String],
    /// Files the run wrote.
    pub files_modified: &'a [String],
    /// The run's effective output, as JSON.
    pub output: Option<ProgramValue<'a>>,
    /// What the run printed.
    pub stdout: &'a str,
    /// Why it failed.
    pub error: Option<&'a str>,
    /// Correction rounds sent to the model.
    pub correction_attempts: u32,
    /// What each tier tried before the one that wrote the program last
    /// said (every tier, when none did).
    pub generation_errors: &'a [TierErrors],
    /// Present only when the run waits for an approval.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paused: Option<PausedJson<'a>>,
}

impl<'a> From<&'a DelegateResult> for DelegateResultJson<'a> {
    fn from(r: &'a DelegateResult) -> DelegateResultJson<'a> {
        let run = r.run();
        DelegateResultJson {
            success: r.success(),
            program: r.program.as_deref(),
            grade: r.grade().into(),
            generation_tier: r.generation_tier.as_deref(),
            generation_time_ms: millis(r.generation_time),
            execution_time_ms: millis(r.execution_time()),
            total_time_ms: millis(r.total_time),
            trace: run.map_or_else(Vec::new, |run| {
                run.trace.iter().map(TraceEntryJson::from).collect()
            }),
            trace_dropped: run
                .and_then(|run| run.trace_dropped.as_ref())
                .map(TraceDroppedJson::from),
            files_read: run.map_or(&[], |run| &run.files_read),
            files_modified: run.map_or(&[], |run| &run.files_modified),
            output: run
                .and_then(|run| run.effective_output())
                .map(ProgramValue::from),
            stdout: run.map_or("", |run| &run.stdout),
            error: r.error(),
            correction_attempts: r.correction_attempts,
            generation_errors: &r.generation_errors,
            paused: run
                .and_then(|run| run.paused.as_ref())
                .map(PausedJson::from),
        }
    }
}

/// Serialises as the object [`DelegateResult::to_json`] writes: for
/// serde_json's serializers only (the values are spliced in as text).
impl Serialize for DelegateResult {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        DelegateResultJson::from(self).serialize(s)
    }
}

/// What `generate` returns.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
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

impl GenerateResult {
    /// What a generation gives: its program and tier, or why there is none.
    pub fn from_generation(g: Generation) -> GenerateResult {
        let generation_time_ms = g.duration.as_secs_f64() * 1000.0;
        match g.generated {
            Some(generated) => GenerateResult {
                success: true,
                program: Some(generated.program),
                provider: Some(generated.tier),
                generation_time_ms,
                correction_attempts: g.correction_attempts,
                error: None,
                generation_errors: g.tier_errors,
                template: generated.template,
            },
            None => GenerateResult {
                success: false,
                program: None,
                provider: None,
                generation_time_ms,
                correction_attempts: g.correction_attempts,
                error: Some(not_generated_error(&g.tier_errors)),
                generation_errors: g.tier_errors,
                template: None,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lackpy_lang::{Data, JsonText};

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
    fn strict_json_has_null_for_nan() {
        let mut run = ExecutionResult::failed("X", "e".into(), Grade::UNKNOWN, Duration::ZERO);
        run.success = true;
        run.output = Some(JsonText::from(&Data::Float(f64::NAN)));
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
        let strict: serde_json::Value = serde_json::from_str(&r.to_strict_json()).expect("strict");
        assert_eq!(strict["output"], serde_json::Value::Null);
    }
}
