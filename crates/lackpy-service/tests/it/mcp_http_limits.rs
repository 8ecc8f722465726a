//! `lackpy mcp serve --http` under greedy, slow, vanishing and malformed
//! clients, driven by raw HTTP over TCP (so that nothing between the test
//! and the server fixes a request up): sessions are bounded, slow headers
//! and bodies are timed out, a run whose client went away stops, and a
//! malformed request gets its exact status and JSON-RPC error.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use crate::mcp_serve_support::*;
use serde_json::{Value, json};

/// Sends `request` as is and reads the answer until the server closes
/// the connection or `limit` passes: (status, head, body).
fn exchange(addr: &str, request: &[u8], limit: Duration) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(limit)).ok();
    s.write_all(request).expect("write");
    let mut buf = Vec::new();
    let _ = s.read_to_end(&mut buf);
    let text = String::from_utf8_lossy(&buf).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let code = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (code, head.to_string(), body.to_string())
}

/// A POST of `body` to `target` with `extra` header lines, closing after.
fn post_request(target: &str, extra: &str, body: &str) -> Vec<u8> {
    format!(
        "POST {target} HTTP/1.1\r\n{extra}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Protocol-Version: 2025-06-18\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// POSTs `body` to /mcp on `localhost` (in `session` when given).
fn post(addr: &str, session: Option<&str>, body: &str) -> (u16, String, String) {
    let extra = match session {
        Some(id) => format!("Host: localhost\r\nMcp-Session-Id: {id}\r\n"),
        None => "Host: localhost\r\n".to_string(),
    };
    exchange(
        addr,
        &post_request("/mcp", &extra, body),
        Duration::from_secs(10),
    )
}

/// The session id of an `initialize` answer's head.
fn session_of(head: &str) -> String {
    head.lines()
        .find_map(|l| {
            l.split_once(':')
                .filter(|(k, _)| k.eq_ignore_ascii_case("mcp-session-id"))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| panic!("no session id: {head}"))
}

/// Opens a session: its id.
fn open(addr: &str) -> String {
    let (code, head, body) = post(addr, None, INITIALIZE);
    assert_eq!(code, 200, "{head}\n{body}");
    let id = session_of(&head);
    let (code, head, _) = post(
        addr,
        Some(&id),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    );
    assert_eq!(code, 202, "{head}");
    id
}

const LIST: &str = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;

/// Whether `session` is still open (a request in it is not 404).
fn live(addr: &str, session: &str) -> bool {
    let (code, head, _) = post(addr, Some(session), LIST);
    assert!(code == 200 || code == 404, "{head}");
    code == 200
}

/// A workspace whose `nap` command tool writes its pid to `nap.pid`, then
/// sleeps 30 s.
fn nap_workspace(extra: &str) -> tempfile::TempDir {
    let ws = workspace(&format!(
        "{extra}\n[[tools]]\nname = \"nap\"\nprovider = \"command\"\ncommand = [\"./nap.sh\"]\n"
    ));
    let script = ws.path().join("nap.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\necho $$ > nap.pid.tmp\nmv nap.pid.tmp nap.pid\nexec sleep 30\n",
    )
    .expect("script");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    ws
}

/// The pid `nap` wrote, once it has.
async fn nap_pid(ws: &std::path::Path) -> u32 {
    let file = ws.join("nap.pid");
    assert!(
        eventually(Duration::from_secs(10), || file.exists()).await,
        "the nap tool started"
    );
    std::fs::read_to_string(&file)
        .expect("pid file")
        .trim()
        .parse()
        .expect("a pid")
}

fn call_nap(id: u64) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": "run_program", "arguments": {"program": "nap()"}}})
    .to_string()
}

/// Starts `call` in `session` on a connection of its own and returns the
/// connection once the answer's head has arrived (the run is in flight).
fn start(addr: &str, session: &str, call: &str) -> TcpStream {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(10))).ok();
    let extra = format!("Host: localhost\r\nMcp-Session-Id: {session}\r\n");
    s.write_all(&post_request("/mcp", &extra, call))
        .expect("write");
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match s.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => panic!("no answer head: {}", String::from_utf8_lossy(&head)),
        }
    }
    assert!(head.starts_with(b"HTTP/1.1 200"), "{head:?}");
    s
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_are_bounded_and_the_least_recently_used_idle_one_goes() {
    let ws = nap_workspace("[server]\nmax_sessions = 3\n");
    let (mut child, addr) = spawn_http(ws.path(), &[], &[]).await;
    let a = open(&addr);
    let b = open(&addr);
    let c = open(&addr);
    // An initialize refused by the Host check closes no session.
    let evil = exchange(
        &addr,
        &post_request("/mcp", "Host: evil.example\r\n", INITIALIZE),
        Duration::from_secs(10),
    );
    assert_eq!(evil.0, 403, "{}", evil.1);
    // `a` is used again: `b` is now the least recently used.
    assert!(live(&addr, &a));
    let d = open(&addr);
    assert!(!live(&addr, &b), "the least recently used session was kept");
    assert!(live(&addr, &a) && live(&addr, &c) && live(&addr, &d));
    // Sessions with a run in flight are not idle: with all three busy, an
    // initialize is refused with 503 and a JSON-RPC error.
    let runs: Vec<TcpStream> = [&a, &c, &d]
        .iter()
        .enumerate()
        .map(|(i, s)| start(&addr, s, &call_nap(10 + i as u64)))
        .collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (code, head, body) = post(&addr, None, INITIALIZE);
    assert_eq!(code, 503, "{head}\n{body}");
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: application/json"),
        "{head}"
    );
    let error: Value = serde_json::from_str(&body).expect("a JSON-RPC error body");
    assert_eq!(error["jsonrpc"], "2.0", "{body}");
    assert_eq!(error["id"], 1, "{body}");
    assert_eq!(error["error"]["code"], -32000, "{body}");
    let message = error["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("max_sessions"), "{body}");
    assert!(live(&addr, &a) && live(&addr, &c) && live(&addr, &d));
    drop(runs);
    let _ = child.start_kill();
}

