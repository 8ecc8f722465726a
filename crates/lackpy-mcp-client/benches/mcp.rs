//! MCP client speed, measured through the `Tool` interface against the
//! test server over stdio (build it first: `cargo build --release
//! -p lackpy-test-support --example mcp_test_server`; the debug build is used when it is missing).
//!
//! Per call, one `echo("hello")` at a time:
//!
//! * `echo_in_task`: calls made one after another by one task on the
//!   runtime, so the caller never leaves it: the client's own cost per call
//!   of a trivial tool over stdio (the number to hold against the floors).
//! * `echo_round_trip`: each call awaited by `block_on` on the bench
//!   thread, which is not a runtime thread: every call also crosses between
//!   that thread and the runtime's worker twice.
//! * `echo_from_thread`: each call made the way the bridge makes it from an
//!   interpreter thread: the tool's future spawned onto the runtime, the
//!   calling thread parked until the answer is in (the same two crossings).
//! * `floor/*`: the same server program answering the same bytes (the
//!   `tools/call` line the client sends, after its `server/discover`),
//!   driven without rmcp or lackpy: blocking reads and writes on the bench
//!   thread (`stdio_blocking`: the floor of a stdio round trip), tokio pipes
//!   from one task on the runtime (`stdio_tokio_task`, the floor for
//!   `echo_in_task`) and from `block_on` on the bench thread
//!   (`stdio_tokio`).
//!
//! Then:
//!
//! * `overlap/*`: eight callers at once on one session vs one after the
//!   other (`slow(10)`), and eight callers of `echo`.
//! * `discovery/*`: ten servers that each take 200 ms to start vs one.
//!
//! The runtime has one worker thread, as `lackpy mcp serve` builds it
//! (`lackpy run` uses a current-thread runtime). `LACKPY_BENCH_WORKERS=N`
//! sets N workers; 0 is a current-thread runtime driven by the bench
//! thread's `block_on` (`echo_from_thread` is then left out: nothing would
//! drive the runtime while the bench thread is parked). With two workers on
//! two cores, tokio wakes the idle worker about twice a call (a task that
//! arrives from outside, or a fourth hand-off in a row between tasks, is
//! offered to it), which costs more than the call's own work.
//!
//! After criterion's output a table gives, per call, the wall time, the CPU
//! time of this process and of the server, and context switches, over many
//! calls (CPU from `/proc/<pid>/task/*/schedstat`, Linux only; other load on
//! the machine disturbs CPU time less than wall time; `LACKPY_BENCH_TABLE=0`
//! skips it). `LACKPY_BENCH_PROFILE=N` skips criterion and the table and
//! makes N calls of one case (`LACKPY_BENCH_PROFILE_CASE`: `round_trip`,
//! `from_thread`, `in_task`, `floor_blocking`, `floor_tokio`,
//! `floor_tokio_task`), printing the same numbers: for `perf record`, and
//! for comparing builds by alternating runs.
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

/// Whether `rt` is a current-thread runtime (nothing drives it unless
/// the bench thread is in its `block_on`).
fn current_thread(rt: &tokio::runtime::Runtime) -> bool {
    rt.handle().runtime_flavor() == tokio::runtime::RuntimeFlavor::CurrentThread
}

/// `n` sequential `echo` calls made by one task on the runtime (on a worker
/// of a multi-thread runtime), so no call crosses to the bench thread.
async fn in_task(
    rt: &tokio::runtime::Runtime,
    source: &Arc<McpToolSource>,
    ctx: &CallContext,
    n: u64,
) {
    let (source, ctx) = (Arc::clone(source), ctx.clone());
    rt.spawn(async move {
        for _ in 0..n {
            black_box(call(&source, "echo", vec![Data::Str("hello".into())], &ctx).await);
        }
    })
    .await
    .unwrap();
}

/// The `_meta` every request of a 2026-07-28 session carries, as lackpy
/// (rmcp) sends it.
const META: &str = "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientInfo\":{\"name\":\"lackpy\",\"version\":\"0.1.0\"},\"io.modelcontextprotocol/clientCapabilities\":{}";

/// The `tools/call echo` line the floors send: byte for byte what the
/// client sends for `echo("hello")`, so the server does the same work.
fn echo_line(id: u64) -> String {
    format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"tools/call\",\"params\":{{\"_meta\":{{{META},\"progressToken\":{id}}},\"name\":\"echo\",\"arguments\":{{\"message\":\"hello\"}}}}}}\n"
    )
}

/// The client's handshake: the `server/discover` probe, whose answer
/// settles the protocol version (no `initialize` in 2026-07-28).
fn discover_line() -> String {
    format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"server/discover\",\"params\":{{\"_meta\":{{{META}}}}}}}\n"
    )
}

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
        raw.stdin.write_all(discover_line().as_bytes()).unwrap();
        raw.read_reply();
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
        raw.stdin
            .write_all(discover_line().as_bytes())
            .await
            .unwrap();
        raw.read_reply().await;
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

/// CPU time a process's live threads have used so far, from each
/// thread's `/proc/<pid>/task/<tid>/schedstat` (nanoseconds, unlike the
/// 10 ms ticks of `/proc/<pid>/stat`).
fn cpu_time(pid: &str) -> Duration {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Duration::ZERO;
    };
    let ns: u64 = tasks
        .flatten()
        .filter_map(|t| {
            std::fs::read_to_string(t.path().join("schedstat"))
                .ok()?
                .split_whitespace()
                .next()?
                .parse::<u64>()
                .ok()
        })
        .sum();
    Duration::from_nanos(ns)
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

