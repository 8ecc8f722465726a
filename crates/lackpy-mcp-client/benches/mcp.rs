//! MCP client speed, measured through the `Tool` interface against the
//! test server over stdio (build it first: `cargo build --release
//! -p lackpy-test-support --example mcp_test_server`; the debug build is used when it is missing).
//!
//! * `echo_round_trip`: one `echo` call → server → back, sequentially,
//!   awaited by `block_on` on the bench thread (not a runtime worker): the
//!   per-call cost of a trivial tool over stdio.
//! * `echo_from_thread`: the same call the way the bridge makes it: the
//!   tool's future spawned onto the runtime from a plain thread, which
//!   parks until the answer is in.
//! * `floor/*`: the same server program's `tools/call echo` as raw
//!   JSON-RPC lines, without rmcp or lackpy: blocking reads and writes on
//!   the bench thread (`stdio_blocking`, the floor of a stdio round trip)
//!   and tokio pipes awaited by `block_on` like `echo_round_trip`
//!   (`stdio_tokio`, the floor for this threading).
//! * `overlap/*`: eight callers at once on one session vs one after the
//!   other (`slow(10)`), and eight callers of `echo`.
//! * `discovery/*`: ten servers that each take 200 ms to start vs one.
//!
//! After criterion's output a table gives, per call, the wall time, the CPU
//! time of this process and of the server, and context switches, over many
//! calls (CPU from `/proc`, Linux only; other load on the machine disturbs
//! CPU time far less than wall time; `LACKPY_BENCH_TABLE=0` skips it).
//! `LACKPY_BENCH_PROFILE=N` skips criterion and makes N `echo` calls (for
//! `perf record`).
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::hint::black_box;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use lackpy_lang::Data;
use lackpy_mcp_client::{McpClient, McpClientOptions, McpToolSource};
use lackpy_sources::{
    CallContext, McpServerDescriptor, McpTransport, Precedence, Provenance, ToolAnswer, ToolResult,
};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt};

fn server_bin() -> String {
    let exe = std::env::current_exe().expect("exe");
    let target = exe
        .parent()
        .and_then(|d| d.parent())
        .and_then(|d| d.parent())
        .expect("target");
    for profile in ["release", "debug"] {
        let p = target
            .join(profile)
            .join("examples")
            .join("mcp_test_server");
        if p.exists() {
            eprintln!("using {}", p.display());
            return p.display().to_string();
        }
    }
    panic!(
        "build the test server: cargo build --release -p lackpy-test-support --example mcp_test_server"
    );
}

fn descriptor(id: &str, bin: &str, args: &[&str]) -> McpServerDescriptor {
    McpServerDescriptor {
        id: id.to_string(),
        transport: McpTransport::Stdio {
            command: bin.to_string(),
            args: args.iter().map(|a| a.to_string()).collect(),
            env: Vec::new(),
            cwd: None,
        },
        provenance: Provenance::Own,
        precedence: Precedence::MCP,
        connect_timeout: None,
        call_timeout: None,
        include: None,
        exclude: Vec::new(),
        tool_overrides: Vec::new(),
    }
}

async fn call(source: &McpToolSource, tool: &str, args: Vec<Data>, ctx: &CallContext) -> Data {
    let t = source.tool(tool).expect("tool");
    match t.call(args, Vec::new(), ctx) {
        ToolAnswer::Ready(r) => r.expect("call"),
        ToolAnswer::Pending(f) => f.await.expect("call"),
    }
}

