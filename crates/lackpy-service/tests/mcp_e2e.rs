//! MCP servers through the whole stack: config and host files → discovery →
//! toolbox precedence → a program run by the real `lackpy` binary.
//!
//! Uses the pinned third-party servers that `scripts/install-mcp-test-servers.sh`
//! installs under `target/mcp-test-servers/`. When they are missing the tests
//! skip, unless `LACKPY_REQUIRE_INTEROP=1` (CI) makes that a failure.

mod common;

use std::path::{Path, PathBuf};

use common::lackpy_in;

fn servers_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/mcp-test-servers")
}

/// `(server-everything, mcp-server-time)` commands, or `None` to skip.
fn third_party() -> Option<(String, String)> {
    let everything = std::env::var("LACKPY_TEST_EVERYTHING_CMD")
        .map(PathBuf::from)
        .unwrap_or_else(|_| servers_dir().join("bin/server-everything"));
    let time = std::env::var("LACKPY_TEST_TIME_CMD")
        .map(PathBuf::from)
        .unwrap_or_else(|_| servers_dir().join("venv/bin/mcp-server-time"));
    if everything.is_file() && time.is_file() {
        return Some((everything.display().to_string(), time.display().to_string()));
    }
    assert!(
        std::env::var("LACKPY_REQUIRE_INTEROP").as_deref() != Ok("1"),
        "third-party MCP servers missing ({} / {}): run scripts/install-mcp-test-servers.sh",
        everything.display(),
        time.display()
    );
    eprintln!("skipping: third-party MCP servers are not installed");
    None
}

fn workspace(config: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join(".lackpy")).expect("mkdir");
    std::fs::write(dir.path().join(".lackpy/config.toml"), config).expect("config");
    dir
}

#[test]
fn one_program_calls_both_third_party_servers_and_a_builtin() {
    let Some((everything, time)) = third_party() else {
        return;
    };
    let ws = workspace(&format!(
        "[mcp_servers.everything]\ncommand = {everything:?}\n\n\
         [mcp_servers.time]\ncommand = {time:?}\nargs = [\"--local-timezone\", \"UTC\"]\n"
    ));
    std::fs::write(ws.path().join("a.txt"), "hello\n").expect("fixture");
    let program = "t = get_current_time('UTC')\n\
                   s = get_sum(2, 3)\n\
                   e = echo(read_file('a.txt').strip())\n\
                   [t['timezone'], s, e]";
    let out = lackpy_in(ws.path(), &["run", "-", "--json"], program);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
    let output = &v["output"];
    assert_eq!(output[0], "UTC", "{v}");
    assert!(output[1].as_str().is_some_and(|s| s.contains('5')), "{v}");
    assert!(
        output[2].as_str().is_some_and(|s| s.contains("hello")),
        "{v}"
    );
    let tools: Vec<&str> = v["trace"]
        .as_array()
        .expect("trace")
        .iter()
        .filter_map(|e| e["tool"].as_str())
        .collect();
    assert_eq!(tools, ["get_current_time", "get_sum", "read_file", "echo"]);
    assert_eq!(v["files_read"], serde_json::json!(["a.txt"]));
}

#[test]
fn own_servers_outrank_host_config_servers_and_status_reports_failures() {
    let Some((everything, _)) = third_party() else {
        return;
    };
    let ws = workspace(&format!(
        "[mcp_servers.own]\ncommand = {everything:?}\ninclude = [\"echo\"]\n\n\
         [mcp_servers.dead]\ncommand = \"/nonexistent/lackpy-test-server\"\n\n\
         [mcp]\nhost_configs = [\".mcp.json\"]\n"
    ));
    // Claude Code's shape.
    std::fs::write(
        ws.path().join(".mcp.json"),
        format!(r#"{{"mcpServers": {{"hosted": {{"command": {everything:?}, "args": []}}}}}}"#),
    )
    .expect("host config");
    let out = lackpy_in(ws.path(), &["tools", "--json"], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
    let find = |name: &str| {
        v["tools"]
            .as_array()
            .and_then(|a| a.iter().find(|t| t["name"] == name))
            .cloned()
            .unwrap_or_else(|| panic!("{name} listed: {v}"))
    };
    let echo = find("echo");
    let candidates = echo["candidates"].as_array().expect("candidates");
    assert_eq!(candidates[0]["source"], "mcp:own", "{echo}");
    assert_eq!(candidates[0]["precedence"], 5);
    assert!(
        candidates[1]["source"]
            .as_str()
            .is_some_and(|s| s.starts_with("mcp:hosted@")),
        "{echo}"
    );
    assert_eq!(candidates[1]["precedence"], 4);
    assert_eq!(echo["winner"], 0);
    // A tool only the host server offers resolves to it.
    let sum = find("get_sum");
    assert!(
        sum["candidates"][0]["source"]
            .as_str()
            .is_some_and(|s| s.starts_with("mcp:hosted@"))
    );

    let out = lackpy_in(ws.path(), &["status", "--json"], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let s: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
    let servers = s["mcp_servers"].as_array().expect("servers");
    assert_eq!(servers.len(), 3, "{s}");
    let dead = servers
        .iter()
        .find(|m| m["id"] == "dead")
        .expect("dead listed");
    assert!(
        dead["reason"]
            .as_str()
            .is_some_and(|r| r.contains("cannot start")),
        "{dead}"
    );
    assert!(
        out.stderr.contains("dead"),
        "failure logged at WARN: {}",
        out.stderr
    );
    let hosted = servers
        .iter()
        .find(|m| m["id"] == "hosted")
        .expect("hosted listed");
    assert!(
        hosted["provenance"]
            .as_str()
            .is_some_and(|p| p.starts_with("host:")),
        "{hosted}"
    );

    // The program runs with the winner; the dead server hurts nothing.
    let out = lackpy_in(
        ws.path(),
        &["run", "-", "--json"],
        "[echo('x'), get_sum(1, 2)]",
    );
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
}
