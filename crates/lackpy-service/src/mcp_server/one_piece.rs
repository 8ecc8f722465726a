//! An answer to a POST written in one piece when it is ready at once.
//!
//! rmcp answers every request of a session with an SSE stream whose
//! headers and first event (the resumption priming event) exist before the
//! handler has run, so hyper writes them straight away and the answer
//! follows in a second write: two TCP sends, and two wake-ups of the
//! client, for a call that takes microseconds. Holding the response until
//! its stream has a second event or has ended (or [`HOLD`] has passed)
//! lets a quick answer leave in one write, while a slow run still gets its
//! headers, and every progress notification, without waiting on the run.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http::header::CONTENT_TYPE;
use http_body_util::BodyExt;
use http_body_util::combinators::BoxBody;
use hyper::body::{Body, Frame, SizeHint};

use super::response::HttpResponse;

/// The longest a stream's headers wait for its answer: far above a quick
/// call's time, far below anything a client would notice.
pub(crate) const HOLD: Duration = Duration::from_millis(1);

/// Holds an SSE `response` until its stream has two events, has ended, or
/// `hold` has passed, then hands it on with the events it read ahead.
/// Other responses pass at once.
pub(crate) async fn gather(response: HttpResponse, hold: Duration) -> HttpResponse {
    let is_stream = response
        .headers()
        .get(CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/event-stream"));
    if !is_stream {
        return response;
    }
    let (parts, mut body) = response.into_parts();
    let mut held = VecDeque::new();
    // The answer is usually made by tasks already queued on this worker:
    // let them run once before arming a timer (registering one wakes the
    // runtime's driver, a system call).
    let deadline = async {
        tokio::task::yield_now().await;
        tokio::time::sleep(hold).await;
    };
    tokio::pin!(deadline);
    let ended = loop {
        tokio::select! {
            biased;
            frame = body.frame() => match frame {
                None => break true,
                Some(Ok(frame)) => {
                    held.push_back(frame);
                    if held.len() >= 2 {
                        break false;
                    }
                }
                Some(Err(never)) => match never {},
            },
            () = &mut deadline => break false,
        }
    };
    let rest = (!ended).then_some(body);
    http::Response::from_parts(parts, Replay { held, rest }.boxed())
}

/// The events read ahead, then the rest of the stream (`None`: it ended).
struct Replay {
    held: VecDeque<Frame<Bytes>>,
    rest: Option<BoxBody<Bytes, Infallible>>,
}

impl Body for Replay {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let this = self.get_mut();
        if let Some(frame) = this.held.pop_front() {
            return Poll::Ready(Some(Ok(frame)));
        }
        match &mut this.rest {
            Some(rest) => Pin::new(rest).poll_frame(cx),
            None => Poll::Ready(None),
        }
    }

    fn is_end_stream(&self) -> bool {
        self.held.is_empty() && self.rest.as_ref().is_none_or(|r| r.is_end_stream())
    }

    /// Unknown, as the stream's own: the answer stays chunked, as it would
    /// be without the hold.
    fn size_hint(&self) -> SizeHint {
        SizeHint::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::Empty;
    use std::time::Instant;
    use tokio::sync::mpsc;

    fn sse(body: BoxBody<Bytes, Infallible>) -> HttpResponse {
        let mut r = http::Response::new(body);
        r.headers_mut().insert(
            CONTENT_TYPE,
            http::HeaderValue::from_static("text/event-stream"),
        );
        r
    }

    async fn read_all(r: HttpResponse) -> Vec<Bytes> {
        let mut body = r.into_body();
        let mut out = Vec::new();
        while let Some(Ok(f)) = body.frame().await {
            if let Ok(d) = f.into_data() {
                out.push(d);
            }
        }
        out
    }

    /// A body fed by a channel, as rmcp's per-request stream is.
    struct ChannelBody(mpsc::Receiver<Bytes>);

    impl Body for ChannelBody {
        type Data = Bytes;
        type Error = Infallible;
        fn poll_frame(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
            self.0.poll_recv(cx).map(|b| b.map(|b| Ok(Frame::data(b))))
        }
    }

    fn channel_body() -> (mpsc::Sender<Bytes>, BoxBody<Bytes, Infallible>) {
        let (tx, rx) = mpsc::channel::<Bytes>(8);
        (tx, ChannelBody(rx).boxed())
    }

    #[tokio::test]
    async fn a_quick_answer_is_waited_for_and_handed_on_whole() {
        let (tx, body) = channel_body();
        tx.send(Bytes::from_static(b"priming")).await.unwrap();
        let feeder = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(30)).await;
            tx.send(Bytes::from_static(b"answer")).await.unwrap();
        });
        let started = Instant::now();
        let r = gather(sse(body), Duration::from_secs(5)).await;
        let waited = started.elapsed();
        // Held for the answer, not for the whole hold.
        assert!(waited >= Duration::from_millis(30), "{waited:?}");
        assert!(waited < Duration::from_secs(4), "{waited:?}");
        feeder.await.unwrap();
        let mut body = r.into_body();
        assert!(!body.is_end_stream());
        // Both events are there already: hyper writes them together.
        for want in [&b"priming"[..], &b"answer"[..]] {
            let frame = tokio::time::timeout(Duration::ZERO, body.frame()).await;
            let data = frame.ok().flatten().and_then(|f| f.ok()?.into_data().ok());
            assert_eq!(data.as_deref(), Some(want));
        }
    }

    #[tokio::test]
    async fn a_slow_answer_gets_its_headers_after_the_hold() {
        let (tx, body) = channel_body();
        tx.send(Bytes::from_static(b"priming")).await.unwrap();
        let started = Instant::now();
        let r = gather(sse(body), Duration::from_millis(20)).await;
        let waited = started.elapsed();
        assert!(waited >= Duration::from_millis(20), "{waited:?}");
        assert!(waited < Duration::from_secs(2), "{waited:?}");
        tx.send(Bytes::from_static(b"answer")).await.unwrap();
        drop(tx);
        let frames = read_all(r).await;
        assert_eq!(frames, [&b"priming"[..], &b"answer"[..]]);
    }

    #[tokio::test]
    async fn a_stream_that_ends_at_once_ends_after_its_events() {
        let (tx, body) = channel_body();
        tx.send(Bytes::from_static(b"only")).await.unwrap();
        drop(tx);
        let r = gather(sse(body), Duration::from_secs(5)).await;
        assert_eq!(read_all(r).await, [&b"only"[..]]);
    }

    #[tokio::test]
    async fn other_answers_pass_untouched() {
        let r = gather(
            http::Response::new(Empty::new().boxed()),
            Duration::from_secs(5),
        )
        .await;
        assert!(r.body().is_end_stream());
    }
}
