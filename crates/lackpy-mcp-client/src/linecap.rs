//! A reader between a stdio server's stdout and the SDK that enforces the
//! response size cap.
//!
//! The SDK drops a line over its limit silently, so the request it answered
//! would wait forever. This reader holds each line until its newline; a line
//! over the cap is skipped while a small scanner picks out its top-level
//! `id`, and a JSON-RPC error response for that id takes its place, so the
//! call fails at once with a clear message. The SDK also drops, silently, a
//! line it cannot decode (`NaN`, nesting past the JSON parser's depth limit,
//! a shape that is no message): each line is decoded here first, the way
//! the SDK will, and a response that fails gets the same treatment, an
//! error for its id naming the reason.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use rmcp::model::ServerJsonRpcMessage;
use tokio::io::{AsyncRead, ReadBuf};

/// The start of the error message put in place of an oversized response.
pub const OVERSIZE_MARK: &str = "lackpy: the response exceeds the size cap of";

/// The start of the error message put in place of a response the SDK
/// could not decode (not JSON, `NaN`, nested too deep, the wrong shape).
pub const UNREADABLE_MARK: &str = "lackpy: the server's response could not be read:";

/// How much is read from the pipe at once.
const CHUNK: usize = 64 * 1024;

/// Reads a stdio server's stdout, line by line, with the cap enforced.
pub struct LineCap<R> {
    inner: R,
    cap: usize,
    line: Vec<u8>,
    out: Vec<u8>,
    out_pos: usize,
    skipping: Option<IdScanner>,
    chunk: Vec<u8>,
    eof: bool,
}

impl<R> LineCap<R> {
    /// Wraps `inner`; lines longer than `cap` bytes are replaced.
    pub fn new(inner: R, cap: usize) -> LineCap<R> {
        LineCap {
            inner,
            cap,
            line: Vec::new(),
            out: Vec::new(),
            out_pos: 0,
            skipping: None,
            chunk: vec![0; CHUNK],
            eof: false,
        }
    }

    fn finish_skip(&mut self, scanner: &IdScanner) {
        match scanner.response_id() {
            Some(id) => {
                tracing::warn!(
                    cap = self.cap,
                    "MCP response over the size cap replaced by an error"
                );
                self.out.extend_from_slice(
                    format!(
                        "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"error\":{{\"code\":-32603,\"message\":\"{OVERSIZE_MARK} {} bytes\"}}}}\n",
                        self.cap
                    )
                    .as_bytes(),
                );
            }
            None => tracing::warn!(cap = self.cap, "MCP message over the size cap dropped"),
        }
    }

    fn process(&mut self, mut data: &[u8]) {
        while !data.is_empty() {
            let newline = data.iter().position(|b| *b == b'\n');
            let (seg, rest) = match newline {
                Some(i) => data.split_at(i + 1),
                None => (data, &data[data.len()..]),
            };
            data = rest;
            let body = seg.strip_suffix(b"\n").unwrap_or(seg);
            if let Some(mut scanner) = self.skipping.take() {
                scanner.feed(body);
                if newline.is_some() {
                    self.finish_skip(&scanner);
                } else {
                    self.skipping = Some(scanner);
                }
            } else if self.line.len() + body.len() > self.cap {
                let mut scanner = IdScanner::default();
                scanner.feed(&self.line);
                scanner.feed(body);
                self.line.clear();
                if newline.is_some() {
                    self.finish_skip(&scanner);
                } else {
                    self.skipping = Some(scanner);
                }
            } else {
                self.line.extend_from_slice(seg);
                if newline.is_some() {
                    if let Some(error) = unreadable_response(&self.line) {
                        self.line.clear();
                        self.out.extend_from_slice(error.as_bytes());
                        continue;
                    }
                    if self.out.is_empty() {
                        std::mem::swap(&mut self.out, &mut self.line);
                    } else {
                        self.out.extend_from_slice(&self.line);
                        self.line.clear();
                    }
                }
            }
        }
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for LineCap<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        loop {
            if this.out_pos < this.out.len() {
                let n = (this.out.len() - this.out_pos).min(buf.remaining());
                buf.put_slice(&this.out[this.out_pos..this.out_pos + n]);
                this.out_pos += n;
                if this.out_pos == this.out.len() {
                    this.out.clear();
                    this.out_pos = 0;
                }
                return Poll::Ready(Ok(()));
            }
            if this.eof || buf.remaining() == 0 {
                return Poll::Ready(Ok(()));
            }
            let mut chunk = std::mem::take(&mut this.chunk);
            let mut rb = ReadBuf::new(&mut chunk);
            let polled = Pin::new(&mut this.inner).poll_read(cx, &mut rb);
            let n = rb.filled().len();
            if let Poll::Ready(Ok(())) = &polled {
                if n == 0 {
                    // A partial line at the end is no message; drop it.
                    this.eof = true;
                } else {
                    this.process(&chunk[..n]);
                }
            }
            this.chunk = chunk;
            ready!(polled)?;
        }
    }
}

