//! What a run needs: the program, its tools, params and limits.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use lackpy_lang::ast::Module;
use lackpy_lang::{Data, Grade};
use lackpy_lang::{Limits, Teardown, Variables};
use lackpy_sources::Tool;

use crate::approval::{Answer, Approver, Gate};
use crate::journal::Journal;

/// One tool of a run's namespace, resolved to its implementation.
#[derive(Clone)]
pub struct NamespaceTool {
    /// The name the program calls (an alias if the profile aliased it).
    pub name: String,
    /// The declared argument names, in order (they name trace arguments).
    pub args: Vec<String>,
    /// The tool's grade.
    pub grade: Grade,
    /// Per-call timeout from the tool's source; `None` uses the run's default.
    pub call_timeout: Option<Duration>,
    /// Whether a call must be approved first.
    pub gate: Gate,
    /// Where the tool comes from (`builtin`, `config`, `mcp`, `host`, …),
    /// shown to whoever approves a call.
    pub provenance: String,
    /// The implementation.
    pub tool: Arc<dyn Tool>,
}

impl NamespaceTool {
    /// A tool called `name` with its declared argument names and grade; no
    /// call timeout of its own, no gate.
    pub fn new(
        name: impl Into<String>,
        args: Vec<String>,
        grade: Grade,
        tool: Arc<dyn Tool>,
    ) -> NamespaceTool {
        NamespaceTool {
            name: name.into(),
            args,
            grade,
            call_timeout: None,
            gate: Gate::Open,
            provenance: String::new(),
            tool,
        }
    }
}

impl std::fmt::Debug for NamespaceTool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NamespaceTool")
            .field("name", &self.name)
            .field("args", &self.args)
            .field("grade", &self.grade)
            .field("call_timeout", &self.call_timeout)
            .field("gate", &self.gate)
            .finish_non_exhaustive()
    }
}

/// A validated program and everything its run needs.
#[derive(Debug, Clone)]
pub struct RunRequest {
    /// The program, already validated against the tool and param names.
    pub module: Arc<Module>,
    /// The program's tools.
    pub tools: Vec<NamespaceTool>,
    /// Params, injected as module-level names.
    pub params: Vec<(String, Data)>,
    /// Limits for this run.
    pub limits: Limits,
    /// Per-call timeout for tools whose source sets none.
    pub default_call_timeout: Option<Duration>,
    /// The workspace root handed to every tool.
    pub workspace: PathBuf,
    /// Whether the result carries the program's variables (collected by
    /// default; a caller that never shows them omits them).
    pub variables: Variables,
    /// Whether the program's values are freed when the run ends (the
    /// default) or left to the exit of a process that ends right after
    /// the run. A run's short first slice on the caller's thread always
    /// frees them.
    pub teardown: Teardown,
    /// Whether the outcome also holds the output as a `Data` tree keeping
    /// its Python forms (`RunOutcome::output_value`); off by default.
    pub output_value: bool,
    /// Who approves gated calls, and how long they may take.
    pub approvals: Approvals,
    /// The run's journal: calls to replay, and where new records go.
    /// `None`: nothing is replayed or kept.
    pub journal: Option<Journal>,
    /// The run's id (shown with a pause, so that it can be resumed).
    pub run_id: Option<String>,
}

/// How a run's gated calls are decided.
#[derive(Clone)]
pub struct Approvals {
    /// Who is asked; `None`: nobody can answer, so a gated call pauses the
    /// run.
    pub approver: Option<Arc<dyn Approver>>,
    /// How long a gated call waits for its answer before the run pauses.
    pub timeout: Duration,
    /// An answer already given for one step (a resumed run's paused call).
    pub decided: Option<(usize, Answer)>,
}

impl Default for Approvals {
    fn default() -> Approvals {
        Approvals {
            approver: None,
            timeout: Duration::from_secs(600),
            decided: None,
        }
    }
}

impl std::fmt::Debug for Approvals {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Approvals")
            .field("approver", &self.approver.is_some())
            .field("timeout", &self.timeout)
            .field("decided", &self.decided)
            .finish()
    }
}

impl RunRequest {
    /// A request with default limits and no per-call timeout.
    pub fn new(
        module: Arc<Module>,
        tools: Vec<NamespaceTool>,
        workspace: impl Into<PathBuf>,
    ) -> RunRequest {
        RunRequest {
            module,
            tools,
            params: Vec::new(),
            limits: Limits::default(),
            default_call_timeout: None,
            workspace: workspace.into(),
            variables: Variables::Collect,
            teardown: Teardown::Free,
            output_value: false,
            approvals: Approvals::default(),
            journal: None,
            run_id: None,
        }
    }
}
