//! MCP client speed, measured through the `Tool` interface against the
//! test server over stdio (build it first: `cargo build --release
//! -p lackpy-test-support --example mcp_test_server`; the debug build is used when it is missing).
//!
//! * `echo_round_trip`: one call → server → back, sequentially.
//! * `overlap/*`: eight callers at once on one session vs one after the
//!   other (`slow(10)`), and eight callers of `echo`.
//! * `discovery/*`: ten servers that each take 200 ms to start vs one.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use lackpy_lang::Data;
use lackpy_mcp_client::{McpClient, McpClientOptions, McpToolSource};
use lackpy_sources::{
    CallContext, McpServerDescriptor, McpTransport, Precedence, Provenance, ToolAnswer,
};

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

    c.bench_function("echo_round_trip", |b| {
        b.iter(|| rt.block_on(call(&source, "echo", vec![Data::Str("hello".into())], &ctx)));
    });

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
    rt.block_on(client.shutdown());
}

criterion_group!(mcp, benches);
criterion_main!(mcp);
