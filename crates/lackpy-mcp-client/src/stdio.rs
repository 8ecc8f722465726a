//! The stdio transport: JSON-RPC lines over a server's stdin and stdout.
//!
//! It stands where the SDK's `AsyncRwTransport` would, reading through the
//! size cap ([`LineSplitter`]) and decoding each line once: a response the
//! SDK could not decode becomes an error for its id (it used to be checked
//! by a full decode before the SDK decoded it again, which was a fifth of
//! the client's CPU time per call), and every other line is treated as the
//! SDK's reader treats it. Messages are written in the order they are
//! handed over, whatever order the SDK's send tasks run in.

use std::io;
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::RoleClient;
use rmcp::model::{
    CallToolResult, ClientJsonRpcMessage, ErrorCode, ErrorData, JsonRpcResponse, RequestId,
    ServerJsonRpcMessage, ServerResult,
};
use rmcp::transport::Transport;
use serde::Deserialize;
use serde_json::value::RawValue;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

use crate::linecap::{IdScanner, Line, LineSplitter, OVERSIZE_MARK, UNREADABLE_MARK};

/// How much is read from the pipe at once.
const CHUNK: usize = 64 * 1024;

/// A stdio server's pipes as a transport.
pub(crate) struct StdioTransport<R, W> {
    read: R,
    lines: LineSplitter,
    cap: usize,
    out: Arc<Outbox<W>>,
    /// An `Invalid Request` answer is queued: written before reading on.
    answer_pending: bool,
}

/// What is written to the server: messages queued in order by `send`, and
/// the pipe, written by whichever send's future holds it.
struct Outbox<W> {
    queue: Mutex<Queue>,
    pipe: tokio::sync::Mutex<Pipe<W>>,
}

#[derive(Default)]
struct Queue {
    bytes: Vec<u8>,
    /// Why writing failed; every later write fails with it.
    failed: Option<(io::ErrorKind, String)>,
}

struct Pipe<W> {
    /// `None` once closed.
    write: Option<W>,
    /// Taken from the queue, not yet written (a write interrupted by a
    /// dropped future leaves the rest here for the next one).
    pending: Vec<u8>,
}

