//! A run's journal: one record per completed tool call, so that a run can
//! be resumed — re-run from the top with each completed call answered from
//! its record instead of its tool — after a pause or a crash.
//!
//! A lackpy program is deterministic given its tool results (no clock, no
//! per-process hash seed, no randomness), so a re-run makes the same calls
//! in the same order with the same arguments. A call that does not match
//! its record means the program, the namespace or the tools changed:
//! `ReplayDivergenceError`, and nothing is called.
//!
//! The bridge keeps what it replays and hands each new record to a
//! [`JournalSink`]; where the records go (a file, fsynced; memory) is the
//! caller's choice.

pub mod codec;

use std::sync::{Arc, Mutex};

use lackpy_lang::Data;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One completed tool call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CallRecord {
    /// 0-based index of the call in the run.
    pub step: usize,
    /// The name the program called.
    pub tool: String,
    /// The call's arguments, as [`codec`] writes them: `{"args": [...],
    /// "kwargs": [[name, value], ...]}`.
    pub args: Value,
    /// What the tool gave, as [`codec`] writes it.
    pub result: Value,
    /// Who approved the call, when it needed approval.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approval: Option<String>,
}

/// A call about to start (written before the tool is called, so that a
/// crash mid-call shows which call was in flight).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CallStart {
    /// 0-based index of the call in the run.
    pub step: usize,
    /// The name the program called.
    pub tool: String,
    /// The arguments, as in [`CallRecord::args`].
    pub args: Value,
    /// Who approved the call, when it needed approval.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approval: Option<String>,
}

/// Where a run's new records go. Called on the interpreter thread, before
/// and after each live call; an error fails that call (with
/// `JournalError`) and so ends the run.
pub trait JournalSink: Send {
    /// A call is about to start.
    fn begin(&mut self, start: &CallStart) -> Result<(), String>;
    /// A call completed.
    fn complete(&mut self, record: &CallRecord) -> Result<(), String>;
}

/// A journal for one run: the records to replay, and where new ones go.
#[derive(Clone, Default)]
pub struct Journal {
    /// Completed calls of an earlier attempt, in step order, answered
    /// without calling their tools.
    pub replay: Vec<CallRecord>,
    /// Where the records of live calls go; `None` keeps nothing.
    pub sink: Option<Arc<Mutex<dyn JournalSink>>>,
}

impl std::fmt::Debug for Journal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Journal")
            .field("replay", &self.replay.len())
            .field("sink", &self.sink.is_some())
            .finish()
    }
}

/// A call's arguments as a journal writes them.
pub fn encode_args(args: &[Data], kwargs: &[(String, Data)]) -> Result<Value, codec::CodecError> {
    let args = args
        .iter()
        .map(codec::encode)
        .collect::<Result<Vec<_>, _>>()?;
    let kwargs = kwargs
        .iter()
        .map(|(k, v)| {
            Ok(Value::Array(vec![
                Value::String(k.clone()),
                codec::encode(v)?,
            ]))
        })
        .collect::<Result<Vec<_>, codec::CodecError>>()?;
    Ok(serde_json::json!({ "args": args, "kwargs": kwargs }))
}
