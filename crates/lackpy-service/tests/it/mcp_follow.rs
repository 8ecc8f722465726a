//! A server that follows its world: an upstream server's
//! `notifications/tools/list_changed` and a reconnect list its tools again,
//! `--watch` picks up config edits, and clients hear lackpy's own
//! `notifications/tools/list_changed`. Real processes throughout: the
//! `lackpy` binary, our rmcp test server behind it (`--dynamic` gives it
//! `add_tool`), our rmcp client in front. No timing is asserted: every wait
//! polls under a generous limit.

use crate::mcp_serve_support::*;

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::common::test_server::mcp_test_server;
use serde_json::json;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Child;

/// Long enough for a loaded machine; the tests never wait this long when
/// things work.
const LIMIT: Duration = Duration::from_secs(60);

/// `run_program`'s description as the client lists it now.
async fn description(client: &Client) -> String {
    let tools = client.list_all_tools().await.expect("tools/list");
    tools
        .iter()
        .find(|t| t.name == "run_program")
        .and_then(|t| t.description.as_deref())
        .unwrap_or_default()
        .to_string()
}

/// Polls `description` until `pred` holds; panics with the last one after
/// [`LIMIT`].
async fn description_until(client: &Client, what: &str, pred: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + LIMIT;
    loop {
        let d = description(client).await;
        if pred(&d) {
            return d;
        }
        assert!(Instant::now() < deadline, "{what}; the description: {d}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits until the client has heard more than `seen` list_changed
/// notifications; returns the new count.
async fn heard_after(client: &Client, seen: usize) -> usize {
    let counter = Arc::clone(&client.service().list_changed);
    assert!(
        eventually(LIMIT, || counter.load(Ordering::SeqCst) > seen).await,
        "no notifications/tools/list_changed from lackpy"
    );
    counter.load(Ordering::SeqCst)
}

/// The inventory version `status` reports.
async fn version(client: &Client) -> u64 {
    let st = structured(&call(client, "status", json!({})).await);
    st["inventory"]["version"]
        .as_u64()
        .unwrap_or_else(|| panic!("status has no inventory version: {st}"))
}

/// The child's stderr lines, collected as they come (and passed on).
fn collect_stderr(child: &mut Child) -> Arc<Mutex<Vec<String>>> {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let stderr = child.stderr.take().expect("stderr");
    let into = Arc::clone(&lines);
    tokio::spawn(async move {
        let mut reader = BufReader::new(stderr).lines();
        while let Ok(Some(line)) = reader.next_line().await {
            eprintln!("[lackpy] {line}");
            if let Ok(mut l) = into.lock() {
                l.push(line);
            }
        }
    });
    lines
}

/// A config with the test server as `id`, started with `args`.
fn server(id: &str, args: &[&str]) -> String {
    format!(
        "[mcp_servers.{id}]\ncommand = {:?}\nargs = {:?}\n",
        mcp_test_server().display().to_string(),
        args
    )
}

#[tokio::test]
async fn an_upstream_list_changed_and_a_reconnect_reach_clients_as_lackpys_own() {
    let ws = workspace(&server("ours", &["--dynamic"]));
    let mut child = spawn_serve(ws.path(), &[], &[]);
    let client = stdio_client(&mut child, initialize()).await;
    let caps = client.peer().peer_info().map(|i| i.capabilities.clone());
    assert_eq!(
        caps.and_then(|c| c.tools).and_then(|t| t.list_changed),
        Some(true),
        "lackpy declares tools.listChanged"
    );
    assert!(!description(&client).await.contains("extra_tool("));
    assert_eq!(version(&client).await, 1);

    // The upstream server adds a tool and says so: lackpy lists it again,
    // tells us, and the tool is in run_program's description and callable.
    let r = run(&client, "add_tool('extra_tool')", json!({})).await;
    assert_eq!(r["success"], true, "{r}");
    let seen = heard_after(&client, 0).await;
    description_until(&client, "the added tool is listed", |d| {
        d.contains("extra_tool(")
    })
    .await;
    let r = run(&client, "extra_tool()", json!({})).await;
    assert_eq!(r["output"], "extra_tool called", "{r}");
    let after_add = version(&client).await;
    assert!(after_add >= 2, "a new inventory version: {after_add}");

    // The upstream process dies; the next call reconnects (a new process,
    // without the added tool), and the reconnect lists its tools again.
    let before = structured(&call(&client, "status", json!({})).await);
    let old_pid = before["mcp_servers"][0]["pid"].as_u64().expect("pid");
    let r = run(&client, "crash()", json!({})).await;
    assert_eq!(r["success"], false, "{r}");
    let r = run(&client, "pid()", json!({})).await;
    assert_eq!(r["success"], true, "the call reconnects: {r}");
    assert_ne!(r["output"].as_u64(), Some(old_pid), "{r}");
    heard_after(&client, seen).await;
    description_until(
        &client,
        "the restarted server's list replaced the old",
        |d| !d.contains("extra_tool(") && d.contains("add_tool("),
    )
    .await;
    assert!(version(&client).await > after_add);
    let r = run(&client, "extra_tool()", json!({})).await;
    assert_eq!(r["error_type"], "ValidationError", "{r}");

    client.cancel().await.expect("close");
    let _ = tokio::time::timeout(Duration::from_secs(10), child.wait()).await;
}

#[tokio::test]
async fn watch_follows_config_edits_and_keeps_the_old_config_when_the_new_one_is_bad() {
    let ws = workspace(&server("ours", &[]));
    let config = ws.path().join(".lackpy/config.toml");
    let mut child = spawn_serve(ws.path(), &["--watch"], &[]);
    let stderr = collect_stderr(&mut child);
    let client = stdio_client(&mut child, initialize()).await;
    assert!(!description(&client).await.contains("add_tool("));

    // A run in flight while the config changes finishes on its version.
    let peer = client.peer().clone();
    let slow = start_call(
        &peer,
        "run_program",
        json!({"program": "a = slow(1500)\nb = echo('still here')\n[a, b]"}),
    )
    .await;

    // A second server appears in the config: it is started and its tools
    // join the inventory (the first one stays connected).
    let pid_before =
        structured(&call(&client, "status", json!({})).await)["mcp_servers"][0]["pid"].clone();
    std::fs::write(
        &config,
        format!(
            "{}{}",
            server("ours", &[]),
            server("second", &["--dynamic"])
        ),
    )
    .expect("config");
    let seen = heard_after(&client, 0).await;
    description_until(&client, "the second server's tools", |d| {
        d.contains("add_tool(")
    })
    .await;
    let r = run(&client, "add_tool('x')", json!({})).await;
    assert_eq!(r["output"], "added x", "{r}");
    description_until(&client, "the tool the second server added", |d| {
        d.contains("  x(")
    })
    .await;
    let st = structured(&call(&client, "status", json!({})).await);
    assert_eq!(
        st["mcp_servers"][0]["pid"], pid_before,
        "kept connected: {st}"
    );
    assert_eq!(st["mcp_servers"].as_array().map(Vec::len), Some(2), "{st}");

    let done = slow.await_response().await.expect("the slow run answers");
    let done = serde_json::to_value(&done).expect("json");
    let text = done.to_string();
    assert!(text.contains("still here"), "{text}");
    assert!(text.contains("slept 1500 ms"), "{text}");

    // A malformed config is logged and the old one kept.
    let version_before = st["inventory"]["version"].clone();
    std::fs::write(&config, "[mcp_servers.second\ncommand = 1\n").expect("config");
    assert!(
        eventually(LIMIT, || {
            stderr.lock().is_ok_and(|l| {
                l.iter().any(|line| {
                    line.contains("WARN")
                        && line.contains("the changed config is not used")
                        && line.contains("config.toml")
                })
            })
        })
        .await,
        "a WARN line with the config error: {:?}",
        stderr.lock().map(|l| l.clone())
    );
    let r = run(&client, "[echo('ok'), x()]", json!({})).await;
    assert_eq!(r["output"], json!(["ok", "x called"]), "{r}");
    let st = structured(&call(&client, "status", json!({})).await);
    assert_eq!(st["inventory"]["version"], version_before, "{st}");

    // Removing the second server stops it and takes its tools away.
    std::fs::write(&config, server("ours", &[])).expect("config");
    heard_after(&client, seen).await;
    description_until(&client, "the second server's tools are gone", |d| {
        !d.contains("add_tool(") && d.contains("echo(")
    })
    .await;
    let st = structured(&call(&client, "status", json!({})).await);
    assert_eq!(st["mcp_servers"].as_array().map(Vec::len), Some(1), "{st}");
    let changed_at = st["inventory"]["changed_at"].as_str().unwrap_or_default();
    assert!(changed_at.ends_with('Z'), "{st}");

    client.cancel().await.expect("close");
    let _ = tokio::time::timeout(Duration::from_secs(10), child.wait()).await;
}

/// lackpy behind lackpy on the `2026-07-28` protocol: the inner server
/// tells of its tool changes on a `subscriptions/listen` stream, which the
/// outer one holds open because the inner declares `tools.listChanged`.
#[tokio::test]
async fn an_inner_lackpy_tells_the_outer_one_on_a_listen_stream() {
    let inner = workspace(&server("ours", &["--dynamic"]));
    let outer = workspace(&format!(
        "[mcp_servers.inner]\ncommand = {:?}\nargs = [\"mcp\", \"serve\", \"--workspace\", {:?}]\n",
        env!("CARGO_BIN_EXE_lackpy"),
        inner.path().display().to_string()
    ));
    let mut child = spawn_serve(outer.path(), &[], &[("RUST_LOG", "info")]);
    let stderr = collect_stderr(&mut child);
    let client = stdio_client(&mut child, initialize()).await;
    let st = structured(&call(&client, "status", json!({})).await);
    assert_eq!(
        st["mcp_servers"][0]["protocol_version"], "2026-07-28",
        "{st}"
    );
    // The inner server's own upstream adds a tool: the inner inventory
    // changes, so does its run_program's description, and the outer server
    // hears of it and lists the inner's tools again.
    let r = run(
        &client,
        "run_program(\"add_tool('z')\")['output']",
        json!({}),
    )
    .await;
    assert_eq!(r["output"], "added z", "{r}");
    assert!(
        eventually(LIMIT, || {
            stderr.lock().is_ok_and(|l| {
                l.iter().any(|line| {
                    line.contains("MCP server's tools changed") && line.contains("inner")
                })
            })
        })
        .await,
        "the outer server lists the inner's tools again: {:?}",
        stderr.lock().map(|l| l.clone())
    );
    client.cancel().await.expect("close");
    let _ = tokio::time::timeout(Duration::from_secs(10), child.wait()).await;
}

/// Over streamable HTTP too: each session hears lackpy's list_changed.
#[tokio::test]
async fn http_sessions_hear_lackpys_list_changed() {
    let ws = workspace(&server("ours", &["--dynamic"]));
    let (mut child, addr) = spawn_http(ws.path(), &[], &[]).await;
    let first = http_client(&addr, initialize()).await;
    let second = http_client(&addr, initialize()).await;
    let r = run(&first, "add_tool('over_http')", json!({})).await;
    assert_eq!(r["success"], true, "{r}");
    heard_after(&first, 0).await;
    heard_after(&second, 0).await;
    description_until(&second, "the added tool is listed", |d| {
        d.contains("over_http(")
    })
    .await;
    first.cancel().await.expect("close");
    second.cancel().await.expect("close");
    let _ = child.start_kill();
}
