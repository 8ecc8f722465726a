//! What a load balancer asks a replica: `GET /healthz` (the process is
//! alive and answering) and `GET /readyz` (it takes new sessions: 503
//! once a shutdown has begun, so the balancer sends new clients
//! elsewhere while the runs in flight here finish).
//!
//! Both are answered before the bearer token and the Host check: a
//! balancer's probe carries neither, and the answers tell nothing but
//! "up" and "draining".

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use bytes::Bytes;
use http::{HeaderValue, Method, Request, StatusCode, header};
use http_body_util::{BodyExt, Full};

use super::response::HttpResponse;

/// Liveness: 200 while the process answers.
pub(crate) const HEALTH_PATH: &str = "/healthz";
/// Readiness: 200 while new sessions are taken, 503 while draining.
pub(crate) const READY_PATH: &str = "/readyz";

/// Whether the replica has begun shutting down (shared with the server:
/// new runs and new sessions are refused from then on), and the POST
/// answers still being made or written, which a shutdown waits for.
#[derive(Clone, Default)]
pub(crate) struct Draining(Arc<DrainState>);

#[derive(Default)]
struct DrainState {
    begun: AtomicBool,
    answers: AtomicUsize,
}

impl Draining {
    /// From now on, draining.
    pub(crate) fn begin(&self) {
        self.0.begun.store(true, Ordering::SeqCst);
    }

    /// Whether a shutdown has begun.
    pub(crate) fn is_set(&self) -> bool {
        self.0.begun.load(Ordering::SeqCst)
    }

    /// Counts a POST's answer as in flight until the guard is dropped
    /// (with the answer's body, once written).
    pub(crate) fn answering(&self) -> Answering {
        self.0.answers.fetch_add(1, Ordering::SeqCst);
        Answering(Arc::clone(&self.0))
    }

    /// POST answers in flight: a run's slot is given back before its
    /// answer is written, so a shutdown waits for these too.
    pub(crate) fn answers_in_flight(&self) -> usize {
        self.0.answers.load(Ordering::SeqCst)
    }
}

/// One POST answer in flight ([`Draining::answering`]).
pub(crate) struct Answering(Arc<DrainState>);

impl Drop for Answering {
    fn drop(&mut self) {
        self.0.answers.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The answer to a health or readiness probe, or `None` when `req` is
/// for another path.
pub(crate) fn answer<B>(req: &Request<B>, draining: &Draining) -> Option<HttpResponse> {
    let path = req.uri().path();
    if path != HEALTH_PATH && path != READY_PATH {
        return None;
    }
    if req.method() != Method::GET && req.method() != Method::HEAD {
        let mut r = json(
            StatusCode::METHOD_NOT_ALLOWED,
            r#"{"error":"use GET or HEAD"}"#,
        );
        r.headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return Some(r);
    }
    Some(if path == HEALTH_PATH {
        json(StatusCode::OK, r#"{"status":"ok"}"#)
    } else if draining.is_set() {
        json(
            StatusCode::SERVICE_UNAVAILABLE,
            r#"{"ready":false,"reason":"draining: shutting down, runs in flight are finishing"}"#,
        )
    } else {
        json(StatusCode::OK, r#"{"ready":true}"#)
    })
}

fn json(status: StatusCode, body: &'static str) -> HttpResponse {
    let mut r = HttpResponse::new(Full::new(Bytes::from_static(body.as_bytes())).boxed());
    *r.status_mut() = status;
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(method: Method, uri: &str, draining: &Draining) -> Option<u16> {
        let req = Request::builder()
            .method(method)
            .uri(uri)
            .body(())
            .unwrap_or_default();
        answer(&req, draining).map(|r| r.status().as_u16())
    }

    #[test]
    fn probes_answer_and_readiness_follows_the_drain() {
        let d = Draining::default();
        assert_eq!(status(Method::GET, "/healthz", &d), Some(200));
        assert_eq!(status(Method::HEAD, "/readyz", &d), Some(200));
        assert_eq!(status(Method::POST, "/readyz", &d), Some(405));
        assert_eq!(status(Method::GET, "/mcp", &d), None);
        assert_eq!(status(Method::GET, "/readyz/", &d), None);
        d.begin();
        assert_eq!(status(Method::GET, "/readyz", &d), Some(503));
        assert_eq!(status(Method::GET, "/healthz", &d), Some(200));
    }

    #[test]
    fn an_answer_counts_until_its_guard_is_dropped_in_every_clone() {
        let d = Draining::default();
        let seen_elsewhere = d.clone();
        let a = d.answering();
        let b = seen_elsewhere.answering();
        assert_eq!(d.answers_in_flight(), 2);
        drop(a);
        assert_eq!(seen_elsewhere.answers_in_flight(), 1);
        drop(b);
        assert_eq!(d.answers_in_flight(), 0);
    }
}
