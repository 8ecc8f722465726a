//! Lines from a stdio server, with the response size cap enforced, and
//! what to do with a response the SDK could not use.
//!
//! The SDK drops a line over its limit silently, so the request it answered
//! would wait forever. [`LineSplitter`] holds each line until its newline; a
//! line over the cap is skipped while a small scanner picks out its
//! top-level `id`, so the call it answers can fail at once with a clear
//! message. The SDK also drops, silently, a line it cannot decode (`NaN`,
//! nesting past the JSON parser's depth limit, a shape that is no message):
//! the stdio transport (`stdio.rs`) decodes each line once and answers such
//! a response with an error for its id naming the reason; over streamable
//! HTTP, [`unreadable_response`] does the same for each SSE event.

use std::ops::Range;

use rmcp::model::ServerJsonRpcMessage;

/// The start of the error message put in place of an oversized response.
pub const OVERSIZE_MARK: &str = "lackpy: the response exceeds the size cap of";

/// The start of the error message put in place of a response the SDK
/// could not decode (not JSON, `NaN`, nested too deep, the wrong shape).
pub const UNREADABLE_MARK: &str = "lackpy: the server's response could not be read:";

/// What the splitter found next.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// A whole line (without its newline) at this range of
    /// [`LineSplitter::bytes`].
    Text(Range<usize>),
    /// A line over the cap, skipped; the raw JSON text of its `id` when it
    /// was a response.
    Oversized(Option<String>),
}

/// Splits what a server writes into lines, holding at most the cap (plus
/// one read) of any line.
#[derive(Debug)]
pub(crate) struct LineSplitter {
    cap: usize,
    buf: Vec<u8>,
    /// Where the unread part of `buf` starts.
    pos: usize,
    /// How far past `pos` the current line is known to have no newline.
    scanned: usize,
    /// Inside a line over the cap: its id so far.
    skipping: Option<IdScanner>,
}

impl LineSplitter {
    /// A splitter for lines of at most `cap` bytes (newline excluded).
    pub(crate) fn new(cap: usize) -> LineSplitter {
        LineSplitter {
            cap,
            buf: Vec::new(),
            pos: 0,
            scanned: 0,
            skipping: None,
        }
    }

    /// The buffer a [`Line::Text`] range points into.
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.buf
    }

    /// Where the next read appends: the buffer, with what was consumed
    /// dropped (a partial line moves to the front).
    pub(crate) fn buffer_for_read(&mut self) -> &mut Vec<u8> {
        if self.pos > 0 {
            self.buf.drain(..self.pos);
            self.pos = 0;
        }
        &mut self.buf
    }

    /// The next line in what has been read, or `None` until more is read.
    pub(crate) fn next_line(&mut self) -> Option<Line> {
        loop {
            let rest = &self.buf[self.pos..];
            if rest.is_empty() {
                return None;
            }
            let newline = memchr_newline(&rest[self.scanned..]).map(|i| i + self.scanned);
            if let Some(scanner) = self.skipping.as_mut() {
                let end = newline.unwrap_or(rest.len());
                scanner.feed(&rest[..end]);
                match newline {
                    Some(i) => {
                        self.pos += i + 1;
                        self.scanned = 0;
                        let id = self.skipping.take().and_then(|s| s.response_id());
                        return Some(Line::Oversized(id));
                    }
                    None => {
                        self.buf.clear();
                        self.pos = 0;
                        self.scanned = 0;
                        return None;
                    }
                }
            }
            match newline {
                Some(i) if i <= self.cap => {
                    let line = self.pos..self.pos + i;
                    self.pos += i + 1;
                    self.scanned = 0;
                    return Some(Line::Text(line));
                }
                // Over the cap: skipped from here on while its id is read.
                Some(_) => self.skipping = Some(IdScanner::default()),
                None if rest.len() > self.cap => self.skipping = Some(IdScanner::default()),
                None => {
                    self.scanned = rest.len();
                    return None;
                }
            }
        }
    }
}

/// The first newline in `bytes`.
fn memchr_newline(bytes: &[u8]) -> Option<usize> {
    memchr::memchr(b'\n', bytes)
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
pub(crate) struct IdScanner {
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
    /// Reads the next piece of the message.
    pub(crate) fn feed(&mut self, bytes: &[u8]) {
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
    pub(crate) fn response_id(&self) -> Option<String> {
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

    fn lines(input: &[u8], cap: usize, read: usize) -> Vec<Result<String, Option<String>>> {
        let mut splitter = LineSplitter::new(cap);
        let mut out = Vec::new();
        for piece in input.chunks(read) {
            splitter.buffer_for_read().extend_from_slice(piece);
            while let Some(line) = splitter.next_line() {
                out.push(match line {
                    Line::Text(r) => Ok(String::from_utf8_lossy(&splitter.bytes()[r]).into_owned()),
                    Line::Oversized(id) => Err(id),
                });
            }
        }
        out
    }

    #[test]
    fn lines_over_the_cap_are_skipped_with_their_ids() {
        let big = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{{\"t\":\"{}\"}}}}\n",
            "x".repeat(5000)
        );
        let note = format!("{{\"method\":\"n\",\"params\":\"{}\"}}\n", "y".repeat(3000));
        let input = format!("{{\"a\":1}}\n{big}{note}{{\"b\":2}}\n\npartial");
        for read in [1, 7, 1000, 64 * 1024] {
            let got = lines(input.as_bytes(), 1000, read);
            assert_eq!(
                got,
                vec![
                    Ok("{\"a\":1}".to_string()),
                    Err(Some("4".to_string())),
                    Err(None),
                    Ok("{\"b\":2}".to_string()),
                    Ok(String::new()),
                ],
                "reads of {read}"
            );
        }
        // A line of exactly the cap passes.
        let exact = format!("{}\n", "z".repeat(1000));
        assert_eq!(
            lines(exact.as_bytes(), 1000, 300),
            vec![Ok("z".repeat(1000))]
        );
    }
}
