//! Approval gates: a call to a tool above the policy's approval line asks
//! the run's [`Approver`] before anything of the call happens.

use std::future::Future;
use std::pin::Pin;

use lackpy_lang::{Data, Grade};

/// What the policy says of a call to one tool, fixed when the namespace is
/// built.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Gate {
    /// The call runs without asking.
    #[default]
    Open,
    /// The call needs a yes first; `rule` says which policy rule said so.
    Ask {
        /// The rule, e.g. `[policy] approve_above (2, 1)`.
        rule: String,
    },
    /// The call is above an approval line, but the policy approves it
    /// itself (`[policy] auto_approve`); the trace says `policy` decided.
    Auto,
}

/// One call waiting for a decision.
#[derive(Debug, Clone)]
pub struct ApprovalRequest {
    /// The run's id, when the run can be resumed.
    pub run_id: Option<String>,
    /// 0-based index of the call in the run.
    pub step: usize,
    /// The name the program called.
    pub tool: String,
    /// The arguments as the trace previews them.
    pub args: Vec<(String, Data)>,
    /// The tool's grade.
    pub grade: Grade,
    /// Where the tool comes from (`builtin`, `mcp`, `host`, …).
    pub provenance: String,
    /// The policy rule that asks for approval.
    pub rule: String,
}

impl ApprovalRequest {
    /// `write_file(path='out.txt', content=<42 chars>)`: the call in one
    /// line, strings over 24 characters shown by their length.
    pub fn call_text(&self) -> String {
        let args: Vec<String> = self
            .args
            .iter()
            .map(|(k, v)| format!("{k}={}", short_value(v)))
            .collect();
        format!("{}({})", self.tool, args.join(", "))
    }
}

fn short_value(v: &Data) -> String {
    match v {
        Data::Str(s) if s.chars().count() > 24 => format!("<{} chars>", s.chars().count()),
        Data::Str(s) => lackpy_lang::str_repr(s),
        Data::List(items) | Data::Tuple(items) | Data::Set(items) if items.len() > 4 => {
            format!("<{} {}>", items.len(), v.type_name())
        }
        Data::Dict(items) if items.len() > 4 => format!("<dict of {}>", items.len()),
        other => {
            let text = other.to_json();
            if text.chars().count() > 40 {
                format!("<{}>", other.type_name())
            } else {
                text
            }
        }
    }
}

/// The answer to an [`ApprovalRequest`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// The call runs.
    Approve,
    /// The call raises `PermissionError` in the program.
    Deny,
    /// Nobody can answer now: the run stops, paused, to be resumed later.
    Pause,
}

/// A decision and who made it (`"elicitation"`, `"tty"`, `"flag"`,
/// `"api"`: what the call's trace entry records).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The decision.
    pub decision: Decision,
    /// Who decided.
    pub by: String,
}

impl Answer {
    /// An answer by `by`.
    pub fn new(decision: Decision, by: impl Into<String>) -> Answer {
        Answer {
            decision,
            by: by.into(),
        }
    }
}

/// The future an approver answers with.
pub type AnswerFuture = Pin<Box<dyn Future<Output = Answer> + Send>>;

/// Who is asked about a gated call: a person at a terminal, an MCP
/// client's user (elicitation), or the embedding harness.
///
/// The bridge waits for the answer off the runtime's workers, up to the
/// run's approval timeout (then the run pauses) and never past a cancel.
/// The time spent waiting does not count against the run's timeout.
pub trait Approver: Send + Sync {
    /// Decides one call.
    fn decide(&self, request: ApprovalRequest) -> AnswerFuture;
}

/// The error a refused call raises in the program.
pub fn refused_message(tool: &str) -> String {
    format!("call to {tool} was not approved")
}
