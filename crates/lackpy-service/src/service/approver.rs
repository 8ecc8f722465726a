//! [`ApproverHandle`]: the approver a caller hands a run.

use std::sync::Arc;

use lackpy_bridge::Approver;

/// Who approves a run's gated calls (the embedding API's `Approver`, the
/// CLI's terminal prompt, an MCP client's elicitation).
#[derive(Clone)]
pub struct ApproverHandle(pub Arc<dyn Approver>);

impl ApproverHandle {
    /// Wraps an approver.
    pub fn new(approver: impl Approver + 'static) -> ApproverHandle {
        ApproverHandle(Arc::new(approver))
    }
}

impl std::fmt::Debug for ApproverHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ApproverHandle(..)")
    }
}
