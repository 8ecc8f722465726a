//! `lackpy mcp serve` end to end: the real binary as a child process,
//! driven by our own rmcp client over stdio and streamable HTTP, with the
//! MCP test server example downstream where a slow tool is needed.

use crate::mcp_serve_support;

use std::time::Duration;

use mcp_serve_support::*;
use rmcp::model::{CallToolRequestParams, ReadResourceRequestParams, ResourceContents};
use serde_json::{Value, json};

const TOOL_NAMES: [&str; 9] = [
    "run_program",
    "validate",
    "delegate",
    "generate",
    "list_tools",
    "language_spec",
    "status",
    "resume_run",
    "list_runs",
];

/// Every tool and resource through one client.
async fn every_tool(client: &Client, ws: &std::path::Path) {
    std::fs::write(ws.join("a.txt"), "hello\n").expect("fixture");
    let tools = client.list_all_tools().await.expect("tools/list");
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(names, TOOL_NAMES);
    for t in &tools {
        assert!(t.output_schema.is_some(), "{} has an outputSchema", t.name);
        assert!(!t.input_schema.is_empty(), "{} has an inputSchema", t.name);
        assert!(t.annotations.is_some(), "{} is annotated", t.name);
    }
    let run_tool = &tools[0];
    let description = run_tool.description.as_deref().unwrap_or_default();
    // The namespace, one signature a line, and the main restrictions.
    assert!(description.contains("  read_file("), "{description}");
    assert!(
        description.contains("Forbidden: def, class"),
        "{description}"
    );
    assert_eq!(
        run_tool.annotations.as_ref().and_then(|a| a.read_only_hint),
        Some(false)
    );
    assert_eq!(
        tools[1].annotations.as_ref().and_then(|a| a.read_only_hint),
        Some(true)
    );

    let r = run(
        client,
        "t = read_file('a.txt').strip()\nprint(t)\n[t, n + 1]",
        json!({"params": {"n": 41}}),
    )
    .await;
    assert_eq!(r["success"], true, "{r}");
    assert_eq!(r["output"], json!(["hello", 42]));
    assert_eq!(r["stdout"], "hello\n");
    assert_eq!(r["trace"][0]["tool"], "read_file");
    assert_eq!(r["files_read"], json!(["a.txt"]));

    // The caller's trace cap: the first and last entries, the rest counted.
    let r = run(
        client,
        "for i in range(5):\n    read_file('a.txt')\n",
        json!({"max_trace_entries": 2}),
    )
    .await;
    let steps: Vec<&Value> = r["trace"]
        .as_array()
        .map_or(Vec::new(), |t| t.iter().map(|e| &e["step"]).collect());
    assert_eq!(steps, [&json!(0), &json!(4)], "{r}");
    assert_eq!(r["trace_dropped"]["total_calls"], 5, "{r}");
    assert_eq!(
        r["trace_dropped"]["by_tool"]["read_file"]["dropped"], 3,
        "{r}"
    );

    // structuredContent holds the very numbers of the text (exact parsing).
    let f = run(client, "[0.1 + 0.2, 1e-7 * 3, 1 / 3]", json!({})).await;
    assert_eq!(
        f["output"],
        json!([0.1 + 0.2, 1e-7 * 3.0, 1.0 / 3.0]),
        "{f}"
    );
    let v = structured(&call(client, "validate", json!({"program": "import os"})).await);
    assert_eq!(v["valid"], false, "{v}");
    assert!(
        v["errors"][0]
            .as_str()
            .is_some_and(|e| e.contains("Import")),
        "{v}"
    );
    let v = structured(
        &call(
            client,
            "validate",
            json!({"program": "x = read_file('a')", "tools": ["read_file"]}),
        )
        .await,
    );
    assert_eq!(
        v,
        json!({"valid": true, "errors": [], "diagnostics": [], "calls": ["read_file"],
               "variables": ["x"], "grade": {"w": 1, "d": 1}, "needs_approval": []})
    );

    let l = structured(&call(client, "list_tools", json!({})).await);
    assert!(
        l["tools"]
            .as_array()
            .is_some_and(|t| t.iter().any(|t| t["name"] == "read_file")),
        "{l}"
    );
    let s = structured(&call(client, "language_spec", json!({})).await);
    assert!(
        s["allowed_builtins"]
            .as_array()
            .is_some_and(|b| !b.is_empty()),
        "{s}"
    );
    let st = structured(&call(client, "status", json!({})).await);
    assert_eq!(
        st["workspace"].as_str().map(std::path::PathBuf::from),
        Some(ws.to_path_buf())
    );

    let resources = client.list_all_resources().await.expect("resources/list");
    let uris: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(
        uris,
        [
            "lackpy://language-spec",
            "lackpy://toolbox",
            "lackpy://config"
        ]
    );
    for uri in uris {
        let read = client
            .read_resource(ReadResourceRequestParams::new(uri))
            .await
            .unwrap_or_else(|e| panic!("read {uri}: {e}"));
        let Some(ResourceContents::TextResourceContents { text, .. }) = read.contents.first()
        else {
            panic!("{uri}: no text contents")
        };
        let v: Value = serde_json::from_str(text).expect("resource JSON");
        assert!(!v.is_null() || uri == "lackpy://config", "{uri}: {v}");
    }
}

