//! The terminal prompt for gated calls: `step 3: write_file(…) grade (3, 3)
//! — allow? [y/N/a] ` on stderr, one line read from stdin.

use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use lackpy_bridge::{Answer, AnswerFuture, ApprovalRequest, Approver, Decision};

use super::output;

/// Who decided, as the call's trace entry records it.
const BY: &str = "tty";

/// Set while a prompt waits for its line. The read cannot be interrupted:
/// when the run stops waiting (the approval timeout paused it), the
/// command must neither wait for that thread at exit nor print on the
/// prompt's line.
static PROMPT_PENDING: AtomicBool = AtomicBool::new(false);

/// Whether a prompt is still waiting for its answer.
pub fn prompt_pending() -> bool {
    PROMPT_PENDING.load(Ordering::SeqCst)
}

/// Ends the line of a prompt the approval timeout gave up on, so what is
/// printed next starts on its own line.
pub fn leave_abandoned_prompt() {
    if prompt_pending() {
        output::err("\n");
    }
}

/// Asks the person at the terminal about each gated call.
#[derive(Default)]
pub struct TtyApprover {
    state: Arc<State>,
}

#[derive(Default)]
struct State {
    /// One question on the terminal at a time.
    prompt: Mutex<()>,
    /// `a` was answered: every later call of this run is approved.
    all: AtomicBool,
}

/// What a line typed at the prompt means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reply {
    /// `y` / `yes`: this call.
    Yes,
    /// `a` / `all`: this call and every later one.
    All,
    /// Anything else, an empty line or end of input.
    No,
}

/// Reads a typed answer; the default (anything unrecognised) is no.
pub fn parse_reply(line: &str) -> Reply {
    match line.trim().to_ascii_lowercase().as_str() {
        "y" | "yes" => Reply::Yes,
        "a" | "all" => Reply::All,
        _ => Reply::No,
    }
}

/// `step 3: write_file(path='out.txt', content=<42 chars>) grade (3, 3)`.
pub fn describe(request: &ApprovalRequest) -> String {
    format!(
        "step {}: {} grade ({}, {})",
        request.step,
        request.call_text(),
        request.grade.w,
        request.grade.d
    )
}

impl Approver for TtyApprover {
    fn decide(&self, request: ApprovalRequest) -> AnswerFuture {
        let state = Arc::clone(&self.state);
        Box::pin(async move {
            let asked = tokio::task::spawn_blocking(move || ask(&state, &request)).await;
            // A prompt thread that panicked decided nothing: refuse.
            Answer::new(asked.unwrap_or(Decision::Deny), BY)
        })
    }
}

/// Prompts (or not, after `a`) and waits for the line.
fn ask(state: &State, request: &ApprovalRequest) -> Decision {
    let _turn = state.prompt.lock().unwrap_or_else(PoisonError::into_inner);
    let call = describe(request);
    if state.all.load(Ordering::SeqCst) {
        output::err_line(&format!("{call} — allowed (a)"));
        return Decision::Approve;
    }
    PROMPT_PENDING.store(true, Ordering::SeqCst);
    output::err(&format!("{call} — allow? [y/N/a] "));
    let mut line = String::new();
    let read = std::io::stdin().lock().read_line(&mut line);
    PROMPT_PENDING.store(false, Ordering::SeqCst);
    if matches!(read, Ok(0) | Err(_)) {
        // End of input leaves the cursor on the prompt's line.
        output::err("\n");
    }
    match parse_reply(&line) {
        Reply::Yes => Decision::Approve,
        Reply::All => {
            state.all.store(true, Ordering::SeqCst);
            Decision::Approve
        }
        Reply::No => Decision::Deny,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_yes_and_all_approve() {
        assert_eq!(parse_reply("y\n"), Reply::Yes);
        assert_eq!(parse_reply(" YES "), Reply::Yes);
        assert_eq!(parse_reply("a\n"), Reply::All);
        assert_eq!(parse_reply("all"), Reply::All);
        for no in ["", "\n", "n", "no", "yy", "ja", "y es"] {
            assert_eq!(parse_reply(no), Reply::No, "{no:?}");
        }
    }
}
