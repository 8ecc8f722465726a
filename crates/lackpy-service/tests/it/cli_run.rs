//! `lackpy run`, `tools`, `status` and `init` through the real binary:
//! output, JSON shapes, exit codes, configuration errors.

use crate::common;

use common::{examples, lackpy, lackpy_in};

fn redact_durations(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                if k == "duration_ms" {
                    *x = serde_json::json!("[ms]");
                } else {
                    redact_durations(x);
                }
            }
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(redact_durations),
        _ => {}
    }
}

fn json(text: &str) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(text).expect("one JSON object on stdout");
    redact_durations(&mut v);
    v
}

#[test]
fn run_example_human_output_and_trace() {
    let ws = examples();
    let out = lackpy_in(&ws, &["-v", "run", "summarise.lpy"], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    insta::assert_snapshot!("run_example_stdout", out.stdout);
    // Timings vary: keep everything but them.
    let trace: Vec<&str> = out
        .stderr
        .lines()
        .filter(|l| l.starts_with("trace:") || l.starts_with("    "))
        .map(|l| match l.strip_prefix("trace:") {
            Some(_) => l.split(" in ").next().unwrap_or(l),
            None => l.rsplit_once(" [").map_or(l, |(head, _)| head),
        })
        .collect();
    insta::assert_snapshot!("run_example_trace", trace.join("\n"));
}

#[test]
fn run_json_shape() {
    let out = lackpy(
        &[
            "run",
            "-",
            "--json",
            "--params-json",
            r#"{"n": 3, "big": 123456789012345678901234567890}"#,
        ],
        "print('hi')\nxs = [n * i for i in range(3)]\nwrite_file('out.txt', 'x')\n{'xs': xs, 'big': big + 1, 'set': {3, 1}}",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    // Big ints keep every digit (the snapshot below goes through f64).
    assert!(
        out.stdout
            .contains(r#""big": 123456789012345678901234567891,"#),
        "{}",
        out.stdout
    );
    insta::assert_json_snapshot!(json(&out.stdout));
}

#[test]
fn run_json_writes_non_finite_floats_as_python_does() {
    let out = lackpy(
        &["run", "-", "--json"],
        "x = float('nan')\ny = [float('inf'), -float('inf'), 'NaN']\n[x, 1]",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    for part in [
        r#""output": [NaN, 1], "output_repr": "[nan, 1]""#,
        r#""variables": {"x": NaN, "y": [Infinity, -Infinity, "NaN"]}"#,
        r#""grade": {"w": 3, "d": 3}"#,
    ] {
        assert!(out.stdout.contains(part), "{part} in {}", out.stdout);
    }
}

#[test]
fn run_failure_human_and_json() {
    let out = lackpy(&["run", "-"], "x = 1\nprint('before')\ny = x / 0\n");
    assert_eq!(out.code, 1);
    assert_eq!(out.stdout, "before\n");
    assert_eq!(
        out.stderr,
        "error: ZeroDivisionError: division by zero (line 3)\n"
    );
    let out = lackpy(&["run", "-", "--json"], "import os\n");
    assert_eq!(out.code, 1);
    insta::assert_json_snapshot!(json(&out.stdout));
}

#[test]
fn run_limits_and_timeout_flag() {
    let out = lackpy(
        &["run", "-", "--timeout", "200"],
        "x = 0\nfor i in range(1000000000000):\n    x = i\n",
    );
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.starts_with("error: TimeoutError:"),
        "{}",
        out.stderr
    );
    let out = lackpy(&["run", "-"], "'a' * 10000000000");
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.starts_with("error: MemoryError"),
        "{}",
        out.stderr
    );
}

#[test]
fn tools_rule_and_profile_errors_are_usage_errors() {
    let out = lackpy(&["run", "-", "--tools", "nope"], "1");
    assert_eq!(out.code, 2);
    insta::assert_snapshot!(out.stderr, @"error: unknown tool 'nope' in --tools (tools: read_file, find_files, write_file, edit_file)");
    let out = lackpy(&["run", "-", "--profile", "ghost"], "1");
    assert_eq!(out.code, 2);
    insta::assert_snapshot!(out.stderr, @"error: unknown profile 'ghost' (known: none)");
    let out = lackpy(&["run", "-", "--rule", "max_depth"], "1");
    assert_eq!(out.code, 2);
}

#[test]
fn a_single_tool_name_is_a_tool_list() {
    let out = lackpy(
        &["run", "-", "--tools", "read_file", "--json"],
        "find_files('*')",
    );
    assert_eq!(out.code, 1);
    let v = json(&out.stdout);
    assert_eq!(
        v["error"],
        "Validation failed: Unknown function: 'find_files' at line 1 (not a tool of this namespace or a builtin)"
    );
}

#[test]
fn tools_and_status_in_an_empty_directory() {
    let out = lackpy(&["tools"], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    insta::assert_snapshot!("tools_empty_dir", out.stdout);
    let out = lackpy(&["tools", "--json"], "");
    insta::assert_json_snapshot!("tools_empty_dir_json", json(&out.stdout));
    let out = lackpy(&["status", "--json"], "");
    let mut v = json(&out.stdout);
    v["workspace"] = serde_json::json!("[dir]");
    v["inventory"]["changed_at"] = serde_json::json!("[time]");
    insta::assert_json_snapshot!("status_empty_dir_json", v);
}

#[test]
fn init_writes_once_and_the_config_loads() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = lackpy_in(dir.path(), &["init"], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with("wrote "));
    let again = lackpy_in(dir.path(), &["init"], "");
    assert_eq!(again.code, 2);
    assert!(
        again
            .stderr
            .contains("already exists (use --force to overwrite)"),
        "{}",
        again.stderr
    );
    let forced = lackpy_in(dir.path(), &["init", "--force"], "");
    assert_eq!(forced.code, 0);
    // The starter config is valid: status loads it without warnings.
    let status = lackpy_in(dir.path(), &["status"], "");
    assert_eq!(status.code, 0, "{}", status.stderr);
    assert_eq!(status.stderr, "");
    assert!(
        status.stdout.contains("profiles:    reader"),
        "{}",
        status.stdout
    );
    let run = lackpy_in(
        dir.path(),
        &["run", "-", "--profile", "reader"],
        "find_files('**/*')",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "['.lackpy', '.lackpy/config.toml']\n");
}

#[test]
fn broken_config_is_one_clear_line_and_exit_2() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join(".lackpy")).expect("mkdir");
    std::fs::write(
        dir.path().join(".lackpy/config.toml"),
        "[limits]\ntimeout_ms = \"fast\"\n",
    )
    .expect("write");
    for cmd in [
        &["tools"][..],
        &["status"],
        &["run", "-"],
        &["validate", "-"],
    ] {
        let out = lackpy_in(dir.path(), cmd, "1");
        assert_eq!(out.code, 2, "{cmd:?}");
        assert_eq!(out.stderr.lines().count(), 1, "{cmd:?}: {}", out.stderr);
        insta::assert_snapshot!(
            "broken_config",
            out.stderr
                .replace(&dir.path().display().to_string(), "[ws]")
        );
    }
}

#[test]
fn unknown_keys_warn_once_and_run_anyway() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join(".lackpy")).expect("mkdir");
    std::fs::write(dir.path().join(".lackpy/config.toml"), "[limitz]\nx = 1\n").expect("write");
    let out = lackpy_in(dir.path(), &["run", "-"], "1 + 1");
    assert_eq!(out.code, 0);
    assert_eq!(out.stdout, "2\n");
    assert_eq!(out.stderr.matches("limitz").count(), 1, "{}", out.stderr);
}
