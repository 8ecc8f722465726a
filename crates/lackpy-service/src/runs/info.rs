//! What `lackpy runs` and `list_runs` show of the resumable runs:
//! [`RunInfo`] and [`RunList`].

use serde::Serialize;

/// One resumable run, as `lackpy runs` and `list_runs` show it.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct RunInfo {
    /// The id to resume it with.
    pub run_id: String,
    /// `paused`, `interrupted` (its process ended between calls),
    /// `in_flight` (its process ended during a call), `running` (a process
    /// holds it), `expired` or `corrupt`.
    pub state: String,
    /// When the run started (RFC 3339, UTC).
    pub created_at: String,
    /// When its journal expires.
    pub expires_at: String,
    /// Completed calls.
    pub calls: usize,
    /// The call it waits at (paused) or was making (in flight).
    pub step: Option<usize>,
    /// That call's tool.
    pub tool: Option<String>,
    /// The policy rule a paused call waits on.
    pub rule: Option<String>,
    /// Why a journal cannot be used (corrupt).
    pub reason: Option<String>,
    /// The program's first line.
    pub program: String,
}

impl RunInfo {
    /// A run with nothing known of it yet but its id.
    pub(crate) fn blank(run_id: &str) -> RunInfo {
        RunInfo {
            run_id: run_id.to_string(),
            state: String::new(),
            created_at: String::new(),
            expires_at: String::new(),
            calls: 0,
            step: None,
            tool: None,
            rule: None,
            reason: None,
            program: String::new(),
        }
    }
}

/// The resumable runs: what `lackpy runs --json` prints and `list_runs`
/// answers.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct RunList {
    /// The runs, newest first.
    pub runs: Vec<RunInfo>,
}
