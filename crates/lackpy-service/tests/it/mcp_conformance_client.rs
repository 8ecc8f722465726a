//! The real `lackpy` binary as the client under test of the official MCP
//! conformance suite (`@modelcontextprotocol/conformance`, pinned and
//! installed by `scripts/install-mcp-clients.sh`), one test per client
//! scenario, through `tests/conformance/client.sh`.
//!
//! Each run must pass the suite's own verdict (with
//! `tests/conformance/expected-failures.yml` as its baseline: exit code 0)
//! and, for a scenario not in the baseline, record at least one check, with
//! every check that is not INFO a SUCCESS or WARNING (a scenario whose
//! server never saw the client reports "0/0", which is no pass).
//!
//! The suite is found through `LACKPY_TEST_CONFORMANCE` (the launcher the
//! install script prints). The tests are ignored by default so that a plain
//! `cargo test` passes on a fresh machine; CI installs the suite and runs
//! them, and there a missing suite fails them.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;

const SUITE_VAR: &str = "LACKPY_TEST_CONFORMANCE";

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance")
}

/// The suite's launcher; a missing one fails the test.
fn suite() -> String {
    match std::env::var(SUITE_VAR) {
        Ok(path) if !path.is_empty() => {
            assert!(
                Path::new(&path).exists(),
                "{SUITE_VAR}={path} does not exist; run `eval \"$(bash scripts/install-mcp-clients.sh)\"`"
            );
            path
        }
        _ => panic!(
            "{SUITE_VAR} is not set: run `eval \"$(bash scripts/install-mcp-clients.sh)\"` \
             to install the MCP conformance suite, then run the ignored tests"
        ),
    }
}

/// The scenarios the baseline says fail (the `client:` list).
fn expected_failures() -> Vec<String> {
    let text = std::fs::read_to_string(dir().join("expected-failures.yml")).unwrap();
    let mut in_client = false;
    let mut names = Vec::new();
    for line in text.lines() {
        let code = line.split('#').next().unwrap_or("").trim_end();
        if code.is_empty() {
            continue;
        }
        if !code.starts_with(' ') && !code.starts_with('-') {
            in_client = code.starts_with("client:");
            continue;
        }
        if in_client && let Some(name) = code.trim().strip_prefix('-') {
            names.push(name.trim().trim_matches(['"', '\'']).to_string());
        }
    }
    names
}

/// One run of the suite: its exit code, its output, and the checks it
/// recorded.
struct Run {
    ok: bool,
    output: String,
    checks: Vec<serde_json::Value>,
}

fn run(scenario: &str) -> Run {
    let out_dir = tempfile::tempdir().unwrap();
    let script = dir().join("client.sh");
    // The suite splits the command at spaces.
    let command = format!("sh {}", script.display());
    assert!(
        !script.display().to_string().contains(' '),
        "the suite cannot run a command whose path holds a space: {command}"
    );
    let out = Command::new(suite())
        .args(["client", "--command", &command, "--scenario", scenario])
        .arg("--expected-failures")
        .arg(dir().join("expected-failures.yml"))
        .arg("-o")
        .arg(out_dir.path())
        .env("LACKPY_BIN", env!("CARGO_BIN_EXE_lackpy"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run the conformance suite: {e}"));
    let output = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // Results go to <out>/<scenario>-<time>/checks.json.
    let mut checks = Vec::new();
    for entry in std::fs::read_dir(out_dir.path()).unwrap() {
        let path = entry.unwrap().path().join("checks.json");
        if let Ok(text) = std::fs::read_to_string(&path) {
            checks = serde_json::from_str(&text).unwrap();
        }
    }
    Run {
        ok: out.status.success(),
        output,
        checks,
    }
}

/// The checks that are neither INFO nor SUCCESS/WARNING.
fn failed(checks: &[serde_json::Value]) -> Vec<&serde_json::Value> {
    checks
        .iter()
        .filter(|c| !matches!(c["status"].as_str(), Some("INFO" | "SUCCESS" | "WARNING")))
        .collect()
}

/// A WARNING fails the suite's verdict too; one that is only about wall
/// time (the `retry:` delay measured on a shared machine) gets a second run.
fn timing_only(checks: &[serde_json::Value]) -> bool {
    let off: Vec<_> = checks
        .iter()
        .filter(|c| !matches!(c["status"].as_str(), Some("INFO" | "SUCCESS")))
        .collect();
    !off.is_empty()
        && off
            .iter()
            .all(|c| c["id"].as_str().is_some_and(|id| id.contains("timing")))
}

fn passes(scenario: &str) {
    let mut result = run(scenario);
    if !result.ok && timing_only(&result.checks) {
        eprintln!("{scenario}: only a timing check missed; running it once more");
        result = run(scenario);
    }
    assert!(result.ok, "the suite failed {scenario}:\n{}", result.output);
    if expected_failures().iter().any(|s| s == scenario) {
        return;
    }
    let graded: Vec<_> = result
        .checks
        .iter()
        .filter(|c| c["status"].as_str() != Some("INFO"))
        .collect();
    assert!(
        !graded.is_empty(),
        "{scenario}: the suite recorded no graded check (the server never saw the client):\n{}",
        result.output
    );
    let bad = failed(&result.checks);
    assert!(
        bad.is_empty(),
        "{scenario}: failed checks {bad:#?}\n{}",
        result.output
    );
}

#[test]
#[ignore = "needs scripts/install-mcp-clients.sh (LACKPY_TEST_CONFORMANCE)"]
fn conformance_client_initialize() {
    passes("initialize");
}

#[test]
#[ignore = "needs scripts/install-mcp-clients.sh (LACKPY_TEST_CONFORMANCE)"]
fn conformance_client_tools_call() {
    passes("tools_call");
}

#[test]
#[ignore = "needs scripts/install-mcp-clients.sh (LACKPY_TEST_CONFORMANCE)"]
fn conformance_client_sse_retry() {
    passes("sse-retry");
}

#[test]
fn the_baseline_parses() {
    // Every listed scenario is one of ours; an empty list is fine.
    let known = ["initialize", "tools_call", "sse-retry"];
    for name in expected_failures() {
        assert!(known.contains(&name.as_str()), "unknown scenario {name}");
    }
}
