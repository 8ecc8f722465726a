//! Driving a real `lackpy mcp serve` child process with our own rmcp client,
//! over stdio or streamable HTTP.

#![allow(dead_code)]

pub use crate::common::chat_server;
pub use crate::common::procs::{alive, descendants};
use crate::common::test_server::mcp_test_server;

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rmcp::ClientHandler;
use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResult, ClientConfig, ClientRequest,
    Implementation, ProgressNotificationParam, ProtocolVersion,
};
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, NotificationContext, Peer, PeerRequestOptions,
    RequestHandle, RoleClient, RunningService,
};
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// A client that records the progress messages it hears, and counts the
/// `notifications/tools/list_changed` it hears.
#[derive(Clone, Default)]
pub struct Recorder {
    pub progress: Arc<Mutex<Vec<String>>>,
    pub list_changed: Arc<std::sync::atomic::AtomicUsize>,
}

impl ClientHandler for Recorder {
    fn get_info(&self) -> ClientConfig {
        let mut info = ClientConfig::default();
        info.client_info = Implementation::new("lackpy-tests", "0");
        info.protocol_version = ProtocolVersion::LATEST_WITH_INITIALIZE;
        info
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        if let Ok(mut p) = self.progress.lock() {
            p.push(params.message.unwrap_or_default());
        }
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.list_changed
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }
}

/// A running client session.
pub type Client = RunningService<RoleClient, Recorder>;

/// The legacy handshake (`initialize`).
pub fn initialize() -> ClientLifecycleMode {
    ClientLifecycleMode::Initialize
}

/// The newer one (`server/discover`, per-request metadata).
pub fn discover() -> ClientLifecycleMode {
    ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::LATEST],
    }
}

/// A workspace with `config` as its `.lackpy/config.toml`.
pub fn workspace(config: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join(".lackpy")).expect("mkdir");
    std::fs::write(dir.path().join(".lackpy/config.toml"), config).expect("config");
    dir
}

/// A config with the test server as the MCP server `ours`.
pub fn with_test_server(extra: &str) -> String {
    format!(
        "[mcp_servers.ours]\ncommand = {:?}\n{extra}",
        mcp_test_server().display().to_string()
    )
}

/// `lackpy mcp serve ARGS --workspace WS` with piped stdio.
pub fn spawn_serve(ws: &Path, args: &[&str], env: &[(&str, &str)]) -> Child {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_lackpy"));
    cmd.args(["mcp", "serve", "--workspace"])
        .arg(ws)
        .args(args)
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.spawn().expect("lackpy mcp serve starts")
}

/// A client over the child's stdio.
pub async fn stdio_client(child: &mut Child, lifecycle: ClientLifecycleMode) -> Client {
    let stdout = child.stdout.take().expect("stdout");
    let stdin = child.stdin.take().expect("stdin");
    if let Some(stderr) = child.stderr.take() {
        tokio::spawn(drain(stderr));
    }
    Recorder::default()
        .serve_with_lifecycle((stdout, stdin), lifecycle)
        .await
        .expect("the MCP handshake over stdio")
}

async fn drain(stderr: tokio::process::ChildStderr) {
    let mut lines = BufReader::new(stderr).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        eprintln!("[lackpy] {line}");
    }
}

/// Starts `lackpy mcp serve --http 127.0.0.1:0 ARGS` and returns the child
/// and its `host:port`.
pub async fn spawn_http(ws: &Path, args: &[&str], env: &[(&str, &str)]) -> (Child, String) {
    let mut all = vec!["--http", "127.0.0.1:0"];
    all.extend_from_slice(args);
    listening(spawn_serve(ws, &all, env)).await
}

/// A started `lackpy mcp serve --http` child (stderr piped) and the
/// address it says it listens on; its later stderr is passed to ours.
pub async fn listening(mut child: Child) -> (Child, String) {
    let stderr = child.stderr.take().expect("stderr");
    let mut lines = BufReader::new(stderr).lines();
    let deadline = Instant::now() + Duration::from_secs(30);
    let addr = loop {
        let line = tokio::time::timeout_at(deadline.into(), lines.next_line())
            .await
            .expect("the server says where it listens")
            .expect("stderr readable")
            .expect("the server printed its address before exiting");
        if let Some(rest) = line.split("listening on http://").nth(1) {
            break rest.trim_end_matches("/mcp").to_string();
        }
    };
    tokio::spawn(async move {
        while let Ok(Some(line)) = lines.next_line().await {
            eprintln!("[lackpy] {line}");
        }
    });
    (child, addr)
}

/// A client over streamable HTTP.
pub async fn http_client(addr: &str, lifecycle: ClientLifecycleMode) -> Client {
    let transport = StreamableHttpClientTransport::from_uri(format!("http://{addr}/mcp"));
    Recorder::default()
        .serve_with_lifecycle(transport, lifecycle)
        .await
        .expect("the MCP handshake over HTTP")
}

