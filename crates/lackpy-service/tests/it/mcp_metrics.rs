//! `GET /metrics` of a real `lackpy mcp serve --http`: runs and tool calls
//! made through an rmcp client, then the exposition parsed and its counts
//! checked against the calls made.

use crate::mcp_serve_support;

use std::collections::HashMap;

use mcp_serve_support::*;
use serde_json::json;

/// The samples of an exposition: `name{labels}` to value.
pub(crate) fn parse(text: &str) -> HashMap<String, f64> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let (series, value) = l.rsplit_once(' ')?;
            Some((series.to_string(), value.parse().ok()?))
        })
        .collect()
}

/// The value of one series (0 when absent).
pub(crate) fn value(samples: &HashMap<String, f64>, series: &str) -> f64 {
    samples.get(series).copied().unwrap_or(0.0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_the_runs_and_tool_calls_made() {
    let config = with_test_server("");
    let ws = workspace(&config);
    std::fs::write(ws.path().join("a.txt"), "hello\n").expect("fixture");
    let (_child, addr) = spawn_http(ws.path(), &[], &[]).await;
    let client = http_client(&addr, initialize()).await;

    for _ in 0..3 {
        let r = run(
            &client,
            "echo('hi')\necho('there')\nread_file('a.txt')",
            json!({}),
        )
        .await;
        assert_eq!(r["success"], true, "{r}");
    }
    let r = run(&client, "read_file('missing.txt')", json!({})).await;
    assert_eq!(r["success"], false, "{r}");
    let r = run(&client, "import os", json!({})).await;
    assert_eq!(r["error_type"], "ValidationError", "{r}");

    let (code, text) = raw_get(&addr, "/metrics").expect("/metrics answers");
    assert_eq!(code, 200, "{text}");
    let m = parse(&text);
    let v = |s: &str| value(&m, s);
    assert_eq!(v(r#"lackpy_runs_total{outcome="success"}"#), 3.0, "{text}");
    assert_eq!(v(r#"lackpy_runs_total{outcome="error"}"#), 1.0, "{text}");
    assert_eq!(v(r#"lackpy_runs_total{outcome="invalid"}"#), 1.0, "{text}");
    assert_eq!(v("lackpy_run_duration_seconds_count"), 5.0, "{text}");
    assert_eq!(
        v(r#"lackpy_tool_calls_total{tool="echo",source="mcp:ours",outcome="ok"}"#),
        6.0,
        "{text}"
    );
    assert_eq!(
        v(r#"lackpy_tool_calls_total{tool="read_file",source="defaults",outcome="ok"}"#),
        3.0,
        "{text}"
    );
    assert_eq!(
        v(r#"lackpy_tool_calls_total{tool="read_file",source="defaults",outcome="error"}"#),
        1.0,
        "{text}"
    );
    assert_eq!(
        v(r#"lackpy_tool_call_duration_seconds_count{source="mcp:ours"}"#),
        6.0,
        "{text}"
    );
    assert_eq!(v(r#"lackpy_upstream_up{server="ours"}"#), 1.0, "{text}");
    assert_eq!(
        v(r#"lackpy_upstream_reconnects_total{server="ours"}"#),
        0.0,
        "{text}"
    );
    assert_eq!(v("lackpy_sessions"), 1.0, "{text}");
    assert_eq!(v("lackpy_runs_in_flight"), 0.0, "{text}");
    assert_eq!(v("lackpy_busy_rejections_total"), 0.0, "{text}");
    // No series outside the inventory's and the closed sets' labels.
    assert!(!text.contains("tool=\"os\""), "{text}");
    let _ = client.cancel().await;
}

/// The child's admin address and (over HTTP) its MCP address, from the
/// lines it prints at start; its later stderr is passed to ours.
async fn admin_and_mcp(child: &mut tokio::process::Child, http: bool) -> (String, Option<String>) {
    use tokio::io::{AsyncBufReadExt, BufReader};
    let stderr = child.stderr.take().expect("stderr");
    let mut lines = BufReader::new(stderr).lines();
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(30);
    let (mut admin, mut mcp) = (None, None);
    while admin.is_none() || (http && mcp.is_none()) {
        let line = tokio::time::timeout_at(deadline, lines.next_line())
            .await
            .expect("the server says where it listens")
            .expect("stderr readable")
            .expect("the server printed its addresses before exiting");
        if let Some(rest) = line.split("admin endpoints on http://").nth(1) {
            admin = rest.split_whitespace().next().map(String::from);
        } else if let Some(rest) = line.split("listening on http://").nth(1) {
            mcp = Some(rest.trim_end_matches("/mcp").to_string());
        }
    }
    tokio::spawn(async move {
        while let Ok(Some(line)) = lines.next_line().await {
            eprintln!("[lackpy] {line}");
        }
    });
    (admin.expect("admin address"), mcp)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_admin_port_serves_probes_and_metrics_without_the_token() {
    let ws = workspace("");
    let mut child = spawn_serve(
        ws.path(),
        &[
            "--http",
            "127.0.0.1:0",
            "--auth-token-env",
            "LACKPY_TEST_TOKEN",
            "--admin",
            "127.0.0.1:0",
        ],
        &[("LACKPY_TEST_TOKEN", "s3cret")],
    );
    let (admin, mcp) = admin_and_mcp(&mut child, true).await;
    let mcp = mcp.expect("MCP address");
    // The MCP port keeps the metrics behind its token; probes stay open.
    assert_eq!(raw_get(&mcp, "/metrics").map(|r| r.0), Some(401));
    assert_eq!(raw_get(&mcp, "/healthz").map(|r| r.0), Some(200));
    // The admin port: probes and metrics, nothing else.
    let (code, text) = raw_get(&admin, "/metrics").expect("admin /metrics");
    assert_eq!(code, 200, "{text}");
    assert!(text.contains("# TYPE lackpy_runs_total counter"), "{text}");
    assert_eq!(
        raw_get(&admin, "/readyz"),
        Some((200, r#"{"ready":true}"#.to_string()))
    );
    assert_eq!(raw_get(&admin, "/healthz").map(|r| r.0), Some(200));
    assert_eq!(raw_get(&admin, "/mcp").map(|r| r.0), Some(404));
    let _ = child.kill().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_stdio_server_can_be_scraped_on_its_admin_port() {
    let ws = workspace("");
    std::fs::write(ws.path().join("a.txt"), "hello\n").expect("fixture");
    let mut child = spawn_serve(ws.path(), &["--admin", "127.0.0.1:0"], &[]);
    let (admin, _) = admin_and_mcp(&mut child, false).await;
    let client = stdio_client(&mut child, initialize()).await;
    let r = run(&client, "read_file('a.txt')", json!({})).await;
    assert_eq!(r["success"], true, "{r}");
    let (code, text) = raw_get(&admin, "/metrics").expect("admin /metrics");
    assert_eq!(code, 200, "{text}");
    let m = parse(&text);
    assert_eq!(
        value(&m, r#"lackpy_runs_total{outcome="success"}"#),
        1.0,
        "{text}"
    );
    assert_eq!(
        value(
            &m,
            r#"lackpy_tool_calls_total{tool="read_file",source="defaults",outcome="ok"}"#
        ),
        1.0,
        "{text}"
    );
    assert_eq!(value(&m, "lackpy_sessions"), 1.0, "{text}");
    assert_eq!(raw_get(&admin, "/readyz").map(|r| r.0), Some(200));
    let _ = client.cancel().await;
}
