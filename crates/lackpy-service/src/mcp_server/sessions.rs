//! The runs of each HTTP session, so that deleting the session (HTTP
//! `DELETE` with its `Mcp-Session-Id`) stops them at once rather than
//! after rmcp's drain of in-flight answers.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use lackpy_bridge::CancelToken;
use rmcp::service::{RequestContext, RoleServer};

/// The header naming a streamable-HTTP session.
pub(crate) const SESSION_HEADER: &str = "mcp-session-id";

/// Runs in flight, by HTTP session id.
#[derive(Debug, Default, Clone)]
pub(crate) struct HttpSessions {
    inner: Arc<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    runs: Mutex<HashMap<String, Vec<(u64, CancelToken)>>>,
    next: AtomicU64,
}

/// A run's entry; dropping it (the run is over) removes it.
pub(crate) struct Registration {
    sessions: HttpSessions,
    session: String,
    id: u64,
}

impl HttpSessions {
    /// Records a run (or a `generate`) of the HTTP session `context` came
    /// from; `None` over stdio (no session header).
    pub(crate) fn enter(
        &self,
        context: &RequestContext<RoleServer>,
        cancel: &CancelToken,
    ) -> Option<Registration> {
        let session = context
            .extensions
            .get::<http::request::Parts>()?
            .headers
            .get(SESSION_HEADER)?
            .to_str()
            .ok()?
            .to_string();
        let id = self.inner.next.fetch_add(1, Ordering::Relaxed);
        self.lock()
            .entry(session.clone())
            .or_default()
            .push((id, cancel.clone()));
        Some(Registration {
            sessions: self.clone(),
            session,
            id,
        })
    }

    /// Stops every run of `session` (its client deleted it).
    pub(crate) fn close(&self, session: &str) {
        let runs = self.lock().remove(session).unwrap_or_default();
        for (_, cancel) in runs {
            cancel.cancel();
        }
    }

    /// Whether `session` has a run or a `generate` in flight (it is not idle).
    pub(crate) fn has_runs(&self, session: &str) -> bool {
        self.lock()
            .get(session)
            .is_some_and(|runs| !runs.is_empty())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Vec<(u64, CancelToken)>>> {
        self.inner
            .runs
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        let mut runs = self.sessions.lock();
        if let Some(list) = runs.get_mut(&self.session) {
            list.retain(|(id, _)| *id != self.id);
            if list.is_empty() {
                runs.remove(&self.session);
            }
        }
    }
}
