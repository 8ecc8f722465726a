//! A scripted OpenAI-compatible chat-completions server for the delegation
//! tests: a real HTTP/1.1 server on 127.0.0.1 that answers each
//! `POST …/chat/completions` with the next scripted reply and records every
//! request it receives. `GET /v1/models` (what `lackpy status` asks)
//! answers an empty model list without using a reply; other GETs 404.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

/// One scripted answer.
#[derive(Debug, Clone)]
pub enum Reply {
    /// 200 with a chat completion whose message content is this text.
    Answer(String),
    /// This status with this JSON body (and a `Retry-After`, when given).
    Status(u16, Value, Option<u64>),
    /// Reads the request and never answers (until the server is dropped).
    Hang,
    /// 200 with a body of this many bytes, its length declared
    /// (`Content-Length`) or not (chunked).
    Huge { bytes: usize, declared: bool },
    /// Reads the request and closes the connection without a word.
    Close,
}

impl Reply {
    /// A chat completion answering `text`.
    pub fn answer(text: &str) -> Reply {
        Reply::Answer(text.to_string())
    }
}

/// A request the server received.
#[derive(Debug, Clone)]
pub struct Recorded {
    /// `POST`, `GET`.
    pub method: String,
    /// The request path.
    pub path: String,
    /// Header names (lower-cased) and values.
    pub headers: Vec<(String, String)>,
    /// The body as JSON (`null` when empty or not JSON).
    pub body: Value,
}

impl Recorded {
    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The content of message `i`.
    pub fn message(&self, i: usize) -> &str {
        self.body["messages"][i]["content"].as_str().unwrap_or("")
    }
}

struct Shared {
    replies: Mutex<Vec<Reply>>,
    requests: Mutex<Vec<Recorded>>,
    stop: AtomicBool,
    /// Bytes of huge bodies written before the client hung up.
    huge_written: AtomicUsize,
}

/// The running server; dropping it stops it (hung requests included).
pub struct ChatServer {
    port: u16,
    shared: Arc<Shared>,
}

impl ChatServer {
    /// Starts a server that replays `replies` in order.
    pub fn start(replies: Vec<Reply>) -> ChatServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        listener.set_nonblocking(true).expect("nonblocking");
        let port = listener.local_addr().expect("addr").port();
        let shared = Arc::new(Shared {
            replies: Mutex::new(replies.into_iter().rev().collect()),
            requests: Mutex::new(Vec::new()),
            stop: AtomicBool::new(false),
            huge_written: AtomicUsize::new(0),
        });
        let s = Arc::clone(&shared);
        std::thread::spawn(move || {
            while !s.stop.load(Ordering::SeqCst) {
                match listener.accept() {
                    Ok((stream, _)) => {
                        let s = Arc::clone(&s);
                        std::thread::spawn(move || serve(stream, &s));
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        ChatServer { port, shared }
    }

    /// `http://127.0.0.1:PORT/v1`.
    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}/v1", self.port)
    }

    /// Every chat request received so far, in order.
    pub fn requests(&self) -> Vec<Recorded> {
        self.shared
            .requests
            .lock()
            .map(|r| r.clone())
            .unwrap_or_default()
            .into_iter()
            .filter(|r| r.method == "POST")
            .collect()
    }

    /// Bytes of huge bodies written before the client went away.
    pub fn huge_written(&self) -> usize {
        self.shared.huge_written.load(Ordering::SeqCst)
    }
}

impl Drop for ChatServer {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
    }
}

/// A port nothing listens on (bound, then let go).
pub fn refused_url() -> String {
    let l = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = l.local_addr().expect("addr").port();
    drop(l);
    format!("http://127.0.0.1:{port}/v1")
}

fn serve(stream: TcpStream, shared: &Shared) {
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_read_timeout(Some(Duration::from_secs(30)));
    let mut reader = BufReader::new(match stream.try_clone() {
        Ok(s) => s,
        Err(_) => return,
    });
    let mut out = stream;
    // One request per connection: every answer closes it.
    let Some(request) = read_request(&mut reader) else {
        return;
    };
    let is_chat = request.method == "POST";
    let path = request.path.clone();
    if let Ok(mut r) = shared.requests.lock() {
        r.push(request);
    }
    if !is_chat {
        // As Ollama: the OpenAI-compatible API lives under /v1 only.
        let found = path.starts_with("/v1/");
        let body = if found {
            json!({"object": "list", "data": []})
        } else {
            json!({"error": "404 page not found"})
        };
        let _ = respond(
            &mut out,
            if found { 200 } else { 404 },
            &[],
            body.to_string().as_bytes(),
        );
        return;
    }
    let reply = shared
        .replies
        .lock()
        .ok()
        .and_then(|mut r| r.pop())
        .unwrap_or_else(|| {
            Reply::Status(
                500,
                json!({"error": {"message": "no more scripted replies"}}),
                None,
            )
        });
    match reply {
        Reply::Answer(text) => {
            let body = json!({
                "id": "chatcmpl-test",
                "object": "chat.completion",
                "created": 0,
                "model": "scripted",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            });
            let _ = respond(&mut out, 200, &[], body.to_string().as_bytes());
        }
        Reply::Status(code, body, retry_after) => {
            let headers: Vec<(String, String)> = retry_after
                .map(|s| vec![("Retry-After".to_string(), s.to_string())])
                .unwrap_or_default();
            let _ = respond(&mut out, code, &headers, body.to_string().as_bytes());
        }
        Reply::Hang => {
            while !shared.stop.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        Reply::Huge { bytes, declared } => huge(&mut out, bytes, declared, shared),
        Reply::Close => {}
    }
}

fn read_request(reader: &mut BufReader<TcpStream>) -> Option<Recorded> {
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_string();
    let path = parts.next()?.to_string();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        reader.read_line(&mut h).ok()?;
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    let length: usize = headers
        .iter()
        .find(|(k, _)| k == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0u8; length];
    reader.read_exact(&mut body).ok()?;
    Some(Recorded {
        method,
        path,
        headers,
        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
    })
}

fn respond(
    out: &mut TcpStream,
    code: u16,
    headers: &[(String, String)],
    body: &[u8],
) -> std::io::Result<()> {
    let mut head = format!(
        "HTTP/1.1 {code} Scripted\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    out.write_all(head.as_bytes())?;
    out.write_all(body)?;
    out.flush()
}

/// A 200 whose body is `bytes` long: the start of a chat completion whose
/// content never ends.
fn huge(out: &mut TcpStream, bytes: usize, declared: bool, shared: &Shared) {
    let head = if declared {
        format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {bytes}\r\nConnection: close\r\n\r\n"
        )
    } else {
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n".to_string()
    };
    if out.write_all(head.as_bytes()).is_err() {
        return;
    }
    let chunk = vec![b'a'; 64 * 1024];
    let mut written = 0;
    while written < bytes {
        let n = chunk.len().min(bytes - written);
        let sent = if declared {
            out.write_all(&chunk[..n])
        } else {
            out.write_all(format!("{n:x}\r\n").as_bytes())
                .and_then(|()| out.write_all(&chunk[..n]))
                .and_then(|()| out.write_all(b"\r\n"))
        };
        if sent.is_err() {
            break;
        }
        written += n;
        shared.huge_written.store(written, Ordering::SeqCst);
    }
    if !declared && written >= bytes {
        let _ = out.write_all(b"0\r\n\r\n");
    }
}
