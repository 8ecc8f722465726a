//! Following a server's tool list: when the server says it changed
//! (`notifications/tools/list_changed`) or a new session begins, its tools
//! are listed again and its source replaced, and the client's change count
//! goes up so that the service can build a new inventory.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::runtime::Handle;
use tokio::sync::watch;

use crate::discovery::list_all;
use crate::source::{Found, McpToolSource};
use crate::supervisor::ServerHandle;

/// How long a wake-up waits for more of a burst before listing: a server
/// that adds several tools one by one is listed once.
const SETTLE: Duration = Duration::from_millis(50);

/// One server's current source: replaced, never changed in place, so a
/// run that holds the old one keeps what it started with.
pub(crate) type Slot = Arc<Mutex<Arc<McpToolSource>>>;

/// The source in a slot now.
pub(crate) fn current(slot: &Slot) -> Arc<McpToolSource> {
    Arc::clone(&slot.lock().unwrap_or_else(PoisonError::into_inner))
}

/// Lists the server's tools again each time it is asked to, for as long as
/// the task lives (the client aborts it when the server stops).
pub(crate) async fn follow(
    slot: Slot,
    handle: ServerHandle,
    max_tools: usize,
    limit: Duration,
    changes: Arc<watch::Sender<u64>>,
) {
    loop {
        handle.shared.relist.notified().await;
        tokio::time::sleep(SETTLE).await;
        let server = Arc::clone(&handle.shared.server);
        let tools = match tokio::time::timeout(limit, list_all(&handle, max_tools)).await {
            Ok(Ok(tools)) => tools,
            Ok(Err(e)) => {
                tracing::warn!(%server, reason = %e.describe(), "MCP tools/list again failed; the old list stays");
                continue;
            }
            Err(_) => {
                tracing::warn!(%server, "MCP tools/list again did not answer; the old list stays");
                continue;
            }
        };
        let old = current(&slot);
        if old.lists(&tools) {
            continue;
        }
        let new = old.relisted(Found {
            tools,
            handle: handle.clone(),
            runtime: Handle::current(),
        });
        tracing::info!(%server, tools = new.tool_names().len(), "MCP server's tools changed");
        *slot.lock().unwrap_or_else(PoisonError::into_inner) = Arc::new(new);
        changes.send_modify(|n| *n += 1);
    }
}
