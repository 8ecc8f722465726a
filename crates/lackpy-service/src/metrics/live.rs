//! The gauges of the present, read when `/metrics` is scraped.

use lackpy_mcp_client::{ServerState, ServerStatus};

use super::Metrics;

/// What the server is doing as it is scraped.
#[derive(Debug, Clone, Default)]
pub struct Live {
    /// Runs admitted and not finished (executing or waiting).
    pub admitted: usize,
    /// How many runs execute at once (`[server] max_concurrent_runs`);
    /// admitted runs past it wait for an interpreter.
    pub max_running: usize,
    /// Open MCP sessions.
    pub sessions: usize,
    /// Every upstream MCP server.
    pub upstream: Vec<ServerStatus>,
}

impl Metrics {
    pub(super) fn set_live(&self, live: &Live) {
        let running = live.admitted.min(live.max_running);
        self.runs_in_flight.set(gauge(running));
        self.runs_queued.set(gauge(live.admitted - running));
        self.sessions.set(gauge(live.sessions));
        for server in &live.upstream {
            let label = [("server", server.id.clone())];
            let up = i64::from(server.state == ServerState::Ready);
            self.upstream_up.get_or_create(&label).set(up);
            // The supervisor counts its reconnects; the count only grows,
            // so the counter follows it.
            let reconnects = server.reconnects;
            let counter = self.upstream_reconnects.get_or_create(&label);
            let seen = counter.get();
            if reconnects > seen {
                counter.inc_by(reconnects - seen);
            }
        }
    }
}

fn gauge(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}
