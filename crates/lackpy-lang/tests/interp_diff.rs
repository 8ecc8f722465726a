//! Differential test of the interpreter against CPython 3.11.
//!
//! `tests/difftest/cpython_run.py` generates programs from a fixed seed
//! (aimed at the interpreter's fast paths: int accumulators at the i64
//! limits, augmented assignment over mixed types, comprehensions over
//! ranges, `sum`, few-argument calls, constant-key lookups) and runs each
//! with CPython; ours must give the same repr or the same error.
//! `python3` is required: without it the test fails.

use std::process::Command;

use lackpy_lang::interp::{NoTools, RunOptions, run};
use serde_json::Value;

#[test]
fn generated_programs_match_cpython() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/difftest/cpython_run.py");
    let out = Command::new("python3")
        .args([script, "20261130", "600"])
        .output()
        .expect("python3 is required for the differential test");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cases: Vec<Value> = serde_json::from_slice(&out.stdout).expect("JSON from the helper");
    assert_eq!(cases.len(), 600);
    let mut failures = Vec::new();
    for case in &cases {
        let src = case["program"].as_str().expect("program");
        let module = lackpy_lang::parse(src).expect("generated programs parse");
        let got = run(&module, &mut NoTools, &[], &RunOptions::default());
        let ours = match &got.error {
            None => got.output_repr.clone().unwrap_or_default(),
            Some(msg) => format!("{}: {msg}", got.error_type.clone().unwrap_or_default()),
        };
        let want = case
            .get("repr")
            .or_else(|| case.get("error"))
            .and_then(Value::as_str)
            .unwrap_or_default();
        // CPython's bare MemoryError prints as "MemoryError: ".
        if ours.trim_end() != want.trim_end() {
            failures.push(format!("{src}\n  CPython: {want}\n  ours:    {ours}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} differ:\n{}",
        failures.len(),
        cases.len(),
        failures[..failures.len().min(5)].join("\n\n")
    );
}
