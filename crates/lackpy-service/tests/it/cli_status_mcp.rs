//! `lackpy status` with MCP servers that fail, start lackpy itself or must
//! not be started, through the real binary: secrets in URLs never show,
//! the discovery deadline comes from the config, and lackpy never starts
//! itself without end.

use crate::common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::{lackpy_env, lackpy_in};
use serde_json::Value;

fn workspace(config: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join(".lackpy")).expect("mkdir");
    std::fs::write(dir.path().join(".lackpy/config.toml"), config).expect("config");
    dir
}

fn status_json(ws: &Path, env: &[(&str, &str)]) -> (Value, String) {
    let out = lackpy_env(ws, &["status", "--json"], "", env);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v =
        serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("JSON ({e}): {}", out.stdout));
    (v, out.stderr)
}

/// A local port nothing listens on.
fn closed_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    l.local_addr().expect("addr").port()
}

#[test]
fn credentials_in_a_server_url_never_show_in_status_or_logs() {
    let port = closed_port();
    let ws = workspace(&format!(
        "[mcp_servers.web]\nurl = \"http://user:hunter2@127.0.0.1:{port}/mcp?key=QSECRET&x=1\"\n"
    ));
    let text = lackpy_in(ws.path(), &["status"], "");
    assert_eq!(text.code, 0, "{}", text.stderr);
    let (json, json_logs) = status_json(ws.path(), &[]);
    let reason = json["mcp_servers"][0]["reason"]
        .as_str()
        .unwrap_or("")
        .to_string();
    let config = lackpy_in(ws.path(), &["status", "-v"], "");
    for (what, shown) in [
        ("status", &text.stdout),
        ("status logs", &text.stderr),
        ("status --json reason", &reason),
        ("status --json logs", &json_logs),
        ("status -v logs", &config.stderr),
    ] {
        assert!(!shown.contains("hunter2"), "{what}: {shown}");
        assert!(!shown.contains("QSECRET"), "{what}: {shown}");
    }
    assert!(reason.contains("<redacted>@127.0.0.1"), "{reason}");
    assert!(reason.contains("key=<redacted>"), "{reason}");
    assert!(text.stderr.contains("WARN"), "{}", text.stderr);
    assert!(text.stderr.contains("key=<redacted>"), "{}", text.stderr);
}

#[test]
fn the_discovery_deadline_comes_from_the_config() {
    let ws = workspace(
        "[mcp]\ndiscovery_timeout_ms = 500\n\
         [mcp_servers.slow]\ncommand = \"sleep\"\nargs = [\"60\"]\nconnect_timeout_ms = 60000\n",
    );
    let started = Instant::now();
    let (v, _) = status_json(ws.path(), &[]);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(v["mcp_servers"][0]["state"], "down", "{v}");
    let reason = v["mcp_servers"][0]["reason"].as_str().unwrap_or("");
    assert!(
        reason.contains("within 5") || reason.contains("within 4"),
        "{reason}"
    );
}

#[test]
fn a_host_config_entry_that_starts_lackpy_is_skipped() {
    // `lackpy mcp init` writes a `lackpy … mcp serve` entry; the starter
    // config's `host_configs = [".mcp.json"]` reads it.
    let ws = workspace("[mcp]\nhost_configs = [\".mcp.json\", \"other.json\"]\n");
    let init = lackpy_in(ws.path(), &["mcp", "init"], "");
    assert_eq!(init.code, 0, "{}", init.stderr);
    // The same executable under another name, with other arguments.
    let alias = ws.path().join("lp");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_lackpy"), &alias).expect("link");
    std::fs::write(
        ws.path().join("other.json"),
        format!(
            "{{\"mcpServers\": {{\"alias\": {{\"command\": \"{}\", \"args\": [\"mcp\", \"serve\", \"-q\"]}}}}}}",
            alias.display()
        ),
    )
    .expect("host file");
    let started = Instant::now();
    let text = lackpy_in(ws.path(), &["status"], "");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(
        text.stdout.contains("lackpy           skipped ("),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout.contains("alias            skipped ("),
        "{}",
        text.stdout
    );
    assert!(
        text.stderr.contains("WARN host MCP server skipped"),
        "{}",
        text.stderr
    );
    let (v, _) = status_json(ws.path(), &[]);
    assert_eq!(
        v["mcp_servers"],
        serde_json::json!([]),
        "nothing started: {v}"
    );
    let skipped = v["skipped_mcp_servers"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(skipped.len(), 2, "{v}");
    assert!(
        skipped[0]["reason"]
            .as_str()
            .unwrap_or("")
            .contains("mcp serve"),
        "{v}"
    );
    assert!(
        skipped[1]["reason"]
            .as_str()
            .unwrap_or("")
            .contains("this lackpy executable"),
        "{v}"
    );
}

#[test]
fn a_lackpy_started_by_lackpy_starts_no_host_config_servers() {
    // Every MCP server lackpy starts gets the marker...
    let ws = workspace(
        "[mcp]\ndiscovery_timeout_ms = 1500\nhost_configs = [\"h.json\"]\n\
         [mcp_servers.probe]\ncommand = \"sh\"\n\
         args = [\"-c\", \"printf %s \\\"$LACKPY_MCP_PARENT\\\" > marker.txt; sleep 60\"]\n",
    );
    std::fs::write(
        ws.path().join("h.json"),
        "{\"mcpServers\": {\"wrapped\": {\"command\": \"sleep\", \"args\": [\"60\"]}}}",
    )
    .expect("host file");
    let (v, _) = status_json(ws.path(), &[]);
    assert_eq!(
        std::fs::read_to_string(ws.path().join("marker.txt"))
            .ok()
            .as_deref(),
        Some("1"),
        "{v}"
    );
    assert!(v.get("skipped_mcp_servers").is_none(), "{v}");
    // ...and a lackpy that has it starts no host config server.
    let (v, _) = status_json(ws.path(), &[("LACKPY_MCP_PARENT", "1")]);
    let skipped = v["skipped_mcp_servers"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(skipped.len(), 1, "{v}");
    assert_eq!(skipped[0]["server"], "wrapped");
    assert!(
        skipped[0]["reason"]
            .as_str()
            .unwrap_or("")
            .contains("LACKPY_MCP_PARENT"),
        "{v}"
    );
}
