//! What the Prometheus metrics cost a tool call: `Metrics::record_run` on
//! a finished run of 200 calls (what `lackpy mcp serve` does once a run
//! is over; nothing is recorded while the run goes), per call, for calls
//! to tools of the inventory and to a tool outside it, and gated calls.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::Duration;

use criterion::Criterion;
use lackpy_lang::{Grade, TraceEntry};
use lackpy_service::ExecutionResult;
use lackpy_service::metrics::Metrics;

const CALLS: usize = 200;

fn run(tool: &str, approval: Option<&str>) -> ExecutionResult {
    let mut r = ExecutionResult::failed("x", String::new(), Grade::PURE, Duration::ZERO);
    r.success = true;
    r.error = None;
    r.error_type = None;
    r.trace = (0..CALLS)
        .map(|step| TraceEntry {
            step,
            tool: tool.to_string(),
            args: Vec::new(),
            result: None,
            duration: Duration::from_micros(40),
            success: true,
            error: None,
            note: None,
            approval: approval.map(String::from),
            replayed: false,
        })
        .collect();
    r
}

fn main() {
    let mut c = Criterion::default()
        .configure_from_args()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    let tools = (0..50).map(|i| (format!("tool_{i}"), format!("mcp:server_{}", i % 5)));
    let metrics = Metrics::new(tools);
    let mut group = c.benchmark_group("metrics_record_run_200_calls");
    for (name, result) in [
        ("inventory_tool", run("tool_7", None)),
        ("other_tool", run("not_listed", None)),
        ("gated_tool", run("tool_7", Some("policy"))),
    ] {
        group.bench_function(name, |b| b.iter(|| metrics.record_run(&result)));
    }
    group.finish();
    c.final_summary();
}