/// A session waiting on a model (a `generate` in flight) is not idle
/// either: with `max_sessions = 1` a new `initialize` is refused, not
/// answered by closing the waiting session.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_waiting_on_generate_is_not_idle() {
    use crate::common::chat_server::{ChatServer, Reply};
    let model = ChatServer::start(vec![Reply::Hang]);
    let ws = workspace(&format!(
        "[server]\nmax_sessions = 1\n[inference]\norder = [\"local\"]\n\
         [inference.providers.local]\nbase_url = \"{}\"\nmodel = \"m\"\ntimeout_ms = 30000\n",
        model.base_url()
    ));
    let (mut child, addr) = spawn_http(ws.path(), &[], &[]).await;
    let a = open(&addr);
    let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                      "params": {"name": "generate", "arguments": {"intent": "count the files"}}})
    .to_string();
    let pending = start(&addr, &a, &call);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (code, head, body) = post(&addr, None, INITIALIZE);
    assert_eq!(code, 503, "{head}\n{body}");
    assert!(
        live(&addr, &a),
        "the session waiting on its model was closed"
    );
    drop(pending);
    let _ = child.start_kill();
}

/// A `run_program` call whose answer carries a string of `n` characters.
fn call_big(id: u64, n: usize) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": "run_program", "arguments": {"program": format!("'x' * {n}")}}})
    .to_string()
}

/// A session's memory is its fixed part: rmcp 3.11 closes a request's
/// answer stream, cache included, once the answer is sent, so answers are
/// not kept per session and large ones do not add up across sessions. (A
/// version of rmcp that kept them for resumption would hold every
/// session's last answers: this test is there to notice.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn large_answers_are_not_kept_by_their_sessions() {
    let ws = workspace("[server]\nmax_sessions = 1000\n");
    let (mut child, addr) = spawn_http(ws.path(), &[], &[]).await;
    let pid = child.id().expect("pid");
    let mut answered = 0;
    let mut first = 0;
    for i in 0..24 {
        let id = open(&addr);
        let (code, _, body) = post(&addr, Some(&id), &call_big(3, 400_000));
        assert_eq!(code, 200);
        answered += body.len();
        if i == 3 {
            first = rss_kib(pid);
        }
    }
    let after = rss_kib(pid);
    eprintln!(
        "RSS {first} KiB after 4 sessions, {after} KiB after 24; {} MiB of answers",
        answered >> 20
    );
    // 20 more answers of 2.4 MB each would add 48 MiB if kept.
    assert!(answered > 48 << 20, "the answers are smaller than planned");
    assert!(
        after < first + 16 * 1024,
        "sessions keep their answers: {first} KiB -> {after} KiB"
    );
    let _ = child.start_kill();
}

