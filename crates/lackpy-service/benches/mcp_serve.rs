//! `lackpy mcp serve` as a client sees it: the real binary as a child
//! process, our rmcp client, round trips over stdio and streamable HTTP.
//!
//! ```text
//! cargo build --release -p lackpy-mcp-client --example mcp_test_server
//! cargo bench -p lackpy-service --bench mcp_serve
//! ```
//!
//! * `trivial/{stdio,http}`: one `run_program` of `1` (the issue's goals:
//!   ≤ 0.1 ms over stdio, ≤ 0.3 ms over HTTP, release build);
//! * `slow50_x64_8_sessions`: 64 programs at once over 8 HTTP sessions,
//!   each calling the test server's `slow(50)` (goal ≤ 0.3 s); skipped
//!   when the test server is not built.
//!
//! The idle server's RSS (goal < 20 MB) is printed to stderr at the end.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;

use criterion::Criterion;
use rmcp::model::{CallToolRequestParams, ClientConfig, Implementation, ProtocolVersion};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

type Client = RunningService<RoleClient, ClientConfig>;

fn info() -> ClientConfig {
    let mut info = ClientConfig::default();
    info.client_info = Implementation::new("lackpy-bench", "0");
    info.protocol_version = ProtocolVersion::LATEST_WITH_INITIALIZE;
    info
}

fn test_server() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let target = exe.parent()?.parent()?.parent()?.to_path_buf();
    ["release", "debug"]
        .iter()
        .map(|p| target.join(p).join("examples/mcp_test_server"))
        .find(|p| p.is_file())
}

fn serve(ws: &Path, args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_lackpy"))
        .args(["mcp", "serve", "--workspace"])
        .arg(ws)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("lackpy mcp serve")
}

async fn stdio(child: &mut Child) -> Client {
    let out = child.stdout.take().unwrap();
    let inp = child.stdin.take().unwrap();
    info()
        .serve_with_lifecycle((out, inp), ClientLifecycleMode::Initialize)
        .await
        .unwrap()
}

async fn http(ws: &Path) -> (Child, String) {
    let mut child = serve(ws, &["--http", "127.0.0.1:0"]);
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let addr = loop {
        let line = lines.next_line().await.unwrap().expect("address line");
        if let Some(rest) = line.split("listening on http://").nth(1) {
            break rest.trim_end_matches("/mcp").to_string();
        }
    };
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    (child, addr)
}

async fn http_client(addr: &str) -> Client {
    let t = StreamableHttpClientTransport::from_uri(format!("http://{addr}/mcp"));
    info()
        .serve_with_lifecycle(t, ClientLifecycleMode::Initialize)
        .await
        .unwrap()
}

async fn run(client: &Client, program: &str) -> Value {
    let Value::Object(args) = json!({ "program": program }) else {
        unreachable!()
    };
    let r = client
        .call_tool(CallToolRequestParams::new("run_program").with_arguments(args))
        .await
        .unwrap();
    let v = r.structured_content.unwrap();
    assert_eq!(v["success"], true, "{v}");
    v
}

fn rss_kb(pid: u32) -> String {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmRSS")).map(String::from))
        .unwrap_or_default()
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let ws = tempfile::tempdir().unwrap();
    std::fs::create_dir(ws.path().join(".lackpy")).unwrap();
    let server = test_server();
    if let Some(s) = &server {
        std::fs::write(
            ws.path().join(".lackpy/config.toml"),
            format!(
                "[mcp_servers.ours]\ncommand = {:?}\n",
                s.display().to_string()
            ),
        )
        .unwrap();
    }
    let (mut stdio_child, stdio_client, mut http_child, addr, http_one) = rt.block_on(async {
        let mut child = serve(ws.path(), &[]);
        let client = stdio(&mut child).await;
        let (h, addr) = http(ws.path()).await;
        let one = http_client(&addr).await;
        (child, client, h, addr, one)
    });
    let idle = format!(
        "idle stdio server {}; idle http server {}",
        rss_kb(stdio_child.id().unwrap_or(0)),
        rss_kb(http_child.id().unwrap_or(0))
    );
    let mut g = c.benchmark_group("trivial");
    g.bench_function("stdio", |b| b.iter(|| rt.block_on(run(&stdio_client, "1"))));
    g.bench_function("http", |b| b.iter(|| rt.block_on(run(&http_one, "1"))));
    g.finish();
    if server.is_some() {
        let sessions: Vec<Arc<Client>> = rt.block_on(async {
            let mut v = Vec::new();
            for _ in 0..8 {
                v.push(Arc::new(http_client(&addr).await));
            }
            v
        });
        let mut g = c.benchmark_group("concurrent");
        g.sample_size(10);
        g.bench_function("slow50_x64_8_sessions", |b| {
            b.iter(|| {
                let sessions = sessions.clone();
                rt.block_on(async move {
                    let calls: Vec<_> = (0..64)
                        .map(|i| {
                            let s = Arc::clone(&sessions[i % 8]);
                            tokio::spawn(async move { run(&s, "slow(50)").await })
                        })
                        .collect();
                    for call in calls {
                        call.await.unwrap();
                    }
                })
            })
        });
        g.finish();
    } else {
        eprintln!("concurrent case skipped: build the mcp_test_server example");
    }
    eprintln!("{idle}");
    let _ = stdio_child.start_kill();
    let _ = http_child.start_kill();
    c.final_summary();
}
