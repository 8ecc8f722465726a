//! The lackpy service: the API that the `lackpy` command line and the lackpy
//! MCP server are thin layers over.
//!
//! [`LackpyService`] is built for a workspace: it loads
//! `.lackpy/config.toml`, assembles the toolbox from every source at its
//! precedence, and offers `run_program`, `validate`, `delegate`,
//! `generate`, `tools`, `profile_info`, `status`, `spec` and `shutdown`. Expected failures of a
//! program are results ([`ExecutionResult`]); misconfiguration is a
//! [`ServiceError`].
#![forbid(unsafe_code)]

pub mod cli;
pub mod delegate;
pub mod mcp_server;
pub mod service;

pub use delegate::{DelegateResult, GenerateResult};
pub use lackpy_bridge::ExecutionResult;
pub use service::{Delegate, LackpyService, RunProgram, ServiceError, ServiceOptions};

/// The MCP-client crate this layer builds on, re-exported for callers.
pub use lackpy_mcp_client as mcp_client;
