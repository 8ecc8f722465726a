//! `-v` shows short lines a person reads (MCP discovery per server, each
//! model asked), not the SDK's debug structs; `-vv` adds our debug.

use crate::common;

use common::chat_server::{ChatServer, Reply};
use common::lackpy_in;
use common::test_server::mcp_test_server;

fn workspace(config: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join(".lackpy")).expect("mkdir");
    std::fs::write(dir.path().join(".lackpy/config.toml"), config).expect("config");
    std::fs::write(dir.path().join("notes.txt"), "alpha beta\n").expect("notes");
    dir
}

/// Milliseconds and seconds vary: `in [t]`.
fn normalise(stderr: &str) -> String {
    let re = regex::Regex::new(r"\d+(\.\d+)? (ms|s)\b").expect("regex");
    re.replace_all(stderr, "[t]").into_owned()
}

#[test]
fn v_shows_a_line_per_mcp_server_and_no_sdk_structs() {
    let server = mcp_test_server();
    let ws = workspace(&format!(
        "[mcp_servers.everything]\ncommand = {:?}\n",
        server.display().to_string()
    ));
    let out = lackpy_in(ws.path(), &["-v", "run", "-"], "1\n");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines: Vec<&str> = out.stderr.lines().collect();
    assert_eq!(lines[0], "discovering 1 MCP server …", "{}", out.stderr);
    let server_line = lines
        .iter()
        .find(|l| l.starts_with("  everything: "))
        .unwrap_or_else(|| panic!("a line for the server: {}", out.stderr));
    assert!(
        server_line.contains(" tools (") && server_line.ends_with(" ms"),
        "{}",
        out.stderr
    );
    assert!(
        !out.stderr.contains('\x1b'),
        "no colour into a pipe: {}",
        out.stderr
    );
    for noise in ["rmcp", "INFO", "peer_info", "MCP discovery finished", "{"] {
        assert!(!out.stderr.contains(noise), "{noise} in: {}", out.stderr);
    }
    // -vv: our crates' debug, in the full format.
    let out = lackpy_in(ws.path(), &["-vv", "run", "-"], "1\n");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("DEBUG"), "{}", out.stderr);
    assert!(
        out.stderr.contains("MCP discovery finished"),
        "{}",
        out.stderr
    );
}

#[test]
fn v_without_servers_says_nothing_of_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = lackpy_in(dir.path(), &["-v", "run", "-"], "1\n");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!out.stderr.contains("MCP"), "{}", out.stderr);
    assert!(!out.stderr.contains("connecting"), "{}", out.stderr);
}

#[test]
fn v_shows_each_model_asked() {
    let server = ChatServer::start(vec![
        Reply::answer("while True:\n    x = 1"),
        Reply::answer("len(read_file('notes.txt').split())"),
    ]);
    let ws = workspace(&format!(
        "[inference.providers.local]\nbase_url = \"{}\"\nmodel = \"qwen2.5-coder:1.5b\"\n",
        server.base_url()
    ));
    let out = lackpy_in(
        ws.path(),
        &["-v", "delegate", "count the words", "--tools", "read_file"],
        "",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let progress: Vec<String> = normalise(&out.stderr)
        .lines()
        .filter(|l| !l.starts_with("trace:") && !l.starts_with("  "))
        .map(String::from)
        .collect();
    insta::assert_snapshot!("verbose_delegate", progress.join("\n"));
}
