//! Checks on every HTTP request before rmcp sees it: the bearer token
//! (when one is configured), and the Host/Origin allow-lists handed to
//! rmcp's own DNS-rebinding check.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use bytes::Bytes;
use http::{Request, Response, StatusCode, header};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};

use super::one_piece;
use super::sessions::{HttpSessions, SESSION_HEADER};

/// The response type of rmcp's HTTP service (and of this guard).
pub(crate) type HttpResponse = Response<BoxBody<Bytes, Infallible>>;

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

/// Refuses requests without `Authorization: Bearer <token>` when a token
/// is set; passes the rest to `inner`. A session's `DELETE` stops its runs
/// first; a POST's answer is written in one piece when it is ready at once
/// ([`one_piece`](super::one_piece)).
#[derive(Clone)]
pub(crate) struct Guard<S> {
    pub(crate) inner: S,
    pub(crate) token: Option<Arc<str>>,
    pub(crate) sessions: HttpSessions,
}

impl<S, B> hyper::service::Service<Request<B>> for Guard<S>
where
    S: tower_service::Service<Request<B>, Response = HttpResponse, Error = Infallible>
        + Clone
        + Send
        + 'static,
    S::Future: Send + 'static,
    B: Send + 'static,
{
    type Response = HttpResponse;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<HttpResponse, Infallible>> + Send>>;

    fn call(&self, req: Request<B>) -> Self::Future {
        if let Some(token) = &self.token
            && !authorized(&req, token)
        {
            return Box::pin(std::future::ready(Ok(unauthorized())));
        }
        let deleted = (req.method() == http::Method::DELETE)
            .then(|| req.headers().get(SESSION_HEADER))
            .flatten()
            .and_then(|v| v.to_str().ok())
            .map(String::from);
        let post = req.method() == http::Method::POST;
        let mut inner = self.inner.clone();
        let sessions = self.sessions.clone();
        Box::pin(async move {
            let response = inner.call(req).await?;
            if post {
                return Ok(one_piece::gather(response, one_piece::HOLD).await);
            }
            // Only once rmcp accepted the DELETE (Host/Origin passed).
            if let Some(id) = deleted
                && response.status().is_success()
            {
                sessions.close(&id);
            }
            Ok(response)
        })
    }
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
