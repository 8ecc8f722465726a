//! Running a validated program with its journal: the part of a run that
//! `run_program` and `resume` share.
//!
//! A run gets a journal when it may have to be resumed: it is durable
//! (`--journal`, `[runs] journal`), or a tool of its namespace has an
//! approval gate (it may pause). A durable journal is written and synced
//! call by call; the other kind stays in memory and reaches the disk only
//! if the run pauses. A run that ends without pausing removes its journal:
//! there is nothing left to resume.

use std::sync::{Arc, Mutex, PoisonError};

use lackpy_bridge::{ExecutionResult, Journal, RunRequest};
use lackpy_lang::Data;

use super::inventory::LackpyService;
use crate::runs::record::Line;
use crate::runs::sink::JournalFile;
use crate::runs::time::{now_secs, rfc3339};

/// A run's journal while it runs.
pub(super) struct RunJournal {
    pub run_id: String,
    pub file: Arc<Mutex<JournalFile>>,
}

impl RunJournal {
    /// The bridge's view: records to replay and the sink for new ones.
    pub(super) fn bridge_journal(&self, replay: Vec<lackpy_bridge::CallRecord>) -> Journal {
        let sink: Arc<Mutex<dyn lackpy_bridge::JournalSink>> = self.file.clone();
        Journal {
            replay,
            sink: Some(sink),
        }
    }
}

/// Runs `run` and settles its journal: a paused run's journal is written
/// to disk with where it waits (and the result says when it expires);
/// any other outcome removes it.
pub(super) async fn run_journaled(
    service: &LackpyService,
    run: RunRequest,
    cancel: lackpy_bridge::CancelToken,
    journal: Option<RunJournal>,
) -> ExecutionResult {
    let mut result = service.inner.base.bridge.run_with_cancel(run, cancel).await;
    let Some(journal) = journal else {
        if let Some(p) = &mut result.paused {
            // Nothing can resume it: say so rather than show an id.
            p.run_id = String::new();
        }
        return result;
    };
    let file = match Arc::try_unwrap(journal.file) {
        Ok(m) => m.into_inner().unwrap_or_else(PoisonError::into_inner),
        Err(shared) => {
            // The bridge keeps no sink after the run; be safe regardless.
            let mut guard = shared.lock().unwrap_or_else(PoisonError::into_inner);
            std::mem::replace(&mut *guard, JournalFile::detached())
        }
    };
    // Settling writes to the store (a synced file, or PostgreSQL): off the
    // runtime.
    let keep = service.inner.base.runs.keep();
    let run_id = journal.run_id;
    let grade = result.grade;
    tokio::task::spawn_blocking(move || settle(keep, result, file, &run_id))
        .await
        .unwrap_or_else(|e| {
            ExecutionResult::failed(
                "JournalError",
                format!("the run's journal could not be settled: {e}"),
                grade,
                std::time::Duration::ZERO,
            )
        })
}

fn settle(
    keep: std::time::Duration,
    mut result: ExecutionResult,
    mut file: JournalFile,
    run_id: &str,
) -> ExecutionResult {
    let Some(paused) = &mut result.paused else {
        // A replay that diverged keeps its journal: with the program or
        // tools put back, the run can still be resumed.
        if result.error_type.as_deref() != Some("ReplayDivergenceError") {
            file.remove();
        }
        return result;
    };
    let args: Vec<(Data, Data)> = paused
        .args
        .iter()
        .map(|(k, v)| (Data::Str(k.clone()), v.clone()))
        .collect();
    let args_json = serde_json::from_str(&lackpy_bridge::python_json_to_strict(
        Data::Dict(args).to_json(),
    ))
    .unwrap_or_default();
    let line = Line::Paused {
        step: paused.step,
        tool: paused.tool.clone(),
        grade: paused.grade,
        rule: paused.rule.clone(),
        args: args_json,
    };
    let written = file.append(&line).and_then(|()| {
        file.persist()
            .map_err(|e| format!("cannot write the run's journal: {e}"))
    });
    match written {
        Ok(()) => {
            paused.run_id = run_id.to_string();
            paused.expires_at = rfc3339(now_secs() + keep.as_secs());
        }
        Err(e) => {
            tracing::warn!(run_id, error = %e, "a paused run's journal could not be written");
            file.remove();
            result.paused = None;
            result.error = Some(format!(
                "{}; but the run cannot be resumed: {e}",
                result.error.as_deref().unwrap_or("the run paused")
            ));
        }
    }
    result
}
