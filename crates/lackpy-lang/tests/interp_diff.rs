//! Differential test of the interpreter against CPython 3.11.
//!
//! `tests/difftest/cpython_run.py` generates programs from a fixed seed
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

use lackpy_lang::interp::{NoTools, RunOptions, run};
use serde_json::Value;

/// Programs per added family (eleven families after the 600 of the first).
const PER_FAMILY: usize = 120;

/// Whether a program shows a known divergence.
type Matcher = fn(&str) -> bool;

/// Divergences that are known defects, open on this branch and fixed
/// elsewhere: `(matches the program, why)`. Such programs are left out of
/// the comparison here and run by the ignored test below, which the lead
/// un-ignores once the fixes are merged; `known_open_cases` holds a
/// minimal reproduction of each.
const KNOWN_OPEN: &[(Matcher, &str)] = &[
    (
        huge_slice_step,
        "a slice step near i64::MAX overflows (ops.rs `pick`)",
    ),
    (big_range, "range bounds or lengths past i64"),
    (
        range_slice_shown,
        "a sliced range shows another stop than CPython's",
    ),
    (
        range_index_non_int,
        "range.index of a non-int: message differs",
    ),
    (
        range_slice_min_step,
        "a range sliced with step -2**63 overflows",
    ),
    (min_int_float_eq, "-2**63 == float(-2**63) is False"),
];

/// A range sliced with the step `-9223372036854775808`.
fn range_slice_min_step(src: &str) -> bool {
    (src.starts_with("x = range(") || src.starts_with("r = range("))
        && src.contains(":-9223372036854775808]")
}

/// An int compared with a float where the int may be `-2**63`.
fn min_int_float_eq(src: &str) -> bool {
    src.contains("-9223372036854775808") && src.contains("== float(")
}

/// `x[a:b:9223372036854775807]` on a non-empty sequence.
fn huge_slice_step(src: &str) -> bool {
    src.contains(":9223372036854775807]") || src.contains(":100000000000000000000]")
}

/// A range whose bounds or length may not fit an i64 (in the big-int
/// family, any range over its `a` and `b`, which loops may have grown).
fn big_range(src: &str) -> bool {
    let over_ab =
        src.starts_with("a = ") && (src.contains("range(a") || src.contains("range(0, a"));
    [
        "range(100000000000000000000",
        "range(0, 100000000000000000000",
        "range(-9223372036854775808, 9223372036854775807",
        "range(9223372036854775807, 0, -9223372036854775807",
    ]
    .iter()
    .any(|r| src.contains(r))
        || over_ab
}

/// A slice of a range shown as a range (not turned into a list first).
fn range_slice_shown(src: &str) -> bool {
    let Some(var) = ["x = range(", "r = range("]
        .iter()
        .find(|p| src.starts_with(*p))
        .and_then(|p| p.chars().next())
    else {
        return false;
    };
    let last = format!(" {}", src.lines().last().unwrap_or_default());
    [format!(" {var}["), format!("[{var}["), format!(", {var}[")]
        .iter()
        .any(|open| {
            last.match_indices(open.as_str()).any(|(at, _)| {
                let rest = &last[at + open.len()..];
                rest.split(']')
                    .next()
                    .is_some_and(|inside| inside.contains(':'))
            })
        })
}

/// `r.index(x)` with an `x` that is not an int literal.
fn range_index_non_int(src: &str) -> bool {
    src.match_indices("r.index(").any(|(at, _)| {
        !src[at + 8..].starts_with(|c: char| c.is_ascii_digit() || c == '-')
            || src[at + 8..]
                .split(')')
                .next()
                .is_some_and(|a| a.contains(['.', 'e']))
    })
}

/// Minimal reproductions of the open divergences, with CPython 3.11's answers.
const KNOWN_OPEN_CASES: &[(&str, &str)] = &[
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
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/difftest/cpython_run.py");
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
    let v = lackpy_lang::validate::validate_module::<&str>(&module, &[], &[]);
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

fn known_open(case: &Value) -> bool {
    let src = case["program"].as_str().unwrap_or_default();
    KNOWN_OPEN.iter().any(|(matches, _)| matches(src))
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
    let open: Vec<&Value> = cases.iter().filter(|c| known_open(c)).collect();
    // The exclusions stay narrow.
    assert!(open.len() < cases.len() / 10, "{} excluded", open.len());
    assert_none_diverge(&cases.iter().filter(|c| !known_open(c)).collect::<Vec<_>>());
}

#[test]
#[ignore = "issue 12: range past i64, sliced range stops, huge slice steps (interp ops/builtins); fixed on the interp branch"]
fn known_open_divergences_match_cpython_too() {
    let cases = cases();
    assert_none_diverge(&cases.iter().filter(|c| known_open(c)).collect::<Vec<_>>());
}

#[test]
#[ignore = "issue 12: range past i64, sliced range stops, huge slice steps (interp ops/builtins); fixed on the interp branch"]
fn known_open_cases() {
    let cases: Vec<Value> = KNOWN_OPEN_CASES
        .iter()
        .map(|(program, want)| {
            let key = if want.contains("Error: ") {
                "error"
            } else {
                "repr"
            };
            serde_json::json!({ "program": program, key: want, "family": "known-open" })
        })
        .collect();
    assert_none_diverge(&cases.iter().collect::<Vec<_>>());
}

#[test]
fn known_open_matchers_match_their_cases() {
    for (program, _) in KNOWN_OPEN_CASES {
        assert!(
            KNOWN_OPEN.iter().any(|(matches, _)| matches(program)),
            "{program}"
        );
    }
    assert!(
        !KNOWN_OPEN
            .iter()
            .any(|(m, _)| m("x = [1]\n[x[1:2], x[::2]]"))
    );
}
