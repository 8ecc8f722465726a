//! `GET /metrics`: the server's Prometheus metrics ([`crate::metrics`]),
//! with the gauges of the present read as the scrape asks.
//!
//! On the MCP port it is answered after the bearer-token check (the
//! metrics name the inventory's tools and the upstream servers); on the
//! admin port (`--admin`) without one, as the probes are.

use std::sync::Arc;

use bytes::Bytes;
use http::{HeaderValue, Method, Request, StatusCode, header};
use http_body_util::{BodyExt, Full};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;

use super::McpServer;
use super::response::{HttpResponse, plain};
use crate::metrics::{self, Live};

/// Where the metrics are served.
pub(crate) const METRICS_PATH: &str = "/metrics";

/// How the server counts its open sessions.
#[derive(Clone)]
pub(crate) enum Sessions {
    /// One: the stdio client.
    Stdio,
    /// Those rmcp's session manager holds.
    Http(Arc<LocalSessionManager>),
    /// None: every request is answered on its own (`--stateless`).
    Stateless,
}

/// Answers `/metrics` for one server.
#[derive(Clone)]
pub(crate) struct Scrape {
    pub(crate) server: McpServer,
    pub(crate) sessions: Sessions,
}

impl Scrape {
    /// Whether `req` asks for the metrics.
    pub(crate) fn wants<B>(req: &Request<B>) -> bool {
        req.uri().path() == METRICS_PATH
    }

    /// The answer to a request for [`METRICS_PATH`] made with `method`.
    pub(crate) async fn answer(&self, method: Method) -> HttpResponse {
        if method != Method::GET && method != Method::HEAD {
            let mut r = plain(StatusCode::METHOD_NOT_ALLOWED, "use GET or HEAD");
            r.headers_mut()
                .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
            return r;
        }
        let text = self.text().await;
        let mut r = HttpResponse::new(Full::new(Bytes::from(text)).boxed());
        r.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(metrics::CONTENT_TYPE),
        );
        r.headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        r
    }

    /// The exposition text now.
    pub(crate) async fn text(&self) -> String {
        let sessions = match &self.sessions {
            Sessions::Stdio => 1,
            Sessions::Http(manager) => manager.sessions.read().await.len(),
            Sessions::Stateless => 0,
        };
        let shared = &self.server.shared;
        shared.metrics.encode(&Live {
            admitted: shared.admission.in_flight(),
            max_running: shared.admission.running(),
            sessions,
            upstream: shared.live.current().mcp_status(),
        })
    }
}