/// The error line that replaces `line` (one whole line, newline included)
/// when it is a response the SDK will not decode; `None` for a line the SDK
/// can read, and for requests and notifications (the SDK handles those; no
/// call of ours waits for them).
pub(crate) fn unreadable_response(line: &[u8]) -> Option<String> {
    let body = line.strip_suffix(b"\n").unwrap_or(line);
    let body = body.strip_suffix(b"\r").unwrap_or(body);
    let body = body.strip_prefix(b"\xef\xbb\xbf").unwrap_or(body);
    if body.iter().all(u8::is_ascii_whitespace) {
        return None;
    }
    let err = serde_json::from_slice::<ServerJsonRpcMessage>(body).err()?;
    let mut scanner = IdScanner::default();
    scanner.feed(body);
    let Some(id) = scanner.response_id() else {
        tracing::warn!("MCP server sent a message that cannot be read: {err}");
        return None;
    };
    tracing::warn!("MCP response that cannot be read replaced by an error: {err}");
    let message = serde_json::Value::String(format!("{UNREADABLE_MARK} {err}"));
    Some(format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"error\":{{\"code\":-32700,\"message\":{message}}}}}\n"
    ))
}

/// Finds the top-level `id` of a JSON-RPC message fed in pieces, and
/// whether the message is a request or notification (has `method`).
#[derive(Debug, Default)]
struct IdScanner {
    depth: u32,
    in_string: bool,
    escaped: bool,
    expect_key: bool,
    reading_key: bool,
    key: Vec<u8>,
    value_of: Option<Key>,
    id: Vec<u8>,
    id_state: IdState,
    saw_method: bool,
    broken: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Key {
    Id,
    Method,
    Other,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum IdState {
    #[default]
    None,
    InString,
    InNumber,
    Done,
}

/// Longest id kept; longer ones are not ours (ours are small numbers).
const MAX_ID: usize = 128;

impl IdScanner {
    fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if self.broken {
                return;
            }
            self.step(b);
        }
    }

    fn push_id(&mut self, b: u8) {
        if self.id.len() >= MAX_ID {
            self.broken = true;
        } else {
            self.id.push(b);
        }
    }

    fn end_number(&mut self) {
        if self.id_state == IdState::InNumber {
            self.id_state = IdState::Done;
        }
    }

