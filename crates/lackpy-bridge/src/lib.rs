//! The synchronous-interpreter ↔ async-tool bridge.
//!
//! lackpy programs are synchronous; MCP tools are async and are called
//! mid-program. This crate runs the interpreter on a bounded pool of
//! blocking threads and hands pending tool futures to the async runtime, so
//! a run can never deadlock the runtime it was started from. Timeouts and
//! cancellation reach both the interpreter and the in-flight tool call.
//!
//! Status: the crate is laid out; its contents arrive with the bridge issue.
#![forbid(unsafe_code)]

/// The tool-source crate this layer builds on, re-exported for callers.
pub use lackpy_sources as sources;
