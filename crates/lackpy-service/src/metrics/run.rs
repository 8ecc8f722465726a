//! What a finished run adds to the counters: its outcome and duration,
//! and from its trace each tool call (by tool, source and outcome, timed
//! by source) and each decision on a gated call. Read after the run, so
//! a tool call costs the run nothing while it goes.

use lackpy_bridge::ExecutionResult;
use lackpy_bridge::approval::refused_message;
use lackpy_lang::{ExceptionKind, TraceEntry};

use super::labels::{SourceLabel, ToolCallLabels};
use super::registry::Metrics;
use crate::delegate::{DelegateOutcome, DelegateResult};

/// An answer that may hold a program's run (a delegate's may not).
pub trait HasExecution {
    /// The run, when a program ran.
    fn execution(&self) -> Option<&ExecutionResult>;
}

impl HasExecution for ExecutionResult {
    fn execution(&self) -> Option<&ExecutionResult> {
        Some(self)
    }
}

impl HasExecution for DelegateResult {
    fn execution(&self) -> Option<&ExecutionResult> {
        match &self.outcome {
            DelegateOutcome::Ran(result) => Some(result),
            DelegateOutcome::NotRun { .. } => None,
        }
    }
}

/// The outcome label of a finished run.
fn outcome(result: &ExecutionResult) -> &'static str {
    if result.success {
        return "success";
    }
    if result.paused.is_some() {
        return "paused";
    }
    let labels = [
        (ExceptionKind::ValidationError, "invalid"),
        (ExceptionKind::TimeoutError, "timeout"),
        (ExceptionKind::Cancelled, "cancelled"),
    ];
    let kind = result.error_type.as_deref();
    labels
        .into_iter()
        .find(|(k, _)| kind == Some(k.name()))
        .map_or("error", |(_, label)| label)
}

impl Metrics {
    /// Counts one finished run: a resume another resume held (`Busy`)
    /// counts as a rejection, not a run.
    pub fn record_run(&self, result: &ExecutionResult) {
        if result.error_type.as_deref() == Some("Busy") {
            self.busy_rejections.inc();
            return;
        }
        self.runs
            .get_or_create(&[("outcome", outcome(result))])
            .inc();
        self.run_duration.observe(result.duration.as_secs_f64());
        let paused_step = result.paused.as_ref().map(|p| p.step);
        for entry in &result.trace {
            self.record_call(entry, paused_step);
        }
        if let Some(dropped) = &result.trace_dropped {
            for calls in &dropped.by_tool {
                // A failure or a refusal ends the run, so its entry is the
                // last and always kept: those left out ran, and those
                // decided were approved.
                let live = calls.dropped.saturating_sub(calls.replayed);
                let failed = calls.failed.min(live);
                self.count_calls(&calls.tool, "ok", live - failed);
                self.count_calls(&calls.tool, "error", failed);
                let decided: usize = calls.approvals.iter().map(|(_, n)| n).sum();
                self.count_decisions("approved", decided);
            }
        }
    }

    /// Counts a run's outcome as a paused result's or a finished one's.
    pub fn record<T: HasExecution>(&self, answer: &T) {
        if let Some(result) = answer.execution() {
            self.record_run(result);
        }
    }

    fn record_call(&self, entry: &TraceEntry, paused_step: Option<usize>) {
        // A replayed call reached no tool: it was counted when it ran.
        if entry.replayed {
            return;
        }
        let label = self.label(&entry.tool);
        let (outcome, decision) = if paused_step == Some(entry.step) {
            ("paused", Some("paused"))
        } else if entry.success {
            ("ok", entry.approval.as_ref().map(|_| "approved"))
        } else if entry.approval.is_some()
            && entry.error.as_deref() == Some(refused_message(&entry.tool).as_str())
        {
            ("denied", Some("denied"))
        } else {
            ("error", entry.approval.as_ref().map(|_| "approved"))
        };
        self.tool_calls
            .get_or_create(&ToolCallLabels {
                tool: label.tool.clone(),
                source: label.source.clone(),
                outcome,
            })
            .inc();
        if let Some(decision) = decision {
            self.count_decisions(decision, 1);
        }
        // Only calls that reached their tool are timed.
        if outcome == "ok" || outcome == "error" {
            self.tool_call_duration
                .get_or_create(&SourceLabel {
                    source: label.source.clone(),
                })
                .observe(entry.duration.as_secs_f64());
        }
    }

    fn count_calls(&self, tool: &str, outcome: &'static str, n: usize) {
        if n == 0 {
            return;
        }
        let label = self.label(tool);
        self.tool_calls
            .get_or_create(&ToolCallLabels {
                tool: label.tool.clone(),
                source: label.source.clone(),
                outcome,
            })
            .inc_by(n as u64);
    }

    fn count_decisions(&self, decision: &'static str, n: usize) {
        if n > 0 {
            self.approvals
                .get_or_create(&[("decision", decision)])
                .inc_by(n as u64);
        }
    }
}
