//! The gauges of the present, read when `/metrics` is scraped, and the
//! exposition text a scrape answers.

use lackpy_mcp_client::{ServerState, ServerStatus};

use super::registry::Metrics;

/// The `Content-Type` of a `/metrics` answer.
pub const CONTENT_TYPE: &str = prometheus_client::encoding::prometheus_text::CONTENT_TYPE;

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
    /// The exposition text, with the gauges of the present read from `live`.
    pub fn encode(&self, live: &Live) -> String {
        self.set_live(live);
        let mut text = String::new();
        // Writing to a String cannot fail.
        let _ = prometheus_client::encoding::prometheus_text::encode(&mut text, &self.registry);
        text
    }

    fn set_live(&self, live: &Live) {
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