    fn step(&mut self, b: u8) {
        if self.in_string {
            if self.reading_key && self.key.len() < 16 {
                self.key.push(b);
            }
            if self.id_state == IdState::InString {
                self.push_id(b);
            }
            if self.escaped {
                self.escaped = false;
            } else if b == b'\\' {
                self.escaped = true;
            } else if b == b'"' {
                self.in_string = false;
                if self.reading_key {
                    self.reading_key = false;
                    self.key.pop();
                }
                if self.id_state == IdState::InString {
                    self.id_state = IdState::Done;
                }
            }
            return;
        }
        match b {
            b'"' => {
                self.in_string = true;
                if self.depth == 1 && self.expect_key {
                    self.expect_key = false;
                    self.reading_key = true;
                    self.key.clear();
                } else if self.depth == 1 && self.value_of == Some(Key::Id) {
                    self.value_of = None;
                    if self.id_state != IdState::None {
                        self.broken = true;
                    }
                    self.id_state = IdState::InString;
                    self.push_id(b);
                } else if self.depth == 1 {
                    self.value_of = None;
                }
            }
            b'{' | b'[' => {
                if self.depth == 1 && self.value_of.take() == Some(Key::Id) {
                    // An id that is an object or array: not a response of ours.
                    self.broken = true;
                }
                self.depth += 1;
                if b == b'{' && self.depth == 1 {
                    self.expect_key = true;
                }
            }
            b'}' | b']' => {
                if self.depth == 1 {
                    self.end_number();
                }
                self.depth = self.depth.saturating_sub(1);
            }
            b':' if self.depth == 1 => {
                self.value_of = Some(match self.key.as_slice() {
                    b"id" => Key::Id,
                    b"method" => Key::Method,
                    _ => Key::Other,
                });
                if self.value_of == Some(Key::Method) {
                    self.saw_method = true;
                }
            }
            b',' if self.depth == 1 => {
                self.end_number();
                self.expect_key = true;
            }
            b' ' | b'\t' | b'\r' | b'\n' => {
                if self.depth == 1 {
                    self.end_number();
                }
            }
            _ => {
                if self.depth == 1 {
                    if self.value_of == Some(Key::Id) {
                        self.value_of = None;
                        if self.id_state != IdState::None {
                            self.broken = true;
                        }
                        if b == b'-' || b.is_ascii_digit() {
                            self.id_state = IdState::InNumber;
                            self.push_id(b);
                        }
                        // `null` and other literals: no id to answer.
                    } else if self.id_state == IdState::InNumber {
                        if b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-') {
                            self.push_id(b);
                        } else {
                            self.broken = true;
                        }
                    } else {
                        self.value_of = None;
                    }
                }
            }
        }
    }

    /// The raw JSON text of the id when the message is a response.
    fn response_id(&self) -> Option<String> {
        let done = self.id_state == IdState::Done || self.id_state == IdState::InNumber;
        if self.broken || self.saw_method || !done || self.id.is_empty() {
            return None;
        }
        String::from_utf8(self.id.clone()).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    fn scan(text: &str) -> Option<String> {
        let mut s = IdScanner::default();
        for piece in text.as_bytes().chunks(3) {
            s.feed(piece);
        }
        s.response_id()
    }

    #[test]
    fn finds_ids_before_and_after_the_payload() {
        assert_eq!(
            scan(r#"{"jsonrpc":"2.0","id":12,"result":{"id":99}}"#).as_deref(),
            Some("12")
        );
        assert_eq!(
            scan(r#"{"result":{"id":99,"x":"a\"id\":5"},"jsonrpc":"2.0","id":7}"#).as_deref(),
            Some("7")
        );
        assert_eq!(
            scan(r#"{ "id" : "ab\"c" , "result": [] }"#).as_deref(),
            Some(r#""ab\"c""#)
        );
    }

    #[test]
    fn requests_and_bad_ids_give_none() {
        assert_eq!(
            scan(r#"{"jsonrpc":"2.0","id":3,"method":"sampling/createMessage"}"#),
            None
        );
        assert_eq!(
            scan(r#"{"method":"notifications/message","params":{}}"#),
            None
        );
        assert_eq!(scan(r#"{"id":null,"error":{}}"#), None);
        assert_eq!(scan(r#"{"id":{"a":1},"result":{}}"#), None);
    }

    #[tokio::test]
    async fn oversized_lines_become_errors_and_others_pass() {
        let big = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{{\"t\":\"{}\"}}}}\n",
            "x".repeat(5000)
        );
        let input = format!("{{\"a\":1}}\n{big}{{\"b\":2}}\n");
        let mut r = LineCap::new(input.as_bytes(), 1000);
        let mut out = String::new();
        r.read_to_string(&mut out).await.unwrap_or_default();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0], "{\"a\":1}");
        assert!(lines[1].contains("\"id\":4") && lines[1].contains(OVERSIZE_MARK));
        assert_eq!(lines[2], "{\"b\":2}");
    }

    #[tokio::test]
    async fn responses_the_sdk_cannot_read_become_errors() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let input = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{{\"x\":NaN}}}}\n\
             {{\"jsonrpc\":\"2.0\",\"id\":6,\"result\":{{\"x\":{deep}}}}}\n\
             {{\"jsonrpc\":\"2.0\",\"id\":\"s\",\"result\":{{}}}}\n\
             {{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\",\"params\":{{\"v\":NaN}}}}\n"
        );
        let mut r = LineCap::new(input.as_bytes(), 1 << 20);
        let mut out = String::new();
        r.read_to_string(&mut out).await.unwrap_or_default();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4, "{out}");
        let error = |line: &str| -> (serde_json::Value, String) {
            let v: serde_json::Value = serde_json::from_str(line).unwrap_or_default();
            let msg = v["error"]["message"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            (v["id"].clone(), msg)
        };
        let (id, msg) = error(lines[0]);
        assert_eq!(id, serde_json::json!(5));
        assert!(msg.starts_with(UNREADABLE_MARK), "{msg}");
        assert!(msg.contains("expected value"), "{msg}");
        let (id, msg) = error(lines[1]);
        assert_eq!(id, serde_json::json!(6));
        assert!(msg.contains("recursion limit exceeded"), "{msg}");
        // A readable response and a notification pass as they are.
        assert_eq!(lines[2], "{\"jsonrpc\":\"2.0\",\"id\":\"s\",\"result\":{}}");
        assert!(lines[3].contains("NaN"));
    }
}
