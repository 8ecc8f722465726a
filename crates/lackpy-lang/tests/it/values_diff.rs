//! Regressions of issue 27's value-model divergences (identity, the
//! identity shortcut of container comparisons, generic aliases, dict view
//! set operations, index overflow, nested `isinstance` tuples, names that
//! exist at run time), each program checked against CPython 3.11 on every
//! run (`tests/it/difftest/cpython_eval.py`), and the generated family
//! `gen_identity.py` around them. The programs compute their answer in the
//! body and end with a name: CPython compiles the last expression apart, so
//! its constants are other objects than the body's. `python3` is required.

use crate::difftest;

use lackpy_lang::{NoTools, RunOptions, run};
use serde_json::{Value, json};

/// What a program gives: `repr` of its last expression's value or
/// `Type: message`, and what it printed.
fn ours(src: &str) -> Value {
    let module = lackpy_lang::parse(src).expect("program parses");
    let o = run(&module, &mut NoTools, &[], &RunOptions::default());
    if o.success {
        json!({"repr": o.output_repr.unwrap_or_default(), "stdout": o.stdout})
    } else {
        json!({
            "error": format!("{}: {}", o.error_type.unwrap_or_default(), o.error.unwrap_or_default()),
            "stdout": o.stdout,
        })
    }
}

/// Every program is valid and gives what CPython gives.
fn matches_cpython(programs: &[&str]) {
    let theirs = difftest::cpython("cpython_eval.py", &json!(programs));
    let theirs = theirs.as_array().expect("a list");
    assert_eq!(theirs.len(), programs.len());
    let diffs: Vec<String> = programs
        .iter()
        .zip(theirs)
        .filter_map(|(src, want)| {
            let module = lackpy_lang::parse(src).expect("program parses");
            let v = lackpy_lang::validate_module::<&str>(&module, &[], &[]);
            if !v.valid {
                return Some(format!("{src:?}\n  outside the language: {:?}", v.errors));
            }
            let got = ours(src);
            (got != *want).then(|| format!("{src:?}\n  CPython: {want}\n  ours:    {got}"))
        })
        .collect();
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
}

#[test]
fn isinstance_of_deeply_nested_tuples_is_a_recursion_error() {
    matches_cpython(&[
        "t = str\nfor i in range(990):\n    t = (t,)\nr = [isinstance(1, t), isinstance('a', t)]\nt = 0\nr",
        "t = str\nfor i in range(1000):\n    t = (t,)\nisinstance(1, t)",
        "t = str\nfor i in range(100000):\n    t = (t,)\nisinstance('a', t)",
        "t = str\nfor i in range(5000):\n    t = (t,)\nr = isinstance(1, (int, t))\nt = 0\nr",
        "t = str\nfor i in range(5000):\n    t = (t,)\nisinstance(1, (t, int))",
        "t = 3\nfor i in range(50):\n    t = (t,)\nisinstance(1, t)",
    ]);
}
