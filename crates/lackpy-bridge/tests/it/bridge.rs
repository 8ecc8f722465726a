//! The bridge under every runtime shape, with real async tools.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use lackpy_bridge::{
    BlockingBridge, Bridge, BridgeConfig, BridgeError, CancelToken, NamespaceTool, RunRequest,
};
use lackpy_lang::{Data, Grade};
use lackpy_sources::{CallContext, Tool, ToolAnswer, ToolError};

/// Echoes its first argument after yielding once to the runtime.
struct AsyncEcho;

impl Tool for AsyncEcho {
    fn call(&self, args: Vec<Data>, _kw: Vec<(String, Data)>, _ctx: &CallContext) -> ToolAnswer {
        ToolAnswer::Pending(Box::pin(async move {
            tokio::task::yield_now().await;
            Ok(args.into_iter().next().unwrap_or(Data::None))
        }))
    }
}

/// Sleeps on the runtime's timer, then answers its argument.
struct Sleep(Duration);

impl Tool for Sleep {
    fn call(&self, args: Vec<Data>, _kw: Vec<(String, Data)>, _ctx: &CallContext) -> ToolAnswer {
        let d = self.0;
        ToolAnswer::Pending(Box::pin(async move {
            tokio::time::sleep(d).await;
            Ok(args.into_iter().next().unwrap_or(Data::None))
        }))
    }
}

/// Never answers; counts how many of its futures were started and dropped.
#[derive(Default)]
struct Hang {
    started: Arc<AtomicUsize>,
    dropped: Arc<AtomicUsize>,
}

struct DropCounter(Arc<AtomicUsize>);

impl Drop for DropCounter {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

impl Tool for Hang {
    fn call(&self, _args: Vec<Data>, _kw: Vec<(String, Data)>, _ctx: &CallContext) -> ToolAnswer {
        self.started.fetch_add(1, Ordering::SeqCst);
        let guard = DropCounter(Arc::clone(&self.dropped));
        ToolAnswer::Pending(Box::pin(async move {
            let _guard = guard;
            std::future::pending::<()>().await;
            Ok(Data::None)
        }))
    }
}

/// Panics, either at once or inside its future.
struct Panicky {
    in_future: bool,
}

impl Tool for Panicky {
    fn call(&self, _args: Vec<Data>, _kw: Vec<(String, Data)>, _ctx: &CallContext) -> ToolAnswer {
        if self.in_future {
            ToolAnswer::Pending(Box::pin(async { panic!("boom in a future") }))
        } else {
            panic!("boom at once")
        }
    }
}

/// Answers at once: the fast path.
struct ReadyInc;

impl Tool for ReadyInc {
    fn call(&self, args: Vec<Data>, _kw: Vec<(String, Data)>, _ctx: &CallContext) -> ToolAnswer {
        match args.first() {
            Some(Data::Int(n)) => ToolAnswer::Ready(Ok(Data::Int(n + 1))),
            _ => ToolAnswer::Ready(Err(ToolError::type_error("inc() wants an int"))),
        }
    }
}

fn tool(name: &str, args: &[&str], imp: Arc<dyn Tool>) -> NamespaceTool {
    NamespaceTool::new(
        name,
        args.iter().map(|s| s.to_string()).collect(),
        Grade::new(0, 0),
        imp,
    )
}

fn request(src: &str, tools: Vec<NamespaceTool>) -> RunRequest {
    let module = lackpy_lang::parse(src).expect("test programs parse");
    RunRequest::new(Arc::new(module), tools, std::env::temp_dir())
}

fn int(n: i64) -> Data {
    Data::Int(n.into())
}

/// Peak RSS and thread count of this process (Linux), for the notes.
fn proc_status() -> String {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .filter(|l| l.starts_with("VmHWM") || l.starts_with("Threads"))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join(", ")
}

const HUNDRED_CALLS: &str = "total = 0\nfor i in range(100):\n    total += echo(i)\ntotal";

#[test]
fn no_deadlock_on_a_current_thread_runtime() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let bridge = Bridge::default();
    let result = rt.block_on(bridge.run(request(
        HUNDRED_CALLS,
        vec![tool("echo", &["x"], Arc::new(AsyncEcho))],
    )));
    assert!(result.success, "{:?}", result.error);
    assert_eq!(result.output_data(), Some(int(4950)));
    assert_eq!(result.trace.len(), 100);
}

#[test]
fn works_on_multi_thread_and_one_worker_runtimes() {
    for workers in [1, 4] {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(workers)
            .enable_all()
            .build()
            .expect("runtime");
        let bridge = Bridge::default();
        let result = rt.block_on(bridge.run(request(
            HUNDRED_CALLS,
            vec![tool("echo", &["x"], Arc::new(AsyncEcho))],
        )));
        assert_eq!(
            result.output_data(),
            Some(int(4950)),
            "{workers} workers: {:?}",
            result.error
        );
    }
}