/// One call as the bridge makes it from an interpreter thread: the answer's
/// future spawned onto the runtime, this thread parked until it is done.
fn call_from_thread(
    rt: &tokio::runtime::Handle,
    source: &McpToolSource,
    tool: &str,
    args: Vec<Data>,
    ctx: &CallContext,
) -> Data {
    let t = source.tool(tool).expect("tool");
    let fut = match t.call(args, Vec::new(), ctx) {
        ToolAnswer::Ready(r) => return r.expect("call"),
        ToolAnswer::Pending(f) => f,
    };
    let slot: Arc<Mutex<Option<ToolResult>>> = Arc::default();
    let task_slot = Arc::clone(&slot);
    let me = std::thread::current();
    rt.spawn(async move {
        let r = fut.await;
        *task_slot.lock().unwrap() = Some(r);
        me.unpark();
    });
    loop {
        if let Some(r) = slot.lock().unwrap().take() {
            return r.expect("call");
        }
        std::thread::park();
    }
}

/// The `tools/call echo` line the floors send.
fn echo_line(id: u64) -> String {
    format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"tools/call\",\"params\":{{\"name\":\"echo\",\"arguments\":{{\"message\":\"hello\"}}}}}}\n"
    )
}

const INIT_LINES: [&str; 2] = [
    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"floor\",\"version\":\"0\"}}}\n",
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n",
];

/// The test server driven by hand over blocking pipes: no rmcp, no lackpy.
struct RawServer {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    line: String,
    next_id: u64,
}

impl RawServer {
    fn start(bin: &str) -> RawServer {
        let mut child = Command::new(bin)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn the test server");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut raw = RawServer {
            child,
            stdin,
            stdout,
            line: String::new(),
            next_id: 1,
        };
        raw.stdin.write_all(INIT_LINES[0].as_bytes()).unwrap();
        raw.read_reply();
        raw.stdin.write_all(INIT_LINES[1].as_bytes()).unwrap();
        raw
    }

    fn read_reply(&mut self) -> usize {
        self.line.clear();
        let n = self.stdout.read_line(&mut self.line).unwrap();
        assert!(n > 0 && self.line.contains("\"result\""), "{}", self.line);
        n
    }

    /// One `echo` round trip.
    fn echo(&mut self) -> usize {
        let line = echo_line(self.next_id);
        self.next_id += 1;
        self.stdin.write_all(line.as_bytes()).unwrap();
        self.read_reply()
    }
}

impl Drop for RawServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The same over tokio's pipes, for `block_on` on the bench's runtime.
struct TokioRawServer {
    child: tokio::process::Child,
    stdin: tokio::process::ChildStdin,
    stdout: tokio::io::BufReader<tokio::process::ChildStdout>,
    line: String,
    next_id: u64,
}

impl TokioRawServer {
    async fn start(bin: &str) -> TokioRawServer {
        let mut child = tokio::process::Command::new(bin)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("spawn the test server");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = tokio::io::BufReader::new(child.stdout.take().expect("stdout"));
        let mut raw = TokioRawServer {
            child,
            stdin,
            stdout,
            line: String::new(),
            next_id: 1,
        };
        raw.stdin.write_all(INIT_LINES[0].as_bytes()).await.unwrap();
        raw.read_reply().await;
        raw.stdin.write_all(INIT_LINES[1].as_bytes()).await.unwrap();
        raw
    }

    async fn read_reply(&mut self) -> usize {
        self.line.clear();
        let n = self.stdout.read_line(&mut self.line).await.unwrap();
        assert!(n > 0 && self.line.contains("\"result\""), "{}", self.line);
        n
    }

    async fn echo(&mut self) -> usize {
        let line = echo_line(self.next_id);
        self.next_id += 1;
        self.stdin.write_all(line.as_bytes()).await.unwrap();
        self.read_reply().await
    }
}

/// CPU time (user + system) a process has used so far, from
/// `/proc/<pid>/stat` (every thread; clock ticks of 10 ms).
fn cpu_time(pid: &str) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after_comm = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or_default();
    let fields: Vec<&str> = after_comm.split_whitespace().collect();
    // Fields 14 and 15 of the line (utime, stime) are 12 and 13 after comm.
    let ticks: u64 = [11, 12]
        .iter()
        .filter_map(|i| fields.get(*i).and_then(|f| f.parse::<u64>().ok()))
        .sum();
    Duration::from_millis(ticks * 10)
}

