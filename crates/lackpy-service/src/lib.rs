//! The lackpy service: the API that the `lackpy` command line and the lackpy
//! MCP server are thin layers over.
//!
//! Status: the command line offers `validate` and `spec`; the service API,
//! `run` and the MCP server arrive with their issues.
#![forbid(unsafe_code)]

pub mod cli;

/// The MCP-client crate this layer builds on, re-exported for callers.
pub use lackpy_mcp_client as mcp_client;
