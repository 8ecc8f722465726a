//! A POST's body, read by the guard before rmcp sees it: bounded in size
//! and in time (a client trickling a body cannot hold a connection), and
//! classified as JSON-RPC so that a malformed message is answered `400`
//! with the JSON-RPC error (`-32700` not JSON, `-32600` not a request)
//! and an `initialize` is known before a session is made for it.
//!
//! Time: `t` after the end of the headers, a body not yet complete must
//! have delivered `t × 1 KiB/s` once `t` passes the header timeout: it is
//! given `max(header timeout, n / 1 KiB/s)`, `n` the bytes received so far.
//! Counting what arrived (not the declared length) means a client that
//! declares 90000 bytes and sends one is closed at the header timeout.

use std::fmt::Display;
use std::time::{Duration, Instant};

use bytes::{Bytes, BytesMut};
use http::{HeaderValue, StatusCode, header};
use http_body_util::{BodyExt, Full};
use hyper::body::Body;
use rmcp::model::{ClientJsonRpcMessage, ClientRequest};
use serde_json::{Value, json};

use super::response::{HttpResponse, plain};

/// The slowest average rate a body may arrive at, bytes per second.
pub(crate) const MIN_BODY_RATE: u64 = 1024;

/// How large and how slow a body may be.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BodyLimits {
    /// Largest body, bytes.
    pub(crate) max_bytes: usize,
    /// The least time a body is given (the header timeout).
    pub(crate) timeout: Duration,
}

impl BodyLimits {
    /// The time a body of `n` bytes is given.
    fn allowed(&self, n: u64) -> Duration {
        self.timeout.max(Duration::from_millis(
            n.saturating_mul(1000) / MIN_BODY_RATE,
        ))
    }
}

/// Reads all of `body` (its declared length `declared`: more than the
/// size limit is refused at once) within `limits`;
/// `Err` is the answer: 413 too large, 408 too slow, 400 broken off.
pub(crate) async fn read<B>(
    body: B,
    declared: Option<u64>,
    limits: BodyLimits,
) -> Result<Bytes, Box<HttpResponse>>
where
    B: Body,
    B::Error: Display,
{
    if declared.is_some_and(|n| n > limits.max_bytes as u64) {
        return Err(Box::new(too_large(limits.max_bytes)));
    }
    let started = Instant::now();
    let mut collected = BytesMut::new();
    let mut body = std::pin::pin!(body);
    loop {
        let received = collected.len() as u64;
        let deadline = started + limits.allowed(received);
        let frame = tokio::select! {
            frame = body.frame() => frame,
            () = tokio::time::sleep_until(deadline.into()) => return Err(Box::new(closing(plain(
                StatusCode::REQUEST_TIMEOUT,
                "Request Timeout: the body did not arrive in time",
            )))),
        };
        match frame {
            None => return Ok(collected.freeze()),
            Some(Ok(frame)) => {
                if let Ok(data) = frame.into_data() {
                    let data: &[u8] = bytes::Buf::chunk(&data);
                    if data.len() > limits.max_bytes.saturating_sub(collected.len()) {
                        return Err(Box::new(too_large(limits.max_bytes)));
                    }
                    collected.extend_from_slice(data);
                }
            }
            Some(Err(e)) => {
                return Err(Box::new(closing(plain(
                    StatusCode::BAD_REQUEST,
                    &format!("Bad Request: the body could not be read: {e}"),
                ))));
            }
        }
    }
}

fn too_large(max: usize) -> HttpResponse {
    closing(plain(
        StatusCode::PAYLOAD_TOO_LARGE,
        &format!("Payload Too Large: request body exceeds {max} bytes"),
    ))
}

/// `response`, closing the connection after it (the rest of the body is
/// not read).
fn closing(mut response: HttpResponse) -> HttpResponse {
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// What a well-formed message is, as far as the guard cares.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Message {
    /// An `initialize` request (opens a session), with its id.
    Initialize(Value),
    /// A `tools/call` request (new work: a run, a resume), with its id.
    Call(Value),
    /// Anything else rmcp takes.
    Other,
}