const SECRET_CONFIG: &str = "[limits]\ntimeout_ms = 5000\n\n\
    [mcp_servers.remote]\nurl = \"http://127.0.0.1:9/mcp\"\nconnect_timeout_ms = 200\n\
    headers = { Authorization = \"Bearer top-s3cret\" }\n\
    [mcp_servers.local]\ncommand = \"/nonexistent/server\"\nenv = { API_TOKEN = \"top-s3cret\" }\n";

async fn config_is_redacted(client: &Client) {
    let read = client
        .read_resource(ReadResourceRequestParams::new("lackpy://config"))
        .await
        .expect("read config");
    let Some(ResourceContents::TextResourceContents { text, .. }) = read.contents.first() else {
        panic!("no text")
    };
    assert!(!text.contains("top-s3cret"), "{text}");
    let v: Value = serde_json::from_str(text).expect("JSON");
    assert_eq!(v["limits"]["timeout_ms"], 5000);
    assert_eq!(
        v["mcp_servers"]["remote"]["headers"]["Authorization"],
        "<redacted>"
    );
    assert_eq!(v["mcp_servers"]["local"]["env"]["API_TOKEN"], "<redacted>");
    let st = structured(&call(client, "status", json!({})).await);
    assert!(!st.to_string().contains("top-s3cret"), "{st}");
}

#[tokio::test]
async fn every_tool_over_stdio_with_both_handshakes() {
    let ws = workspace(SECRET_CONFIG);
    for lifecycle in [initialize(), discover()] {
        let mut child = spawn_serve(ws.path(), &[], &[]);
        let client = stdio_client(&mut child, lifecycle).await;
        every_tool(&client, ws.path()).await;
        config_is_redacted(&client).await;
        client.cancel().await.expect("close");
        let status = tokio::time::timeout(Duration::from_secs(10), child.wait())
            .await
            .expect("the server exits when stdin closes")
            .expect("status");
        assert!(status.success(), "{status}");
    }
}

#[tokio::test]
async fn every_tool_over_http_with_both_handshakes() {
    let ws = workspace(SECRET_CONFIG);
    let (mut child, addr) = spawn_http(ws.path(), &[], &[]).await;
    for lifecycle in [initialize(), discover()] {
        let client = http_client(&addr, lifecycle).await;
        every_tool(&client, ws.path()).await;
        config_is_redacted(&client).await;
        client.cancel().await.expect("close");
    }
    let _ = child.start_kill();
}

