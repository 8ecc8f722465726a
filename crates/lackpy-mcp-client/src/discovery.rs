//! Eager, parallel, bounded discovery: every server is connected and its
//! tools listed at once, each within its own connect timeout and all within
//! one overall deadline. A server that fails is reported, never waited for
//! past its limits, and never holds up the others.

use std::sync::Arc;
use std::time::{Duration, Instant};

use lackpy_sources::McpServerDescriptor;
use rmcp::model::Tool as McpToolDef;
use tokio::runtime::Handle;

use crate::error::McpError;
use crate::options::McpClientOptions;
use crate::process::ChildGuard;
use crate::source::{Found, McpToolSource};
use crate::supervisor::{self, Endpoint, ServerHandle, ServerState, Shared, Timing};

/// Most `tools/list` pages fetched from one server.
const MAX_PAGES: usize = 100;

/// What discovery reports as it goes, for a progress display.
#[derive(Debug, Clone, PartialEq)]
pub enum DiscoveryEvent {
    /// Discovery began for `total` servers.
    Started {
        /// How many servers.
        total: usize,
    },
    /// A server is ready.
    Ready {
        /// Its id.
        server: String,
        /// How many tools it offers.
        tools: usize,
        /// The protocol version agreed on.
        protocol_version: Option<String>,
        /// How long it took.
        elapsed: Duration,
        /// Servers finished so far (ready or failed).
        done: usize,
        /// All servers.
        total: usize,
    },
    /// A server could not be used.
    Failed {
        /// Its id.
        server: String,
        /// Why.
        reason: String,
        /// How long it took.
        elapsed: Duration,
        /// Servers finished so far (ready or failed).
        done: usize,
        /// All servers.
        total: usize,
    },
    /// Discovery is over.
    Finished {
        /// Servers ready.
        ready: usize,
        /// Servers failed.
        failed: usize,
        /// How long it took.
        elapsed: Duration,
    },
}

/// Called with each [`DiscoveryEvent`]; the service draws progress with it.
pub type ProgressHook = Arc<dyn Fn(&DiscoveryEvent) + Send + Sync>;

/// The outcome for one server.
pub(crate) struct Outcome {
    pub source: McpToolSource,
    pub supervisor: Option<(ServerHandle, tokio::task::JoinHandle<()>)>,
    pub leftover: Option<ChildGuard>,
}

/// Lists every tool, page by page, within the caller's limit.
pub(crate) async fn list_all(
    handle: &ServerHandle,
    max_tools: usize,
) -> Result<Vec<McpToolDef>, McpError> {
    handle
        .submit(Arc::from("tools/list"), move |client| async move {
            let mut tools = Vec::new();
            let mut cursor = None;
            for _ in 0..MAX_PAGES {
                let page = client.list_tools_page(cursor).await?;
                tools.extend(page.tools);
                cursor = page.next_cursor;
                if cursor.is_none() || tools.len() >= max_tools {
                    break;
                }
            }
            tools.truncate(max_tools);
            Ok(tools)
        })
        .await
}

/// Connects one server and lists its tools.
pub(crate) async fn discover_one(
    descriptor: McpServerDescriptor,
    options: &McpClientOptions,
    deadline: Instant,
) -> Outcome {
    let started = Instant::now();
    let server: Arc<str> = Arc::from(descriptor.id.as_str());
    let connect_timeout = descriptor
        .connect_timeout
        .unwrap_or(options.connect_timeout);
    let call_timeout = descriptor.call_timeout.unwrap_or(options.call_timeout);
    let limit = (started + connect_timeout).min(deadline);
    let timing = Timing {
        connect_timeout,
        close_grace: options.close_grace,
        term_grace: options.term_grace,
        backoff: options.reconnect_backoff,
        down_retry_after: options.down_retry_after,
    };
    let shared = Shared::new(Arc::clone(&server), timing.down_retry_after);
    let endpoint = Endpoint {
        server: Arc::clone(&server),
        transport: descriptor.transport.clone(),
        workspace: options.workspace.clone(),
        cap: options.response_cap,
        relist: Arc::clone(&shared.relist),
    };
    let fail = |reason: String, leftover: Option<ChildGuard>, supervisor| {
        let reason = lackpy_sources::redact_urls(&reason).into_owned();
        tracing::warn!(server = %descriptor.id, source = %crate::source::source_name(&descriptor), %reason, "MCP server unavailable");
        shared.set(ServerState::Down, Some(reason));
        Outcome {
            source: McpToolSource::failed(
                descriptor.clone(),
                Arc::clone(&shared),
                call_timeout,
                started.elapsed(),
            ),
            supervisor,
            leftover,
        }
    };
    let remaining = limit.saturating_duration_since(Instant::now());
    let session = match supervisor::connect(&endpoint, remaining).await {
        Ok(s) => s,
        Err((reason, child)) => return fail(reason, child, None),
    };
    let (handle, task) = supervisor::start(session, Arc::clone(&shared), endpoint, timing);
    let listed = tokio::time::timeout_at(limit.into(), list_all(&handle, options.max_tools)).await;
    let tools = match listed {
        Ok(Ok(tools)) => tools,
        Ok(Err(e)) => {
            handle.stop();
            return fail(
                format!("tools/list failed: {}", e.describe()),
                None,
                Some((handle, task)),
            );
        }
        Err(_) => {
            handle.stop();
            let ms = connect_timeout
                .min(limit.saturating_duration_since(started))
                .as_millis();
            return fail(
                format!("tools/list did not answer within {ms} ms"),
                None,
                Some((handle, task)),
            );
        }
    };
    let found = Found {
        tools,
        handle: handle.clone(),
        runtime: Handle::current(),
    };
    let source = McpToolSource::found(descriptor, shared, call_timeout, started.elapsed(), found);
    Outcome {
        source,
        supervisor: Some((handle, task)),
        leftover: None,
    }
}