/// The per-call cases of the table and of `LACKPY_BENCH_PROFILE`: (case,
/// bench name).
const CASES: [(&str, &str); 6] = [
    ("in_task", "echo_in_task"),
    ("round_trip", "echo_round_trip"),
    ("from_thread", "echo_from_thread"),
    ("floor_blocking", "floor/stdio_blocking"),
    ("floor_tokio_task", "floor/stdio_tokio_task"),
    ("floor_tokio", "floor/stdio_tokio"),
];

/// `n` calls of one case, per call (see [`per_call`]); `None` for
/// `from_thread` on a current-thread runtime and for unknown cases.
fn measure(
    rt: &tokio::runtime::Runtime,
    bin: &str,
    source: &Arc<McpToolSource>,
    ctx: &CallContext,
    case: &str,
    n: u64,
) -> Option<[f64; 5]> {
    let pid = source.status().pid.expect("pid").to_string();
    let echo = || vec![Data::Str("hello".into())];
    Some(match case {
        "in_task" => {
            per_call(&pid, 1, || rt.block_on(in_task(rt, source, ctx, n))).map(|x| x / n as f64)
        }
        "round_trip" => per_call(&pid, n, || {
            black_box(rt.block_on(call(source, "echo", echo(), ctx)));
        }),
        "from_thread" if !current_thread(rt) => per_call(&pid, n, || {
            black_box(call_from_thread(rt.handle(), source, "echo", echo(), ctx));
        }),
        "floor_blocking" => {
            let mut raw = RawServer::start(bin);
            let pid = raw.child.id().to_string();
            per_call(&pid, n, || {
                black_box(raw.echo());
            })
        }
        "floor_tokio" => {
            let mut raw = rt.block_on(TokioRawServer::start(bin));
            let pid = raw.child.id().expect("pid").to_string();
            per_call(&pid, n, || {
                black_box(rt.block_on(raw.echo()));
            })
        }
        "floor_tokio_task" => {
            let mut raw = Some(rt.block_on(TokioRawServer::start(bin)));
            let pid = raw
                .as_ref()
                .and_then(|r| r.child.id())
                .expect("pid")
                .to_string();
            per_call(&pid, 1, || {
                raw = Some(rt.block_on(raw_in_task(rt, raw.take().expect("raw"), n)));
            })
            .map(|x| x / n as f64)
        }
        _ => return None,
    })
}

fn cpu_table(
    rt: &tokio::runtime::Runtime,
    bin: &str,
    source: &Arc<McpToolSource>,
    ctx: &CallContext,
) {
    const N: u64 = 20_000;
    eprintln!();
    eprintln!("per call, means over {N} calls (CPU from /proc/*/task/*/schedstat)");
    eprintln!(
        "  {:<22} {:>8} {:>10} {:>10} {:>9} {:>9}",
        "case", "wall us", "client us", "server us", "client cs", "server cs"
    );
    for (case, label) in CASES {
        if let Some(r) = measure(rt, bin, source, ctx, case, N) {
            eprintln!(
                "  {label:<22} {:>8.1} {:>10.1} {:>10.1} {:>9.2} {:>9.2}",
                r[0], r[1], r[2], r[3], r[4]
            );
        }
    }
}

/// `n` raw round trips made by one task on the runtime.
async fn raw_in_task(
    rt: &tokio::runtime::Runtime,
    mut raw: TokioRawServer,
    n: u64,
) -> TokioRawServer {
    rt.spawn(async move {
        for _ in 0..n {
            black_box(raw.echo().await);
        }
        raw
    })
    .await
    .unwrap()
}

fn benches(c: &mut Criterion) {
    let bin = server_bin();
    // `LACKPY_BENCH_WORKERS=N`: the runtime's worker threads (default 1; 0
    // is a current-thread runtime, driven by the bench thread's `block_on`).
    let workers = std::env::var("LACKPY_BENCH_WORKERS")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(1);
    let rt = if workers == 0 {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    } else {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(workers)
            .enable_all()
            .build()
            .unwrap()
    };
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
        let case =
            std::env::var("LACKPY_BENCH_PROFILE_CASE").unwrap_or_else(|_| "round_trip".into());
        let r = measure(&rt, &bin, &source, &ctx, &case, n)
            .unwrap_or_else(|| panic!("no case {case} here; the cases: {CASES:?}"));
        eprintln!("{n} echo calls: {r:?} (wall, client, server us; client, server cs)");
        rt.block_on(client.shutdown());
        return;
    }

    c.bench_function("echo_in_task", |b| {
        b.iter_custom(|iters| {
            let t0 = Instant::now();
            rt.block_on(in_task(&rt, &source, &ctx, iters));
            t0.elapsed()
        });
    });
    c.bench_function("echo_round_trip", |b| {
        b.iter(|| rt.block_on(call(&source, "echo", vec![Data::Str("hello".into())], &ctx)));
    });
    if !current_thread(&rt) {
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
    }

    let mut g = c.benchmark_group("floor");
    let mut raw = RawServer::start(&bin);
    g.bench_function("stdio_blocking", |b| b.iter(|| raw.echo()));
    drop(raw);
    let mut raw = rt.block_on(TokioRawServer::start(&bin));
    g.bench_function("stdio_tokio", |b| b.iter(|| rt.block_on(raw.echo())));
    let mut raw = Some(raw);
    g.bench_function("stdio_tokio_task", |b| {
        b.iter_custom(|iters| {
            let t0 = Instant::now();
            raw = Some(rt.block_on(raw_in_task(&rt, raw.take().unwrap(), iters)));
            t0.elapsed()
        })
    });
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
