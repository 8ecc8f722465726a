//! Who we are to a server, and what we do with what it tells us: a
//! `notifications/tools/list_changed` asks for the server's tools again
//! (the relister of `relist.rs` does it). A server of the `2026-07-28`
//! protocol sends it on a `subscriptions/listen` stream, which
//! [`listen`] opens when the server declares `tools.listChanged`; older
//! ones send it to the session.

use std::sync::Arc;

use rmcp::ClientHandler;
use rmcp::model::{
    ClientConfig, Implementation, ProtocolVersion, ServerNotification, SubscriptionFilter,
};
use rmcp::service::{NotificationContext, Peer, RoleClient};
use tokio::sync::Notify;

/// The client side of one session.
#[derive(Clone)]
pub(crate) struct Handler {
    /// Woken when the server says its tools changed.
    relist: Arc<Notify>,
}

impl Handler {
    /// A handler that wakes `relist` on `notifications/tools/list_changed`.
    pub(crate) fn new(relist: Arc<Notify>) -> Handler {
        Handler { relist }
    }

    /// What `notifications/tools/list_changed` wakes.
    pub(crate) fn relist(&self) -> &Arc<Notify> {
        &self.relist
    }
}

/// The first protocol version whose servers send list changes only on
/// `subscriptions/listen` streams.
const LISTEN_FROM: &str = "2026-07-28";

/// Whether a session with `peer` needs a listen stream to hear of tool
/// changes: the server declares `tools.listChanged` and speaks
/// [`LISTEN_FROM`] or later (dates in ISO form order as text).
pub(crate) fn needs_listen(peer: &Peer<RoleClient>) -> bool {
    peer.peer_info().is_some_and(|info| {
        info.protocol_version.as_str() >= LISTEN_FROM
            && info
                .capabilities
                .tools
                .as_ref()
                .and_then(|t| t.list_changed)
                == Some(true)
    })
}

/// Holds a `subscriptions/listen` stream for tool changes open for as long
/// as the session lasts, waking `relist` at each one.
pub(crate) async fn listen(peer: Peer<RoleClient>, relist: Arc<Notify>, server: Arc<str>) {
    let filter = SubscriptionFilter::builder().tools_list_changed().build();
    let mut subscription = match peer.listen(filter).await {
        Ok(s) => s,
        Err(e) => {
            tracing::debug!(%server, error = %e, "no subscriptions/listen stream for tool changes");
            return;
        }
    };
    while let Ok(Some(notification)) = subscription.next().await {
        if matches!(
            notification,
            ServerNotification::ToolListChangedNotification(_)
        ) {
            relist.notify_one();
        }
    }
}

impl ClientHandler for Handler {
    fn get_info(&self) -> ClientConfig {
        let mut info = ClientConfig::default();
        info.client_info = Implementation::new("lackpy", env!("CARGO_PKG_VERSION"));
        info.protocol_version = ProtocolVersion::LATEST_WITH_INITIALIZE;
        info
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        // One stored permit: a burst of notifications lists once.
        self.relist.notify_one();
    }
}
