//! Who we are to a server, and what we do with what it tells us: a
//! `notifications/tools/list_changed` asks for the server's tools again
//! (the relister of `relist.rs` does it).

use std::sync::Arc;

use rmcp::ClientHandler;
use rmcp::model::{ClientConfig, Implementation, ProtocolVersion};
use rmcp::service::{NotificationContext, RoleClient};
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
