//! The label sets of the metric families: closed sets of words, or names
//! from the tool inventory and the config (never from a program).

use std::sync::Arc;

use prometheus_client::encoding::EncodeLabelSet;

/// A run's outcome (`lackpy_runs_total{outcome}`).
pub(super) type Outcome = [(&'static str, &'static str); 1];

/// A decision on a gated call (`lackpy_approvals_total{decision}`).
pub(super) type Decision = [(&'static str, &'static str); 1];

/// An upstream MCP server's id.
pub(super) type ServerLabel = [(&'static str, String); 1];

/// A tool call's source (`lackpy_tool_call_duration_seconds{source}`).
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub(super) struct SourceLabel {
    pub(super) source: Arc<str>,
}

/// One kind of tool call (`lackpy_tool_calls_total{tool,source,outcome}`).
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub(super) struct ToolCallLabels {
    pub(super) tool: Arc<str>,
    pub(super) source: Arc<str>,
    pub(super) outcome: &'static str,
}

/// A tool of the inventory as its calls are labelled.
#[derive(Clone, Debug)]
pub(super) struct ToolLabel {
    pub(super) tool: Arc<str>,
    pub(super) source: Arc<str>,
}

impl ToolLabel {
    /// The label of every call to a tool outside the inventory.
    pub(super) fn other() -> ToolLabel {
        let other: Arc<str> = Arc::from("other");
        ToolLabel {
            tool: Arc::clone(&other),
            source: other,
        }
    }
}

/// Every outcome of a run.
pub(super) const OUTCOMES: [&str; 6] = [
    "success",
    "error",
    "invalid",
    "timeout",
    "cancelled",
    "paused",
];

/// Every decision on a gated call.
pub(super) const DECISIONS: [&str; 3] = ["approved", "denied", "paused"];
