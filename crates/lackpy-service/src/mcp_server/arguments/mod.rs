//! Each tool's arguments as one type: its `inputSchema` is derived from it
//! ([`schema`]) and a call's arguments are read by deserializing into it
//! ([`read`]), so the two cannot drift apart. The doc comment of a field
//! is its description; the selection of tools, params and rules is one
//! flattened struct ([`selection`]).

mod read;
mod schema;
mod selection;

use std::num::NonZeroU64;
use std::time::Duration;

use lackpy_lang::{Teardown, Variables};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::service::{Delegate, Resume, RunProgram};

pub(crate) use read::read;
pub(crate) use schema::input_schema;
pub(crate) use selection::SelectionArgs;

/// `run_program`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RunProgramArgs {
    /// The lackpy program: restricted Python 3.11 source.
    pub program: String,
    #[serde(flatten)]
    pub selection: SelectionArgs,
    /// Wall-clock limit of the run, in milliseconds.
    pub timeout_ms: Option<NonZeroU64>,
    /// Trace entries kept: the first half and the last half; the calls between are summarised per
    /// tool in trace_dropped.
    pub max_trace_entries: Option<usize>,
}

impl RunProgramArgs {
    /// The `run_program` request these arguments make.
    pub(crate) fn into_request(mut self) -> Result<RunProgram, String> {
        Ok(RunProgram {
            params: self.selection.take_params()?,
            rules: self.selection.rules()?,
            program: self.program,
            tools: self.selection.tools,
            profile: self.selection.profile,
            timeout: self.timeout_ms.map(millis),
            max_trace_entries: self.max_trace_entries,
            // run_program's result has `variables`, as lackpy's does.
            variables: Variables::Collect,
            // The service keeps running after this run.
            teardown: Teardown::Free,
            output_value: false,
            approver: None,
            journal: false,
            control: Default::default(),
        })
    }
}

/// `validate`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ValidateArgs {
    /// The lackpy program: restricted Python 3.11 source.
    pub program: String,
    #[serde(flatten)]
    pub selection: SelectionArgs,
}

/// How `delegate` and `generate` describe `params`: a param may carry a
/// description for the model.
const INTENT_PARAMS: &str = "Values the program sees as module-level names; \
    {\"value\": v, \"description\": d} describes one to the model (never its value).";

fn describe_intent_params(schema: &mut schemars::Schema) {
    if let Some(params) = schema
        .get_mut("properties")
        .and_then(|p| p.get_mut("params"))
        .and_then(|p| p.as_object_mut())
    {
        params.insert("description".into(), INTENT_PARAMS.into());
    }
}

/// `delegate`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = describe_intent_params)]
pub(crate) struct DelegateArgs {
    /// What the program should do, in words.
    pub intent: String,
    #[serde(flatten)]
    pub selection: SelectionArgs,
    /// Wall-clock limit of the run, in milliseconds.
    pub timeout_ms: Option<NonZeroU64>,
}

impl DelegateArgs {
    /// The `delegate` request these arguments make.
    pub(crate) fn into_request(self) -> Result<Delegate, String> {
        let mut request = intent_request(self.intent, self.selection)?;
        request.timeout = self.timeout_ms.map(millis);
        Ok(request)
    }
}

/// `generate`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = describe_intent_params)]
pub(crate) struct GenerateArgs {
    /// What the program should do, in words.
    pub intent: String,
    #[serde(flatten)]
    pub selection: SelectionArgs,
}

impl GenerateArgs {
    /// The `generate` request these arguments make.
    pub(crate) fn into_request(self) -> Result<Delegate, String> {
        intent_request(self.intent, self.selection)
    }
}

fn intent_request(intent: String, mut selection: SelectionArgs) -> Result<Delegate, String> {
    Ok(Delegate {
        params: selection.take_params()?,
        rules: selection.rules()?,
        intent,
        tools: selection.tools,
        profile: selection.profile,
        timeout: None,
        approver: None,
        control: Default::default(),
    })
}

/// `resume_run`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResumeRunArgs {
    /// The run, as a paused result's paused.run_id or list_runs gives it.
    pub run_id: String,
    /// The answer for the call a paused run waits at: true runs it, false refuses it
    /// (PermissionError in the program). Required for a paused run.
    pub approve: Option<bool>,
    /// Call again a call that was in flight when the run's process ended, even when it may have had
    /// effects.
    pub retry_in_flight: Option<bool>,
}

impl ResumeRunArgs {
    /// The `resume_run` request these arguments make; its decision is the
    /// client's (`by` is `api`).
    pub(crate) fn into_request(self) -> Result<Resume, String> {
        if self.run_id.is_empty() {
            let schema = input_schema::<ResumeRunArgs>();
            let run_id = schema.get("properties").and_then(|p| p.get("run_id"));
            return Err(read::missing("run_id", run_id));
        }
        Ok(Resume {
            run_id: self.run_id,
            approve: self.approve,
            by: "api".to_string(),
            retry_in_flight: self.retry_in_flight.unwrap_or(false),
            approver: None,
            variables: Variables::Collect,
            control: Default::default(),
        })
    }
}

/// `list_tools`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ListToolsArgs {
    /// Only this profile's tools.
    pub profile: Option<String>,
}

/// The arguments of a tool that takes none (`language_spec`, `status`,
/// `list_runs`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NoArgs {}

fn millis(ms: NonZeroU64) -> Duration {
    Duration::from_millis(ms.get())
}
