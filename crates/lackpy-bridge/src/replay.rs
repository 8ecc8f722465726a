//! The host's side of a journal: answering calls from their records, and
//! recording live ones.

use lackpy_lang::{Data, ToolException as ProgramError};
use serde_json::Value;

use crate::host::BridgeHost;
use crate::journal::{CallRecord, CallStart, codec};

impl BridgeHost {
    /// Answers call `step` from the journal when an earlier attempt
    /// completed it: `Some(answer)`, and the tool is not called. A call
    /// that does not match its record is `ReplayDivergenceError`.
    pub(crate) fn replay(
        &mut self,
        step: usize,
        tool: &str,
        args: Option<&Value>,
    ) -> Result<Option<Result<Data, ProgramError>>, ProgramError> {
        let Some(journal) = &self.journal else {
            return Ok(None);
        };
        let Some(record) = journal.replay.get(step) else {
            return Ok(None);
        };
        if record.step != step || record.tool != tool || Some(&record.args) != args {
            self.diverged = true;
            return Err(divergence(step, tool, record));
        }
        let data = codec::decode(&record.result).map_err(|e| {
            ProgramError::new(
                "JournalError",
                format!("the journal's record of call {step} cannot be read: {e}"),
            )
        })?;
        self.last_approval.clone_from(&record.approval);
        Ok(Some(Ok(data)))
    }

    /// Records that call `step` is about to start.
    pub(crate) fn journal_begin(
        &mut self,
        step: usize,
        tool: &str,
        args: &Value,
        approval: Option<&str>,
    ) -> Result<(), ProgramError> {
        let Some(sink) = self.journal.as_ref().and_then(|j| j.sink.clone()) else {
            return Ok(());
        };
        let start = CallStart {
            step,
            tool: tool.to_string(),
            args: args.clone(),
            approval: approval.map(str::to_string),
        };
        let mut sink = sink
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        sink.begin(&start).map_err(journal_error)
    }

    /// Records that call `step` completed with `result`.
    pub(crate) fn journal_complete(
        &mut self,
        step: usize,
        tool: &str,
        args: Value,
        result: &Data,
        approval: Option<String>,
    ) -> Result<(), ProgramError> {
        let Some(sink) = self.journal.as_ref().and_then(|j| j.sink.clone()) else {
            return Ok(());
        };
        let result = codec::encode(result).map_err(|e| {
            ProgramError::new(
                "JournalError",
                format!("cannot journal the result of {tool}: {e}"),
            )
        })?;
        let record = CallRecord {
            step,
            tool: tool.to_string(),
            args,
            result,
            approval,
        };
        let mut sink = sink
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        sink.complete(&record).map_err(journal_error)
    }

    /// Whether the run made fewer calls than its journal recorded (a
    /// replay that ended early diverged as well).
    pub(crate) fn replay_left(&self) -> usize {
        self.journal
            .as_ref()
            .map_or(0, |j| j.replay.len().saturating_sub(self.calls))
    }
}

fn journal_error(e: String) -> ProgramError {
    ProgramError::new("JournalError", e)
}

/// The error of a replayed call that is not the one the journal recorded.
fn divergence(step: usize, tool: &str, record: &CallRecord) -> ProgramError {
    let what = if record.tool == tool {
        format!("called {tool} with other arguments than the journal recorded")
    } else {
        format!("called {tool} where the journal recorded {}", record.tool)
    };
    ProgramError::new(
        "ReplayDivergenceError",
        format!(
            "step {step}: the program {what}; the program, its namespace or the tools changed since the run was journaled, so nothing was called"
        ),
    )
}