/// Resident memory of `pid`, KiB.
fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.split_whitespace().next())
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

/// A flood of `initialize` requests keeps the server's memory flat: past
/// `max_sessions` the oldest idle sessions are closed. Prints RSS (run
/// with `--nocapture` to see it; `LACKPY_FLOOD` sets the count).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_initialize_requests_stays_bounded() {
    let ws = workspace("[server]\nmax_sessions = 64\n");
    let (mut child, addr) = spawn_http(ws.path(), &[], &[]).await;
    let pid = child.id().expect("pid");
    let flood: usize = std::env::var("LACKPY_FLOOD")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let before = rss_kib(pid);
    let started = Instant::now();
    let mut at_cap = 0;
    for i in 0..flood {
        let (code, head, _) = post(&addr, None, INITIALIZE);
        assert_eq!(code, 200, "initialize {i}: {head}");
        if i == 64 {
            at_cap = rss_kib(pid);
        }
    }
    let after = rss_kib(pid);
    eprintln!(
        "RSS: {before} KiB at start, {at_cap} KiB at 64 sessions, {after} KiB after {flood} initialize requests ({:?})",
        started.elapsed()
    );
    // Unbounded, each session kept tens of KiB: 1000 of them would add
    // tens of MiB.
    assert!(
        after < at_cap + 16 * 1024,
        "memory grew with the flood: {at_cap} KiB -> {after} KiB"
    );
    let _ = child.start_kill();
}

