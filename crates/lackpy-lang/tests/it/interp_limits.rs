//! Every limit ends a run cleanly: deadline, steps, memory, depth, stdout
//! and cancellation.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use lackpy_lang::Data;
use lackpy_lang::ast::{Expr, ExprKind, Module, Operator, Stmt, StmtKind};
use lackpy_lang::{Limits, NoTools, RunOptions, RunOutcome, run};

fn run_with(src: &str, opts: &RunOptions) -> RunOutcome {
    let module = lackpy_lang::parse(src).expect("program parses");
    run(&module, &mut NoTools, &[], opts)
}

fn run_src(src: &str) -> RunOutcome {
    run_with(src, &RunOptions::default())
}

/// Runs `f` on a thread with a 2 MiB stack, as a host might.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(f)
        .expect("thread starts")
        .join()
        .expect("no panic or stack overflow")
}

#[test]
fn busy_loop_stops_at_the_deadline() {
    let limits = Limits {
        timeout: Duration::from_millis(300),
        ..Limits::default()
    };
    let opts = RunOptions {
        limits,
        ..RunOptions::default()
    };
    let start = Instant::now();
    let out = run_with("for i in range(1000000000000):\n    x = i\n", &opts);
    let took = start.elapsed();
    assert!(!out.success);
    let kind = out.error_type.as_deref().unwrap_or("");
    assert!(kind == "TimeoutError" || kind == "StepLimitError", "{kind}");
    assert!(took < Duration::from_millis(360), "took {took:?}");
    assert!(out.error_line.is_some());
}

#[test]
fn step_budget_ends_a_loop() {
    let limits = Limits {
        max_steps: 1000,
        ..Limits::default()
    };
    let opts = RunOptions {
        limits,
        ..RunOptions::default()
    };
    let out = run_with(
        "total = 0\nfor i in range(100000):\n    total += i\n",
        &opts,
    );
    assert_eq!(out.error_type.as_deref(), Some("StepLimitError"));
    assert!(out.variables.is_empty());
}

#[test]
fn long_builtin_stops_at_the_deadline() {
    let limits = Limits {
        timeout: Duration::from_millis(200),
        ..Limits::default()
    };
    let opts = RunOptions {
        limits,
        ..RunOptions::default()
    };
    let start = Instant::now();
    let out = run_with("sum(range(1000000000000))", &opts);
    assert_eq!(out.error_type.as_deref(), Some("TimeoutError"));
    assert!(start.elapsed() < Duration::from_millis(400));
}

/// The run ends with a MemoryError. Under the default limits that also
/// means it ended before its deadline (a run that only stopped there would
/// end with TimeoutError), without a wall-clock bound of this test's own:
/// how long the append loop takes to reach the budget depends on the
/// build and on the machine's load, not on the limit being enforced.
fn assert_memory_error(src: &str) {
    let out = run_src(src);
    assert_eq!(
        out.error_type.as_deref(),
        Some("MemoryError"),
        "{src}: {:?}",
        out.error
    );
}

#[test]
fn memory_bombs_fail_fast() {
    assert_memory_error("'a' * 10000000000");
    assert_memory_error("[0] * 10000000000");
    assert_memory_error("f'{1:>1000000000}'");
    assert_memory_error("s = 'ab'\nfor i in range(100):\n    s = s + s\n");
    assert_memory_error("s = 'ab'\nfor i in range(100):\n    s += s\n");
    assert_memory_error("x = 10\nfor i in range(100):\n    x = x * x\n");
    // `'x' * 1000` would be one folded constant, appended again and again
    // (as CPython folds it): the size comes from a name.
    assert_memory_error("n = 1000\nxs = []\nfor i in range(10000000):\n    xs.append('x' * n)\n");
    assert_memory_error("xs = [1]\nfor i in range(100):\n    xs = xs + xs\n");
    assert_memory_error("list(range(1000000000000))");
    assert_memory_error("'-'.join(['abc'] * 100000000)");
}

#[test]
fn memory_is_given_back() {
    // Strings that die each iteration do not add up.
    let out = run_src("for i in range(200000):\n    s = 'x' * 2000\nlen(s)");
    assert!(out.success, "{:?}", out.error);
}

