//! `lackpy run` writes the program's variables only with `--json`, the one
//! output that shows them: without it a large variable costs nothing at the
//! end of the run and cannot fail it; with it, a variable too large or too
//! deep for the result is replaced by a marker and the run still succeeds.

use crate::common::{lackpy, lackpy_in};

/// Leaves a million floats in `xs`.
const MILLION_FLOATS: &str = "xs = [i * 0.5 for i in range(1000000)]\nprint(len(xs), xs[-1])\n";

#[test]
fn a_large_variable_leaves_plain_output_unchanged_and_json_still_has_it() {
    let out = lackpy(&["run", "-"], MILLION_FLOATS);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, "1000000 499999.5\n");

    let out = lackpy(&["run", "-", "--json"], MILLION_FLOATS);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).expect("one JSON object");
    assert_eq!(v["success"], true);
    assert_eq!(v["stdout"], "1000000 499999.5\n");
    let xs = v["variables"]["xs"].as_array().expect("xs is in variables");
    assert_eq!(xs.len(), 1_000_000);
    assert_eq!(xs[999_999], 499_999.5);
}

#[test]
fn a_variable_past_the_result_limit_is_left_out_of_the_json_run() {
    // 8 MiB of memory and of result: the list holds one string 100,000
    // times (under 1 MB of values) but writes 10 MB of JSON.
    let ws = tempfile::tempdir().expect("a temp dir");
    std::fs::create_dir(ws.path().join(".lackpy")).expect("mkdir .lackpy");
    std::fs::write(
        ws.path().join(".lackpy/config.toml"),
        "[limits]\nmax_memory_mb = 8\n",
    )
    .expect("write the config");
    let program = "s = 'x' * 100\nxs = [s] * 100000\nprint(len(xs))\n";

    let out = lackpy_in(ws.path(), &["run", "-"], program);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, "100000\n");

    let out = lackpy_in(ws.path(), &["run", "-", "--json"], program);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).expect("one JSON object");
    assert_eq!(v["success"], true);
    assert_eq!(v["stdout"], "100000\n");
    assert_eq!(v["variables"]["s"], "x".repeat(100));
    assert_eq!(
        v["variables"]["xs"],
        serde_json::json!({"__lackpy_omitted__": "too large"})
    );
}

#[test]
fn a_variable_too_deep_for_json_is_left_out_of_the_json_run() {
    // Succeeds without --json; the result writer must not fail it with
    // --json (it used to: RecursionError while encoding `variables`).
    let program = "x = ()\nfor i in range(10000): x = (x,)\nprint(len(x))\n";
    let out = lackpy(&["run", "-"], program);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, "1\n");

    let out = lackpy(&["run", "-", "--json"], program);
    assert_eq!(out.code, 0, "{} {}", out.stdout, out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).expect("one JSON object");
    assert_eq!(v["success"], true, "{v}");
    assert_eq!(v["stdout"], "1\n");
    assert_eq!(
        v["variables"]["x"],
        serde_json::json!({"__lackpy_omitted__": "too deep"})
    );
    assert_eq!(v["variables"]["i"], 9999);
}
