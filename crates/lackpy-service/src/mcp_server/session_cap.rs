//! The bound on open HTTP sessions (`[server] max_sessions`): each session
//! keeps rmcp's worker, channels and caches alive until it is idle for
//! `--session-idle-secs`, so without a bound a flood of `initialize`
//! requests grows the server without end. A new session past the bound
//! evicts the least recently used idle session (one with no run in
//! flight); when every session is busy the `initialize` is refused.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use rmcp::transport::streamable_http_server::session::SessionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;

use super::sessions::HttpSessions;

/// The default `[server] max_sessions`.
pub const DEFAULT_MAX_SESSIONS: usize = 1024;

/// Open sessions, when each was last used, and the bound.
#[derive(Clone)]
pub(crate) struct SessionCap {
    inner: Arc<Inner>,
}

struct Inner {
    manager: Arc<LocalSessionManager>,
    runs: HttpSessions,
    max: usize,
    /// Last use by session id. May hold ids rmcp already closed (idle
    /// expiry): those are dropped whenever room is made.
    used: Mutex<HashMap<String, Instant>>,
    /// One `initialize` at a time opens its session and is admitted, so
    /// concurrent ones cannot all see the same free place.
    opening: tokio::sync::Mutex<()>,
}

/// Held while one new session opens (see [`SessionCap::opening`]).
pub(crate) type Opening<'a> = tokio::sync::MutexGuard<'a, ()>;

impl SessionCap {
    /// At most `max` (at least 1) sessions of `manager`; `runs` tells which
    /// have a run in flight.
    pub(crate) fn new(
        manager: Arc<LocalSessionManager>,
        runs: HttpSessions,
        max: usize,
    ) -> SessionCap {
        SessionCap {
            inner: Arc::new(Inner {
                manager,
                runs,
                max: max.max(1),
                used: Mutex::new(HashMap::new()),
                opening: tokio::sync::Mutex::new(()),
            }),
        }
    }

    /// The bound.
    pub(crate) fn max(&self) -> usize {
        self.inner.max
    }

    /// Marks `session` used now (every request naming it, and its
    /// `initialize` answer).
    pub(crate) fn touch(&self, session: &str) {
        let mut used = self.used();
        if let Some(at) = used.get_mut(session) {
            *at = Instant::now();
        } else if used.len() < self.inner.max.saturating_mul(2) {
            // Only sessions we saw open are tracked; a stale id (already
            // closed) is not added back once the map is full of them.
            used.insert(session.to_string(), Instant::now());
        }
    }

    /// Held while one `initialize` opens its session and [`admit`]s it.
    ///
    /// [`admit`]: SessionCap::admit
    pub(crate) async fn opening(&self) -> Opening<'_> {
        self.inner.opening.lock().await
    }

    /// Keeps the session `new` just opened by rmcp (after its Host/Origin
    /// checks, so a refused request never closes anyone's session) within
    /// the bound: closes least recently used idle sessions until at most
    /// the bound are open. When every other session has a run in flight,
    /// `new` is closed instead and `false` returned.
    pub(crate) async fn admit(&self, new: &str, _opening: &Opening<'_>) -> bool {
        self.used().insert(new.to_string(), Instant::now());
        let open: Vec<String> = {
            let sessions = self.inner.manager.sessions.read().await;
            sessions.keys().map(|id| id.to_string()).collect()
        };
        let mut excess = open.len().saturating_sub(self.inner.max);
        if excess == 0 {
            return true;
        }
        let mut idle: Vec<(Option<Instant>, String)> = {
            let open: HashSet<&str> = open.iter().map(String::as_str).collect();
            let mut used = self.used();
            used.retain(|id, _| open.contains(id.as_str()));
            open.into_iter()
                .filter(|id| *id != new && !self.inner.runs.has_runs(id))
                // A session never seen used sorts first (`None`): oldest.
                .map(|id| (used.get(id).copied(), id.to_string()))
                .collect()
        };
        idle.sort();
        for (_, id) in idle.into_iter().take(excess) {
            tracing::debug!("session limit reached: closing idle session {id}");
            self.close(&id).await;
            excess -= 1;
        }
        if excess == 0 {
            return true;
        }
        self.close(new).await;
        false
    }

    async fn close(&self, id: &str) {
        let _ = self.inner.manager.close_session(&id.into()).await;
        self.inner.runs.close(id);
        self.used().remove(id);
    }

    fn used(&self) -> std::sync::MutexGuard<'_, HashMap<String, Instant>> {
        self.inner
            .used
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}
