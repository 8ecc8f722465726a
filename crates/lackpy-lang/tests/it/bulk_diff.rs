//! Differential test of the bulk collection paths against CPython 3.11.
//!
//! `tests/it/difftest/gen_bulk.py` generates programs from a fixed seed that
//! drain each iterator kind at once (`list()`, `tuple()`, `sorted()`, ...):
//! ranges near the i64 limits, reversed sequences (also after the list was
//! shrunk or grown), `enumerate`, `zip` of one to five iterables, dict views
//! and shared iterator objects. Ours must give the same repr or the
//! same error. `python3` is required: without it the test fails.

use std::process::Command;

use lackpy_lang::{NoTools, RunOptions, run};
use serde_json::Value;

/// Programs per family (three families).
const PER_FAMILY: usize = 200;

fn cases() -> Vec<Value> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/it/difftest/gen_bulk.py");
    let seed = std::env::var("LACKPY_FUZZ_SEED").unwrap_or_else(|_| "20261201".to_owned());
    let out = Command::new("python3")
        .args([script, &seed, &PER_FAMILY.to_string()])
        .output()
        .expect("python3 is required for the differential test");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cases: Vec<Value> = serde_json::from_slice(&out.stdout).expect("JSON from the helper");
    assert_eq!(cases.len(), 3 * PER_FAMILY);
    cases
}

/// Runs one case with ours; `Some` describes a divergence.
fn diverges(case: &Value) -> Option<String> {
    let src = case["program"].as_str().expect("program");
    let family = case["family"].as_str().unwrap_or("?");
    let module = match lackpy_lang::parse(src) {
        Ok(m) => m,
        Err(e) => return Some(format!("[{family}] {src}\n  does not parse: {e}")),
    };
    let v = lackpy_lang::validate_module::<&str>(&module, &[], &[]);
    if !v.valid {
        return Some(format!(
            "[{family}] {src}\n  outside the language: {:?}",
            v.errors
        ));
    }
    let ours = std::panic::catch_unwind(|| {
        let got = run(&module, &mut NoTools, &[], &RunOptions::default());
        match &got.error {
            None => got.output_repr.clone().unwrap_or_default(),
            Some(msg) => format!("{}: {msg}", got.error_type.clone().unwrap_or_default()),
        }
    })
    .unwrap_or_else(|_| "a panic".to_owned());
    let want = case
        .get("repr")
        .or_else(|| case.get("error"))
        .and_then(Value::as_str)
        .unwrap_or_default();
    (ours.trim_end() != want.trim_end())
        .then(|| format!("[{family}] {src}\n  CPython: {want}\n  ours:    {ours}"))
}

#[test]
fn bulk_collection_matches_cpython() {
    let cases = cases();
    let failures: Vec<String> = cases.iter().filter_map(diverges).collect();
    if std::env::var_os("LACKPY_FUZZ_VERBOSE").is_some() {
        for f in &failures {
            eprintln!("!!! {f}\n");
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} differ:\n{}",
        failures.len(),
        cases.len(),
        failures[..failures.len().min(8)].join("\n\n")
    );
}