#[tokio::test]
async fn expected_failures_are_results_and_malformed_requests_are_errors() {
    let ws = workspace("[limits]\nmax_steps = 2000\nmax_memory_mb = 1\n");
    let mut child = spawn_serve(ws.path(), &[], &[]);
    let client = stdio_client(&mut child, initialize()).await;
    let cases = [
        ("import os\n1", json!({}), "ValidationError"),
        ("read_file('missing.txt')", json!({}), "FileNotFoundError"),
        (
            "x = 0\nfor i in range(100000):\n    x = x + i\nx",
            json!({}),
            "StepLimitError",
        ),
        ("x = 'a' * 5000000\nlen(x)", json!({}), "MemoryError"),
        ("1 // 0", json!({}), "ZeroDivisionError"),
    ];
    for (program, extra, kind) in cases {
        let r = run(&client, program, extra).await;
        assert_eq!(r["success"], false, "{program}: {r}");
        assert_eq!(r["error_type"], kind, "{program}: {r}");
    }
    // A wall-clock limit from the call itself.
    let r = run(
        &client,
        "x = 0\nfor i in range(10):\n    x = x + len(str(i))\nx",
        json!({"timeout_ms": 1, "rules": ["max_calls:100"]}),
    )
    .await;
    assert!(
        r["success"] == true || r["error_type"] == "TimeoutError",
        "{r}"
    );
    // Malformed requests: isError with a readable message.
    let mut messages = Vec::new();
    for (args, says) in [
        (json!({}), "'program'"),
        (json!({"program": 1}), "'program'"),
        (json!({"program": "1", "tools": "read_file"}), "'tools'"),
        (
            json!({"program": "1", "bogus": true}),
            "unknown argument 'bogus'",
        ),
        (
            json!({"program": "1", "rules": ["no_such_rule"]}),
            "no_such_rule",
        ),
        (
            json!({"program": "1", "tools": ["no_such_tool"]}),
            "no_such_tool",
        ),
        (json!({"program": "1", "profile": "nope"}), "nope"),
        (
            json!({"program": "1", "max_trace_entries": -1}),
            "'max_trace_entries'",
        ),
    ] {
        let r = call(&client, "run_program", args.clone()).await;
        assert_eq!(r.is_error, Some(true), "{args}: {r:?}");
        let text = r.content[0]
            .as_text()
            .map(|t| t.text.clone())
            .unwrap_or_default();
        assert!(text.contains(says), "{args}: {text}");
        messages.push(format!("{args} -> {text}"));
    }
    // `validate` names the caller's tool list as `run_program` does.
    let args = json!({"program": "1", "tools": ["no_such_tool"]});
    let r = call(&client, "validate", args.clone()).await;
    assert_eq!(r.is_error, Some(true), "{r:?}");
    let text = r.content[0]
        .as_text()
        .map(|t| t.text.clone())
        .unwrap_or_default();
    messages.push(format!("validate {args} -> {text}"));
    insta::assert_snapshot!("mcp_malformed_requests", messages.join("\n"));
    let unknown = client
        .call_tool(CallToolRequestParams::new("no_such_tool"))
        .await;
    assert!(unknown.is_err(), "an unknown tool is a protocol error");
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn sixty_four_runs_from_eight_http_sessions_are_all_correct() {
    let ws = workspace("");
    let (mut child, addr) = spawn_http(ws.path(), &[], &[]).await;
    let mut sessions = Vec::new();
    for _ in 0..8 {
        sessions.push(std::sync::Arc::new(http_client(&addr, initialize()).await));
    }
    let mut calls = Vec::new();
    for (s, client) in sessions.iter().enumerate() {
        for k in 0..8 {
            let client = std::sync::Arc::clone(client);
            let n = s * 8 + k;
            calls.push(tokio::spawn(async move {
                let r = run(
                    &client,
                    "total = 0\nfor i in range(n):\n    total = total + i\n[n, total]",
                    json!({"params": {"n": n * 100}}),
                )
                .await;
                (n, r)
            }));
        }
    }
    for c in calls {
        let (n, r) = c.await.expect("task");
        let m = n * 100;
        assert_eq!(r["success"], true, "{r}");
        assert_eq!(r["output"], json!([m, m * m.saturating_sub(1) / 2]), "{n}");
    }
    let _ = child.start_kill();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_queue_answers_busy_at_once() {
    let config = with_test_server(
        "[server]
max_concurrent_runs = 1
max_queued_runs = 0
",
    );
    let ws = workspace(&config);
    let (mut child, addr) = spawn_http(ws.path(), &[], &[]).await;
    let a = std::sync::Arc::new(http_client(&addr, initialize()).await);
    let b = http_client(&addr, initialize()).await;
    let long = {
        let a = std::sync::Arc::clone(&a);
        tokio::spawn(async move { run(&a, "echo('started')\nslow(1500)", json!({})).await })
    };
    // The first tool call's progress says the run holds the only place.
    let progress = std::sync::Arc::clone(&a.service().progress);
    assert!(
        eventually(Duration::from_secs(10), || {
            progress.lock().map(|p| !p.is_empty()).unwrap_or(false)
        })
        .await,
        "the long run started"
    );
    let busy = run(&b, "1", json!({})).await;
    assert_eq!(busy["success"], false, "{busy}");
    assert_eq!(busy["error_type"], "Busy", "{busy}");
    insta::assert_snapshot!("mcp_busy", busy["error"].as_str().unwrap_or_default());
    let r = long.await.expect("task");
    assert_eq!(r["output"], "slept 1500 ms", "{r}");
    // The place is free again.
    let r = run(&b, "2", json!({})).await;
    assert_eq!(r["output"], 2, "{r}");
    let _ = child.start_kill();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn progress_per_tool_call_and_cancel_reaches_the_downstream_server() {
    let config = with_test_server("");
    let ws = workspace(&config);
    let mut child = spawn_serve(ws.path(), &[], &[]);
    let client = stdio_client(&mut child, initialize()).await;

    // (The wire order of progress is checked in
    // `progress_notifications_come_before_the_result`: rmcp's client may
    // drop a progress notification that arrives with the answer.)
    let seen = std::sync::Arc::clone(&client.service().progress);
    let before = seen.lock().map(|p| p.len()).unwrap_or(0);

    // A run blocked in a slow downstream call, cancelled by the client.
    let handle = start_call(
        client.peer(),
        "run_program",
        json!({"program": "echo('go')\nslow(30000)"}),
    )
    .await;
    // Cancel once the run is past its first call, inside `slow`.
    assert!(
        eventually(Duration::from_secs(10), || {
            seen.lock().map(|p| p.len() > before).unwrap_or(false)
        })
        .await,
        "the run started"
    );
    tokio::time::sleep(Duration::from_millis(100)).await;
    handle
        .cancel(Some("test".into()))
        .await
        .expect("cancel sent");
    // The downstream server saw the cancellation, and the next call works.
    let mut seen = Value::Null;
    for _ in 0..100 {
        seen = run(&client, "cancellations()", json!({})).await;
        if seen["output"] == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    assert_eq!(seen["output"], 1, "{seen}");
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn a_client_gone_mid_run_leaves_no_process_behind() {
    let config = with_test_server("");
    let ws = workspace(&config);
    let mut child = spawn_serve(ws.path(), &[], &[]);
    let pid = child.id().expect("pid");
    let client = stdio_client(&mut child, initialize()).await;
    let peer = client.peer().clone();
    let _handle = start_call(&peer, "run_program", json!({"program": "slow(30000)"})).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let servers = descendants(pid);
    assert!(!servers.is_empty(), "the downstream server runs");
    // The client goes away: its end of the pipes closes.
    drop(client);
    let started = std::time::Instant::now();
    let status = tokio::time::timeout(Duration::from_secs(10), child.wait())
        .await
        .expect("lackpy exits when its client is gone")
        .expect("status");
    assert!(status.success(), "{status}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "the run was stopped, not waited for: {:?}",
        started.elapsed()
    );
    assert!(
        eventually(Duration::from_secs(3), || !servers
            .iter()
            .any(|p| alive(*p)))
        .await,
        "processes outlived lackpy: {servers:?}"
    );
}

#[tokio::test]
async fn http_rejects_rebinding_hosts_and_origins() {
    let ws = workspace("");
    let (mut child, addr) = spawn_http(ws.path(), &[], &[]).await;
    let port = addr.rsplit(':').next().unwrap_or_default().to_string();
    let ok_host = format!("localhost:{port}");
    let evil_host = format!("evil.example:{port}");
    let tests = [
        (vec![("Host", ok_host.as_str())], 200),
        (vec![("Host", evil_host.as_str())], 403),
        (
            vec![
                ("Host", ok_host.as_str()),
                ("Origin", "http://evil.example"),
            ],
            403,
        ),
        (
            vec![
                ("Host", ok_host.as_str()),
                ("Origin", "http://localhost:3000"),
            ],
            200,
        ),
    ];
    // The server is another process: a blocking request here is fine.
    for (headers, want) in tests {
        assert_eq!(raw_post(&addr, &headers, INITIALIZE), want, "{headers:?}");
    }
    let _ = child.start_kill();
}

#[tokio::test]
async fn http_bearer_token_and_body_cap() {
    let ws = workspace("");
    let (mut child, addr) = spawn_http(
        ws.path(),
        &[
            "--auth-token-env",
            "LACKPY_TEST_TOKEN",
            "--max-body-bytes",
            "2000",
        ],
        &[("LACKPY_TEST_TOKEN", "t0ken")],
    )
    .await;
    let port = addr.rsplit(':').next().unwrap_or_default().to_string();
    let host = format!("127.0.0.1:{port}");
    let big = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"pad":"{}"}}}}"#,
        "x".repeat(5000)
    );
    let tests = [
        (vec![("Host", host.clone())], INITIALIZE.to_string(), 401),
        (
            vec![
                ("Host", host.clone()),
                ("Authorization", "Bearer wrong".into()),
            ],
            INITIALIZE.to_string(),
            401,
        ),
        (
            vec![
                ("Host", host.clone()),
                ("Authorization", "Bearer t0ken".into()),
            ],
            INITIALIZE.to_string(),
            200,
        ),
        (
            vec![
                ("Host", host.clone()),
                ("Authorization", "Bearer t0ken".into()),
            ],
            big,
            413,
        ),
    ];
    for (headers, body, want) in tests {
        let h: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
        assert_eq!(raw_post(&addr, &h, &body), want, "{h:?}");
    }
    let _ = child.start_kill();
}

