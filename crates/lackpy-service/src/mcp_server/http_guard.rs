//! Checks on every HTTP request before rmcp sees it: the bearer token
//! (when one is configured), and the Host/Origin allow-lists handed to
//! rmcp's own DNS-rebinding check.

use std::convert::Infallible;
use std::fmt::Display;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use bytes::Bytes;
use http::{Request, Response, StatusCode, header};
use http_body_util::{BodyExt, Full};
use tokio_util::sync::CancellationToken;

use hyper::body::Body;

use super::health::{self, Draining};
use super::one_piece;
use super::request_body::{self, BodyLimits, Message};
use super::request_stream::{StreamGone, Tripwire};
use super::request_target;
use super::response::HttpResponse;
use super::scrape::Scrape;
use super::session_cap::SessionCap;
use super::sessions::{HttpSessions, SESSION_HEADER};

/// Hosts a loopback-bound server answers to: anything else in `Host` is a
/// DNS-rebinding attempt (a page on another name resolving to 127.0.0.1).
pub(crate) const LOOPBACK_HOSTS: &[&str] = &["localhost", "127.0.0.1", "::1", "[::1]"];

/// Browser origins a loopback-bound server accepts (any port).
pub(crate) fn loopback_origins() -> Vec<String> {
    ["localhost", "127.0.0.1", "[::1]"]
        .iter()
        .flat_map(|h| [format!("http://{h}:*"), format!("https://{h}:*")])
        .collect()
}

/// Checks every request before rmcp: the target (`request_target`), the
/// bearer token when one is set, a POST's body (`request_body`: size,
/// time, JSON-RPC shape) and, for an `initialize`, room for one more
/// session (`session_cap`). A session's `DELETE` stops its runs first; a
/// POST's answer is written in one piece when it is ready at once
/// ([`one_piece`](super::one_piece)).
#[derive(Clone)]
pub(crate) struct Guard<S> {
    pub(crate) inner: S,
    pub(crate) token: Option<Arc<str>>,
    pub(crate) sessions: HttpSessions,
    pub(crate) cap: SessionCap,
    pub(crate) body: BodyLimits,
    /// Set when a shutdown begins: `/readyz` and new sessions answer 503.
    pub(crate) draining: Draining,
    /// Answers `/metrics` (behind the token, when one is set).
    pub(crate) scrape: Scrape,
    /// No sessions (`--stateless`): an `initialize` opens none, so the
    /// bound on sessions does not apply.
    pub(crate) stateless: bool,
}

impl<S, B> hyper::service::Service<Request<B>> for Guard<S>
where
    S: tower_service::Service<Request<Full<Bytes>>, Response = HttpResponse, Error = Infallible>
        + Clone
        + Send
        + 'static,
    S::Future: Send + 'static,
    B: Body + Send + 'static,
    B::Data: Send,
    B::Error: Display,
{
    type Response = HttpResponse;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<HttpResponse, Infallible>> + Send>>;

    fn call(&self, req: Request<B>) -> Self::Future {
        if let Some(probe) = health::answer(&req, &self.draining) {
            return Box::pin(std::future::ready(Ok(probe)));
        }
        // The metrics name tools and servers: behind the token (the
        // admin port serves them without one).
        if Scrape::wants(&req) {
            if let Some(token) = &self.token
                && !authorized(&req, token)
            {
                return Box::pin(std::future::ready(Ok(unauthorized())));
            }
            let scrape = self.scrape.clone();
            let method = req.method().clone();
            return Box::pin(async move { Ok(scrape.answer(method).await) });
        }
        if let Err(refused) = request_target::check(&req) {
            return Box::pin(std::future::ready(Ok(*refused)));
        }
        if let Some(token) = &self.token
            && !authorized(&req, token)
        {
            return Box::pin(std::future::ready(Ok(unauthorized())));
        }
        let this = self.clone();
        Box::pin(async move { Ok(this.serve(req).await) })
    }
}

