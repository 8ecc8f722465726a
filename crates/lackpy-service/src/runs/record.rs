//! The lines of a journal file (`.lackpy/runs/<run_id>.jsonl`): one JSON
//! object each, told apart by `kind`.

use lackpy_bridge::{CallRecord, CallStart};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The journal format's version; another version is refused by name.
pub const VERSION: u32 = 1;

/// What a run was started with: enough to start it again identically.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunHeader {
    /// [`VERSION`].
    pub version: u32,
    /// The run's id (also the file's name).
    pub run_id: String,
    /// Seconds since the Unix epoch when the run started.
    pub created_at: u64,
    /// The program text.
    pub program: String,
    /// Params, each value written by the journal's codec.
    pub params: Vec<(String, Value)>,
    /// The request's tool list, if it named one.
    pub tools: Option<Vec<String>>,
    /// The request's profile, if it named one.
    pub profile: Option<String>,
    /// Extra rules by name.
    pub rules: Vec<String>,
    /// The request's own timeout, if it set one.
    pub timeout_ms: Option<u64>,
    /// The request's own trace cap, if it set one (a resumed run keeps
    /// the same trace; absent from journals written before it existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_trace_entries: Option<usize>,
    /// A digest of the namespace and of each of its tools' specs: a resume
    /// under another namespace or inventory is refused.
    pub namespace_digest: String,
    /// Whether every call was journaled as it completed (`--journal`), so
    /// the run survives a crash.
    pub durable: bool,
}

/// One line of a journal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Line {
    /// The first line.
    Run(RunHeader),
    /// A call is about to start.
    Begin(CallStart),
    /// A call completed.
    Call(CallRecord),
    /// The run stopped at `step` to wait for an approval.
    Paused {
        /// The waiting call.
        step: usize,
        /// Its tool.
        tool: String,
        /// Its tool's grade.
        grade: lackpy_lang::Grade,
        /// The rule that asks for approval.
        rule: String,
        /// The arguments as the trace previews them (Python's JSON).
        args: Value,
    },
    /// A resume decided `step` (`approve` or not) by `by`.
    Resumed {
        /// The step decided.
        step: usize,
        /// Whether it was approved.
        approve: bool,
        /// Who decided.
        by: String,
    },
}