/// Starts a run whose first tool call reports progress and which then
/// takes 2 s, and sends SIGTERM to the server `pid` once that call is
/// reported (the run is surely in flight). The handle answers the run.
async fn sigterm_during_a_run(
    client: &std::sync::Arc<Client>,
    pid: u32,
) -> tokio::task::JoinHandle<Value> {
    let running = {
        let client = std::sync::Arc::clone(client);
        tokio::spawn(async move { run(&client, "echo('started')\nslow(2000)", json!({})).await })
    };
    let progress = std::sync::Arc::clone(&client.service().progress);
    assert!(
        eventually(Duration::from_secs(10), || {
            progress.lock().map(|p| !p.is_empty()).unwrap_or(false)
        })
        .await,
        "the run started"
    );
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(i32::try_from(pid).expect("pid")),
        nix::sys::signal::Signal::SIGTERM,
    )
    .expect("SIGTERM");
    running
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_lets_a_running_program_finish_then_exits_clean() {
    let config = with_test_server("");
    let ws = workspace(&config);
    let (mut child, addr) = spawn_http(ws.path(), &["--grace-ms", "5000"], &[]).await;
    let pid = child.id().expect("pid");
    let client = std::sync::Arc::new(http_client(&addr, initialize()).await);
    let servers = descendants(pid);
    assert_eq!(raw_get(&addr, "/healthz").map(|r| r.0), Some(200), "alive");
    assert_eq!(
        raw_get(&addr, "/readyz"),
        Some((200, r#"{"ready":true}"#.to_string())),
        "ready before the signal"
    );
    // A second session, opened by hand, to send new work while draining.
    let (code, head) = raw_post_head(&addr, &[("Host", "localhost")], INITIALIZE);
    assert_eq!(code, 200, "{head}");
    let session = head
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("mcp-session-id")
                .then(|| v.trim().to_string())
        })
        .expect("a session id");
    let running = sigterm_during_a_run(&client, pid).await;
    // While the run finishes, the replica still answers: not ready (so a
    // balancer sends new clients elsewhere), alive, and every new session
    // is refused with 503.
    assert!(
        eventually(Duration::from_secs(5), || raw_get(&addr, "/readyz")
            .is_some_and(
                |(code, body)| code == 503 && body.contains("draining")
            ))
        .await,
        "/readyz turns 503 at once: {:?}",
        raw_get(&addr, "/readyz")
    );
    assert_eq!(raw_get(&addr, "/healthz").map(|r| r.0), Some(200));
    assert_eq!(
        raw_post(&addr, &[], INITIALIZE),
        503,
        "a new session while draining"
    );
    // New work in an open session: the session is over for it (404: the
    // client opens a new one, which the balancer places elsewhere).
    let call = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"run_program","arguments":{"program":"1"}}}"#;
    let with_session = [("Host", "localhost"), ("Mcp-Session-Id", session.as_str())];
    let (code, head) = raw_post_head(&addr, &with_session, call);
    assert_eq!(code, 404, "a new run in a session while draining: {head}");
    assert!(
        http_client_result(&addr).await.is_err(),
        "a new session was accepted while draining"
    );
    let r = tokio::time::timeout(Duration::from_secs(10), running)
        .await
        .expect("the run answers")
        .expect("task");
    assert_eq!(
        r["output"], "slept 2000 ms",
        "the run finished within the grace: {r}"
    );
    let status = tokio::time::timeout(Duration::from_secs(10), child.wait())
        .await
        .expect("lackpy exits after SIGTERM")
        .expect("status");
    assert!(status.success(), "{status}");
    assert!(
        eventually(Duration::from_secs(3), || !servers
            .iter()
            .any(|p| alive(*p)))
        .await,
        "processes outlived lackpy: {servers:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_an_http_session_stops_its_runs() {
    let config = with_test_server("");
    let ws = workspace(&config);
    let (mut child, addr) = spawn_http(ws.path(), &[], &[]).await;
    let a = http_client(&addr, initialize()).await;
    let b = http_client(&addr, initialize()).await;
    let _pending = start_call(
        a.peer(),
        "run_program",
        json!({"program": "echo('go')\nslow(30000)"}),
    )
    .await;
    let progress = std::sync::Arc::clone(&a.service().progress);
    assert!(
        eventually(Duration::from_secs(10), || {
            progress.lock().map(|p| !p.is_empty()).unwrap_or(false)
        })
        .await,
        "the run started"
    );
    tokio::time::sleep(Duration::from_millis(100)).await;
    // Closing the client deletes its session (HTTP DELETE).
    a.cancel().await.expect("close");
    // The run stopped and its downstream call was cancelled, well before
    // rmcp's five-second drain would have got to it.
    let mut seen = Value::Null;
    for _ in 0..60 {
        seen = run(&b, "cancellations()", json!({})).await;
        if seen["output"] == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(seen["output"], 1, "{seen}");
    let _ = child.start_kill();
}

/// lackpy as a client of `lackpy mcp serve`: the outer workspace's config
/// names the inner server; a program calls the inner `run_program`.
#[test]
fn lackpy_run_calls_an_inner_lackpy_server() {
    let inner = workspace("");
    std::fs::write(inner.path().join("a.txt"), "from the inner workspace\n").expect("fixture");
    let outer = workspace(&format!(
        "[mcp_servers.inner]\ncommand = {:?}\nargs = [\"mcp\", \"serve\", \"--workspace\", {:?}]\n",
        env!("CARGO_BIN_EXE_lackpy"),
        inner.path().display().to_string()
    ));
    let program = "r = run_program(\"read_file('a.txt').strip()\")\n[r['success'], r['output']]";
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_lackpy"))
        .args(["run", "-", "--json", "--workspace"])
        .arg(outer.path())
        .env_remove("RUST_LOG")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin
                .take()
                .expect("stdin")
                .write_all(program.as_bytes())?;
            c.wait_with_output()
        })
        .expect("lackpy runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let v: Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|_| panic!("{stdout}\n{}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(
        v["output"],
        json!([true, "from the inner workspace"]),
        "{v}"
    );
    assert_eq!(v["trace"][0]["tool"], "run_program", "{v}");
}

