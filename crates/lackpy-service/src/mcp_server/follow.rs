//! What clients see of a changing inventory: the tool list of the current
//! version (`run_program`'s description lists the tools), and telling every
//! session when it changes — `notifications/tools/list_changed` to each
//! session that began with `initialize`, and on each `subscriptions/listen`
//! stream that asked for it (the `2026-07-28` protocol).

use std::sync::{Arc, Mutex, PoisonError, RwLock};

use rmcp::model::Tool;
use rmcp::service::{Peer, RoleServer, SubscriptionContext};
use tokio::sync::watch;

use super::tools;
use crate::service::LackpyService;

/// The tool list and the sessions to tell of its changes.
pub(crate) struct Listing {
    /// The tool list and the inventory version it was made from.
    tools: RwLock<(u64, Arc<Vec<Tool>>)>,
    /// Sessions that began with `initialize`.
    peers: Mutex<Vec<Peer<RoleServer>>>,
    /// Counts the tool list's changes, for `subscriptions/listen` streams.
    changed: watch::Sender<u64>,
}

impl Listing {
    /// The listing of `service`'s version.
    pub(crate) fn new(service: &LackpyService) -> Listing {
        Listing {
            tools: RwLock::new((service.version(), Arc::new(list_for(service)))),
            peers: Mutex::new(Vec::new()),
            changed: watch::Sender::new(0),
        }
    }

    /// The tool list for `service`'s version.
    pub(crate) fn tools(&self, service: &LackpyService) -> Arc<Vec<Tool>> {
        {
            let cached = self.tools.read().unwrap_or_else(PoisonError::into_inner);
            if cached.0 == service.version() {
                return Arc::clone(&cached.1);
            }
        }
        self.update(service).1
    }

    /// Makes the tool list `service`'s; returns whether it changed, and it.
    fn update(&self, service: &LackpyService) -> (bool, Arc<Vec<Tool>>) {
        let fresh = list_for(service);
        let mut cached = self.tools.write().unwrap_or_else(PoisonError::into_inner);
        if cached.0 >= service.version() {
            return (false, Arc::clone(&cached.1));
        }
        let changed = *cached.1 != fresh;
        *cached = (service.version(), Arc::new(fresh));
        (changed, Arc::clone(&cached.1))
    }

    /// Remembers a session to tell of changes.
    pub(crate) fn add_peer(&self, peer: Peer<RoleServer>) {
        let mut peers = self.peers.lock().unwrap_or_else(PoisonError::into_inner);
        peers.retain(|p| !p.is_transport_closed());
        peers.push(peer);
    }

    /// A new version is current: when the tool list differs, every session
    /// hears `notifications/tools/list_changed`.
    pub(super) async fn version_changed(&self, service: &LackpyService) {
        let (changed, _) = self.update(service);
        if !changed {
            return;
        }
        self.changed.send_modify(|n| *n += 1);
        let peers: Vec<Peer<RoleServer>> = {
            let mut peers = self.peers.lock().unwrap_or_else(PoisonError::into_inner);
            peers.retain(|p| !p.is_transport_closed());
            peers.clone()
        };
        tracing::debug!(
            sessions = peers.len(),
            "telling sessions the tool list changed"
        );
        for peer in peers {
            // A session that went away meanwhile is no error.
            let _ = peer.notify_tool_list_changed().await;
        }
    }

    /// Serves one `subscriptions/listen` stream until it is cancelled.
    pub(crate) async fn listen(&self, context: SubscriptionContext) {
        let mut changed = self.changed.subscribe();
        loop {
            tokio::select! {
                () = context.cancelled() => return,
                r = changed.changed() => {
                    if r.is_err() || context.sink().notify_tool_list_changed().await.is_err() {
                        return;
                    }
                }
            }
        }
    }
}

/// The tools lackpy offers for `service`'s inventory.
fn list_for(service: &LackpyService) -> Vec<Tool> {
    tools::all(&service.default_namespace_description())
}
