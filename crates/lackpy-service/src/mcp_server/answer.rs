//! What a tool call answers when it ends normally: JSON (as
//! `structuredContent` and as text), or a malformed request's `isError`
//! result; and how messages name the request's own tool list.

use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::Value;

/// A JSON answer: the same JSON as `structuredContent` and as text.
pub(crate) fn json_result(value: Value) -> CallToolResult {
    let text = value.to_string();
    let mut r = CallToolResult::success(vec![ContentBlock::text(text)]);
    r.structured_content = Some(value);
    r
}

/// How messages name a request's own tool list: MCP callers give it as
/// `run_program`'s and `validate`'s `tools` argument.
pub(crate) const TOOLS_ARGUMENT: &str = "the 'tools' argument";

/// A malformed request: an `isError` result the model can read.
pub(crate) fn request_error(message: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(message)])
}