impl<S> Guard<S>
where
    S: tower_service::Service<Request<Full<Bytes>>, Response = HttpResponse, Error = Infallible>
        + Clone,
{
    async fn serve<B>(self, req: Request<B>) -> HttpResponse
    where
        B: Body,
        B::Error: Display,
    {
        let session = req
            .headers()
            .get(SESSION_HEADER)
            .and_then(|v| v.to_str().ok())
            .map(String::from);
        if let Some(id) = &session {
            self.cap.touch(id);
        }
        let (parts, body) = req.into_parts();
        let post = parts.method == http::Method::POST;
        // Counted until its answer is written: a shutdown waits for it.
        let answering = post.then(|| self.draining.answering());
        let deleted = (parts.method == http::Method::DELETE)
            .then(|| session.clone())
            .flatten();
        // Only a POST has a body rmcp reads; a JSON one is classified
        // here (another content type is rmcp's 415).
        let (body, message) = if post {
            let declared = parts
                .headers
                .get(header::CONTENT_LENGTH)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.trim().parse::<u64>().ok());
            let bytes = match request_body::read(body, declared, self.body).await {
                Ok(bytes) => bytes,
                Err(answer) => return *answer,
            };
            let message = if is_json(&parts.headers) {
                match request_body::classify(&bytes) {
                    Ok(m) => Some(m),
                    Err(answer) => return *answer,
                }
            } else {
                None
            };
            (bytes, message)
        } else {
            (Bytes::new(), None)
        };
        // A new session: one at a time, admitted under the bound once rmcp
        // opened it.
        let (opening, initialize_id) = match (&session, message) {
            // A replica shutting down takes no new session: the balancer
            // (which sees `/readyz` fail too) sends the client elsewhere.
            (None, Some(Message::Initialize(id))) if self.draining.is_set() => {
                return shutting_down(id);
            }
            // New work in a session of a replica shutting down: the
            // session is over for it (404, which tells a client to open a
            // new session, through the balancer on a ready replica); the
            // session's runs in flight finish on their own streams.
            (Some(_), Some(Message::Call(id))) if self.draining.is_set() => {
                return session_ended(id);
            }
            // Without sessions, the same call is simply refused here.
            (None, Some(Message::Call(id))) if self.draining.is_set() && self.stateless => {
                return shutting_down(id);
            }
            (None, Some(Message::Initialize(id))) if !self.stateless => {
                (Some(self.cap.opening().await), id)
            }
            _ => (None, serde_json::Value::Null),
        };
        // A POST's run stops when its answer stream is gone (dropped with
        // this future, or with the body it is handed on in).
        let mut parts = parts;
        let gone = CancellationToken::new();
        let trip = gone.clone().drop_guard();
        parts.extensions.insert(StreamGone(gone.clone()));
        let mut inner = self.inner.clone();
        let Ok(response) = inner
            .call(Request::from_parts(parts, Full::new(body)))
            .await;
        if let Some(opening) = &opening
            && let Some(id) = response
                .headers()
                .get(SESSION_HEADER)
                .and_then(|v| v.to_str().ok())
            && !self.cap.admit(id, opening).await
        {
            return too_many_sessions(self.cap.max(), initialize_id);
        }
        drop(opening);
        if post {
            let response = one_piece::gather(response, one_piece::HOLD).await;
            drop(trip.disarm());
            return response.map(|body| Tripwire::new(body, gone, answering).boxed());
        }
        // Only once rmcp accepted the DELETE (Host/Origin passed).
        if let Some(id) = deleted
            && response.status().is_success()
        {
            self.sessions.close(&id);
        }
        response
    }
}

/// The `Content-Type` is JSON (what rmcp parses; anything else it refuses).
fn is_json(headers: &http::HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(';')
                .next()
                .unwrap_or_default()
                .trim()
                .eq_ignore_ascii_case("application/json")
        })
}

/// 503 for an `initialize` while every one of `max` sessions has a run.
fn too_many_sessions(max: usize, id: serde_json::Value) -> HttpResponse {
    request_body::jsonrpc_error(
        StatusCode::SERVICE_UNAVAILABLE,
        -32000,
        &format!(
            "too many sessions: all {max} sessions ([server] max_sessions) have a run in flight; try again shortly"
        ),
        id,
    )
}

/// 404 for a `tools/call` in a session once a shutdown has begun: nothing
/// ran, and the client opens a new session elsewhere.
fn session_ended(id: serde_json::Value) -> HttpResponse {
    request_body::jsonrpc_error(
        StatusCode::NOT_FOUND,
        -32001,
        "session ended: this server is shutting down and starts no new work; open a new session (another replica)",
        id,
    )
}

/// 503 for an `initialize` once a shutdown has begun.
fn shutting_down(id: serde_json::Value) -> HttpResponse {
    request_body::jsonrpc_error(
        StatusCode::SERVICE_UNAVAILABLE,
        -32000,
        "shutting down: this server takes no new sessions; connect again (another replica)",
        id,
    )
}

fn authorized<B>(req: &Request<B>, token: &str) -> bool {
    req.headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| {
            let (scheme, value) = v.split_once(' ')?;
            scheme.eq_ignore_ascii_case("bearer").then(|| value.trim())
        })
        .is_some_and(|given| same(given.as_bytes(), token.as_bytes()))
}

/// Compares without stopping at the first difference, so the time taken
/// does not tell an attacker how much of a guess was right.
fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn unauthorized() -> HttpResponse {
    let mut r = Response::new(
        Full::new(Bytes::from_static(
            b"Unauthorized: send Authorization: Bearer <token>",
        ))
        .boxed(),
    );
    *r.status_mut() = StatusCode::UNAUTHORIZED;
    r.headers_mut().insert(
        header::WWW_AUTHENTICATE,
        http::HeaderValue::from_static("Bearer"),
    );
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_exact_bearer_token_passes() {
        let req = |v: Option<&str>| {
            let mut b = Request::builder();
            if let Some(v) = v {
                b = b.header(header::AUTHORIZATION, v);
            }
            b.body(()).unwrap_or_default()
        };
        assert!(authorized(&req(Some("Bearer s3cret")), "s3cret"));
        assert!(authorized(&req(Some("bearer s3cret")), "s3cret"));
        assert!(!authorized(&req(Some("Bearer s3cre")), "s3cret"));
        assert!(!authorized(&req(Some("Basic s3cret")), "s3cret"));
        assert!(!authorized(&req(None), "s3cret"));
    }
}
