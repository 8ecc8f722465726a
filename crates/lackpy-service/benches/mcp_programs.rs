//! Real lackpy programs calling an MCP server, through the service API
//! (`LackpyService::run_program`): parse, validate, interpreter thread,
//! bridge, MCP client, stdio, the test server, and back.
//!
//! Build the test server first (it is an example of `lackpy-test-support`,
//! which this crate cannot build for its benches):
//!
//! ```text
//! cargo build --release -p lackpy-test-support --example mcp_test_server
//! cargo bench -p lackpy-service --bench mcp_programs
//! ```
//!
//! `LACKPY_BENCH_MCP_SERVER=/path/to/server` overrides where it is looked
//! for (default: `target/release/examples/mcp_test_server`, then debug).
//!
//! One service, one configured server, one session for every case:
//!
//! * `echo_200_one_program`: one program making 200 sequential `echo`
//!   calls; the summary reports per-call time (total / 200).
//! * `echo_8x25/{sequential,concurrent}`: eight programs of 25 `echo` calls
//!   each (200 calls in all, the same work as the case above), run one
//!   after another vs all at once on the one session.
//! * `slow5_8x10/{sequential,concurrent}`: eight programs of 10 calls of
//!   `slow(5)` (the server sleeps 5 ms), to show overlap that does not
//!   depend on CPU.
//!
//! A summary table (medians) is printed to stderr after criterion's output,
//! then a table of CPU time per call in this process and in the server
//! (from `/proc`, Linux only), which other load on the machine disturbs far
//! less than wall time. `LACKPY_BENCH_CPU_ROWS=concurrent` limits that
//! table to matching rows; with a criterion filter that matches nothing
//! (`-- nomatch`) only the table runs, e.g. under `perf record`.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::future::Future;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion};
use lackpy_service::{LackpyService, RunProgram, ServiceOptions};

/// Calls in case (a), and in all of case (b) together.
const CALLS: usize = 200;
/// Concurrent programs.
const PROGRAMS: usize = 8;
/// `slow` calls per program in case (c), and how long each sleeps.
const SLOW_CALLS: usize = 10;
const SLOW_MS: u64 = 5;

fn server_bin() -> PathBuf {
    if let Ok(p) = std::env::var("LACKPY_BENCH_MCP_SERVER") {
        return PathBuf::from(p);
    }
    let exe = std::env::current_exe().expect("exe");
    // target/<profile>/deps/<bench>
    let target = exe
        .parent()
        .and_then(|d| d.parent())
        .and_then(|d| d.parent())
        .expect("target dir");
    for profile in ["release", "debug"] {
        let p = target
            .join(profile)
            .join("examples")
            .join("mcp_test_server");
        if p.is_file() {
            eprintln!("using {}", p.display());
            return p;
        }
    }
    panic!(
        "build the test server first: cargo build --release -p lackpy-test-support --example mcp_test_server"
    );
}

/// `n` calls of `call` in a loop, as a program.
fn program(n: usize, call: &str) -> RunProgram {
    RunProgram {
        program: format!("n = 0\nfor i in range({n}):\n    {call}\n    n += 1\nn"),
        tools: Some(vec!["echo".to_string(), "slow".to_string()]),
        ..RunProgram::default()
    }
}

async fn run(service: &LackpyService, request: RunProgram, calls: usize) {
    let result = service.run_program(request).await.expect("run");
    assert!(
        result.success,
        "{:?}: {:?}",
        result.error_type, result.error
    );
    assert_eq!(result.trace.len(), calls);
}

async fn sequential(service: &LackpyService, request: &RunProgram, calls: usize) {
    for _ in 0..PROGRAMS {
        run(service, request.clone(), calls).await;
    }
}

async fn concurrent(service: &LackpyService, request: &RunProgram, calls: usize) {
    let tasks: Vec<_> = (0..PROGRAMS)
        .map(|_| {
            let (s, r) = (service.clone(), request.clone());
            tokio::spawn(async move { run(&s, r, calls).await })
        })
        .collect();
    for t in tasks {
        t.await.expect("program task");
    }
}

