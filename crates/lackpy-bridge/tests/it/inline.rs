//! A run's first slice on the awaiting thread (`BridgeConfig::inline_slice`):
//! short programs need no interpreter thread; a program that reaches a tool
//! call or outlasts its slice runs again from the top on one, once, with
//! every guarantee of the thread path.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use lackpy_bridge::{Bridge, BridgeConfig, CancelToken, NamespaceTool, RunRequest};
use lackpy_lang::{Data, Grade};
use lackpy_sources::{CallContext, Tool, ToolAnswer};

/// Adds one at once (a ready answer).
struct Inc;

impl Tool for Inc {
    fn call(&self, args: Vec<Data>, _kw: Vec<(String, Data)>, _ctx: &CallContext) -> ToolAnswer {
        match args.first() {
            Some(Data::Int(n)) => ToolAnswer::Ready(Ok(Data::Int(n + 1))),
            _ => ToolAnswer::Ready(Ok(Data::None)),
        }
    }
}

fn inc() -> NamespaceTool {
    NamespaceTool::new("inc", vec!["n".into()], Grade::new(0, 0), Arc::new(Inc))
}

fn request(src: &str, tools: Vec<NamespaceTool>) -> RunRequest {
    let module = lackpy_lang::parse(src).expect("test programs parse");
    RunRequest::new(Arc::new(module), tools, std::env::temp_dir())
}

fn inline(slice: Duration) -> Bridge {
    Bridge::new(BridgeConfig {
        inline_slice: slice,
        ..BridgeConfig::default()
    })
}

/// A current-thread runtime that counts the threads it starts (each is
/// a blocking thread: the only worker is the caller's).
fn counting_runtime() -> (tokio::runtime::Runtime, Arc<AtomicUsize>) {
    let started = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&started);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .on_thread_start(move || {
            counter.fetch_add(1, Ordering::SeqCst);
        })
        .build()
        .expect("runtime");
    (rt, started)
}

#[test]
fn a_short_program_with_no_tool_call_needs_no_interpreter_thread() {
    let (rt, threads) = counting_runtime();
    let bridge = inline(Duration::from_secs(1));
    let r = rt.block_on(bridge.run(request("x = [1, 2]\nprint(x)\nsum(x)", vec![inc()])));
    assert!(r.success, "{:?}", r.error);
    assert_eq!(r.output_data(), Some(Data::Int(3.into())));
    assert_eq!(r.stdout, "[1, 2]\n");
    assert_eq!(threads.load(Ordering::SeqCst), 0);
    // Errors of the program itself are its result, also inline.
    let r = rt.block_on(bridge.run(request("x = 1\nx / 0", vec![])));
    assert_eq!(r.error_type.as_deref(), Some("ZeroDivisionError"));
    assert_eq!(threads.load(Ordering::SeqCst), 0);
}

#[test]
fn a_program_that_reaches_a_tool_call_runs_again_from_the_top_once() {
    let (rt, threads) = counting_runtime();
    let bridge = inline(Duration::from_secs(1));
    let src = "print('before')\nx = inc(1)\nprint('after')\nx";
    let r = rt.block_on(bridge.run(request(src, vec![inc()])));
    assert!(r.success, "{:?}", r.error);
    assert_eq!(r.output_data(), Some(Data::Int(2.into())));
    // The dropped attempt printed nothing that shows, and called nothing.
    assert_eq!(r.stdout, "before\nafter\n");
    assert_eq!(r.trace.len(), 1);
    assert!(threads.load(Ordering::SeqCst) >= 1);
}

#[test]
fn a_program_longer_than_its_slice_finishes_on_an_interpreter_thread() {
    let (rt, threads) = counting_runtime();
    let bridge = inline(Duration::from_micros(1));
    let src = "s = 0\nfor i in range(20000):\n    s = s + i\ns";
    let r = rt.block_on(bridge.run(request(src, vec![])));
    assert!(r.success, "{:?}", r.error);
    assert_eq!(r.output_data(), Some(Data::Int(199_990_000.into())));
    assert!(threads.load(Ordering::SeqCst) >= 1);
}

#[test]
fn the_runs_own_timeout_and_cancel_still_stop_it() {
    let (rt, _) = counting_runtime();
    let bridge = inline(Duration::from_millis(1));
    let forever = "x = 0\nfor i in range(1000000000000):\n    x = i";
    let mut req = request(forever, vec![]);
    req.limits.timeout = Duration::from_millis(50);
    let r = rt.block_on(bridge.run(req));
    assert_eq!(
        r.error_type.as_deref(),
        Some("TimeoutError"),
        "{:?}",
        r.error
    );

    // A timeout shorter than the slice is the run's own: no second attempt.
    let bridge = inline(Duration::from_secs(10));
    let mut req = request(forever, vec![]);
    req.limits.timeout = Duration::from_millis(20);
    let r = rt.block_on(bridge.run(req));
    assert_eq!(
        r.error_type.as_deref(),
        Some("TimeoutError"),
        "{:?}",
        r.error
    );

    let bridge = inline(Duration::from_millis(1));
    let cancel = CancelToken::new();
    let r = rt.block_on(async {
        let run = tokio::spawn(bridge.run_with_cancel(request(forever, vec![]), cancel.clone()));
        tokio::time::sleep(Duration::from_millis(30)).await;
        cancel.cancel();
        run.await.expect("the run task finishes")
    });
    assert_eq!(r.error_type.as_deref(), Some("Cancelled"));
}
