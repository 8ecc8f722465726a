//! Overhead of a tool call through the bridge, against calling the
//! interpreter's host directly.
//!
//! Each program makes 1,000 calls; criterion reports the time of the whole
//! program, so per-call cost is the reported time / 1,000.
// criterion's macros generate undocumented public functions.
#![allow(missing_docs)]

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use lackpy_bridge::{Bridge, NamespaceTool, RunRequest};
use lackpy_lang::{Data, Grade};
use lackpy_lang::{Host, RunOptions, ToolException};
use lackpy_sources::{CallContext, Tool, ToolAnswer};

const PROGRAM: &str = "n = 0\nfor i in range(1000):\n    n = inc(n)\nn";
const BASELINE: &str = "n = 0\nfor i in range(1000):\n    n = n + 1\nn";

fn bump(args: &[Data]) -> Data {
    match args.first() {
        Some(Data::Int(n)) => Data::Int(n + 1),
        _ => Data::None,
    }
}

/// The interpreter's host with no bridge at all.
struct DirectHost(Vec<String>);

impl Host for DirectHost {
    fn tool_args(&self, name: &str) -> Option<&[String]> {
        (name == "inc").then_some(self.0.as_slice())
    }

    fn call(
        &mut self,
        _tool: &str,
        args: Vec<Data>,
        _kw: Vec<(String, Data)>,
    ) -> Result<Data, ToolException> {
        Ok(bump(&args))
    }
}

struct ReadyInc;

impl Tool for ReadyInc {
    fn call(&self, args: Vec<Data>, _kw: Vec<(String, Data)>, _ctx: &CallContext) -> ToolAnswer {
        ToolAnswer::Ready(Ok(bump(&args)))
    }
}

struct YieldInc;

impl Tool for YieldInc {
    fn call(&self, args: Vec<Data>, _kw: Vec<(String, Data)>, _ctx: &CallContext) -> ToolAnswer {
        ToolAnswer::Pending(Box::pin(async move {
            tokio::task::yield_now().await;
            Ok(bump(&args))
        }))
    }
}

fn request(src: &str, imp: Arc<dyn Tool>) -> RunRequest {
    let module = Arc::new(lackpy_lang::parse(src).expect("bench programs parse"));
    let tool = NamespaceTool::new("inc", vec!["n".into()], Grade::new(0, 0), imp);
    RunRequest::new(module, vec![tool], std::env::temp_dir())
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime");
    let bridge = Bridge::default();
    let mut g = c.benchmark_group("tool_call_x1000");
    g.measurement_time(Duration::from_secs(5));

    let base = lackpy_lang::parse(BASELINE).expect("parses");
    g.bench_function("no_calls_loop", |b| {
        b.iter(|| {
            let mut host = DirectHost(vec!["n".into()]);
            black_box(lackpy_lang::run(
                &base,
                &mut host,
                &[],
                &RunOptions::default(),
            ))
        })
    });
    let direct = lackpy_lang::parse(PROGRAM).expect("parses");
    g.bench_function("direct_host", |b| {
        b.iter(|| {
            let mut host = DirectHost(vec!["n".into()]);
            black_box(lackpy_lang::run(
                &direct,
                &mut host,
                &[],
                &RunOptions::default(),
            ))
        })
    });
    let ready = request(PROGRAM, Arc::new(ReadyInc));
    g.bench_function("bridge_ready", |b| {
        b.iter(|| black_box(rt.block_on(bridge.run(ready.clone()))))
    });
    let pending = request(PROGRAM, Arc::new(YieldInc));
    g.bench_function("bridge_pending", |b| {
        b.iter(|| black_box(rt.block_on(bridge.run(pending.clone()))))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