#[test]
fn deep_expression_is_a_recursion_error_not_a_crash() {
    let out = on_small_stack(|| {
        let mut e = Expr {
            line: 1,
            col: 0,
            kind: ExprKind::Constant(lackpy_lang::ast::Constant::Int(1.into())),
        };
        for _ in 0..500 {
            let one = Expr {
                line: 1,
                col: 0,
                kind: ExprKind::Constant(lackpy_lang::ast::Constant::Int(1.into())),
            };
            e = Expr {
                line: 1,
                col: 0,
                kind: ExprKind::BinOp {
                    left: Box::new(e),
                    op: Operator::Add,
                    right: Box::new(one),
                },
            };
        }
        let module = Module {
            body: vec![Stmt {
                line: 1,
                col: 0,
                kind: StmtKind::Expr(Box::new(e)),
            }],
        };
        run(&module, &mut NoTools, &[], &RunOptions::default())
    });
    assert_eq!(out.error_type.as_deref(), Some("RecursionError"));
}

#[test]
fn runaway_lambda_recursion_is_a_recursion_error() {
    let out = on_small_stack(|| run_src("d = dict(key=lambda v: d['key'](v))\nd['key'](1)"));
    assert_eq!(out.error_type.as_deref(), Some("RecursionError"));
    assert_eq!(
        out.error.as_deref(),
        Some("maximum recursion depth exceeded")
    );
}

#[test]
fn deep_and_cyclic_data_is_safe() {
    let out = on_small_stack(|| {
        run_src("nested = []\nfor i in range(100000):\n    nested = [nested]\nr = str(nested)")
    });
    assert_eq!(out.error_type.as_deref(), Some("RecursionError"));
    // A variable too deep for JSON is left out of the result, the run kept.
    let out = on_small_stack(|| {
        run_src("nested = []\nfor i in range(100000):\n    nested = [nested]\nlen(nested)")
    });
    assert!(out.success, "{:?}", out.error);
    let nested = out.variables.iter().find(|(k, _)| k == "nested");
    assert_eq!(
        nested.map(|(_, v)| v.as_str()),
        Some("{\"__lackpy_omitted__\": \"too deep\"}")
    );
    let out = on_small_stack(|| {
        run_src("a = []\na.append(a)\nb = {'self': None}\nb['self'] = b\n[str(a), str(b), a == a]")
    });
    assert!(out.success, "{:?}", out.error);
    assert_eq!(
        out.output_repr.as_deref(),
        Some("['[[...]]', \"{'self': {...}}\", True]")
    );
}

#[test]
fn stdout_is_capped() {
    let limits = Limits {
        max_stdout: 1000,
        ..Limits::default()
    };
    let opts = RunOptions {
        limits,
        ..RunOptions::default()
    };
    let out = run_with("for i in range(1000):\n    print('line', i)\n'done'", &opts);
    assert!(out.success);
    assert!(out.stdout.len() < 1100);
    assert!(out.stdout.contains("truncated"));
    assert_eq!(out.output_data(), Some(Data::Str("done".into())));
}

#[test]
fn cancellation_stops_a_busy_loop_quickly() {
    let flag = Arc::new(AtomicBool::new(false));
    let opts = RunOptions {
        cancel: Some(flag.clone()),
        ..RunOptions::default()
    };
    let worker = std::thread::spawn(move || {
        let out = run_with("for i in range(1000000000000):\n    x = i\n", &opts);
        (out, Instant::now())
    });
    std::thread::sleep(Duration::from_millis(100));
    let cancelled_at = Instant::now();
    flag.store(true, Ordering::Relaxed);
    let (out, ended_at) = worker.join().expect("worker finishes");
    assert_eq!(out.error_type.as_deref(), Some("Cancelled"));
    // The flag is read every step, so the run ends microseconds after it is
    // set; the bound is loose because this machine's scheduler (2 cores
    // shared by parallel test binaries) can delay the worker thread itself.
    // An interpreter that ignored the flag would run to the 30 s timeout.
    assert!(ended_at.duration_since(cancelled_at) < Duration::from_millis(500));
}

#[test]
fn an_explicit_deadline_overrides_the_timeout() {
    let opts = RunOptions {
        deadline: Some(Instant::now() + Duration::from_millis(50)),
        ..RunOptions::default()
    };
    let out = run_with("for i in range(1000000000000):\n    x = i\n", &opts);
    assert_eq!(out.error_type.as_deref(), Some("TimeoutError"));
}