/// A client over streamable HTTP, or why it could not connect.
pub async fn http_client_result(addr: &str) -> Result<Client, String> {
    let transport = StreamableHttpClientTransport::from_uri(format!("http://{addr}/mcp"));
    Recorder::default()
        .serve_with_lifecycle(transport, initialize())
        .await
        .map_err(|e| e.to_string())
}

/// Calls `name` with `args` (a JSON object).
pub async fn call(client: &Client, name: &str, args: Value) -> CallToolResult {
    let Value::Object(map) = args else {
        panic!("arguments must be an object")
    };
    client
        .call_tool(CallToolRequestParams::new(name.to_string()).with_arguments(map))
        .await
        .unwrap_or_else(|e| panic!("{name} call failed: {e}"))
}

/// Starts a call of `name` with `args` (a JSON object) and returns its
/// handle at once, so the test can cancel it or let it hang.
pub async fn start_call(
    peer: &Peer<RoleClient>,
    name: &str,
    args: Value,
) -> RequestHandle<RoleClient> {
    let Value::Object(map) = args else {
        panic!("arguments must be an object")
    };
    let request = ClientRequest::CallToolRequest(CallToolRequest::new(
        CallToolRequestParams::new(name.to_string()).with_arguments(map),
    ));
    peer.send_cancellable_request(request, PeerRequestOptions::no_options())
        .await
        .unwrap_or_else(|e| panic!("{name} call not sent: {e}"))
}

/// The structured content, checked equal to the JSON text content.
pub fn structured(r: &CallToolResult) -> Value {
    let s = r
        .structured_content
        .clone()
        .unwrap_or_else(|| panic!("structuredContent missing: {r:?}"));
    let text = r
        .content
        .first()
        .and_then(|c| c.as_text())
        .map(|t| t.text.clone())
        .unwrap_or_else(|| panic!("text content missing: {r:?}"));
    let from_text: Value = serde_json::from_str(&text).expect("the text is JSON");
    assert_eq!(from_text, s, "text and structuredContent differ");
    s
}

/// `run_program` with `program` and extra arguments.
pub async fn run(client: &Client, program: &str, extra: Value) -> Value {
    let mut args = json!({ "program": program });
    if let (Value::Object(a), Value::Object(e)) = (&mut args, extra) {
        a.extend(e);
    }
    let r = call(client, "run_program", args).await;
    assert_ne!(r.is_error, Some(true), "run_program isError: {r:?}");
    structured(&r)
}

/// One raw HTTP/1.1 POST of `body` to `/mcp` with `headers`: the status code.
pub fn raw_post(addr: &str, headers: &[(&str, &str)], body: &str) -> u16 {
    raw_post_head(addr, headers, body).0
}

/// One raw HTTP/1.1 POST: the status code and the response head (status
/// line and headers).
pub fn raw_post_head(addr: &str, headers: &[(&str, &str)], body: &str) -> (u16, String) {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(10))).ok();
    let mut req = format!(
        "POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    s.write_all(req.as_bytes()).expect("write");
    let _ = s.write_all(body.as_bytes());
    // Up to the end of the head: an SSE body may stay open.
    let mut buf = Vec::new();
    let mut byte = [0u8; 1];
    while !buf.ends_with(b"\r\n\r\n") {
        match s.read(&mut byte) {
            Ok(1) => buf.push(byte[0]),
            _ => break,
        }
    }
    let head = String::from_utf8_lossy(&buf).into_owned();
    let code = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status line: {head}"));
    (code, head)
}

/// One raw HTTP/1.1 GET of `path`: the status code and the body (`None`
/// when the connection was refused).
pub fn raw_get(addr: &str, path: &str) -> Option<(u16, String)> {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(10))).ok();
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).ok()?;
    let mut all = Vec::new();
    let _ = s.read_to_end(&mut all);
    let text = String::from_utf8_lossy(&all).into_owned();
    let (head, body) = text.split_once("\r\n\r\n")?;
    let code = head.split_whitespace().nth(1)?.parse().ok()?;
    Some((code, body.to_string()))
}

/// An `initialize` request body.
pub const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;

/// Waits until `cond` holds, up to `limit`.
pub async fn eventually(limit: Duration, mut cond: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if cond() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    cond()
}

/// The program an `#[ignore]`d interop test needs, from the variable that
/// `scripts/install-mcp-clients.sh` exports; missing, the test fails.
pub fn required_program(var: &str) -> PathBuf {
    let path = std::env::var_os(var).map(PathBuf::from).unwrap_or_else(|| {
        panic!("{var} is not set: run `eval \"$(bash scripts/install-mcp-clients.sh)\"`")
    });
    assert!(
        path.is_file(),
        "{var}={} does not exist: run `eval \"$(bash scripts/install-mcp-clients.sh)\"`",
        path.display()
    );
    path
}