/// Context switches (voluntary and not) of every live thread of a process.
fn switches(pid: &str) -> u64 {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return 0;
    };
    tasks
        .flatten()
        .map(|t| {
            std::fs::read_to_string(t.path().join("status"))
                .unwrap_or_default()
                .lines()
                .filter(|l| l.contains("ctxt_switches:"))
                .filter_map(|l| l.split_whitespace().last()?.parse::<u64>().ok())
                .sum::<u64>()
        })
        .sum()
}

/// Per call over `n` calls of `work`: wall µs, client CPU µs, server CPU
/// µs, client and server context switches.
fn per_call(server: &str, n: u64, mut work: impl FnMut()) -> [f64; 5] {
    let me = std::process::id().to_string();
    let (c0, s0, x0, y0) = (
        cpu_time(&me),
        cpu_time(server),
        switches(&me),
        switches(server),
    );
    let t0 = Instant::now();
    for _ in 0..n {
        work();
    }
    let wall = t0.elapsed();
    let us = |d: Duration| d.as_secs_f64() * 1e6 / n as f64;
    [
        us(wall),
        us(cpu_time(&me) - c0),
        us(cpu_time(server) - s0),
        (switches(&me) - x0) as f64 / n as f64,
        (switches(server) - y0) as f64 / n as f64,
    ]
}

fn cpu_table(
    rt: &tokio::runtime::Runtime,
    bin: &str,
    source: &McpToolSource,
    ctx: &CallContext,
) {
    const N: u64 = 20_000;
    let pid = source.status().pid.expect("pid").to_string();
    eprintln!();
    eprintln!("per call, means over {N} calls (CPU in 10 ms ticks, from /proc)");
    eprintln!(
        "  {:<22} {:>8} {:>10} {:>10} {:>9} {:>9}",
        "case", "wall us", "client us", "server us", "client cs", "server cs"
    );
    let row = |label: &str, r: [f64; 5]| {
        eprintln!(
            "  {label:<22} {:>8.1} {:>10.1} {:>10.1} {:>9.2} {:>9.2}",
            r[0], r[1], r[2], r[3], r[4]
        );
    };
    let echo = || vec![Data::Str("hello".into())];
    row(
        "echo_round_trip",
        per_call(&pid, N, || {
            black_box(rt.block_on(call(source, "echo", echo(), ctx)));
        }),
    );
    row(
        "echo_from_thread",
        per_call(&pid, N, || {
            black_box(call_from_thread(rt.handle(), source, "echo", echo(), ctx));
        }),
    );
    let mut raw = RawServer::start(bin);
    let raw_pid = raw.child.id().to_string();
    row(
        "floor/stdio_blocking",
        per_call(&raw_pid, N, || {
            black_box(raw.echo());
        }),
    );
    drop(raw);
    let mut raw = rt.block_on(TokioRawServer::start(bin));
    let raw_pid = raw.child.id().expect("pid").to_string();
    row(
        "floor/stdio_tokio",
        per_call(&raw_pid, N, || {
            black_box(rt.block_on(raw.echo()));
        }),
    );
}

