//! Differential test of the interpreter against CPython 3.11.
//!
//! `tests/it/difftest/cpython_run.py` generates programs from a fixed seed
//! and runs each with CPython; ours must give the same repr or the same
//! error. The first family aims at the interpreter's fast paths (int
//! accumulators at the i64 limits, augmented assignment over mixed types,
//! comprehensions over ranges, `sum`, few-argument calls, constant-key
//! lookups); eleven more cover string methods, slicing with negative and
//! huge steps, dict and set operations, sorting with keys and ties,
//! comprehensions with conditions, enumerate/zip/items unpacking,
//! `%`/`format`/f-string specs, big ints near and past the i64 limits,
//! float repr, containment in (big) ranges and min/max with key/default.
//! Every program must also pass validation, so the comparison stays inside
//! the language. `python3` is required: without it the test fails.

use std::process::Command;

use lackpy_lang::{NoTools, RunOptions, run};
use serde_json::Value;

/// Programs per added family (eleven families after the 600 of the first).
const PER_FAMILY: usize = 120;

/// Divergences the generated run once found (huge slice steps, ranges past
/// i64, sliced ranges, `range.index` of a non-int, `-2**63 == float(-2**63)`),
/// reduced to one program each, with CPython 3.11's answers.
const REGRESSION_CASES: &[(&str, &str)] = &[
    ("x = [1, 2, 3]\nx[1::9223372036854775807]", "[2]"),
    ("x = 'abc'\nx[1::100000000000000000000]", "'b'"),
    (
        "r = range(100000000000000000000)\n[r[3], 5 in r, r[-1]]",
        "[3, True, 99999999999999999999]",
    ),
    (
        "a = 18446744073709551616\nlist(range(a, a + 2))",
        "[18446744073709551616, 18446744073709551617]",
    ),
    // Wrong values, not an error: the length wraps.
    (
        "r = range(-9223372036854775808, 9223372036854775807)\nlist(r[-2:])",
        "[9223372036854775805, 9223372036854775806]",
    ),
    ("r = range(10)\nr[3:0:1]", "range(3, 0)"),
    ("r = range(-5, 20, 3)\nr[100:3:2]", "range(22, 4, 6)"),
    ("r = range(10, 0, -2)\nr[3:100:3]", "range(4, 0, -6)"),
    (
        "r = range(10)\nr.index('1')",
        "ValueError: sequence.index(x): x not in sequence",
    ),
    (
        "x = range(-5, 20, 3)\nlen(x[-9223372036854775808:-100:-9223372036854775808])",
        "0",
    ),
    (
        "a = -9223372036854775808\n[a == float(a), float(a) == a]",
        "[True, True]",
    ),
];

/// The helper's cases: `python3 cpython_run.py SEED 600 PER_FAMILY`; the
/// seed is fixed unless `LACKPY_FUZZ_SEED` names another (for exploring).
fn cases() -> Vec<Value> {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/it/difftest/cpython_run.py"
    );
    let seed = std::env::var("LACKPY_FUZZ_SEED").unwrap_or_else(|_| "20261130".to_owned());
    let out = Command::new("python3")
        .args([script, &seed, "600", &PER_FAMILY.to_string()])
        .output()
        .expect("python3 is required for the differential test");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cases: Vec<Value> = serde_json::from_slice(&out.stdout).expect("JSON from the helper");
    // A few programs CPython is too slow over are left out by the helper.
    assert!(cases.len() >= 600 + 11 * PER_FAMILY - 10, "{}", cases.len());
    cases
}

/// Runs one case with ours; `Some` describes a divergence.
fn diverges(case: &Value) -> Option<String> {
    let src = case["program"].as_str().expect("program");
    let family = case["family"].as_str().unwrap_or("fast");
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
    // CPython's bare MemoryError prints as "MemoryError: ".
    (ours.trim_end() != want.trim_end())
        .then(|| format!("[{family}] {src}\n  CPython: {want}\n  ours:    {ours}"))
}

fn assert_none_diverge(cases: &[&Value]) {
    let failures: Vec<String> = cases.iter().filter_map(|c| diverges(c)).collect();
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

#[test]
fn generated_programs_match_cpython() {
    let cases = cases();
    assert_none_diverge(&cases.iter().collect::<Vec<_>>());
}

#[test]
fn regression_cases_match_cpython() {
    let cases: Vec<Value> = REGRESSION_CASES
        .iter()
        .map(|(program, want)| {
            let key = if want.contains("Error: ") {
                "error"
            } else {
                "repr"
            };
            serde_json::json!({ "program": program, key: want, "family": "regression" })
        })
        .collect();
    assert_none_diverge(&cases.iter().collect::<Vec<_>>());
}