#[test]
fn blocking_api_owns_its_runtime_and_refuses_misuse() {
    let bridge = BlockingBridge::new(BridgeConfig::default()).expect("bridge");
    let result = bridge
        .run_blocking(request(
            HUNDRED_CALLS,
            vec![tool("echo", &["x"], Arc::new(AsyncEcho))],
        ))
        .expect("not inside a runtime");
    assert_eq!(result.output_data(), Some(int(4950)));

    // From inside a runtime, blocking would stall it: an error, never a hang.
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let err = rt.block_on(async { bridge.run_blocking(request("1", vec![])) });
    assert_eq!(err, Err(BridgeError::InsideRuntime));
}

#[test]
fn ready_answers_take_the_fast_path() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let bridge = Bridge::default();
    let src = "n = 0\nfor i in range(1000):\n    n = inc(n)\nn";
    let result =
        rt.block_on(bridge.run(request(src, vec![tool("inc", &["n"], Arc::new(ReadyInc))])));
    assert_eq!(result.output_data(), Some(int(1000)), "{:?}", result.error);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hung_tool_times_out_and_the_next_run_works() {
    let bridge = Bridge::default();
    let hang = Arc::new(Hang::default());
    let mut t = tool("hang", &[], hang.clone());
    t.call_timeout = Some(Duration::from_millis(200));
    let src = "before = 1\nx = hang()\nx";
    let started = Instant::now();
    let result = bridge.run(request(src, vec![t])).await;
    let took = started.elapsed();
    assert!(!result.success);
    assert_eq!(result.error_type.as_deref(), Some("TimeoutError"));
    assert_eq!(
        result.error.as_deref(),
        Some("tool 'hang' timed out after 200 ms")
    );
    assert!(took < Duration::from_millis(300), "took {took:?}");
    assert_eq!(result.trace.len(), 1);
    assert!(!result.trace[0].success);
    // The tool future was dropped, so an MCP call would send its cancellation.
    tokio::time::sleep(Duration::from_millis(20)).await;
    assert_eq!(hang.dropped.load(Ordering::SeqCst), 1);

    let result = bridge
        .run(request(
            "echo(41) + 1",
            vec![tool("echo", &["x"], Arc::new(AsyncEcho))],
        ))
        .await;
    assert_eq!(result.output_data(), Some(int(42)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_the_run_future_drops_the_tool_future_and_frees_the_thread() {
    let bridge = Bridge::default();
    let hang = Arc::new(Hang::default());
    let run = bridge.run(request("hang()", vec![tool("hang", &[], hang.clone())]));
    let handle = tokio::spawn(run);
    // Wait until the call is in flight.
    let deadline = Instant::now() + Duration::from_secs(5);
    while hang.started.load(Ordering::SeqCst) == 0 {
        assert!(Instant::now() < deadline, "the tool was never called");
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    assert_eq!(bridge.active_interpreters(), 1);
    let dropped_at = Instant::now();
    handle.abort();
    loop {
        if hang.dropped.load(Ordering::SeqCst) == 1 && bridge.active_interpreters() == 0 {
            break;
        }
        assert!(
            dropped_at.elapsed() < Duration::from_millis(50),
            "not released within 50 ms"
        );
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explicit_cancel_stops_a_busy_loop() {
    let bridge = Bridge::default();
    let cancel = CancelToken::new();
    let src = "x = 0\nfor i in range(1000000000000):\n    x = i";
    let run = tokio::spawn({
        let bridge = bridge.clone();
        let cancel = cancel.clone();
        async move { bridge.run_with_cancel(request(src, vec![]), cancel).await }
    });
    tokio::time::sleep(Duration::from_millis(50)).await;
    let at = Instant::now();
    cancel.cancel();
    let result = run.await.expect("the run task finishes");
    assert!(
        at.elapsed() < Duration::from_millis(50),
        "took {:?}",
        at.elapsed()
    );
    assert_eq!(result.error_type.as_deref(), Some("Cancelled"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_tool_fails_only_its_run() {
    let bridge = Bridge::default();
    for in_future in [false, true] {
        let result = bridge
            .run(request(
                "x = boom()",
                vec![tool("boom", &[], Arc::new(Panicky { in_future }))],
            ))
            .await;
        assert!(!result.success);
        let err = result.outcome.error.unwrap_or_default();
        assert!(err.starts_with("tool 'boom' panicked: boom"), "{err}");
    }
    let result = bridge
        .run(request(
            "echo(1)",
            vec![tool("echo", &["x"], Arc::new(AsyncEcho))],
        ))
        .await;
    assert_eq!(result.output_data(), Some(int(1)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_concurrent_runs() {
    let bridge = Bridge::new(BridgeConfig {
        max_interpreters: 256,
        ..BridgeConfig::default()
    });
    let sleep: Arc<dyn Tool> = Arc::new(Sleep(Duration::from_millis(10)));
    let started = Instant::now();
    let peak = Arc::new(AtomicUsize::new(0));
    let mut runs = Vec::new();
    for n in 0..1000i64 {
        let bridge = bridge.clone();
        let req = request(
            &format!("acc = []\nfor i in range(10):\n    acc.append(nap(i + {n}))\nsum(acc)"),
            vec![tool("nap", &["x"], Arc::clone(&sleep))],
        );
        let peak = Arc::clone(&peak);
        runs.push(tokio::spawn(async move {
            let r = bridge.run(req).await;
            peak.fetch_max(bridge.active_interpreters(), Ordering::SeqCst);
            (n, r)
        }));
    }
    for run in runs {
        let (n, r) = run.await.expect("run task");
        assert_eq!(
            r.output_data(),
            Some(int(10 * n + 45)),
            "run {n}: {:?}",
            r.error
        );
    }
    let took = started.elapsed();
    assert!(took < Duration::from_secs(5), "took {took:?}");
    assert!(peak.load(Ordering::SeqCst) <= 256);
    eprintln!(
        "1000 runs x 10 async calls: {took:?}, peak interpreters {}, {}",
        peak.load(Ordering::SeqCst),
        proc_status()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn interpreter_threads_are_bounded() {
    let bridge = Bridge::new(BridgeConfig {
        max_interpreters: 2,
        ..BridgeConfig::default()
    });
    let sleep: Arc<dyn Tool> = Arc::new(Sleep(Duration::from_millis(20)));
    let peak = Arc::new(AtomicUsize::new(0));
    let mut runs = Vec::new();
    for _ in 0..8 {
        let bridge = bridge.clone();
        let req = request("nap(1)", vec![tool("nap", &["x"], Arc::clone(&sleep))]);
        runs.push(tokio::spawn(async move { bridge.run(req).await }));
    }
    let watcher = {
        let bridge = bridge.clone();
        let peak = Arc::clone(&peak);
        tokio::spawn(async move {
            for _ in 0..200 {
                peak.fetch_max(bridge.active_interpreters(), Ordering::SeqCst);
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
        })
    };
    for run in runs {
        assert!(run.await.expect("run").success);
    }
    watcher.abort();
    let peak = peak.load(Ordering::SeqCst);
    assert!((1..=2).contains(&peak), "peak {peak}");
}

#[tokio::test(flavor = "current_thread")]
async fn run_deadline_stops_a_waiting_call() {
    let bridge = Bridge::default();
    let mut req = request(
        "nap(1)",
        vec![tool(
            "nap",
            &["x"],
            Arc::new(Sleep(Duration::from_secs(30))),
        )],
    );
    req.limits.timeout = Duration::from_millis(100);
    let started = Instant::now();
    let result = bridge.run(req).await;
    assert_eq!(result.error_type.as_deref(), Some("TimeoutError"));
    assert!(started.elapsed() < Duration::from_millis(300));
}

/// Blocks until the deadline it was given, then reports its own (long)
/// timeout, as a command tool whose limit is 30 s did.
struct OwnTimeout;

impl Tool for OwnTimeout {
    fn call(&self, _args: Vec<Data>, _kw: Vec<(String, Data)>, ctx: &CallContext) -> ToolAnswer {
        let until = ctx.call_deadline(Duration::from_secs(30));
        std::thread::sleep(until.saturating_duration_since(Instant::now()));
        ToolAnswer::Ready(Err(ToolError::timeout(
            "tool 'slow' timed out after 30000 ms",
        )))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_stopped_by_the_runs_deadline_names_the_runs_timeout() {
    let bridge = Bridge::default();
    let mut req = request("slow()", vec![tool("slow", &[], Arc::new(OwnTimeout))]);
    req.limits.timeout = Duration::from_millis(150);
    let result = bridge.run(req).await;
    assert_eq!(result.error_type.as_deref(), Some("TimeoutError"));
    assert_eq!(
        result.error.as_deref(),
        Some("tool 'slow' did not finish before the run's timeout (150 ms)")
    );
    // A call timeout set by the bridge that fires first is named instead.
    let mut t = tool("slow", &[], Arc::new(OwnTimeout));
    t.call_timeout = Some(Duration::from_millis(100));
    let mut req = request("slow()", vec![t]);
    req.limits.timeout = Duration::from_secs(20);
    let result = bridge.run(req).await;
    assert_eq!(
        result.error.as_deref(),
        Some("tool 'slow' timed out after 100 ms")
    );
}
