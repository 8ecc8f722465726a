//! A call through its gate: open, approved by the policy, or decided by
//! the run's approver — waited for on the interpreter thread — before
//! anything of the call happens.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use lackpy_lang::{Data, ExceptionKind, ToolException as ProgramError};

use crate::approval::{Answer, ApprovalRequest, Decision, Gate, refused_message};
use crate::host::BridgeHost;
use crate::result::Paused;

impl BridgeHost {
    /// Passes call `step` through its tool's gate: `Ok(None)` for an open
    /// gate, `Ok(Some(by))` when it was approved (by `by`), and the
    /// program's error when it was refused (`PermissionError`) or the run
    /// pauses (`ApprovalRequired`, with [`Paused`] kept). Only a gated call
    /// pays for more than a look at its gate.
    pub(crate) fn pass_gate(
        &mut self,
        step: usize,
        tool: &str,
        args: &[Data],
        kwargs: &[(String, Data)],
    ) -> Result<Option<String>, ProgramError> {
        let Some(t) = self.tool(tool) else {
            return Ok(None);
        };
        let rule = match &t.gate {
            Gate::Open => return Ok(None),
            Gate::Auto => return Ok(Some("policy".to_string())),
            Gate::Ask { rule } => rule.clone(),
        };
        let request = ApprovalRequest {
            run_id: self.run_id.clone(),
            step,
            tool: tool.to_string(),
            args: lackpy_lang::preview_args(&t.args, args, kwargs),
            grade: t.grade,
            provenance: t.provenance.clone(),
            rule,
        };
        let answer = match self.approvals.decided.take_if(|(s, _)| *s == step) {
            Some((_, answer)) => answer,
            None => {
                let started = Instant::now();
                let answer = wait_for_answer(self, request.clone());
                // A person's time is not the program's: the deadline moves on.
                let waited = started.elapsed();
                self.shift_deadline(waited);
                answer
            }
        };
        match answer.decision {
            Decision::Approve => Ok(Some(answer.by)),
            Decision::Deny => {
                self.last_approval = Some(answer.by);
                Err(ProgramError::new("PermissionError", refused_message(tool)))
            }
            Decision::Pause if self.cancel.is_cancelled() => Err(ProgramError::new(
                ExceptionKind::Cancelled.name(),
                "execution cancelled",
            )),
            Decision::Pause => {
                let run_id = request.run_id.unwrap_or_default();
                let message = if run_id.is_empty() {
                    format!("call to {tool} needs approval; the run is paused")
                } else {
                    format!("call to {tool} needs approval; the run is paused (run {run_id})")
                };
                self.paused = Some(Paused {
                    run_id,
                    step,
                    tool: request.tool,
                    args: request.args,
                    grade: request.grade,
                    rule: request.rule,
                    expires_at: String::new(),
                });
                Err(ProgramError::new("ApprovalRequired", message))
            }
        }
    }
}

/// Asks the run's approver and parks until it answers, the approval
/// timeout passes (the run pauses) or the run is cancelled (the caller
/// sees the cancel flag). Without an approver nobody can answer: pause.
pub(crate) fn wait_for_answer(host: &BridgeHost, request: ApprovalRequest) -> Answer {
    let pause = |by: &str| Answer::new(Decision::Pause, by);
    let Some(approver) = host.approvals.approver.clone() else {
        return pause("none");
    };
    if !host.may_block() {
        // Only interpreter threads may wait; a run's inline slice never
        // reaches a tool call, so this is a misuse, answered safely.
        return pause("none");
    }
    let slot: Arc<Mutex<Option<Answer>>> = Arc::default();
    let task_slot = Arc::clone(&slot);
    let me = std::thread::current();
    let fut = approver.decide(request);
    let task = host.runtime.spawn(async move {
        let answer = fut.await;
        *task_slot.lock().unwrap_or_else(PoisonError::into_inner) = Some(answer);
        me.unpark();
    });
    // A timeout of centuries is "wait as long as it takes", not an overflow.
    let started = Instant::now();
    let deadline = started
        .checked_add(host.approvals.timeout)
        .unwrap_or_else(|| started + std::time::Duration::from_secs(100 * 365 * 86_400));
    loop {
        if let Some(answer) = slot.lock().unwrap_or_else(PoisonError::into_inner).take() {
            return answer;
        }
        if task.is_finished() {
            // The approver panicked: nobody decided, so nothing runs.
            return pause("none");
        }
        if host.cancel.is_cancelled() {
            task.abort();
            return pause("cancelled");
        }
        let now = Instant::now();
        if now >= deadline {
            task.abort();
            return pause("timeout");
        }
        // Woken by the answer; the short period notices a cancel.
        std::thread::park_timeout((deadline - now).min(std::time::Duration::from_millis(50)));
    }
}
