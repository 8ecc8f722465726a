//! Waiting for an approver's answer on the interpreter thread.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use crate::approval::{Answer, ApprovalRequest, Decision};
use crate::host::BridgeHost;

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