impl<W: AsyncWrite + Unpin> Outbox<W> {
    fn lock_queue(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues one message (a line).
    fn push<T: serde::Serialize>(&self, message: &T) -> io::Result<()> {
        let mut queue = self.lock_queue();
        serde_json::to_writer(&mut queue.bytes, message).map_err(io::Error::other)?;
        queue.bytes.push(b'\n');
        Ok(())
    }

    /// Writes everything queued so far.
    async fn flush(&self) -> io::Result<()> {
        let mut pipe = self.pipe.lock().await;
        let Pipe { write, pending } = &mut *pipe;
        {
            let mut queue = self.lock_queue();
            if let Some((kind, why)) = &queue.failed {
                return Err(io::Error::new(*kind, why.clone()));
            }
            if pending.is_empty() {
                std::mem::swap(pending, &mut queue.bytes);
            } else {
                pending.append(&mut queue.bytes);
            }
        }
        if pending.is_empty() {
            return Ok(());
        }
        let Some(w) = write.as_mut() else {
            return Err(io::Error::new(
                io::ErrorKind::NotConnected,
                "Transport is closed",
            ));
        };
        let written = async {
            while !pending.is_empty() {
                let n = w.write(pending).await?;
                if n == 0 {
                    return Err(io::Error::from(io::ErrorKind::WriteZero));
                }
                pending.drain(..n);
            }
            w.flush().await
        }
        .await;
        if let Err(e) = &written {
            pending.clear();
            self.lock_queue().failed = Some((e.kind(), e.to_string()));
        }
        written
    }
}

impl<R, W> StdioTransport<R, W>
where
    R: AsyncRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send + 'static,
{
    /// Reads the server's output from `read` (lines over `cap` bytes are
    /// refused) and writes to its input through `write`.
    pub(crate) fn new(read: R, write: W, cap: usize) -> Self {
        StdioTransport {
            read,
            lines: LineSplitter::new(cap),
            cap,
            out: Arc::new(Outbox {
                queue: Mutex::default(),
                pipe: tokio::sync::Mutex::new(Pipe {
                    write: Some(write),
                    pending: Vec::new(),
                }),
            }),
            answer_pending: false,
        }
    }

    /// What the line at `range` is to the SDK.
    fn decode(&mut self, line: Line) -> Received {
        match line {
            Line::Text(range) => decode_line(&self.lines.bytes()[range]),
            Line::Oversized(id) => match id {
                Some(id) => {
                    tracing::warn!(
                        cap = self.cap,
                        "MCP response over the size cap replaced by an error"
                    );
                    error_for(
                        &id,
                        ErrorCode::INTERNAL_ERROR,
                        format!("{OVERSIZE_MARK} {} bytes", self.cap),
                    )
                }
                None => {
                    tracing::warn!(cap = self.cap, "MCP message over the size cap dropped");
                    Received::Skip
                }
            },
        }
    }
}

/// What a line is.
enum Received {
    Message(Box<ServerJsonRpcMessage>),
    /// Nothing to hand on.
    Skip,
    /// JSON of the wrong shape: the SDK's reader answers the server with
    /// `Invalid Request` (no id), and so do we.
    Invalid,
}

/// An error response for the request whose id is the JSON text `id`.
fn error_for(id: &str, code: ErrorCode, message: String) -> Received {
    match serde_json::from_str::<RequestId>(id) {
        Ok(id) => Received::Message(Box::new(ServerJsonRpcMessage::error(
            ErrorData::new(code, message, None),
            Some(id),
        ))),
        // An id the SDK cannot read either: its reader would have answered
        // the error line put in place with `Invalid Request`.
        Err(_) => Received::Invalid,
    }
}

/// One line (newline excluded), decoded once.
fn decode_line(line: &[u8]) -> Received {
    let body = line.strip_suffix(b"\r").unwrap_or(line);
    let body = body.strip_prefix(b"\xef\xbb\xbf").unwrap_or(body);
    if body.iter().all(u8::is_ascii_whitespace) {
        return Received::Skip;
    }
    if let Some(message) = decode_call_result(body) {
        return Received::Message(Box::new(message));
    }
    let err = match serde_json::from_slice::<ServerJsonRpcMessage>(body) {
        Ok(message) => return Received::Message(Box::new(message)),
        Err(err) => err,
    };
    let mut scanner = IdScanner::default();
    scanner.feed(body);
    if let Some(id) = scanner.response_id() {
        tracing::warn!("MCP response that cannot be read replaced by an error: {err}");
        return error_for(
            &id,
            ErrorCode::PARSE_ERROR,
            format!("{UNREADABLE_MARK} {err}"),
        );
    }
    tracing::warn!("MCP server sent a message that cannot be read: {err}");
    // From here, as the SDK's reader does: notifications outside the
    // protocol are ignored, text that is not JSON is dropped, and JSON of
    // the wrong shape is answered with `Invalid Request`.
    if ignored_notification(body) {
        return Received::Skip;
    }
    match err.classify() {
        serde_json::error::Category::Syntax | serde_json::error::Category::Eof => {
            tracing::debug!("Ignoring unparsable incoming message: {err}");
            Received::Skip
        }
        serde_json::error::Category::Data | serde_json::error::Category::Io => {
            tracing::debug!("Protocol error on incoming message: {err}");
            Received::Invalid
        }
    }
}

/// A response whose result has only `CallToolResult`'s keys, decoded
/// straight into one, or `None` to leave the line to the SDK's decode.
///
/// The SDK decodes a result by trying its twenty result types in turn (an
/// untagged enum); a tool call's answer comes sixteenth, and the failed
/// attempts before it were three quarters of the decode. Each type before
/// it needs a key a tool result does not have, so for a result whose keys
/// are among `resultType`, `content`, `structuredContent` and `isError`
/// (no `_meta`: a subscription's end is `resultType` and `_meta`) the SDK
/// picks `CallToolResult` too whenever that decodes, and here it is decoded
/// the same way. `stdio::tests::call_results_decode_as_the_sdk_decodes_them`
/// holds this to the SDK's own decode over every combination of those
/// keys.
fn decode_call_result(body: &[u8]) -> Option<ServerJsonRpcMessage> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Envelope<'a> {
        #[serde(borrow)]
        jsonrpc: &'a RawValue,
        #[serde(borrow)]
        id: &'a RawValue,
        #[serde(borrow)]
        result: &'a RawValue,
    }
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    struct CallKeys<'a> {
        #[serde(borrow, rename = "resultType")]
        _result_type: Option<&'a RawValue>,
        #[serde(borrow, rename = "content")]
        _content: Option<&'a RawValue>,
        #[serde(borrow, rename = "structuredContent")]
        _structured_content: Option<&'a RawValue>,
        #[serde(borrow, rename = "isError")]
        _is_error: Option<&'a RawValue>,
    }
    let envelope: Envelope<'_> = serde_json::from_slice(body).ok()?;
    let result = envelope.result.get();
    serde_json::from_str::<CallKeys<'_>>(result).ok()?;
    let result: CallToolResult = serde_json::from_str(result).ok()?;
    Some(ServerJsonRpcMessage::Response(JsonRpcResponse {
        jsonrpc: serde_json::from_str(envelope.jsonrpc.get()).ok()?,
        id: serde_json::from_str(envelope.id.get()).ok()?,
        result: ServerResult::CallToolResult(result),
    }))
}

