//! `lackpy mcp serve --http --stateless`: every POST answered on its own,
//! no `Mcp-Session-Id`, so any replica can answer any request.

use crate::mcp_serve_support;

use std::io::{Read, Write};
use std::time::Duration;

use mcp_serve_support::*;
use serde_json::json;

/// One raw POST to `/mcp`, read to its end: the head and the body.
fn post(addr: &str, body: &str) -> (String, String) {
    let mut s = std::net::TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(20))).ok();
    let req = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).expect("write");
    let mut all = Vec::new();
    let _ = s.read_to_end(&mut all);
    let text = String::from_utf8_lossy(&all).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").expect("a response");
    (head.to_string(), body.to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_is_answered_without_initialize_or_session() {
    let ws = workspace("");
    std::fs::write(ws.path().join("a.txt"), "hello\n").expect("fixture");
    let (_child, addr) = spawn_http(ws.path(), &["--stateless"], &[]).await;
    let call = json!({
        "jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": "run_program", "arguments": {"program": "read_file('a.txt').strip() + '!'"}}
    });
    let (head, body) = post(&addr, &call.to_string());
    assert!(head.starts_with("HTTP/1.1 200"), "{head}\n{body}");
    assert!(
        !head.to_ascii_lowercase().contains("mcp-session-id"),
        "no session: {head}"
    );
    assert!(body.contains(r#""id":7"#), "{body}");
    assert!(body.contains(r#""output":"hello!""#), "{body}");

    // An rmcp client's session-less handshake and calls work too; no
    // session is counted.
    let client = http_client(&addr, initialize()).await;
    let r = run(&client, "read_file('a.txt')", json!({})).await;
    assert_eq!(r["success"], true, "{r}");
    let (code, text) = raw_get(&addr, "/metrics").expect("/metrics");
    assert_eq!(code, 200);
    let m = crate::mcp_metrics::parse(&text);
    assert_eq!(
        crate::mcp_metrics::value(&m, "lackpy_sessions"),
        0.0,
        "{text}"
    );
    assert_eq!(
        crate::mcp_metrics::value(&m, r#"lackpy_runs_total{outcome="success"}"#),
        2.0,
        "{text}"
    );
    let _ = client.cancel().await;
}

/// The Python SDK (1.x and 2.x) against a stateless server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs scripts/install-mcp-clients.sh (LACKPY_TEST_PY_SDK1, LACKPY_TEST_PY_SDK2)"]
async fn python_sdk_clients_work_without_a_session() {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/python/mcp_stateless_client.py");
    let ws = workspace("");
    let (mut server, addr) = spawn_http(ws.path(), &["--stateless"], &[]).await;
    let url = format!("http://{addr}/mcp");
    for sdk in ["LACKPY_TEST_PY_SDK1", "LACKPY_TEST_PY_SDK2"] {
        let python = required_program(sdk);
        let out = tokio::time::timeout(
            Duration::from_secs(60),
            tokio::process::Command::new(&python)
                .arg(&script)
                .arg(&url)
                .stdin(std::process::Stdio::null())
                .output(),
        )
        .await
        .unwrap_or_else(|_| panic!("{sdk}: the client hung"))
        .expect("python runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && stdout.trim() == "ok",
            "{sdk}:\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let _ = server.start_kill();
}