#[tokio::test]
async fn malformed_requests_get_their_status_and_jsonrpc_error() {
    let ws = workspace("");
    let (mut child, addr) = spawn_http(ws.path(), &[], &[]).await;
    let port = addr.rsplit(':').next().unwrap_or_default().to_string();
    let host = format!("Host: localhost:{port}\r\n");
    let send = |req: Vec<u8>| exchange(&addr, &req, Duration::from_secs(10));
    let rpc = |body: &str| send(post_request("/mcp", &host, body));
    for (body, want) in [
        ("{", -32700),
        ("", -32700),
        ("{\"jsonrpc\":\"2.0\",", -32700),
        ("[]", -32600),
        ("42", -32600),
        (r#"{"jsonrpc":"2.0"}"#, -32600),
        (r#"{"id":1,"method":"ping"}"#, -32600),
    ] {
        let (code, head, text) = rpc(body);
        assert_eq!(code, 400, "{body:?}: {head}\n{text}");
        let v: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{body:?}: not JSON ({e}): {text}"));
        assert_eq!(v["error"]["code"], want, "{body:?}: {text}");
        assert_eq!(v["jsonrpc"], "2.0", "{text}");
    }
    // A well-formed one still passes.
    assert_eq!(rpc(INITIALIZE).0, 200);
    // Only /mcp is served.
    for target in ["/", "/mcp/", "/other", "/mcpx", "/.well-known/x"] {
        let (code, head, _) = send(post_request(target, &host, INITIALIZE));
        assert_eq!(code, 404, "{target}: {head}");
    }
    let get = |target: &str, headers: &str| {
        send(format!("GET {target} HTTP/1.1\r\n{headers}Connection: close\r\n\r\n").into_bytes())
    };
    assert_eq!(get("/", &host).0, 404);
    // Two Host headers, or an absolute-form target naming another host.
    let two = format!("{host}Host: evil.example\r\n");
    assert_eq!(send(post_request("/mcp", &two, INITIALIZE)).0, 400);
    let (code, head, _) = send(post_request("http://evil.example/mcp", &host, INITIALIZE));
    assert_eq!(code, 400, "{head}");
    let own = format!("http://localhost:{port}/mcp");
    assert_eq!(send(post_request(&own, &host, INITIALIZE)).0, 200);
    let _ = child.start_kill();
}

/// Opens a connection and sends `bytes` (a request cut short), keeping it.
fn half_sent(addr: &str, bytes: &[u8]) -> TcpStream {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.write_all(bytes).expect("write");
    s
}

/// Reads `s` to its end: the time the server took to close it and what it
/// wrote.
fn until_closed(mut s: TcpStream, limit: Duration) -> (Duration, String) {
    let started = Instant::now();
    s.set_read_timeout(Some(limit)).ok();
    let mut buf = Vec::new();
    let _ = s.read_to_end(&mut buf);
    (
        started.elapsed(),
        String::from_utf8_lossy(&buf).into_owned(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_sent_headers_do_not_stop_an_ordinary_request_and_are_closed() {
    let ws = workspace("");
    let (mut child, addr) = spawn_http(ws.path(), &["--header-timeout-ms", "1500"], &[]).await;
    let slow: Vec<TcpStream> = (0..150)
        .map(|_| half_sent(&addr, b"POST /mcp HTTP/1.1\r\nHost: local"))
        .collect();
    let started = Instant::now();
    let (code, head, _) = post(&addr, None, INITIALIZE);
    assert_eq!(code, 200, "{head}");
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "an ordinary request waited {:?}",
        started.elapsed()
    );
    // Each half-sent head is closed after the header timeout.
    let (took, _) = until_closed(
        slow.into_iter().next().expect("a connection"),
        Duration::from_secs(10),
    );
    assert!(
        took < Duration::from_secs(4),
        "a half-sent head stayed open {took:?}"
    );
    // A connection that sends nothing is closed too.
    let (took, _) = until_closed(half_sent(&addr, b""), Duration::from_secs(10));
    assert!(
        (Duration::from_millis(1000)..Duration::from_secs(4)).contains(&took),
        "an idle connection was closed after {took:?}"
    );
    let _ = child.start_kill();
}

#[tokio::test]
async fn a_half_sent_body_is_closed_after_the_timeout() {
    let ws = workspace("[server]\nheader_timeout_ms = 800\n");
    let (mut child, addr) = spawn_http(ws.path(), &[], &[]).await;
    let head = "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 90000\r\n\r\n{";
    let (took, answer) = until_closed(half_sent(&addr, head.as_bytes()), Duration::from_secs(20));
    assert!(
        (Duration::from_millis(700)..Duration::from_secs(4)).contains(&took),
        "a 90000-byte body (1 byte sent) was closed after {took:?}: {answer}"
    );
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    let _ = child.start_kill();
}

/// CPU time (user + system) of `pid` so far, in clock ticks.
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name (which is in parentheses): utime and
    // stime are the 12th and 13th.
    let rest = stat.rsplit(") ").next().unwrap_or_default();
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let field = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    field(11) + field(12)
}

/// Under a small open-file limit (`ulimit -n 128`, so the connection cap
/// is 64), 300 connections that send half a head neither take the
/// server's last descriptors nor delay an ordinary request, and the
/// server does not spin on `accept`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn under_a_small_open_file_limit_half_sent_heads_do_not_stop_service() {
    let ws = workspace("");
    let mut cmd = tokio::process::Command::new("sh");
    cmd.arg("-c")
        .arg("ulimit -n 128 && exec \"$0\" mcp serve --workspace \"$1\" --http 127.0.0.1:0")
        .arg(env!("CARGO_BIN_EXE_lackpy"))
        .arg(ws.path())
        .env_remove("RUST_LOG")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true);
    let (mut child, addr) = listening(cmd.spawn().expect("sh starts")).await;
    let pid = child.id().expect("pid");
    let slow: Vec<TcpStream> = (0..300)
        .map(|_| half_sent(&addr, b"POST /mcp HTTP/1.1\r\nHost: local"))
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    let (code, head, _) = post(&addr, None, INITIALIZE);
    assert_eq!(code, 200, "{head}");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "an ordinary request waited {:?}",
        started.elapsed()
    );
    // With the flood still open, a second of waiting costs the server
    // almost no CPU (no accept loop retrying EMFILE).
    let before = cpu_ticks(pid);
    std::thread::sleep(Duration::from_secs(1));
    let spent = cpu_ticks(pid).saturating_sub(before);
    assert!(spent < 30, "{spent} ticks of CPU in one idle second");
    drop(slow);
    let _ = child.start_kill();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_the_cap_half_sent_heads_give_way_to_a_whole_request() {
    let ws = workspace("[server]\nmax_connections = 4\n");
    let (mut child, addr) = spawn_http(ws.path(), &[], &[]).await;
    let slow: Vec<TcpStream> = (0..12)
        .map(|_| half_sent(&addr, b"POST /mcp HTTP/1.1\r\n"))
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    let started = Instant::now();
    let (code, head, _) = post(&addr, None, INITIALIZE);
    assert_eq!(code, 200, "{head}");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "an ordinary request waited {:?} behind half-sent heads",
        started.elapsed()
    );
    drop(slow);
    let _ = child.start_kill();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_cap_a_connection_waits_for_a_busy_one_to_close() {
    let ws = nap_workspace("[server]\nmax_connections = 2\n");
    let (mut child, addr) = spawn_http(ws.path(), &[], &[]).await;
    let session = open(&addr);
    let first = start(&addr, &session, &call_nap(20));
    let _second = start(&addr, &session, &call_nap(21));
    // Both places hold a request in flight: a third connection is not
    // served, and not refused either.
    let waiting = {
        let addr = addr.clone();
        std::thread::spawn(move || {
            let (code, _, _) = post(&addr, None, INITIALIZE);
            (code, Instant::now())
        })
    };
    std::thread::sleep(Duration::from_millis(800));
    assert!(
        !waiting.is_finished(),
        "a connection past the cap was served"
    );
    let freed = Instant::now();
    drop(first);
    let (code, answered) = waiting.join().expect("the waiting client");
    assert_eq!(code, 200);
    assert!(
        answered.duration_since(freed) < Duration::from_secs(2),
        "served {:?} after a place was freed",
        answered.duration_since(freed)
    );
    let _ = child.start_kill();
}

/// Waits up to `limit` for `pid` to be gone: how long it took.
async fn gone_within(pid: u32, limit: Duration) -> Option<Duration> {
    let started = Instant::now();
    eventually(limit, || !alive(pid))
        .await
        .then(|| started.elapsed())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_disconnects_mid_run_has_its_run_cancelled() {
    let ws = nap_workspace("[server]\nmax_concurrent_runs = 1\nmax_queued_runs = 0\n");
    let (mut child, addr) = spawn_http(ws.path(), &[], &[]).await;
    let session = open(&addr);
    let stream = start(&addr, &session, &call_nap(5));
    let pid = nap_pid(ws.path()).await;
    assert!(alive(pid));
    // The client goes away: its connection closes.
    drop(stream);
    let took = gone_within(pid, Duration::from_secs(5)).await;
    assert!(
        took.is_some_and(|t| t < Duration::from_millis(500)),
        "the command tool outlived its client: {took:?}"
    );
    // The only place is free again at once: the next run is admitted.
    let (code, head, body) = post(
        &addr,
        Some(&session),
        &json!({"jsonrpc": "2.0", "id": 6, "method": "tools/call",
                "params": {"name": "run_program", "arguments": {"program": "1 + 1"}}})
        .to_string(),
    );
    assert_eq!(code, 200, "{head}");
    assert!(
        body.contains(r#"\"success\": true"#) || body.contains(r#""success":true"#),
        "the next run was not admitted: {body}"
    );
    let _ = child.start_kill();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stdin_closing_mid_run_cancels_the_run() {
    let ws = nap_workspace("");
    let mut child = spawn_serve(ws.path(), &[], &[]);
    let client = stdio_client(&mut child, initialize()).await;
    let _pending = start_call(client.peer(), "run_program", json!({"program": "nap()"})).await;
    let pid = nap_pid(ws.path()).await;
    assert!(alive(pid));
    drop(client);
    let took = gone_within(pid, Duration::from_secs(5)).await;
    assert!(
        took.is_some_and(|t| t < Duration::from_millis(500)),
        "the command tool outlived stdin: {took:?}"
    );
    let _ = child.start_kill();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_longer_than_the_header_timeout_is_answered() {
    let ws = workspace(&with_test_server(""));
    let (mut child, addr) = spawn_http(ws.path(), &["--header-timeout-ms", "300"], &[]).await;
    let session = open(&addr);
    let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                      "params": {"name": "run_program", "arguments": {"program": "slow(1500)"}}});
    let started = Instant::now();
    let (code, head, body) = post(&addr, Some(&session), &call.to_string());
    assert_eq!(code, 200, "{head}");
    assert!(started.elapsed() >= Duration::from_millis(1500));
    assert!(body.contains("slept 1500 ms"), "{body}");
    let _ = child.start_kill();
}