/// Whether the SDK's reader ignores this undecodable message: a
/// notification of a method outside MCP, or any `notifications/…` MCP does
/// not define (rmcp 3.11's `should_ignore_notification`).
fn ignored_notification(body: &[u8]) -> bool {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(body) else {
        return false;
    };
    let Some(method) = value.get("method").and_then(serde_json::Value::as_str) else {
        return false;
    };
    let is_notification = value.get("id").is_none();
    (is_notification && !is_standard_method(method))
        || (method.starts_with("notifications/") && !is_standard_notification(method))
}

fn is_standard_method(method: &str) -> bool {
    matches!(
        method,
        "initialize"
            | "ping"
            | "server/discover"
            | "prompts/get"
            | "prompts/list"
            | "resources/list"
            | "resources/read"
            | "resources/subscribe"
            | "resources/unsubscribe"
            | "resources/templates/list"
            | "subscriptions/listen"
            | "tools/call"
            | "tools/list"
            | "completion/complete"
            | "elicitation/create"
            | "logging/setLevel"
            | "roots/list"
            | "sampling/createMessage"
    ) || is_standard_notification(method)
}

fn is_standard_notification(method: &str) -> bool {
    matches!(
        method,
        "notifications/cancelled"
            | "notifications/initialized"
            | "notifications/message"
            | "notifications/progress"
            | "notifications/prompts/list_changed"
            | "notifications/resources/list_changed"
            | "notifications/resources/updated"
            | "notifications/roots/list_changed"
            | "notifications/subscriptions/acknowledged"
            | "notifications/tools/list_changed"
    )
}