fn benches(c: &mut Criterion) {
    let bin = server_bin();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let client = McpClient::new(McpClientOptions::default());
    let source: Arc<McpToolSource> = rt.block_on(async {
        let mut d = client
            .start(vec![descriptor("bench", &bin, &[])], None)
            .await;
        d.sources.pop().expect("source")
    });
    let ctx = CallContext::new(std::env::temp_dir());

    if let Some(n) = std::env::var("LACKPY_BENCH_PROFILE")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    {
        let pid = source.status().pid.expect("pid").to_string();
        let r = per_call(&pid, n, || {
            black_box(rt.block_on(call(&source, "echo", vec![Data::Str("hello".into())], &ctx)));
        });
        eprintln!("{n} echo calls: {r:?} (wall, client, server us; client, server cs)");
        rt.block_on(client.shutdown());
        return;
    }

    c.bench_function("echo_round_trip", |b| {
        b.iter(|| rt.block_on(call(&source, "echo", vec![Data::Str("hello".into())], &ctx)));
    });
    c.bench_function("echo_from_thread", |b| {
        b.iter(|| {
            call_from_thread(
                rt.handle(),
                &source,
                "echo",
                vec![Data::Str("hello".into())],
                &ctx,
            )
        });
    });

    let mut g = c.benchmark_group("floor");
    let mut raw = RawServer::start(&bin);
    g.bench_function("stdio_blocking", |b| b.iter(|| raw.echo()));
    drop(raw);
    let mut raw = rt.block_on(TokioRawServer::start(&bin));
    g.bench_function("stdio_tokio", |b| b.iter(|| rt.block_on(raw.echo())));
    drop(raw);
    g.finish();

    let mut g = c.benchmark_group("overlap");
    g.sample_size(10);
    g.bench_function("slow10_x8_sequential", |b| {
        b.iter(|| {
            rt.block_on(async {
                for _ in 0..8 {
                    black_box(call(&source, "slow", vec![Data::Int(10.into())], &ctx).await);
                }
            })
        });
    });
    g.bench_function("slow10_x8_concurrent", |b| {
        b.iter(|| {
            rt.block_on(async {
                let tasks: Vec<_> = (0..8)
                    .map(|_| {
                        let (s, cx) = (source.clone(), ctx.clone());
                        tokio::spawn(async move {
                            call(&s, "slow", vec![Data::Int(10.into())], &cx).await
                        })
                    })
                    .collect();
                for t in tasks {
                    black_box(t.await.unwrap());
                }
            })
        });
    });
    g.bench_function("echo_x200_sequential", |b| {
        b.iter(|| {
            rt.block_on(async {
                for _ in 0..200 {
                    black_box(call(&source, "echo", vec![Data::Str("x".into())], &ctx).await);
                }
            })
        });
    });
    g.bench_function("echo_x200_by_8_callers", |b| {
        b.iter(|| {
            rt.block_on(async {
                let tasks: Vec<_> = (0..8)
                    .map(|_| {
                        let (s, cx) = (source.clone(), ctx.clone());
                        tokio::spawn(async move {
                            for _ in 0..25 {
                                black_box(call(&s, "echo", vec![Data::Str("x".into())], &cx).await);
                            }
                        })
                    })
                    .collect();
                for t in tasks {
                    t.await.unwrap();
                }
            })
        });
    });
    g.finish();

    let mut g = c.benchmark_group("discovery");
    g.sample_size(10);
    for n in [1usize, 10] {
        g.bench_function(format!("{n}_servers_200ms_start"), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    total += rt.block_on(async {
                        let servers: Vec<_> = (0..n)
                            .map(|k| {
                                descriptor(&format!("s{k}"), &bin, &["--start-delay-ms", "200"])
                            })
                            .collect();
                        let c = McpClient::new(McpClientOptions::default());
                        let started = Instant::now();
                        let d = c.start(servers, None).await;
                        let took = started.elapsed();
                        assert!(d.failures().is_empty());
                        c.shutdown().await;
                        took
                    });
                }
                total
            });
        });
    }
    g.finish();
    // `--list` / `--test` (cargo test --benches) measure nothing;
    // `LACKPY_BENCH_TABLE=0` skips the table.
    let table = std::env::var("LACKPY_BENCH_TABLE").map_or(true, |v| v != "0");
    if table && !std::env::args().any(|a| a == "--list" || a == "--test") {
        cpu_table(&rt, &bin, &source, &ctx);
    }
    rt.block_on(client.shutdown());
}

criterion_group!(mcp, benches);
criterion_main!(mcp);
