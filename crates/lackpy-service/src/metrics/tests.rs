use std::time::Duration;

use lackpy_bridge::ExecutionResult;
use lackpy_bridge::approval::refused_message;
use lackpy_lang::{Grade, TraceEntry};

use super::{Live, Metrics};

fn entry(step: usize, tool: &str, success: bool) -> TraceEntry {
    TraceEntry {
        step,
        tool: tool.into(),
        args: Vec::new(),
        result: None,
        duration: Duration::from_millis(2),
        success,
        error: (!success).then(|| "boom".to_string()),
        note: None,
        approval: None,
        replayed: false,
    }
}

fn run(trace: Vec<TraceEntry>, success: bool) -> ExecutionResult {
    let mut r = ExecutionResult::failed("RuntimeError", "x".into(), Grade::PURE, Duration::ZERO);
    r.success = success;
    if success {
        r.error = None;
        r.error_type = None;
    }
    r.trace = trace;
    r.duration = Duration::from_millis(30);
    r
}

fn metrics() -> Metrics {
    Metrics::new([
        ("read".to_string(), "defaults".to_string()),
        ("send".to_string(), "mcp:mail".to_string()),
    ])
}

/// The lines of the exposition that are samples (no comments), without
/// histogram buckets.
/// (Sorted: series of a family come in no fixed order.)
fn samples(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.contains("_bucket{"))
        .collect();
    lines.sort();
    lines
}

fn upstream() -> lackpy_mcp_client::ServerStatus {
    lackpy_mcp_client::ServerStatus {
        id: "mail".into(),
        source: "mcp:mail".into(),
        provenance: "own".into(),
        transport: "stdio: mail".into(),
        state: lackpy_mcp_client::ServerState::Ready,
        reason: None,
        tools: Vec::new(),
        skipped_tools: Vec::new(),
        protocol_version: None,
        server_name: None,
        server_version: None,
        pid: None,
        sessions: 3,
        reconnects: 2,
        discovery_ms: 0,
    }
}

#[test]
fn families_are_named_and_described_as_the_issue_names_them() {
    // A family shows once it has a series: one run and one upstream
    // server give every family one.
    let m = metrics();
    m.record_run(&run(vec![entry(0, "read", true)], true));
    let text = m.encode(&Live {
        upstream: vec![upstream()],
        ..Live::default()
    });
    let meta: Vec<&str> = text.lines().filter(|l| l.starts_with('#')).collect();
    insta::assert_snapshot!(meta.join("\n"));
}

#[test]
fn a_run_counts_its_outcome_its_calls_and_its_decisions() {
    let m = metrics();
    let mut approved = entry(1, "send", true);
    approved.approval = Some("elicitation".into());
    let mut replayed = entry(2, "read", true);
    replayed.replayed = true;
    m.record_run(&run(
        vec![
            entry(0, "read", true),
            approved,
            replayed,
            entry(3, "alias", true),
        ],
        true,
    ));
    let mut denied = entry(0, "send", false);
    denied.approval = Some("api".into());
    denied.error = Some(refused_message("send"));
    m.record_run(&run(vec![denied], false));
    let mut paused = run(vec![entry(0, "read", false)], false);
    paused.error_type = Some("ApprovalRequired".into());
    paused.paused = Some(lackpy_bridge::Paused {
        run_id: "r1".into(),
        step: 0,
        tool: "read".into(),
        args: Vec::new(),
        grade: Grade::PURE,
        rule: "r".into(),
        expires_at: String::new(),
    });
    m.record_run(&paused);
    let busy = ExecutionResult::failed("Busy", "held".into(), Grade::PURE, Duration::ZERO);
    m.record_run(&busy);
    m.busy_rejection();
    let text = m.encode(&Live {
        admitted: 5,
        max_running: 3,
        sessions: 2,
        upstream: vec![upstream()],
    });
    insta::assert_snapshot!(samples(&text).join("\n"));
}
