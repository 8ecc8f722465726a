//! `lackpy mcp serve` as a client sees it: the real binary as a child
//! process, driven by bare clients so that the numbers are the server's.
//!
//! ```text
//! cargo build --release -p lackpy-test-support --example mcp_test_server
//! crates/lackpy-service/benches/compare/lackpy_ref.sh   # optional: lackpy 0.15.1 beside us
//! cargo bench -p lackpy-service --bench mcp_serve
//! ```
//!
//! * `trivial/stdio/*`: one `run_program` of `1 + 1`, raw JSON-RPC lines
//!   written to the server's stdin and read from its stdout, one request
//!   at a time (goal ≤ 0.1 ms, release build);
//! * `trivial/http/lackpy`: the same as raw HTTP/1.1 POSTs on one
//!   keep-alive connection, carrying the session header (goal ≤ 0.3 ms);
//!   `trivial/http_reqwest/lackpy`: the same through reqwest driven by
//!   `block_on` on a tokio runtime, to show what a stock async client adds;
//! * `concurrent/slow50_x64_stdio/*`: 64 programs written at once on one
//!   stdio session, each calling the test server's `slow(50)`;
//!   `concurrent/slow50_x64_8_sessions/lackpy`: the same spread over 8 HTTP
//!   sessions (goal ≤ 0.3 s); skipped when the test server is not built.
//!
//! `*` is `lackpy` (ours) and `lackpy-0.15.1` (the Python reference's
//! `lackpy-mcp`, stdio only, from `target/lackpy-ref/venv` or
//! `$LACKPY_REF_MCP`; skipped when absent). After criterion's runs each
//! case is timed again on both servers (per-call medians of alternating
//! rounds) and one table is printed: case, ours, lackpy 0.15.1, ratio; then
//! the idle servers' RSS (goal < 20 MB).
//!
//! Measured (release, 2 shared cores, load average 1–6, nine runs): trivial
//! `run_program` over stdio 0.047–0.129 ms a call (median) against lackpy
//! 0.15.1's 1.6–4.5 ms; over HTTP 0.116–0.225 ms with the bare client
//! (0.139–0.268 ms before answers left in one write) and 0.228–0.316 ms
//! through reqwest (0.283–0.365 ms before); 64 concurrent `slow(50)` 60–66
//! ms on one stdio session (lackpy 0.15.1: 3.45–3.65 s, one at a time) and
//! 65–73 ms over 8 HTTP sessions; idle RSS 14.6–16.6 MB (lackpy 0.15.1: 59
//! MB). On this machine one binary's figures move by up to 2x from run to
//! run with the other load; compare servers within one run.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use criterion::Criterion;
use serde_json::{Value, json};

/// The protocol version both servers speak.
const PROTOCOL: &str = "2025-06-18";

fn initialize(id: u64) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
        "protocolVersion": PROTOCOL, "capabilities": {},
        "clientInfo": {"name": "lackpy-bench", "version": "0"}}})
    .to_string()
}

const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

/// A `tools/call` of `run_program` with `arguments` (a JSON object's text).
fn call_line(id: u64, arguments: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"run_program","arguments":{arguments}}}}}"#
    )
}

