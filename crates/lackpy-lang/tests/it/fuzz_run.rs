//! Fuzz target: run generated *valid* programs under a small budget.
//!
//! Every program comes from the runnable mode of the generator in
//! `programs` (loops, comprehensions, string/list/dict/set operations, big
//! ints, formatting, and loops that double a value to build DAGs or grow
//! without end). Each
//! must parse, pass validation, and then end with a value or a clean error
//! within a bounded wall time, without a panic or a stack overflow, while
//! the process's memory stays bounded.
//!
//! CI runs a fixed number of cases from a fixed seed. For a longer run:
//! `LACKPY_FUZZ_CASES=100000 cargo test -p lackpy-lang --test it fuzz_run::`;
//! `LACKPY_FUZZ_SEED=N` changes the cases, `LACKPY_FUZZ_VERBOSE=1` prints
//! each program before it runs (to find one that aborts the process).

use crate::programs;

use std::time::{Duration, Instant};

use lackpy_lang::{Limits, NoTools, RunOptions, run};
use programs::{CASE_WALL, Gen, Rng};

/// The error types a budgeted run may end with: Python's own plus ours.
const CLEAN: &[&str] = &[
    "TypeError",
    "ValueError",
    "KeyError",
    "IndexError",
    "NameError",
    "UnboundLocalError",
    "AttributeError",
    "ZeroDivisionError",
    "OverflowError",
    "RecursionError",
    "MemoryError",
    "RuntimeError",
    "TimeoutError",
    "StepLimitError",
];

fn small_budget() -> RunOptions {
    RunOptions {
        limits: Limits {
            timeout: Duration::from_millis(200),
            max_steps: 100_000,
            max_memory: 8 << 20,
            max_depth: 200,
            max_stdout: 64 << 10,
            ..Limits::default()
        },
        ..RunOptions::default()
    }
}

/// Parses, validates and runs one program; `Ok` is how it ended (`ok` or
/// the error type), `Err` says what went wrong.
fn check(src: &str) -> Result<String, String> {
    let module = lackpy_lang::parse(src).map_err(|e| format!("does not parse: {e}"))?;
    let v = lackpy_lang::validate_module::<&str>(&module, &[], &[]);
    if !v.valid {
        return Err(format!("does not validate: {:?}", v.errors));
    }
    let start = Instant::now();
    let out = run(&module, &mut NoTools, &[], &small_budget());
    let took = start.elapsed();
    if took > CASE_WALL {
        return Err(format!("took {took:?} under a 200 ms budget"));
    }
    if out.stdout.len() > (64 << 10) + 1024 {
        return Err(format!("stdout of {} bytes past the cap", out.stdout.len()));
    }
    match (&out.error, out.error_type.as_deref()) {
        (None, _) if out.success => Ok("ok".to_owned()),
        (Some(_), Some(kind)) if CLEAN.contains(&kind) => Ok(kind.to_owned()),
        _ => Err(format!(
            "unclean end: success={} error_type={:?} error={:?}",
            out.success, out.error_type, out.error
        )),
    }
}

/// Runs one program under the small budget on a 2 MiB stack and requires
/// a clean end within [`CASE_WALL`].
fn assert_clean(src: &'static str) {
    let res = programs::on_small_stack(move || check(src)).expect("no panic or overflow");
    assert!(res.is_ok(), "{src}: {res:?}");
}

/// A chain nested as deep as the step budget allows (built by a loop, so
/// no evaluation depth stops it) must still be written out or refused.
#[test]
fn chain_nested_by_a_loop_ends_cleanly() {
    assert_clean("v = [1]\nfor _ in range(1000000000000):\n    v = [v]\nv\n");
    assert_clean("v = {}\nfor _ in range(1000000000000):\n    v = {'k': v}\n0\n");
}

/// Found by this target: ending a run expands a shared DAG (written size
/// 2^64 nodes) while writing the output and the variables.
#[test]
fn regression_doubled_list_dag_as_output() {
    assert_clean("v = [1]\nfor _ in range(64):\n    v = [v, v]\nv\n");
}

/// The same DAG as a variable only (the run's `variables` are written too).
#[test]
fn regression_doubled_dict_dag_as_variable() {
    assert_clean("v = {'k': 1}\nfor _ in range(64):\n    v = {'a': v, 'b': v}\n0\n");
}

/// Found by this target: squaring an int until the memory limit; the last
/// multiplication (megabytes of digits) ran for seconds past a 200 ms
/// deadline while big-int arithmetic was built unoptimised in tests.
#[test]
fn regression_repeated_squaring_outlasts_the_deadline() {
    assert_clean("v = 3\nfor _ in range(100000000):\n    v = v * v + 1\n0\n");
}

/// The generated case `case` of the run seeded `seed`.
fn program(seed: u64, case: u64) -> String {
    let mut rng = Rng::for_case(seed, case);
    let mut g = Gen::runnable(&mut rng);
    g.bombs = case.is_multiple_of(4);
    g.program()
}

#[test]
fn generated_programs_end_cleanly_under_a_small_budget() {
    let seed = programs::seed(0x1a2b_3c4d);
    let cases = programs::cases(1500);
    let verbose = programs::verbose();
    let failures = programs::on_small_stack(move || {
        let mut failures = Vec::new();
        for case in 0..cases {
            let src = program(seed, case);
            if verbose {
                eprintln!("--- case {case}\n{src}");
            }
            let res = std::panic::catch_unwind(|| check(&src))
                .unwrap_or_else(|_| Err("panicked".to_owned()));
            if verbose && let Ok(end) = &res {
                eprintln!("=== {end}");
            }
            if let Err(why) = res {
                if verbose {
                    eprintln!("!!! FAILED case {case}: {why}");
                }
                failures.push(format!("case {case} (seed {seed}): {why}\n{src}"));
            }
        }
        failures
    })
    .expect("the fuzz thread ended cleanly");
    assert!(
        failures.is_empty(),
        "{} of {cases} failed:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
    if let Some(peak) = programs::peak_rss() {
        // Every run holds at most 8 MiB of values; the process must not
        // have grown anywhere near a bomb's size.
        assert!(peak < 1 << 30, "peak RSS {peak} bytes");
    }
}