#[test]
fn serve_usage_errors_are_one_line_and_exit_2() {
    let ws = workspace("");
    let mut lines = Vec::new();
    for args in [
        &["--http", "0.0.0.0:0"][..],
        &[
            "--http",
            "127.0.0.1:0",
            "--auth-token-env",
            "LACKPY_TEST_UNSET_VARIABLE",
        ],
        &["--http", "example.com:80"],
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_lackpy"))
            .args(["mcp", "serve", "--workspace"])
            .arg(ws.path())
            .args(args)
            .env_remove("RUST_LOG")
            .env_remove("LACKPY_TEST_UNSET_VARIABLE")
            .stdin(std::process::Stdio::null())
            .output()
            .expect("lackpy runs");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        lines.push(String::from_utf8_lossy(&out.stderr).trim_end().to_string());
    }
    insta::assert_snapshot!("mcp_serve_usage_errors", lines.join("\n"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_over_stdio_refuses_new_runs_and_lets_running_ones_finish() {
    let config = with_test_server("");
    let ws = workspace(&config);
    let mut child = spawn_serve(ws.path(), &["--grace-ms", "5000"], &[]);
    let pid = child.id().expect("pid");
    let client = std::sync::Arc::new(stdio_client(&mut child, initialize()).await);
    let servers = descendants(pid);
    let running = sigterm_during_a_run(&client, pid).await;
    let mut refused = Value::Null;
    for _ in 0..100 {
        refused = run(&client, "1", json!({})).await;
        if refused["error_type"] == "Busy" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    insta::assert_snapshot!(
        "mcp_shutting_down",
        refused["error"].as_str().unwrap_or_default()
    );
    let r = tokio::time::timeout(Duration::from_secs(10), running)
        .await
        .expect("the run answers")
        .expect("task");
    assert_eq!(r["output"], "slept 2000 ms", "{r}");
    let status = tokio::time::timeout(Duration::from_secs(10), child.wait())
        .await
        .expect("lackpy exits after SIGTERM")
        .expect("status");
    assert!(status.success(), "{status}");
    assert!(
        eventually(Duration::from_secs(3), || !servers
            .iter()
            .any(|p| alive(*p)))
        .await,
        "processes outlived lackpy: {servers:?}"
    );
}

/// Stdout to a file (not a pipe) while stdin is a pipe: each half is set
/// up on its own, so the pipe is never left non-blocking under a blocking
/// reader. Raw JSON-RPC lines, as a minimal host writes them.
#[test]
fn stdio_with_stdout_to_a_file_serves_raw_json_rpc() {
    use std::io::Write;
    let ws = workspace("");
    let out_path = ws.path().join("out.jsonl");
    let out = std::fs::File::create(&out_path).expect("out file");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_lackpy"))
        .args(["mcp", "serve", "--workspace"])
        .arg(ws.path())
        .env_remove("RUST_LOG")
        .stdin(std::process::Stdio::piped())
        .stdout(out)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("lackpy starts");
    let lines = [
        INITIALIZE,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run_program","arguments":{"program":"1 + 2"}}}"#,
    ];
    let mut stdin = child.stdin.take().expect("stdin");
    for l in lines {
        writeln!(stdin, "{l}").expect("write");
    }
    // Answer before closing: the run must not be cut short by EOF.
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    let text = loop {
        let text = std::fs::read_to_string(&out_path).unwrap_or_default();
        if text.contains("\"id\":2") || std::time::Instant::now() > deadline {
            break text;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    drop(stdin);
    let status = child.wait().expect("exits");
    let stderr = child
        .stderr
        .take()
        .map(|mut e| {
            let mut s = String::new();
            let _ = std::io::Read::read_to_string(&mut e, &mut s);
            s
        })
        .unwrap_or_default();
    assert!(status.success(), "{status}: {stderr}");
    let answer: Value = text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|v| v["id"] == 2)
        .unwrap_or_else(|| panic!("no answer to the call: {text}\n{stderr}"));
    assert_eq!(
        answer["result"]["structuredContent"]["output"], 3,
        "{answer}"
    );
}

/// The official MCP conformance suite's server scenarios against
/// `lackpy mcp serve --http` (installed by `scripts/install-mcp-clients.sh`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs scripts/install-mcp-clients.sh (LACKPY_TEST_CONFORMANCE)"]
async fn official_conformance_suite_server_scenarios_pass() {
    let suite = required_program("LACKPY_TEST_CONFORMANCE");
    let ws = workspace("");
    let (mut child, addr) = spawn_http(ws.path(), &[], &[]).await;
    let url = format!("http://{addr}/mcp");
    let scenarios = [
        "server-initialize",
        "ping",
        "tools-list",
        "logging-set-level",
        "resources-list",
        "dns-rebinding-protection",
    ];
    let runs: Vec<_> = scenarios
        .iter()
        .map(|s| {
            // At once: each scenario mostly waits.
            tokio::spawn(
                tokio::process::Command::new(&suite)
                    .args(["server", "--url", &url, "--scenario", s])
                    .stdin(std::process::Stdio::null())
                    .output(),
            )
        })
        .collect();
    for (scenario, run) in scenarios.iter().zip(runs) {
        let out = run.await.expect("task").expect("the suite runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{scenario} failed:\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(stdout.contains(" 0 failed"), "{scenario}:\n{stdout}");
    }
    let _ = child.start_kill();
}

/// The official Python MCP SDK (a 1.x and a 2.x release, installed by
/// `scripts/install-mcp-clients.sh`) over stdio and HTTP: tools, programs,
/// validation, resources, a cancelled long run, structuredContent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs scripts/install-mcp-clients.sh (LACKPY_TEST_PY_SDK1, LACKPY_TEST_PY_SDK2)"]
async fn python_sdk_clients_over_stdio_and_http() {
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/mcp_sdk_client.py");
    // One run place and no queue: a cancelled run that kept running would
    // make the next call Busy.
    let ws = workspace("[server]\nmax_concurrent_runs = 1\nmax_queued_runs = 0\n");
    let ws_arg = ws.path().display().to_string();
    for sdk in ["LACKPY_TEST_PY_SDK1", "LACKPY_TEST_PY_SDK2"] {
        let python = required_program(sdk);
        let (mut server, addr) = spawn_http(ws.path(), &[], &[]).await;
        let url = format!("http://{addr}/mcp");
        for mode in [&["stdio"][..], &["http", &url]] {
            let out = tokio::time::timeout(
                Duration::from_secs(60),
                tokio::process::Command::new(&python)
                    .arg(&script)
                    .args([env!("CARGO_BIN_EXE_lackpy"), &ws_arg])
                    .args(mode)
                    .stdin(std::process::Stdio::null())
                    .output(),
            )
            .await
            .unwrap_or_else(|_| panic!("{sdk} {mode:?}: the client hung"))
            .expect("python runs");
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success() && stdout.trim() == "ok",
                "{sdk} {mode:?}:\n{stdout}\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        let _ = server.start_kill();
    }
}

#[tokio::test]
async fn an_idle_http_session_is_closed() {
    let ws = workspace("");
    let (mut child, addr) = spawn_http(ws.path(), &["--session-idle-secs", "1"], &[]).await;
    let host = [("Host", "localhost")];
    let (code, head) = raw_post_head(&addr, &host, INITIALIZE);
    assert_eq!(code, 200, "{head}");
    let session = head
        .lines()
        .find_map(|l| {
            l.split_once(':')
                .filter(|(k, _)| k.eq_ignore_ascii_case("mcp-session-id"))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| panic!("no session id: {head}"));
    let list = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
    let with_session = [("Host", "localhost"), ("Mcp-Session-Id", session.as_str())];
    assert_eq!(
        raw_post(&addr, &with_session, list),
        200,
        "the session is live"
    );
    // Idle past its limit (a probe of a live session would renew it, so
    // wait once), the session is gone.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert_eq!(
        raw_post(&addr, &with_session, list),
        404,
        "the idle session was not closed"
    );
    let _ = child.start_kill();
}

/// With a `progressToken`, each finished tool call is one progress
/// notification, all of them before the answer (raw JSON-RPC over stdio,
/// so the client cannot reorder or drop anything).
#[test]
fn progress_notifications_come_before_the_result() {
    use std::io::{BufRead, Write};
    let config = with_test_server("");
    let ws = workspace(&config);
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_lackpy"))
        .args(["mcp", "serve", "--workspace"])
        .arg(ws.path())
        .env_remove("RUST_LOG")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("lackpy starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut lines = std::io::BufReader::new(child.stdout.take().expect("stdout")).lines();
    let mut next = || -> Value {
        let line = lines.next().expect("a line").expect("readable");
        serde_json::from_str(&line).expect("JSON-RPC")
    };
    writeln!(stdin, "{INITIALIZE}").expect("write");
    assert_eq!(next()["id"], 1);
    writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
    )
    .expect("write");
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "run_program",
        "arguments": {"program": "a = echo('x')\nb = add(1, 2)\nc = read_file('missing')"},
        "_meta": {"progressToken": "p1"}}});
    writeln!(stdin, "{call}").expect("write");
    let mut progress = Vec::new();
    let answer = loop {
        let m = next();
        if m["id"] == 2 {
            break m;
        }
        assert_eq!(m["method"], "notifications/progress", "{m}");
        assert_eq!(m["params"]["progressToken"], "p1", "{m}");
        progress.push((
            m["params"]["progress"].as_f64().unwrap_or(-1.0),
            m["params"]["message"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
        ));
    };
    assert_eq!(
        answer["result"]["structuredContent"]["error_type"], "FileNotFoundError",
        "{answer}"
    );
    assert_eq!(
        progress,
        [
            (1.0, "step 0: echo".to_string()),
            (2.0, "step 1: add".to_string()),
            (3.0, "step 2: read_file".to_string())
        ]
    );
    drop(stdin);
    assert!(child.wait().expect("exits").success());
}

/// A result nested past serde_json's default parse depth (128) still has
/// its `structuredContent`, equal to the text (raw JSON-RPC over stdio, read
/// without a depth limit, since the rmcp client keeps the default one).
#[test]
fn a_deeply_nested_result_keeps_its_structured_content() {
    use serde::Deserialize;
    use std::io::{BufRead, Write};
    let ws = workspace("");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_lackpy"))
        .args(["mcp", "serve", "--workspace"])
        .arg(ws.path())
        .env_remove("RUST_LOG")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("lackpy starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let program = "v = [1]\nfor _ in range(300):\n    v = [v]\n0";
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "run_program", "arguments": {"program": program}}});
    for l in [
        INITIALIZE.to_string(),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_string(),
        call.to_string(),
    ] {
        writeln!(stdin, "{l}").expect("write");
    }
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = std::io::BufReader::new(stdout).lines();
    let parse = |l: &str| {
        let mut de = serde_json::Deserializer::from_str(l);
        de.disable_recursion_limit();
        Value::deserialize(&mut de).expect("a JSON line")
    };
    let answer = loop {
        let line = lines.next().expect("an answer").expect("a line");
        let v = parse(&line);
        if v["id"] == 2 {
            break v;
        }
    };
    drop(stdin);
    let _ = child.wait();
    let result = &answer["result"];
    let content = result["content"].as_array().expect("content");
    assert_eq!(content.len(), 1, "one text block: {content:?}");
    let text = parse(content[0]["text"].as_str().expect("text"));
    let structured = &result["structuredContent"];
    assert_eq!(structured["success"], true, "{structured}");
    assert_eq!(&text, structured, "text and structuredContent differ");
    let mut depth = 0;
    let mut v = &structured["variables"]["v"];
    while let Some(inner) = v.get(0) {
        depth += 1;
        v = inner;
    }
    assert_eq!(depth, 301);
}