/// Checks a `tools/call` response: a result whose text is a successful run.
fn check(response: &Value) {
    let text = response["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("not a tool result: {response}"));
    let v: Value = serde_json::from_str(text).unwrap_or_else(|_| panic!("not JSON: {text}"));
    assert_eq!(v["success"], true, "{v}");
}

/// A server over stdio spoken to in raw JSON-RPC lines.
struct StdioServer {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next: u64,
    line: String,
}

impl StdioServer {
    fn start(mut command: Command) -> StdioServer {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("server");
        let mut s = StdioServer {
            stdin: child.stdin.take().unwrap(),
            stdout: BufReader::new(child.stdout.take().unwrap()),
            child,
            next: 1,
            line: String::new(),
        };
        s.send(&initialize(0));
        s.receive(1);
        s.send(INITIALIZED);
        s
    }

    fn send(&mut self, line: &str) {
        self.stdin.write_all(line.as_bytes()).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Reads `n` responses (notifications and requests are skipped).
    fn receive(&mut self, n: usize) -> Vec<Value> {
        let mut out = Vec::with_capacity(n);
        while out.len() < n {
            self.line.clear();
            assert!(
                self.stdout.read_line(&mut self.line).unwrap() > 0,
                "server closed stdout"
            );
            let v: Value = serde_json::from_str(&self.line).unwrap();
            if v.get("id").is_some() && v.get("method").is_none() {
                out.push(v);
            }
        }
        out
    }

    /// One `run_program` round trip.
    fn call(&mut self, arguments: &str) {
        let id = self.next;
        self.next += 1;
        let line = call_line(id, arguments);
        self.send(&line);
        check(&self.receive(1)[0]);
    }

    /// `n` programs written at once, then their `n` answers.
    fn burst(&mut self, arguments: &str, n: usize) {
        let mut lines = String::new();
        for _ in 0..n {
            lines.push_str(&call_line(self.next, arguments));
            lines.push('\n');
            self.next += 1;
        }
        self.stdin.write_all(lines.as_bytes()).unwrap();
        self.stdin.flush().unwrap();
        for r in self.receive(n) {
            check(&r);
        }
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for StdioServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The JSON-RPC answer in a POST's response body: plain JSON or the
/// `data:` of an SSE stream.
fn answer_in(text: &str) -> Option<Value> {
    std::iter::once(text)
        .chain(text.lines().filter_map(|l| l.strip_prefix("data:")))
        .filter_map(|p| serde_json::from_str::<Value>(p.trim()).ok())
        .find(|v| v.get("id").is_some())
}

/// One streamable HTTP session spoken in raw HTTP/1.1 on one keep-alive
/// connection, one request at a time: the HTTP counterpart of
/// [`StdioServer`]'s raw lines, so that the time measured is the server's.
struct RawHttpSession {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    authority: String,
    path: String,
    session: Option<String>,
    next: u64,
}

impl RawHttpSession {
    fn open(url: &str) -> RawHttpSession {
        let rest = url.strip_prefix("http://").expect("an http:// URL");
        let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        let writer = TcpStream::connect(authority).unwrap();
        writer.set_nodelay(true).unwrap();
        let mut s = RawHttpSession {
            reader: BufReader::new(writer.try_clone().unwrap()),
            writer,
            authority: authority.to_string(),
            path: if path.is_empty() { "/" } else { path }.to_string(),
            session: None,
            next: 1,
        };
        let (headers, _) = s.post(&initialize(0));
        s.session = Some(
            headers
                .iter()
                .find(|(k, _)| k == "mcp-session-id")
                .map(|(_, v)| v.clone())
                .expect("a session id"),
        );
        s.post(INITIALIZED);
        s
    }

    /// POSTs one message; the response's headers (names lowercased) and
    /// body (a `Content-Length` or chunked one).
    fn post(&mut self, body: &str) -> (Vec<(String, String)>, String) {
        let mut request = format!(
            "POST {} HTTP/1.1\r\nHost: {}\r\nAccept: application/json, text/event-stream\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n",
            self.path,
            self.authority,
            body.len()
        );
        if let Some(id) = &self.session {
            request.push_str(&format!(
                "Mcp-Session-Id: {id}\r\nMcp-Protocol-Version: {PROTOCOL}\r\n"
            ));
        }
        request.push_str("\r\n");
        request.push_str(body);
        self.writer.write_all(request.as_bytes()).unwrap();
        let mut line = String::new();
        self.reader.read_line(&mut line).unwrap();
        assert!(line.starts_with("HTTP/1.1 2"), "HTTP status: {line}");
        let mut headers = Vec::new();
        loop {
            line.clear();
            self.reader.read_line(&mut line).unwrap();
            let Some((k, v)) = line.trim_end().split_once(':') else {
                break;
            };
            headers.push((k.to_ascii_lowercase(), v.trim().to_string()));
        }
        let header = |name: &str| headers.iter().find(|(k, _)| k == name).map(|(_, v)| v);
        let mut body = Vec::new();
        if let Some(n) = header("content-length") {
            body.resize(n.parse().unwrap(), 0);
            self.reader.read_exact(&mut body).unwrap();
        } else if header("transfer-encoding").is_some_and(|v| v == "chunked") {
            loop {
                line.clear();
                self.reader.read_line(&mut line).unwrap();
                let n = usize::from_str_radix(line.trim(), 16).unwrap();
                let start = body.len();
                body.resize(start + n + 2, 0);
                self.reader.read_exact(&mut body[start..]).unwrap();
                body.truncate(start + n);
                if n == 0 {
                    break;
                }
            }
        }
        (headers, String::from_utf8(body).unwrap())
    }

    /// One `run_program` round trip.
    fn call(&mut self, arguments: &str) {
        let id = self.next;
        self.next += 1;
        let (_, text) = self.post(&call_line(id, arguments));
        check(&answer_in(&text).expect("an answer"));
    }
}

/// One streamable HTTP session over a keep-alive connection through
/// reqwest: many sessions at once (the concurrent case), and the trivial
/// call as a stock async client sees it.
struct HttpSession {
    client: reqwest::Client,
    url: String,
    session: String,
    next: AtomicU64,
}

impl HttpSession {
    async fn open(url: &str) -> HttpSession {
        let client = reqwest::Client::builder()
            .pool_max_idle_per_host(16)
            .build()
            .unwrap();
        let r = client
            .post(url)
            .header("accept", "application/json, text/event-stream")
            .header("content-type", "application/json")
            .body(initialize(0))
            .send()
            .await
            .unwrap();
        let session = r
            .headers()
            .get("mcp-session-id")
            .expect("a session id")
            .to_str()
            .unwrap()
            .to_string();
        let _ = r.text().await.unwrap();
        let s = HttpSession {
            client,
            url: url.to_string(),
            session,
            next: AtomicU64::new(1),
        };
        s.post(INITIALIZED.to_string()).await;
        s
    }

    /// POSTs one message; the response's JSON-RPC answer if it has one
    /// (plain JSON or the `data:` of an SSE stream).
    async fn post(&self, body: String) -> Option<Value> {
        let text = self
            .client
            .post(&self.url)
            .header("accept", "application/json, text/event-stream")
            .header("content-type", "application/json")
            .header("mcp-session-id", &self.session)
            .header("mcp-protocol-version", PROTOCOL)
            .body(body)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        answer_in(&text)
    }

    async fn call(&self, arguments: &str) {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let r = self
            .post(call_line(id, arguments))
            .await
            .expect("an answer");
        check(&r);
    }
}

fn test_server() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let target = exe.parent()?.parent()?.parent()?.to_path_buf();
    ["release", "debug"]
        .iter()
        .map(|p| target.join(p).join("examples/mcp_test_server"))
        .find(|p| p.is_file())
}

/// lackpy 0.15.1's `lackpy-mcp`, when installed (`compare/lackpy_ref.sh`).
fn reference() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("LACKPY_REF_MCP") {
        return Some(PathBuf::from(p)).filter(|p| p.is_file());
    }
    let exe = std::env::current_exe().ok()?;
    let target = exe.parent()?.parent()?.parent()?.to_path_buf();
    Some(target.join("lackpy-ref/venv/bin/lackpy-mcp")).filter(|p| p.is_file())
}

fn ours(ws: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_lackpy"));
    c.args(["mcp", "serve", "--workspace"]).arg(ws).args(args);
    c
}

fn theirs(exe: &Path, ws: &Path) -> Command {
    let mut c = Command::new(exe);
    c.arg("--workspace").arg(ws).current_dir(ws);
    c
}

/// Our server over HTTP; its address from the line it prints.
fn http_server(ws: &Path) -> (Child, String) {
    let mut child = ours(ws, &["--http", "127.0.0.1:0"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("lackpy mcp serve --http");
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let url = loop {
        let line = lines.next().expect("address line").unwrap();
        if let Some(rest) = line.split("listening on ").nth(1) {
            break rest.trim().to_string();
        }
    };
    std::thread::spawn(move || lines.for_each(drop));
    (child, url)
}

fn rss(pid: u32) -> String {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS"))
                .map(|l| l.trim_start_matches("VmRSS:").trim().to_string())
        })
        .unwrap_or_else(|| "?".into())
}

/// The median of `rounds` timings of `f`, one call each (criterion's
/// figures are means over many calls, which on a loaded machine carry the
/// calls that waited for a core).
fn median(rounds: usize, mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..rounds)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

fn show(d: Option<Duration>) -> String {
    match d {
        None => "-".into(),
        Some(d) if d < Duration::from_millis(10) => format!("{:.3} ms", d.as_secs_f64() * 1e3),
        Some(d) => format!("{:.1} ms", d.as_secs_f64() * 1e3),
    }
}

const TRIVIAL: &str = r#"{"program":"1 + 1"}"#;
/// The reference's default profile (`debug`) needs a kit file: no tools.
const TRIVIAL_THEIRS: &str = r#"{"program":"1 + 1","profile":[]}"#;

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let ws = tempfile::tempdir().unwrap();
    std::fs::create_dir(ws.path().join(".lackpy")).unwrap();
    let test = test_server();
    if let Some(s) = &test {
        std::fs::write(
            ws.path().join(".lackpy/config.toml"),
            format!(
                "[mcp_servers.ours]\ncommand = {:?}\n",
                s.display().to_string()
            ),
        )
        .unwrap();
    }
    // The test server's tool as each server names it.
    let slow_ours = r#"{"program":"slow(50)","tools":["slow"]}"#;
    let slow_theirs = r#"{"program":"slow(50)","profile":["slow"]}"#;

    let mut stdio = StdioServer::start(ours(ws.path(), &[]));
    let mut reference = reference().map(|exe| StdioServer::start(theirs(&exe, ws.path())));
    if reference.is_none() {
        eprintln!("lackpy 0.15.1 skipped: run benches/compare/lackpy_ref.sh or set LACKPY_REF_MCP");
    }
    let (mut http_child, url) = http_server(ws.path());
    let mut http_raw = RawHttpSession::open(&url);
    let http_one = rt.block_on(HttpSession::open(&url));
    let idle = format!(
        "idle RSS: lackpy stdio {}, lackpy http {}, lackpy 0.15.1 stdio {}",
        rss(stdio.pid()),
        rss(http_child.id()),
        reference.as_ref().map_or("-".into(), |r| rss(r.pid()))
    );

    let mut g = c.benchmark_group("trivial");
    g.bench_function("stdio/lackpy", |b| b.iter(|| stdio.call(TRIVIAL)));
    if let Some(r) = reference.as_mut() {
        g.bench_function("stdio/lackpy-0.15.1", |b| b.iter(|| r.call(TRIVIAL_THEIRS)));
    }
    g.bench_function("http/lackpy", |b| b.iter(|| http_raw.call(TRIVIAL)));
    g.bench_function("http_reqwest/lackpy", |b| {
        b.iter(|| rt.block_on(http_one.call(TRIVIAL)))
    });
    g.finish();

    let sessions: Vec<Arc<HttpSession>> = rt.block_on(async {
        let mut v = Vec::new();
        for _ in 0..8 {
            v.push(Arc::new(HttpSession::open(&url).await));
        }
        v
    });
    let http_burst = |n: usize| {
        let sessions = sessions.clone();
        rt.block_on(async move {
            let calls: Vec<_> = (0..n)
                .map(|i| {
                    let s = Arc::clone(&sessions[i % sessions.len()]);
                    tokio::spawn(async move { s.call(slow_ours).await })
                })
                .collect();
            for call in calls {
                call.await.unwrap();
            }
        })
    };
    if test.is_some() {
        let mut g = c.benchmark_group("concurrent");
        g.sample_size(10);
        g.bench_function("slow50_x64_stdio/lackpy", |b| {
            b.iter(|| stdio.burst(slow_ours, 64))
        });
        if let Some(r) = reference.as_mut() {
            g.bench_function("slow50_x64_stdio/lackpy-0.15.1", |b| {
                b.iter(|| r.burst(slow_theirs, 64))
            });
        }
        g.bench_function("slow50_x64_8_sessions/lackpy", |b| {
            b.iter(|| http_burst(64))
        });
        g.finish();
    } else {
        eprintln!("concurrent cases skipped: build the mcp_test_server example");
    }

    // One table, both servers timed in the same run.
    let mut rows: Vec<(&str, Option<Duration>, Option<Duration>)> = Vec::new();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for _ in 0..5 {
        a.push(median(200, || stdio.call(TRIVIAL)));
        if let Some(r) = reference.as_mut() {
            b.push(median(50, || r.call(TRIVIAL_THEIRS)));
        }
    }
    rows.push(("trivial run_program, stdio", mid(a), mid(b)));
    // The bare client and reqwest in alternating rounds, as above.
    let (mut raw, mut stock) = (Vec::new(), Vec::new());
    for _ in 0..5 {
        raw.push(median(400, || http_raw.call(TRIVIAL)));
        stock.push(median(400, || rt.block_on(http_one.call(TRIVIAL))));
    }
    rows.push(("trivial run_program, HTTP", mid(raw), None));
    rows.push(("trivial run_program, HTTP (reqwest)", mid(stock), None));
    if test.is_some() {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for _ in 0..3 {
            a.push(median(3, || stdio.burst(slow_ours, 64)));
            if let Some(r) = reference.as_mut() {
                b.push(median(1, || r.burst(slow_theirs, 64)));
            }
        }
        rows.push(("64 x slow(50), one stdio session", mid(a), mid(b)));
        rows.push((
            "64 x slow(50), 8 HTTP sessions",
            Some(median(5, || http_burst(64))),
            None,
        ));
    }
    eprintln!(
        "\n{:<36} {:>12} {:>14} {:>8}",
        "case", "lackpy", "lackpy 0.15.1", "ratio"
    );
    for (case, ours, theirs) in rows {
        let ratio = match (ours, theirs) {
            (Some(o), Some(t)) => format!("{:.1}x", t.as_secs_f64() / o.as_secs_f64()),
            _ => "-".into(),
        };
        eprintln!(
            "{case:<36} {:>12} {:>14} {ratio:>8}",
            show(ours),
            show(theirs)
        );
    }
    eprintln!("{idle}");
    let _ = http_child.kill();
    let _ = http_child.wait();
    c.final_summary();
}

/// The median of per-round medians.
fn mid(mut v: Vec<Duration>) -> Option<Duration> {
    v.sort();
    v.get(v.len() / 2).copied()
}
