//! What traces cost per tool call: the same runs with telemetry off (no
//! `OTEL_*`: the spans are disabled where they are made) and on (the
//! `otel` feature's exporter, OTLP http/protobuf to a loopback sink that
//! answers 200 and drops the body).
//!
//! ```text
//! cargo build --release -p lackpy-test-support --example mcp_test_server
//! cargo bench -p lackpy-service --bench telemetry
//! ```
//!
//! Cases, each run first off, then on (a process can set its global
//! subscriber once, so "off" runs first):
//!
//! * `native_200`: one program making 200 calls of a native tool
//!   registered through the service API (`lackpy.run` + 200
//!   `lackpy.tool_call` spans when on);
//! * `mcp_echo_200`: 200 `echo` calls to the MCP test server over stdio
//!   (adds a `lackpy.mcp.operation` span and a `traceparent` per call);
//! * `native_1`: a run of one call (what a run's own span costs).
//!
//! `disabled_span` times what the instrumentation adds to a call when off:
//! a disabled span made with fields, its parent captured, `is_disabled`.
//!
//! The summary (medians, per call) is printed to stderr at the end.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use criterion::Criterion;
use lackpy_lang::{Data, Grade};
use lackpy_service::{LackpyService, RunProgram, ServiceOptions};
use lackpy_sources::{ArgSpec, Provider, ToolSpec, tool_fn};

const CALLS: usize = 200;

fn server_bin() -> PathBuf {
    if let Ok(p) = std::env::var("LACKPY_BENCH_MCP_SERVER") {
        return PathBuf::from(p);
    }
    let exe = std::env::current_exe().expect("exe");
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
            return p;
        }
    }
    panic!(
        "build the test server first: cargo build --release -p lackpy-test-support --example mcp_test_server"
    );
}

fn program(n: usize, call: &str) -> RunProgram {
    RunProgram {
        program: format!("n = 0\nfor i in range({n}):\n    {call}\n    n += 1\nn"),
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

static SAMPLES: Mutex<Vec<(String, Vec<Duration>)>> = Mutex::new(Vec::new());

fn record(case: &str, took: Duration) {
    let mut all = SAMPLES.lock().unwrap();
    match all.iter_mut().find(|(c, _)| c == case) {
        Some((_, v)) => v.push(took),
        None => all.push((case.to_string(), vec![took])),
    }
}

fn median(case: &str) -> Duration {
    let all = SAMPLES.lock().unwrap();
    let mut v = all
        .iter()
        .find(|(c, _)| c == case)
        .map(|(_, v)| v.clone())
        .unwrap_or_default();
    v.sort();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

const CASES: [(&str, usize, &str); 3] = [
    ("native_200", CALLS, "double(i)"),
    ("mcp_echo_200", CALLS, "echo('x')"),
    ("native_1", 1, "double(i)"),
];

fn cases(c: &mut Criterion, rt: &tokio::runtime::Runtime, service: &LackpyService, mode: &str) {
    let mut g = c.benchmark_group("telemetry");
    g.sample_size(30);
    for (name, calls, call) in CASES {
        let request = program(calls, call);
        // Warm: the interpreter pool, the server session, the exporter.
        for _ in 0..3 {
            rt.block_on(run(service, request.clone(), calls));
        }
        let case = format!("{name}/{mode}");
        g.bench_function(&case, |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let started = Instant::now();
                    rt.block_on(run(service, request.clone(), calls));
                    let took = started.elapsed();
                    record(&case, took);
                    total += took;
                }
                total
            })
        });
    }
    g.finish();
}

/// What a call's instrumentation costs when nothing listens.
fn disabled_span(c: &mut Criterion) {
    c.bench_function("telemetry/disabled_span", |b| {
        b.iter(|| {
            let parent = tracing::Span::current();
            let span = tracing::trace_span!(
                target: "lackpy::telemetry",
                parent: &parent,
                "lackpy.tool_call",
                lackpy.tool = %"double",
                lackpy.step = 1u64,
                lackpy.outcome = tracing::field::Empty,
            );
            criterion::black_box(span.is_disabled())
        })
    });
}

/// A loopback OTLP sink: answers every request 200, drops the body.
fn sink() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr");
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stream);
                loop {
                    let mut length = 0usize;
                    let mut line = String::new();
                    loop {
                        line.clear();
                        if reader.read_line(&mut line).unwrap_or(0) == 0 {
                            return;
                        }
                        let l = line.trim_end();
                        if l.is_empty() {
                            break;
                        }
                        if let Some((k, v)) = l.split_once(':')
                            && k.eq_ignore_ascii_case("content-length")
                        {
                            length = v.trim().parse().unwrap_or(0);
                        }
                    }
                    let mut body = vec![0; length];
                    if reader.read_exact(&mut body).is_err() {
                        return;
                    }
                    let reply = b"HTTP/1.1 200 OK\r\ncontent-type: application/x-protobuf\r\ncontent-length: 0\r\n\r\n";
                    if reader.get_mut().write_all(reply).is_err() {
                        return;
                    }
                }
            });
        }
    });
    format!("http://{addr}")
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
    let spec = ToolSpec::new("double", Provider::Other("bench".into()))
        .with_arg(ArgSpec::new("x"))
        .with_grade(Grade::new(0, 0));
    let double = tool_fn(|args, _kw, _ctx| match args.first() {
        Some(Data::Int(n)) => Ok(Data::Int(n * 2)),
        _ => Ok(Data::None),
    });
    let service = rt
        .block_on(LackpyService::start(ServiceOptions {
            workspace: ws.path().to_path_buf(),
            tools: vec![(spec, double)],
            ..ServiceOptions::default()
        }))
        .expect("service");
    let mut c = Criterion::default().configure_from_args();
    disabled_span(&mut c);
    cases(&mut c, &rt, &service, "off");

    // On: the exporter `lackpy` builds from OTEL_*, as the only layer.
    let endpoint = sink();
    let exporter = lackpy_service::telemetry::Exporter::from_vars(|k| match k {
        "OTEL_EXPORTER_OTLP_ENDPOINT" => Some(endpoint.clone()),
        _ => None,
    })
    .expect("exporter")
    .expect("on");
    {
        use tracing_subscriber::layer::SubscriberExt;
        let subscriber = tracing_subscriber::registry().with(exporter.layer());
        tracing::subscriber::set_global_default(subscriber).expect("global subscriber");
    }
    cases(&mut c, &rt, &service, "on");
    c.final_summary();
    if !std::env::args().any(|a| a == "--list" || a == "--test") {
        let us = |d: Duration| d.as_secs_f64() * 1e6;
        eprintln!();
        eprintln!("summary (medians; per tool call = run / calls)");
        eprintln!(
            "  {:<14} {:>12} {:>12} {:>12}",
            "case", "off us/call", "on us/call", "on - off"
        );
        for (name, calls, _) in CASES {
            let off = us(median(&format!("{name}/off"))) / calls as f64;
            let on = us(median(&format!("{name}/on"))) / calls as f64;
            eprintln!("  {name:<14} {off:>12.2} {on:>12.2} {:>12.2}", on - off);
        }
    }
    let _ = exporter.shutdown();
    rt.block_on(service.shutdown());
}
