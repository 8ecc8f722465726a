//! A request whose answer stream is gone (the client closed its
//! connection, or hyper dropped it) is cancelled as if the client had sent
//! `notifications/cancelled`: nobody is left to read its answer, and its
//! run would otherwise hold its place and its tool processes until its
//! deadline.
//!
//! The guard puts a [`StreamGone`] token in the request's extensions
//! (rmcp hands the request's `http::request::Parts` to the handler) and
//! wraps the response body in a [`Tripwire`] that cancels the token when
//! dropped. A body dropped after its end trips it too, harmlessly: the
//! answer was already written.

use std::pin::Pin;
use std::task::{Context, Poll};

use hyper::body::{Body, Frame, SizeHint};
use rmcp::service::{RequestContext, RoleServer};
use tokio_util::sync::{CancellationToken, DropGuard};

use super::health::Answering;

/// Cancelled once the answer stream of the request carrying it is gone.
#[derive(Debug, Clone)]
pub(crate) struct StreamGone(pub(crate) CancellationToken);

/// The token of the HTTP request `context` came from; `None` over stdio.
pub(crate) fn of(context: &RequestContext<RoleServer>) -> Option<CancellationToken> {
    context
        .extensions
        .get::<http::request::Parts>()?
        .extensions
        .get::<StreamGone>()
        .map(|g| g.0.clone())
}

/// Resolves when `gone` is cancelled; never without a token.
pub(crate) async fn closed(gone: Option<CancellationToken>) {
    match gone {
        Some(token) => token.cancelled().await,
        None => std::future::pending().await,
    }
}

/// A response body that cancels its token when dropped.
pub(crate) struct Tripwire<B> {
    inner: B,
    _trip: DropGuard,
    /// Keeps the answer counted as in flight while it is written.
    _answering: Option<Answering>,
}

impl<B> Tripwire<B> {
    /// `inner`, cancelling `token` when dropped; `answering` ends with it.
    pub(crate) fn new(
        inner: B,
        token: CancellationToken,
        answering: Option<Answering>,
    ) -> Tripwire<B> {
        Tripwire {
            inner,
            _trip: token.drop_guard(),
            _answering: answering,
        }
    }
}

impl<B: Body + Unpin> Body for Tripwire<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;
    use http_body_util::Full;

    #[test]
    fn dropping_the_body_trips_the_token() {
        let token = CancellationToken::new();
        let body = Tripwire::new(Full::new(Bytes::from_static(b"x")), token.clone(), None);
        assert!(!token.is_cancelled());
        drop(body);
        assert!(token.is_cancelled());
    }
}
