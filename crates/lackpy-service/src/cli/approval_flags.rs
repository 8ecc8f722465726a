//! `--yes` / `--deny`: who answers a run's gated calls on the command line.

use std::io::IsTerminal;

use clap::Args;
use lackpy_bridge::{Answer, AnswerFuture, ApprovalRequest, Approver, Decision};

use super::tty_approver::TtyApprover;
use lackpy_service::ApproverHandle;

/// The approval flags of `run` and `delegate`.
#[derive(Debug, Clone, Args)]
pub struct ApprovalArgs {
    /// Approve every call that needs approval, without asking.
    #[arg(long, conflicts_with = "deny")]
    pub yes: bool,
    /// Refuse every call that needs approval (it raises PermissionError).
    #[arg(long)]
    pub deny: bool,
}

impl ApprovalArgs {
    /// The run's approver: the flag's answer, else a prompt when a person
    /// is at the terminal, else none (a gated call pauses the run).
    pub fn approver(&self) -> Option<ApproverHandle> {
        if self.yes {
            Some(ApproverHandle::new(FlagApprover(Decision::Approve)))
        } else if self.deny {
            Some(ApproverHandle::new(FlagApprover(Decision::Deny)))
        } else {
            interactive()
        }
    }
}

/// The terminal prompt when stdin and stderr are both terminals: the
/// question goes to stderr and the answer comes from stdin, so a piped
/// end on either side means nobody can answer.
pub fn interactive() -> Option<ApproverHandle> {
    (std::io::stdin().is_terminal() && std::io::stderr().is_terminal())
        .then(|| ApproverHandle::new(TtyApprover::default()))
}

/// Gives the same decision to every call, recorded as decided by `flag`.
pub struct FlagApprover(pub Decision);

impl Approver for FlagApprover {
    fn decide(&self, _request: ApprovalRequest) -> AnswerFuture {
        let answer = Answer::new(self.0, "flag");
        Box::pin(async move { answer })
    }
}
