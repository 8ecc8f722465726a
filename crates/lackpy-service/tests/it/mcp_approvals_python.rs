//! Approval gates through `lackpy mcp serve` driven by the official Python
//! MCP SDK (a 1.x and a 2.x release, installed by
//! `scripts/install-mcp-clients.sh`), over stdio and streamable HTTP: a
//! client with an elicitation callback approves, refuses, declines and
//! stays silent; a client without one gets paused runs and resumes them.

use crate::mcp_approvals::{RULE, gated_workspace, lines};
use crate::mcp_serve_support::*;

use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};

const SDKS: [&str; 2] = ["LACKPY_TEST_PY_SDK1", "LACKPY_TEST_PY_SDK2"];

/// Runs `tests/python/mcp_approvals_client.py` with `python` against a
/// server for `ws` (`http`: one started here), `scenario` `ask` or
/// `pause`; its JSON report.
async fn client_report(python: &Path, ws: &Path, http: bool, scenario: &str) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/mcp_approvals_client.py");
    let mut server = None;
    let mut mode = vec!["stdio".to_string()];
    if http {
        let (child, addr) = spawn_http(ws, &[], &[]).await;
        server = Some(child);
        mode = vec!["http".to_string(), format!("http://{addr}/mcp")];
    }
    let out = tokio::time::timeout(
        Duration::from_secs(90),
        tokio::process::Command::new(python)
            .arg(&script)
            .arg(env!("CARGO_BIN_EXE_lackpy"))
            .arg(ws)
            .args(&mode)
            .arg(scenario)
            .stdin(std::process::Stdio::null())
            .output(),
    )
    .await
    .unwrap_or_else(|_| panic!("{} {mode:?} {scenario}: the client hung", python.display()))
    .expect("python runs");
    if let Some(mut s) = server {
        let _ = s.start_kill();
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{} {mode:?} {scenario}:\n{stdout}\n{}",
        python.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(stdout.trim())
        .unwrap_or_else(|e| panic!("{mode:?} {scenario}: not JSON ({e}):\n{stdout}"))
}

fn refused(r: &Value) {
    assert_eq!(r["success"], false, "{r}");
    assert_eq!(r["error_type"], "PermissionError", "{r}");
    assert_eq!(r["error"], "call to send was not approved", "{r}");
    assert_eq!(r["trace"][0]["approval"], "elicitation", "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs scripts/install-mcp-clients.sh (LACKPY_TEST_PY_SDK1, LACKPY_TEST_PY_SDK2)"]
async fn python_sdk_clients_answer_elicitation_over_stdio_and_http() {
    for sdk in SDKS {
        let python = required_program(sdk);
        for http in [false, true] {
            let ws = gated_workspace(3000);
            let r = client_report(&python, ws.path(), http, "ask").await;
            let at = format!("{sdk} http={http}");
            assert_eq!(r["protocol"], "2025-11-25", "{at}: {r}");

            let approved = &r["approve"];
            assert_eq!(approved["success"], true, "{at}: {approved}");
            assert_eq!(approved["trace"][1]["approval"], "elicitation", "{at}");
            refused(&r["refuse"]);
            refused(&r["decline"]);
            // No answer within approval_timeout_ms: the run paused.
            let silent = &r["silent"];
            assert_eq!(silent["error_type"], "ApprovalRequired", "{at}: {silent}");
            assert_eq!(silent["paused"]["tool"], "send", "{at}: {silent}");
            assert_eq!(silent["paused"]["rule"], RULE, "{at}: {silent}");
            assert!(silent["paused"]["run_id"].is_string(), "{at}: {silent}");
            if sdk == "LACKPY_TEST_PY_SDK2" {
                // 2.x hears the server's cancel of the unanswered
                // elicitation (1.x reads nothing while its callback runs).
                assert_eq!(r["cancelled"], 1, "{at}: {r}");
            }

            let asked = r["asked"].as_array().cloned().unwrap_or_default();
            assert_eq!(asked.len(), 4, "{at}: one question a gated call: {r}");
            assert_eq!(
                asked[0]["message"],
                format!(
                    "lackpy wants to call send(text='approved') — grade (3, 3), {RULE}. Allow this call?"
                ),
                "{at}"
            );
            let schema = &asked[0]["schema"];
            assert_eq!(schema["required"], json!(["approve"]), "{at}: {schema}");
            assert_eq!(schema["properties"]["approve"]["type"], "boolean", "{at}");

            // Only the approved call happened, once; the late yes to the
            // silent question changed nothing.
            assert_eq!(
                lines(ws.path(), "sent.log"),
                [r#"{"text": "approved"}"#],
                "{at}"
            );
            assert_eq!(
                lines(ws.path(), "notes.log"),
                [r#"{"text": "before"}"#],
                "{at}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs scripts/install-mcp-clients.sh (LACKPY_TEST_PY_SDK1, LACKPY_TEST_PY_SDK2)"]
async fn python_sdk_clients_without_elicitation_resume_paused_runs() {
    for sdk in SDKS {
        let python = required_program(sdk);
        for http in [false, true] {
            let ws = gated_workspace(3000);
            let r = client_report(&python, ws.path(), http, "pause").await;
            let at = format!("{sdk} http={http}");

            let paused = &r["paused"];
            assert_eq!(paused["error_type"], "ApprovalRequired", "{at}: {paused}");
            assert_eq!(paused["paused"]["step"], 1, "{at}: {paused}");
            let id = paused["paused"]["run_id"].clone();
            let listed = &r["listed"]["runs"];
            assert_eq!(listed[0]["run_id"], id, "{at}: {listed}");
            assert_eq!(listed[0]["state"], "paused", "{at}: {listed}");
            assert_eq!(listed[0]["tool"], "send", "{at}: {listed}");

            let resumed = &r["resumed"];
            assert_eq!(resumed["success"], true, "{at}: {resumed}");
            assert_eq!(resumed["trace"][0]["replayed"], true, "{at}: {resumed}");
            assert_eq!(resumed["trace"][1]["approval"], "api", "{at}: {resumed}");
            assert_eq!(r["listed_after"], json!({"runs": []}), "{at}");

            let denied = &r["denied"];
            assert_eq!(denied["error_type"], "PermissionError", "{at}: {denied}");
            assert_eq!(denied["trace"][0]["approval"], "api", "{at}: {denied}");
            assert_eq!(r["unknown"]["isError"], true, "{at}: {r}");
            assert!(
                r["unknown"]["text"]
                    .as_str()
                    .is_some_and(|t| t.contains("no resumable run")),
                "{at}: {r}"
            );

            // Each call happened once: the resumed run replayed `note`.
            assert_eq!(
                lines(ws.path(), "notes.log"),
                [r#"{"text": "before"}"#],
                "{at}"
            );
            assert_eq!(
                lines(ws.path(), "sent.log"),
                [r#"{"text": "resumed"}"#],
                "{at}"
            );
        }
    }
}
