//! MCP servers through the whole stack: config and host files → discovery →
//! toolbox precedence → a program run by the real `lackpy` binary.
//!
//! Uses the pinned third-party servers that `scripts/install-mcp-test-servers.sh`
//! installs under `target/mcp-test-servers/`. The tests that need them are
//! `#[ignore]`d (CI runs them with `--ignored`) and fail when they are missing.

use crate::common;

use std::path::{Path, PathBuf};

use common::lackpy_in;
use common::procs::{alive, children_of};
use common::test_server::mcp_test_server;

fn servers_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/mcp-test-servers")
}

/// `(server-everything, mcp-server-time)` commands; the tests that need
/// them are `#[ignore]`d and fail when they are missing.
pub(crate) fn third_party() -> (String, String) {
    let everything = std::env::var("LACKPY_TEST_EVERYTHING_CMD")
        .map(PathBuf::from)
        .unwrap_or_else(|_| servers_dir().join("bin/server-everything"));
    let time = std::env::var("LACKPY_TEST_TIME_CMD")
        .map(PathBuf::from)
        .unwrap_or_else(|_| servers_dir().join("venv/bin/mcp-server-time"));
    if everything.is_file() && time.is_file() {
        return (everything.display().to_string(), time.display().to_string());
    }
    panic!(
        "third-party MCP servers missing ({} / {}): run scripts/install-mcp-test-servers.sh",
        everything.display(),
        time.display()
    );
}

fn workspace(config: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join(".lackpy")).expect("mkdir");
    std::fs::write(dir.path().join(".lackpy/config.toml"), config).expect("config");
    dir
}

#[test]
#[ignore = "needs scripts/install-mcp-test-servers.sh"]
fn one_program_calls_both_third_party_servers_and_a_builtin() {
    let (everything, time) = third_party();
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
#[ignore = "needs scripts/install-mcp-test-servers.sh"]
fn own_servers_outrank_host_config_servers_and_status_reports_failures() {
    let (everything, _) = third_party();
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

#[test]
#[ignore = "needs scripts/install-mcp-test-servers.sh"]
fn sigterm_mid_run_leaves_no_server_behind() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    let (_, time) = third_party();
    // Our test server, made stubborn: it ignores stdin EOF and SIGTERM and
    // has a child of its own, so only a group kill ends it.
    let ours = mcp_test_server();
    let ws = workspace(&format!(
        "[mcp_servers.ours]\ncommand = {:?}\nargs = [\"--ignore-stdin-eof\", \"--ignore-sigterm\", \"--spawn-child\"]\n\n\
         [mcp_servers.time]\ncommand = {time:?}\n",
        ours.display().to_string()
    ));
    let mut child = Command::new(env!("CARGO_BIN_EXE_lackpy"))
        .args(["run", "-", "--workspace"])
        .arg(ws.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("lackpy starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"slow(30000)\n")
        .expect("program");
    // Wait until both servers run and the long call is in flight.
    let started = Instant::now();
    // Every descendant: the servers and what they spawned.
    let descendants = |root: u32| {
        let mut all = Vec::new();
        let mut frontier = vec![root];
        while let Some(p) = frontier.pop() {
            for (pid, state) in children_of(p) {
                frontier.push(pid);
                all.push((pid, state));
            }
        }
        all
    };
    let servers = loop {
        // Two servers plus the child our test server spawns.
        let kids = descendants(child.id());
        if kids.len() >= 3 {
            break kids;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "servers never started: {kids:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    std::thread::sleep(Duration::from_millis(500));
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let status = child.wait().expect("lackpy exits");
    assert_eq!(status.code(), Some(143), "exit code after SIGTERM");
    let deadline = Instant::now() + Duration::from_secs(3);
    while servers.iter().any(|(pid, _)| alive(*pid)) {
        assert!(
            Instant::now() < deadline,
            "server processes outlived lackpy: {:?}",
            servers
                .iter()
                .filter(|(p, _)| alive(*p))
                .collect::<Vec<_>>()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}
