//! A hand-written MCP server, as simple ones are written: no SDK, one
//! reply per request, and `{}` for any method it does not know (which is
//! how it answers `server/discover`). For the client's discover fallback
//! tests.
//!
//! Flags: `--discover JSON` (the result it answers `server/discover`
//! with; default `{}`), `--no-initialize` (answers `initialize` with `{}`
//! too, so no handshake can succeed), `--http` (streamable HTTP on
//! 127.0.0.1, JSON replies; prints `listening on <url>`), stdio
//! otherwise; `--sse-close MS` (HTTP: `tools/call` gets an SSE stream
//! with one event id and `retry: MS` that closes before the answer; the
//! answer comes on the client's `GET` that resumes it, and says after how
//! long and with which `Last-Event-ID`). Its one tool, `seen`, answers with the methods received so
//! far, which shows whether everything came over one connection.
#![forbid(unsafe_code)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;

use serde_json::{Value, json};

struct Server {
    discover: Value,
    sse_close: Option<u64>,
    initialize: bool,
    seen: Vec<String>,
}

impl Server {
    /// The reply to one message, `None` for a notification.
    fn answer(&mut self, message: &Value) -> Option<Value> {
        let method = message.get("method")?.as_str()?.to_string();
        self.seen.push(method.clone());
        let id = message.get("id")?.clone();
        let result = match method.as_str() {
            "initialize" if self.initialize => json!({
                "protocolVersion": "2025-11-25",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "raw", "version": "0.0.1"}
            }),
            "server/discover" => self.discover.clone(),
            "tools/list" => json!({"tools": [{
                "name": "seen",
                "description": "The methods received so far.",
                "inputSchema": {"type": "object", "properties": {}}
            }]}),
            "tools/call" => json!({"content": [{"type": "text", "text": self.seen.join(",")}]}),
            _ => json!({}),
        };
        Some(json!({"jsonrpc": "2.0", "id": id, "result": result}))
    }
}

fn stdio(mut server: Server) {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        if let Some(reply) = server.answer(&message) {
            let _ = writeln!(out, "{reply}");
            let _ = out.flush();
        }
    }
}

/// A tool call waiting for the client to resume its closed stream.
struct Pending {
    id: Value,
    closed: std::time::Instant,
}

fn http(mut server: Server) {
    let mut pending: Option<Pending> = None;
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    println!("listening on http://{}/mcp", listener.local_addr().unwrap());
    let _ = std::io::stdout().flush();
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let mut reader = BufReader::new(stream);
        let mut request_line = String::new();
        if reader.read_line(&mut request_line).is_err() {
            continue;
        }
        let mut length = 0usize;
        let mut last_event_id = None;
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header).is_err() || header.trim().is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().unwrap_or(0);
            }
            if let Some((name, value)) = header.split_once(':')
                && name.eq_ignore_ascii_case("last-event-id")
            {
                last_event_id = Some(value.trim().to_string());
            }
        }
        let mut body = vec![0; length];
        if reader.read_exact(&mut body).is_err() {
            continue;
        }
        let message = serde_json::from_slice::<Value>(&body).unwrap_or_default();
        let mut stream = reader.into_inner();
        if let Some(retry) = server.sse_close {
            if request_line.starts_with("POST") && message["method"] == "tools/call" {
                // The priming event, then a close before the answer.
                server.seen.push("tools/call".to_string());
                let _ = write!(
                    stream,
                    "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nmcp-session-id: raw-1\r\nconnection: close\r\n\r\nid: ev-1\nretry: {retry}\ndata: \n\n"
                );
                pending = Some(Pending {
                    id: message["id"].clone(),
                    closed: std::time::Instant::now(),
                });
                continue;
            }
            if request_line.starts_with("GET")
                && let Some(call) = pending.take()
            {
                let text = format!(
                    "resumed after {} ms with Last-Event-ID {}",
                    call.closed.elapsed().as_millis(),
                    last_event_id.as_deref().unwrap_or("(none)")
                );
                let answer = json!({"jsonrpc": "2.0", "id": call.id,
                    "result": {"content": [{"type": "text", "text": text}]}});
                let _ = write!(
                    stream,
                    "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nmcp-session-id: raw-1\r\nconnection: close\r\n\r\nid: ev-2\ndata: {answer}\n\n"
                );
                continue;
            }
        }
        let (status, reply) = if request_line.starts_with("POST") {
            match server.answer(&message) {
                Some(reply) => ("200 OK", Some(reply.to_string())),
                None if message.is_object() => ("202 Accepted", None),
                None => ("400 Bad Request", None),
            }
        } else if request_line.starts_with("DELETE") {
            ("200 OK", None)
        } else {
            // No standalone SSE stream.
            ("405 Method Not Allowed", None)
        };
        let body = reply.unwrap_or_default();
        let head = format!(
            "HTTP/1.1 {status}\r\ncontent-type: application/json\r\nmcp-session-id: raw-1\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
            body.len()
        );
        let _ = stream.write_all(head.as_bytes());
        let _ = stream.write_all(body.as_bytes());
    }
}

fn main() {
    let mut server = Server {
        discover: json!({}),
        sse_close: None,
        initialize: true,
        seen: Vec::new(),
    };
    let mut over_http = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--discover" => {
                server.discover = serde_json::from_str(&args.next().unwrap()).unwrap();
            }
            "--no-initialize" => server.initialize = false,
            "--http" => over_http = true,
            "--sse-close" => server.sse_close = Some(args.next().unwrap().parse().unwrap()),
            other => panic!("unknown flag {other}"),
        }
    }
    if over_http {
        http(server)
    } else {
        stdio(server)
    }
}
