#![doc = include_str!("../README.md")]
//!
//! # Map
//!
//! [`LackpyService`] is built for a workspace: it loads
//! `.lackpy/config.toml`, assembles the toolbox from every source at its
//! precedence, and offers `run_program`, `validate`, `delegate`,
//! `generate`, `tools`, `profile_info`, `status`, `spec` and `shutdown`. Expected failures of a
//! program are results ([`ExecutionResult`]); misconfiguration is a
//! [`ServiceError`].
#![forbid(unsafe_code)]

pub mod delegate;
mod mcp_server;
pub mod metrics;
pub mod runs;
mod service;
pub mod telemetry;

pub use delegate::{DelegateResult, GenerateResult};
pub use lackpy_bridge::{CancelToken, ExecutionResult};
pub use lackpy_lang::{Data, Limits, Rule, Spec, Teardown, Variables};
pub use mcp_server::{
    DEFAULT_HEADER_TIMEOUT, DEFAULT_MAX_CONCURRENT_RUNS, DEFAULT_MAX_QUEUED_RUNS,
    DEFAULT_MAX_SESSIONS, HttpOptions, McpServer, ServeOptions, serve,
};
pub use service::{
    ApproverHandle, Delegate, GatedCall, InventoryInfo, LackpyService, LimitsInfo, ListedTool,
    LiveService, Namespace, PolicyView, ProfileInfo, Resume, RunControl, RunProgram, Selection,
    ServiceError, ServiceOptions, SkippedServerInfo, Status, ToolCallEvent, ToolCallObserver,
    ToolList, ToolOrigin, ValidationReport, params_from_json, params_from_value, watch_config,
};

/// The MCP-client crate this layer builds on, re-exported for callers.
pub use lackpy_mcp_client as mcp_client;
