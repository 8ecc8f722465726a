//! [`McpClientOptions`]: the limits and defaults every server gets unless
//! its config says otherwise.

use std::path::PathBuf;
use std::time::Duration;

/// Limits and defaults for all MCP servers of one client.
#[derive(Debug, Clone)]
pub struct McpClientOptions {
    /// The working directory of stdio servers whose config names none (the
    /// workspace); `None` keeps ours.
    pub workspace: Option<PathBuf>,
    /// Connect + handshake + `tools/list`, for servers whose config sets no
    /// `connect_timeout_ms`.
    pub connect_timeout: Duration,
    /// Per call, for servers whose config sets no `call_timeout_ms`.
    pub call_timeout: Duration,
    /// The whole discovery: no server delays readiness past this.
    pub discovery_deadline: Duration,
    /// Largest response accepted (one JSON-RPC message); larger ones fail
    /// the call that asked for them.
    pub response_cap: usize,
    /// After a stdio server's stdin is closed, how long it may take to exit
    /// before its process group gets `SIGTERM`.
    pub close_grace: Duration,
    /// After `SIGTERM`, how long before `SIGKILL`.
    pub term_grace: Duration,
    /// Delay before reconnecting after a session ended; doubled for each
    /// session that ended within a minute of the previous end, up to 2 s.
    pub reconnect_backoff: Duration,
    /// Once a server is down (its reconnect failed), calls fail at once
    /// until this much time has passed; then the next call tries again.
    pub down_retry_after: Duration,
    /// Most tools taken from one server; `tools/list` pages past it are not
    /// fetched.
    pub max_tools: usize,
}

impl Default for McpClientOptions {
    fn default() -> McpClientOptions {
        McpClientOptions {
            workspace: None,
            connect_timeout: Duration::from_secs(10),
            call_timeout: Duration::from_secs(60),
            discovery_deadline: Duration::from_secs(30),
            response_cap: 8 * 1024 * 1024,
            close_grace: Duration::from_millis(300),
            term_grace: Duration::from_millis(200),
            reconnect_backoff: Duration::from_millis(100),
            down_retry_after: Duration::from_secs(30),
            max_tools: 1000,
        }
    }
}