/// Every measured iteration's time, per case, for the summary.
static SAMPLES: Mutex<Vec<(&'static str, Vec<Duration>)>> = Mutex::new(Vec::new());

fn record(case: &'static str, took: Duration) {
    let mut all = SAMPLES.lock().unwrap();
    match all.iter_mut().find(|(c, _)| *c == case) {
        Some((_, v)) => v.push(took),
        None => all.push((case, vec![took])),
    }
}

fn median(case: &str) -> Duration {
    let all = SAMPLES.lock().unwrap();
    let mut v = all
        .iter()
        .find(|(c, _)| *c == case)
        .map(|(_, v)| v.clone())
        .unwrap_or_default();
    v.sort();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

/// Benchmarks `work` as `case`, keeping each iteration's time for the
/// summary.
fn bench_case<F, Fut>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    rt: &tokio::runtime::Runtime,
    case: &'static str,
    work: F,
) where
    F: Fn() -> Fut,
    Fut: Future<Output = ()>,
{
    g.bench_function(case, |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let started = Instant::now();
                rt.block_on(work());
                let took = started.elapsed();
                record(case, took);
                total += took;
            }
            total
        })
    });
}

fn benches(c: &mut Criterion, rt: &tokio::runtime::Runtime, service: &LackpyService) {
    let echo_200 = program(CALLS, "echo('x')");
    let echo_25 = program(CALLS / PROGRAMS, "echo('x')");
    let slow = program(SLOW_CALLS, &format!("slow({SLOW_MS})"));

    // Warm the session (first calls, the interpreter pool).
    rt.block_on(concurrent(service, &echo_25, CALLS / PROGRAMS));

    let mut g = c.benchmark_group("mcp_programs");
    g.sample_size(20);
    bench_case(&mut g, rt, "echo_200_one_program", || {
        run(service, echo_200.clone(), CALLS)
    });
    bench_case(&mut g, rt, "echo_8x25/sequential", || {
        sequential(service, &echo_25, CALLS / PROGRAMS)
    });
    bench_case(&mut g, rt, "echo_8x25/concurrent", || {
        concurrent(service, &echo_25, CALLS / PROGRAMS)
    });
    g.sample_size(10);
    bench_case(&mut g, rt, "slow5_8x10/sequential", || {
        sequential(service, &slow, SLOW_CALLS)
    });
    bench_case(&mut g, rt, "slow5_8x10/concurrent", || {
        concurrent(service, &slow, SLOW_CALLS)
    });
    g.finish();
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

/// CPU per call in the client process and in the server, over `rounds` runs
/// of `work` (at least a second or so, for the 10 ms ticks).
fn cpu_per_call<F, Fut>(
    rt: &tokio::runtime::Runtime,
    server_pid: &str,
    rounds: usize,
    calls: usize,
    work: F,
) -> (f64, f64, f64)
where
    F: Fn() -> Fut,
    Fut: Future<Output = ()>,
{
    let (c0, s0, t0) = (cpu_time("self"), cpu_time(server_pid), Instant::now());
    for _ in 0..rounds {
        rt.block_on(work());
    }
    let n = (rounds * calls) as f64;
    let per = |d: Duration| d.as_secs_f64() * 1e6 / n;
    (
        per(t0.elapsed()),
        per(cpu_time("self") - c0),
        per(cpu_time(server_pid) - s0),
    )
}

fn cpu_table(rt: &tokio::runtime::Runtime, service: &LackpyService) {
    let Some(pid) = service.mcp_status().iter().find_map(|s| s.pid) else {
        return;
    };
    let pid = pid.to_string();
    let echo_200 = program(CALLS, "echo('x')");
    let echo_25 = program(CALLS / PROGRAMS, "echo('x')");
    // `LACKPY_BENCH_CPU_ROWS=concurrent` measures only the rows whose label
    // contains it (to run `perf stat` over one case).
    let only = std::env::var("LACKPY_BENCH_CPU_ROWS").unwrap_or_default();
    eprintln!();
    eprintln!("CPU per call (means over >= 12000 calls; 10 ms ticks)");
    eprintln!(
        "  {:<26} {:>9} {:>11} {:>11} {:>10}",
        "case", "wall us", "client us", "server us", "total us"
    );
    let row = |label: &str, (wall, client, server): (f64, f64, f64)| {
        eprintln!(
            "  {label:<26} {wall:>9.1} {client:>11.1} {server:>11.1} {:>10.1}",
            client + server
        );
    };
    let wanted = |label: &str| label.contains(only.as_str());
    let label = "echo, 1 program x 200";
    if wanted(label) {
        row(
            label,
            cpu_per_call(rt, &pid, 60, CALLS, || {
                run(service, echo_200.clone(), CALLS)
            }),
        );
    }
    let label = "echo, 8 x 25 sequential";
    if wanted(label) {
        row(
            label,
            cpu_per_call(rt, &pid, 60, CALLS, || {
                sequential(service, &echo_25, CALLS / PROGRAMS)
            }),
        );
    }
    let label = "echo, 8 x 25 concurrent";
    if wanted(label) {
        row(
            label,
            cpu_per_call(rt, &pid, 120, CALLS, || {
                concurrent(service, &echo_25, CALLS / PROGRAMS)
            }),
        );
    }
}

fn summary() {
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let one = median("echo_200_one_program");
    eprintln!();
    eprintln!("summary (medians; one service, one server session)");
    eprintln!(
        "  echo, 1 program x {CALLS} calls: {:8.2} ms total, {:6.1} us/call",
        ms(one),
        us(one) / CALLS as f64
    );
    let cases = [
        ("echo_8x25", CALLS, "echo, 8 programs x 25 calls"),
        (
            "slow5_8x10",
            PROGRAMS * SLOW_CALLS,
            "slow(5), 8 programs x 10 calls",
        ),
    ];
    eprintln!(
        "  {:<32} {:>14} {:>14} {:>10} {:>10} {:>7}",
        "case", "sequential ms", "concurrent ms", "seq us/call", "conc us/call", "ratio"
    );
    for (case, calls, label) in cases {
        let seq = median(&format!("{case}/sequential"));
        let conc = median(&format!("{case}/concurrent"));
        // A case filtered out of this run has no samples (zero).
        let ratio = if seq.is_zero() || conc.is_zero() {
            "-".to_string()
        } else {
            format!("{:.2}x", seq.as_secs_f64() / conc.as_secs_f64())
        };
        eprintln!(
            "  {:<32} {:>14.2} {:>14.2} {:>10.1} {:>10.1} {:>7}",
            label,
            ms(seq),
            ms(conc),
            us(seq) / calls as f64,
            us(conc) / calls as f64,
            ratio
        );
    }
}

fn main() {
    let bin = server_bin();
    let ws = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(ws.path().join(".lackpy")).expect("mkdir");
    std::fs::write(
        ws.path().join(".lackpy/config.toml"),
        format!(
            "[mcp_servers.bench]\ncommand = {:?}\n",
            bin.display().to_string()
        ),
    )
    .expect("config");
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let service = rt
        .block_on(LackpyService::start(ServiceOptions {
            workspace: ws.path().to_path_buf(),
            ..ServiceOptions::default()
        }))
        .expect("service");
    let mut c = Criterion::default().configure_from_args();
    benches(&mut c, &rt, &service);
    c.final_summary();
    // `--list` / `--test` (cargo test --benches) measure nothing.
    if !std::env::args().any(|a| a == "--list" || a == "--test") {
        summary();
        cpu_table(&rt, &service);
    }
    rt.block_on(service.shutdown());
}
