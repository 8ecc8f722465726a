//! [`RunProgram`]: what one `run_program` call asks, as the plan, the run
//! and `delegate` read it.

use std::time::Duration;

use lackpy_lang::{Data, Rule, Teardown, Variables};

use super::approver::ApproverHandle;
use super::observe::RunControl;

/// One `run_program` call.
#[derive(Debug, Clone, Default)]
pub struct RunProgram {
    /// The program text.
    pub program: String,
    /// Exactly these tools (overrides `profile`).
    pub tools: Option<Vec<String>>,
    /// A named profile.
    pub profile: Option<String>,
    /// Params as JSON object text (exact; see [`params_from_json`](super::params_from_json)) already
    /// converted, in order.
    pub params: Vec<(String, Data)>,
    /// Extra validation rules.
    pub rules: Vec<Rule>,
    /// Wall-clock limit for this run, over the service default.
    pub timeout: Option<Duration>,
    /// Trace entries this run keeps, over `[limits] max_trace_entries`
    /// (a profile's binds: a caller may only lower it).
    pub max_trace_entries: Option<usize>,
    /// Whether the result carries the program's `variables` (collected by
    /// default, as runtime.md's ExecutionResult has them; omitted, the
    /// result's `variables` is `{}` and no time goes into writing them).
    pub variables: Variables,
    /// Whether the program's values are freed when the run ends (the
    /// default) or left to the exit of a process that ends right after
    /// this run ([`Teardown::AtExit`], what `lackpy run` does).
    pub teardown: Teardown,
    /// Whether the result's outcome also holds the output as a `Data` tree
    /// keeping its Python forms (`RunOutcome::output_value`): for an
    /// embedder that hands the value on to Python. Off by default.
    pub output_value: bool,
    /// Who approves the run's gated calls; `None`: a gated call pauses
    /// the run.
    pub approver: Option<ApproverHandle>,
    /// Journal every call as it completes (synced to disk), so the run can
    /// be resumed after its process dies (`[runs] journal` does it for
    /// every run).
    pub journal: bool,
    /// How the caller stops the run and hears of its calls.
    pub control: RunControl,
}