/// Classifies a body: `Err` is the `400` answer with the JSON-RPC error
/// for a body that is not JSON (`-32700`) or not a JSON-RPC message
/// (`-32600`).
pub(crate) fn classify(body: &[u8]) -> Result<Message, Box<HttpResponse>> {
    let value: Value = serde_json::from_slice(body).map_err(|e| {
        Box::new(jsonrpc_error(
            StatusCode::BAD_REQUEST,
            -32700,
            &format!("Parse error: {e}"),
            Value::Null,
        ))
    })?;
    let id = match value.get("id") {
        Some(id @ (Value::String(_) | Value::Number(_))) => id.clone(),
        _ => Value::Null,
    };
    // The very parse rmcp makes next: whatever passes here, rmcp takes.
    match serde_json::from_slice::<ClientJsonRpcMessage>(body) {
        Ok(ClientJsonRpcMessage::Request(r))
            if matches!(r.request, ClientRequest::InitializeRequest(_)) =>
        {
            Ok(Message::Initialize(id))
        }
        Ok(ClientJsonRpcMessage::Request(r))
            if matches!(r.request, ClientRequest::CallToolRequest(_)) =>
        {
            Ok(Message::Call(id))
        }
        Ok(_) => Ok(Message::Other),
        Err(e) => Err(Box::new(jsonrpc_error(
            StatusCode::BAD_REQUEST,
            -32600,
            &format!("Invalid Request: {e}"),
            id,
        ))),
    }
}

/// An HTTP answer whose body is the JSON-RPC error `code` for `id`.
pub(crate) fn jsonrpc_error(
    status: StatusCode,
    code: i64,
    message: &str,
    id: Value,
) -> HttpResponse {
    let body = json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": code, "message": message},
    });
    let mut r = HttpResponse::new(Full::new(Bytes::from(body.to_string())).boxed());
    *r.status_mut() = status;
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(body: &str) -> Option<(u16, i64)> {
        let r = *classify(body.as_bytes()).err()?;
        let status = r.status().as_u16();
        let bytes = futures_body(r);
        let v: Value = serde_json::from_slice(&bytes).ok()?;
        Some((status, v["error"]["code"].as_i64()?))
    }

    fn futures_body(r: HttpResponse) -> Bytes {
        let rt = tokio::runtime::Builder::new_current_thread().build();
        rt.ok()
            .and_then(|rt| rt.block_on(r.into_body().collect()).ok())
            .map(|c| c.to_bytes())
            .unwrap_or_default()
    }

    #[test]
    fn malformed_messages_get_their_jsonrpc_error() {
        assert_eq!(code("{"), Some((400, -32700)));
        assert_eq!(code(""), Some((400, -32700)));
        assert_eq!(code("[1,2"), Some((400, -32700)));
        assert_eq!(code("42"), Some((400, -32600)));
        assert_eq!(code("[]"), Some((400, -32600)));
        assert_eq!(code(r#"{"id":1}"#), Some((400, -32600)));
        assert_eq!(
            code(r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#),
            Some((400, -32600))
        );
        assert_eq!(code(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#), None);
        assert_eq!(
            classify(br#"{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#).ok(),
            Some(Message::Initialize(json!(7)))
        );
    }

    #[test]
    fn a_body_is_given_the_timeout_or_what_arrived_at_the_minimum_rate() {
        let limits = BodyLimits {
            max_bytes: 1 << 20,
            timeout: Duration::from_secs(10),
        };
        assert_eq!(limits.allowed(0), Duration::from_secs(10));
        assert_eq!(limits.allowed(9_000), Duration::from_secs(10));
        assert_eq!(limits.allowed(1024 * 60), Duration::from_secs(60));
        assert_eq!(
            limits.allowed(u64::MAX),
            Duration::from_millis(u64::MAX / 1024)
        );
    }
}
