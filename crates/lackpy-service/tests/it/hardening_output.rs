//! Issue 12 §2 through the real binary: every producer of output is charged
//! to the run's budget. A value that shares structure writes far more than
//! it holds; `lackpy run --json` must end such a run with a clear error in
//! bounded time and memory, and print a small, valid JSON result.
//!
//! Each workspace sets `max_memory_mb = 4` (the result limit follows it), so
//! that the bounds are reached after a few megabytes.

use crate::common;

use std::path::Path;

use common::{Out, lackpy_in};

fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let cfg = dir.path().join(".lackpy");
    std::fs::create_dir_all(&cfg).expect("config dir");
    std::fs::write(cfg.join("config.toml"), "[limits]\nmax_memory_mb = 4\n").expect("config");
    dir
}

fn run_json(ws: &Path, program: &str, tools: &str) -> (Out, serde_json::Value) {
    let out = lackpy_in(
        ws,
        &["run", "-", "--json", "--timeout", "5000", "--tools", tools],
        program,
    );
    // A bounded, valid JSON object, however large the values were: what
    // the program printed is held to the captured-stdout limit (1 MiB, as
    // `print` writes each argument once it is made, as CPython does), and
    // the rest is small.
    let v: serde_json::Value = serde_json::from_str(&out.stdout)
        .unwrap_or_else(|e| panic!("one JSON object ({e}): {}", out.stdout));
    let printed = v["stdout"].as_str().map_or(0, str::len);
    assert!(printed <= (1 << 20) + 256, "{printed} bytes printed");
    assert!(
        out.stdout.len() - printed < 64 * 1024,
        "{} bytes",
        out.stdout.len()
    );
    (out, v)
}

const DAG: &str = "a = ['x']\nfor i in range(40):\n    a = [a, a]\n";

#[test]
fn a_dag_in_the_variables_is_left_out_of_the_result() {
    let ws = workspace();
    let (out, v) = run_json(ws.path(), DAG, "");
    assert_eq!(out.code, 0, "{v}");
    assert_eq!(v["success"], true);
    // The writer stops at the result limit (or, in a slow debug build,
    // at the deadline); either way the variable is left out, the run kept.
    assert_eq!(
        v["variables"]["a"],
        serde_json::json!({"__lackpy_omitted__": "too large"})
    );
}

#[test]
fn a_shared_big_string_as_the_output_is_result_too_large() {
    let ws = workspace();
    let (out, v) = run_json(ws.path(), "s = 'a' * 1000000\n_xs = [s] * 100\n_xs\n", "");
    assert_ne!(out.code, 0);
    assert_eq!(v["error_type"], "ResultTooLargeError");
    let msg = v["error"].as_str().unwrap_or("");
    assert!(msg.contains("the output"), "{msg}");
    insta::assert_snapshot!(
        "result_too_large_message",
        msg.replace(char::is_numeric, "N")
    );
    assert_eq!(v["variables"], serde_json::json!({}));
}

#[test]
fn a_shared_big_string_in_the_variables_is_left_out() {
    let ws = workspace();
    let (out, v) = run_json(ws.path(), "s = 'a' * 1000000\nxs = [s] * 100\ny = 1\n", "");
    assert_eq!(out.code, 0, "{v}");
    assert_eq!(
        v["variables"]["xs"],
        serde_json::json!({"__lackpy_omitted__": "too large"})
    );
    assert_eq!(v["variables"]["y"], 1);
}

#[test]
fn printing_a_shared_structure_is_a_memory_error() {
    let ws = workspace();
    for program in [
        "s = 'a' * 1000000\n_xs = [s] * 100\nprint(_xs)\n",
        "s = 'a' * 1000000\n_xs = [s] * 100\nprint(*_xs)\n",
        "s = 'a' * 1000000\n_t = str([s] * 100)\n",
        "_a = ['x' * 1000]\nfor i in range(40):\n    _a = [_a, _a]\n_t = '%s' % [_a]\n",
    ] {
        let (out, v) = run_json(ws.path(), program, "");
        assert_ne!(out.code, 0);
        assert_eq!(v["error_type"], "MemoryError", "{program}: {}", v["error"]);
        assert!(v["error_line"].is_number());
    }
}

#[test]
fn a_dag_as_a_tool_argument_is_a_memory_error_before_the_call() {
    let ws = workspace();
    let (out, v) = run_json(
        ws.path(),
        "a = ['x']\nfor i in range(30):\n    a = [a, a]\nfind_files(a)\n",
        "find_files",
    );
    assert_ne!(out.code, 0);
    assert_eq!(v["error_type"], "MemoryError", "{}", v["error"]);
    assert_eq!(v["error_line"], 4);
    assert_eq!(v["trace"], serde_json::json!([]));
}

#[test]
fn many_writes_of_one_shared_string_keep_previews_in_the_trace() {
    let ws = workspace();
    let (out, v) = run_json(
        ws.path(),
        "_s = 'a' * 1000000\nfor i in range(40):\n    write_file('a.txt', _s)\n",
        "write_file",
    );
    assert_eq!(out.code, 0, "{}", v["error"]);
    let written = std::fs::metadata(ws.path().join("a.txt")).expect("a.txt written");
    assert_eq!(written.len(), 1_000_000);
    let trace = v["trace"].as_array().expect("trace");
    assert_eq!(trace.len(), 40);
    for e in trace {
        let content = e["args"]["content"].as_str().expect("a string preview");
        assert_eq!(content.len(), 500 + "... (1000000 chars)".len());
        assert!(content.ends_with("... (1000000 chars)"));
    }
}

#[test]
fn ints_over_4300_digits_have_no_json_form() {
    let ws = workspace();
    let big = "big = int('9' * 4000) * int('1' + '0' * 301) + 1\n";
    // In the variables: left out with a marker, the run stands.
    let (out, v) = run_json(ws.path(), &format!("{big}y = 1\n"), "");
    assert_eq!(out.code, 0, "{v}");
    assert_eq!(
        v["variables"]["big"],
        serde_json::json!({"__lackpy_omitted__": "int over 4300 digits"})
    );
    assert_eq!(v["variables"]["y"], 1);
    // As the output itself: CPython's ValueError.
    let (out, v) = run_json(ws.path(), &format!("_{big}[_big]\n"), "");
    assert_ne!(out.code, 0);
    assert_eq!(v["error_type"], "ValueError");
    assert_eq!(
        v["error"],
        "Exceeds the limit (4300 digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit"
    );
}
