//! [`ToolSource`]: something that owns a set of tools end to end — their
//! specs and their implementations.

use std::sync::Arc;

use crate::error::ToolError;
use crate::model::ToolSpec;
use crate::tool::Tool;

/// A source of tools: builtin/config tools, command and Python tools,
/// virtual tools, one MCP server.
pub trait ToolSource: Send + Sync {
    /// The source's name, used as provenance in listings and logs
    /// (`defaults`, `config`, `virtual`, `mcp:time`, `host:<file>`…).
    fn name(&self) -> &str;

    /// Whether the source as a whole can serve calls right now.
    fn available(&self) -> bool;

    /// The tools the source offers.
    fn discover(&self) -> Vec<ToolSpec>;

    /// The implementation of one of the source's tools.
    fn resolve(&self, spec: &ToolSpec) -> Result<Arc<dyn Tool>, ToolError>;

    /// Whether one tool can be called right now; consulted on every check.
    /// Defaults to the source's availability.
    fn tool_available(&self, name: &str) -> bool {
        let _ = name;
        self.available()
    }

    /// Why a tool is unavailable, for listings; `None` when it is available
    /// or the source cannot tell.
    fn unavailable_reason(&self, name: &str) -> Option<String> {
        let _ = name;
        None
    }

    /// Where a tool's grade comes from (its config entry, a server's
    /// annotation hints, the worst-case default), for `lackpy tools NAME`;
    /// `None` when the source cannot tell.
    fn grade_reason(&self, name: &str) -> Option<String> {
        let _ = name;
        None
    }

    /// The error a caller gets for a tool that is unavailable right now.
    fn unavailable_error(&self, name: &str) -> ToolError {
        match self.unavailable_reason(name) {
            Some(reason) => {
                ToolError::unavailable(format!("tool '{name}' is unavailable: {reason}"))
            }
            None => ToolError::unavailable(format!("tool '{name}' is unavailable")),
        }
    }
}
