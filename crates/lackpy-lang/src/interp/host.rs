//! The host interface: how a run reaches its tools.

use crate::data::Data;

/// What a run can do outside itself: call the tools its host hands it.
///
/// The interpreter calls the host on the interpreter thread; a call may
/// block (the host decides how to wait, cancel or time out a tool).
pub trait Host {
    /// The declared argument names of tool `name` (used to name the
    /// arguments in the trace), or `None` if `name` is not a tool.
    fn tool_args(&self, name: &str) -> Option<&[String]>;

    /// Calls tool `tool` with positional and keyword arguments.
    fn call(
        &mut self,
        tool: &str,
        args: Vec<Data>,
        kwargs: Vec<(String, Data)>,
    ) -> Result<Data, ToolException>;

    /// A note on the call just made, for its trace entry (a file read
    /// through one of several hard links, say); taken once, after each call.
    fn call_note(&mut self) -> Option<String> {
        None
    }

    /// Who decided that the call just made could run (or could not), for
    /// its trace entry: `"elicitation"`, `"tty"`, `"flag"`, `"api"` or
    /// `"policy"`; `None` for a call that needed no decision. Taken once,
    /// after each call.
    fn call_approval(&mut self) -> Option<String> {
        None
    }

    /// Whether the call just made was answered from a journal of an earlier
    /// run rather than by the tool (a resumed run replays its completed
    /// calls). Taken once, after each call.
    fn call_replayed(&mut self) -> bool {
        false
    }

    /// How long the call just made waited for a person to approve it. That
    /// time is not the program's: the run's deadline moves on by it. Taken
    /// once, after each call.
    fn take_waited(&mut self) -> std::time::Duration {
        std::time::Duration::ZERO
    }
}

/// A host with no tools, for programs that call none: every name is a
/// non-tool, and a call (which validation would have refused) raises
/// `ToolError`.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoTools;

impl Host for NoTools {
    fn tool_args(&self, _name: &str) -> Option<&[String]> {
        None
    }

    fn call(
        &mut self,
        tool: &str,
        _args: Vec<Data>,
        _kwargs: Vec<(String, Data)>,
    ) -> Result<Data, ToolException> {
        Err(ToolException::new("ToolError", format!("no tool {tool}")))
    }
}

/// A tool's failure, reported to the program as a Python exception.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolException {
    /// The exception class name (`"ToolError"`, `"TimeoutError"`,
    /// `"FileNotFoundError"`, `"TypeError"`, …).
    pub error_type: String,
    /// The message, as Python's `str(exc)`.
    pub message: String,
}

impl ToolException {
    /// A tool error of class `error_type`.
    pub fn new(error_type: impl Into<String>, message: impl Into<String>) -> Self {
        ToolException {
            error_type: error_type.into(),
            message: message.into(),
        }
    }
}

impl std::fmt::Display for ToolException {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.error_type, self.message)
    }
}

impl std::error::Error for ToolException {}
