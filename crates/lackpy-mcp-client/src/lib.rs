#![doc = include_str!("../README.md")]
//!
//! # Design
//!
//! Each configured server (stdio or streamable HTTP, either protocol
//! generation) gets one supervisor task that owns its SDK session; calls
//! are operations submitted to it and run concurrently on that session.
//! Discovery is eager, parallel and bounded, and one bad server never hurts
//! the others.
//!
//! # Use
//!
//! 1. Collect the servers: [`ConfiguredServers::from_config`] (own
//!    `[mcp_servers.<id>]` and `[mcp].host_configs` files).
//! 2. [`McpClient::start`] them inside the service's tokio runtime; each
//!    [`McpToolSource`] of the returned [`Discovery`] goes into the toolbox
//!    at its [`McpToolSource::precedence`]. Failed servers come back as
//!    unavailable sources whose [`ServerStatus`] says why.
//! 3. [`McpClient::status`] feeds `lackpy status` / `lackpy tools`;
//!    [`McpClient::changes`] says when a server's tools changed (then
//!    [`McpClient::sources`] holds its new source).
//! 4. [`McpClient::shutdown`] when the service stops; from a signal
//!    handler, [`kill_all_servers`].
//!
//! Calls are [`Tool`](lackpy_sources::Tool)s answering with a future the
//! bridge drives; dropping it cancels the request on the server.
#![forbid(unsafe_code)]

mod client;
mod convert;
mod discover_check;
mod discovery;
mod error;
mod handler;
mod http_check;
mod inflight;
mod linecap;
mod naming;
mod operation;
mod options;
mod process;
mod relist;
mod schema;
mod schema_type;
mod source;
mod stdio;
mod supervisor;
mod trace_context;
mod transport;

pub use client::{ConfiguredServers, Discovery, McpClient};
pub use convert::{data_to_json, json_to_data, result_to_data};
pub use discovery::{DiscoveryEvent, ProgressHook};
pub use options::McpClientOptions;
pub use process::{kill_all_servers, live_server_groups};
pub use source::{McpTool, McpToolSource, ServerStatus, SkippedTool, ToolName};
pub use supervisor::ServerState;
pub use trace_context::{TraceparentSource, set_traceparent_source};

/// The tool-source crate this layer builds on, re-exported for callers.
pub use lackpy_sources as sources;