impl<R, W> Transport<RoleClient> for StdioTransport<R, W>
where
    R: AsyncRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = io::Error;

    fn send(
        &mut self,
        item: ClientJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        // Queued now, in the order the SDK hands messages over; the future
        // writes whatever is queued when it gets the pipe.
        let queued = self.out.push(&item);
        let out = Arc::clone(&self.out);
        async move {
            queued?;
            out.flush().await
        }
    }

    async fn receive(&mut self) -> Option<ServerJsonRpcMessage> {
        // Polled inside the SDK's `select!`, so it may be dropped at any
        // await: a line is taken from the splitter only when it is handed
        // on, and reads and writes lose nothing when dropped.
        loop {
            if self.answer_pending {
                self.out.flush().await.ok()?;
                self.answer_pending = false;
            }
            while let Some(line) = self.lines.next_line() {
                match self.decode(line) {
                    Received::Message(message) => return Some(*message),
                    Received::Skip => {}
                    Received::Invalid => {
                        let answer = ClientJsonRpcMessage::error(
                            ErrorData::invalid_request("Invalid request", None),
                            None,
                        );
                        if self.out.push(&answer).is_err() {
                            return None;
                        }
                        self.answer_pending = true;
                        break;
                    }
                }
            }
            if self.answer_pending {
                continue;
            }
            let buf = self.lines.buffer_for_read();
            buf.reserve(CHUNK);
            match self.read.read_buf(buf).await {
                // A partial line at the end is no message; drop it.
                Ok(0) => return None,
                Ok(_) => {}
                Err(e) => {
                    tracing::error!("Error reading from stream: {}", e);
                    return None;
                }
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        let mut pipe = self.out.pipe.lock().await;
        drop(pipe.write.take());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    /// Every message the transport hands the SDK from `input`, as JSON.
    async fn received(input: &str, cap: usize) -> (Vec<serde_json::Value>, Vec<u8>) {
        let (write, mut sent) = tokio::io::duplex(1 << 16);
        let mut t = StdioTransport::new(input.as_bytes(), write, cap);
        let mut out = Vec::new();
        while let Some(m) = t.receive().await {
            out.push(serde_json::to_value(&m).unwrap());
        }
        Transport::<RoleClient>::close(&mut t).await.unwrap();
        drop(t);
        let mut answers = Vec::new();
        sent.read_to_end(&mut answers).await.unwrap();
        (out, answers)
    }

    fn error_of(v: &serde_json::Value) -> (serde_json::Value, String) {
        let msg = v["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        (v["id"].clone(), msg)
    }

    #[tokio::test]
    async fn oversized_responses_become_errors_and_others_pass() {
        let big = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{{\"t\":\"{}\"}}}}\n",
            "x".repeat(5000)
        );
        let input = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{{}}}}\n{big}{{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{{}}}}\n"
        );
        let (got, answers) = received(&input, 1000).await;
        assert_eq!(got.len(), 3, "{got:?}");
        assert_eq!(got[0]["id"], serde_json::json!(1));
        let (id, msg) = error_of(&got[1]);
        assert_eq!(id, serde_json::json!(4));
        assert_eq!(msg, format!("{OVERSIZE_MARK} 1000 bytes"));
        assert_eq!(got[2]["id"], serde_json::json!(2));
        assert!(answers.is_empty());
    }

    #[tokio::test]
    async fn responses_the_sdk_cannot_read_become_errors() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let input = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{{\"x\":NaN}}}}\n\
             {{\"jsonrpc\":\"2.0\",\"id\":6,\"result\":{{\"x\":{deep}}}}}\n\
             \u{feff}{{\"jsonrpc\":\"2.0\",\"id\":\"s\",\"result\":{{}}}}\r\n\
             \n   \n\
             {{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\",\"params\":{{\"v\":NaN}}}}\n\
             {{\"jsonrpc\":\"2.0\",\"method\":\"notifications/custom\",\"params\":{{\"v\":1}}}}\n"
        );
        let (got, answers) = received(&input, 1 << 20).await;
        assert_eq!(got.len(), 4, "{got:?}");
        let (id, msg) = error_of(&got[0]);
        assert_eq!(id, serde_json::json!(5));
        assert!(msg.starts_with(UNREADABLE_MARK), "{msg}");
        assert!(msg.contains("expected value"), "{msg}");
        let (id, msg) = error_of(&got[1]);
        assert_eq!(id, serde_json::json!(6));
        assert!(msg.contains("recursion limit exceeded"), "{msg}");
        // A readable response passes (a byte order mark and CR allowed);
        // blank lines and a notification that is no JSON are dropped.
        assert_eq!(got[2]["id"], serde_json::json!("s"));
        assert_eq!(got[3]["method"], serde_json::json!("notifications/custom"));
        assert!(answers.is_empty(), "{}", String::from_utf8_lossy(&answers));
    }

    #[tokio::test]
    async fn messages_of_the_wrong_shape_are_answered_invalid() {
        let input =
            "{\"jsonrpc\":\"2.0\",\"method\":5}\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n";
        let (got, answers) = received(input, 1 << 20).await;
        assert_eq!(got.len(), 1, "{got:?}");
        let answer: serde_json::Value = serde_json::from_slice(&answers).unwrap();
        assert_eq!(answer["id"], serde_json::Value::Null);
        assert_eq!(answer["error"]["code"], serde_json::json!(-32600));
    }

    /// Every combination of `CallToolResult`'s keys, with values of the
    /// right and the wrong types, decodes here exactly as the SDK decodes
    /// it, or is left to the SDK.
    #[test]
    fn call_results_decode_as_the_sdk_decodes_them() {
        let values: [(&str, &[&str]); 5] = [
            (
                "resultType",
                &["\"complete\"", "\"input_required\"", "\"task\"", "5"],
            ),
            (
                "content",
                &[
                    "[]",
                    r#"[{"type":"text","text":"a"}]"#,
                    r#"[{"type":"image","data":"AA==","mimeType":"image/png"},{"type":"text","text":"b","_meta":{"k":1}}]"#,
                    r#"[{"type":"resource","resource":{"uri":"file:///a","text":"t"}}]"#,
                    r#"[{"type":"nope"}]"#,
                    "\"text\"",
                ],
            ),
            (
                "structuredContent",
                &[
                    "null",
                    r#"{"result":1}"#,
                    "[1,2]",
                    "\"s\"",
                    r#"{"messages":[],"action":"accept"}"#,
                ],
            ),
            ("isError", &["true", "false", "\"x\""]),
            (
                "_meta",
                &["{}", r#"{"io.modelcontextprotocol/subscriptionId":"s"}"#],
            ),
        ];
        let mut fast_paths = 0;
        for mask in 0u32..(1 << values.len()) {
            // Every assignment of the chosen keys' values.
            let chosen: Vec<&(&str, &[&str])> = values
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, v)| v)
                .collect();
            let mut index = vec![0usize; chosen.len()];
            loop {
                let fields: Vec<String> = chosen
                    .iter()
                    .zip(&index)
                    .map(|((k, vs), i)| format!("\"{k}\":{}", vs[*i]))
                    .collect();
                let line = format!(
                    "{{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{{{}}}}}",
                    fields.join(",")
                );
                let sdk = serde_json::from_str::<ServerJsonRpcMessage>(&line);
                if let Some(fast) = decode_call_result(line.as_bytes()) {
                    fast_paths += 1;
                    let Ok(ServerJsonRpcMessage::Response(sdk)) = sdk else {
                        panic!("decoded here, not by the SDK: {line}");
                    };
                    assert!(
                        matches!(sdk.result, ServerResult::CallToolResult(_)),
                        "the SDK decodes another result type: {line}"
                    );
                    assert_eq!(
                        serde_json::to_value(&fast).unwrap(),
                        serde_json::to_value(ServerJsonRpcMessage::Response(sdk)).unwrap(),
                        "{line}"
                    );
                }
                // The next assignment, or the next combination of keys.
                let mut k = 0;
                while k < index.len() {
                    index[k] += 1;
                    if index[k] < chosen[k].1.len() {
                        break;
                    }
                    index[k] = 0;
                    k += 1;
                }
                if k == index.len() {
                    break;
                }
            }
        }
        assert!(fast_paths > 100, "{fast_paths}");
        // The test server's answers take the fast path; anything else at
        // the top level, or a string id, is the SDK's.
        let echo = br#"{"jsonrpc":"2.0","id":8,"result":{"resultType":"complete","content":[{"type":"text","text":"hello"}],"isError":false}}"#;
        assert!(decode_call_result(echo).is_some());
        let extra = br#"{"jsonrpc":"2.0","id":8,"x":1,"result":{"content":[]}}"#;
        assert!(decode_call_result(extra).is_none());
        assert!(matches!(decode_line(extra), Received::Message(_)));
        let named = br#"{"jsonrpc":"2.0","id":"a","result":{"content":[]}}"#;
        let Some(ServerJsonRpcMessage::Response(r)) = decode_call_result(named) else {
            panic!("a string id");
        };
        assert_eq!(r.id, RequestId::String("a".into()));
    }

    #[tokio::test]
    async fn sends_are_written_in_the_order_they_were_queued() {
        let (write, mut sent) = tokio::io::duplex(1 << 16);
        let mut t = StdioTransport::new(&b""[..], write, 1 << 20);
        let ping = |id: i64| -> ClientJsonRpcMessage {
            serde_json::from_value(
                serde_json::json!({"jsonrpc": "2.0", "id": id, "method": "ping"}),
            )
            .unwrap()
        };
        let first = Transport::<RoleClient>::send(&mut t, ping(1));
        let second = Transport::<RoleClient>::send(&mut t, ping(2));
        // The later future runs first and writes both, in order.
        second.await.unwrap();
        first.await.unwrap();
        Transport::<RoleClient>::close(&mut t).await.unwrap();
        assert!(
            Transport::<RoleClient>::send(&mut t, ping(3))
                .await
                .is_err()
        );
        drop(t);
        let mut bytes = Vec::new();
        sent.read_to_end(&mut bytes).await.unwrap();
        let ids: Vec<serde_json::Value> = String::from_utf8(bytes)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["id"].clone())
            .collect();
        assert_eq!(ids, vec![serde_json::json!(1), serde_json::json!(2)]);
    }
}
