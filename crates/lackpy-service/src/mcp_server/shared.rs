//! [`Shared`]: what every session of one server process shares, and the
//! task that keeps it on the live service's current version (the tool
//! list sessions hear of, the tools the metrics label).

use std::sync::{Arc, Weak};

use tokio_util::sync::CancellationToken;

use super::admission::Admission;
use super::follow::Listing;
use super::health::Draining;
use super::sessions::HttpSessions;
use crate::metrics::Metrics;
use crate::service::LiveService;

/// What every session of one server process shares.
pub(crate) struct Shared {
    /// The inventory now; each call takes the version current at its start.
    pub(super) live: Arc<LiveService>,
    pub(super) admission: Admission,
    /// The tool list of the current version (descriptions name the
    /// namespace), and the sessions to tell when it changes.
    pub(super) listing: Listing,
    /// Cancelled when a shutdown's grace period ends: every run stops.
    pub(super) stop_runs: CancellationToken,
    /// Runs by HTTP session, stopped when their session is deleted.
    pub(super) http_sessions: HttpSessions,
    /// Set at SIGINT/SIGTERM: new runs are refused while old ones finish.
    pub(super) draining: Draining,
    /// What `/metrics` shows.
    pub(super) metrics: Metrics,
}

/// Follows the live service's versions for as long as the server lives
/// (inside a tokio runtime; without one, the list stays as it began).
pub(crate) fn follow(shared: &Arc<Shared>) {
    if tokio::runtime::Handle::try_current().is_err() {
        return;
    }
    let mut versions = shared.live.versions();
    let weak: Weak<Shared> = Arc::downgrade(shared);
    let task = tokio::spawn(async move {
        while versions.changed().await.is_ok() {
            let Some(shared) = weak.upgrade() else {
                return;
            };
            let service = shared.live.current();
            shared.metrics.learn(&service);
            shared.listing.version_changed(&service).await;
        }
    });
    shared.live.keep(task);
}
