//! `lackpy mcp init` with the real binary on real files.

use crate::common;

use common::lackpy_in;
use serde_json::Value;

#[test]
fn init_keeps_other_servers_byte_for_byte_and_refuses_to_overwrite() {
    let ws = tempfile::tempdir().expect("temp dir");
    let original = "{\n  \"mcpServers\": {\n    \"files\": {\"command\": \"npx\",   \"args\": [\"-y\", \"@x/files\"]},\n\n    \"web\" : { \"url\": \"http://localhost:9/mcp\" }\n  },\n  \"other\": true\n}\n";
    let file = ws.path().join(".mcp.json");
    std::fs::write(&file, original).expect("fixture");
    let ws_arg = ws.path().display().to_string();

    let out = lackpy_in(ws.path(), &["mcp", "init", "--workspace", &ws_arg], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let after = std::fs::read_to_string(&file).expect("read");
    // Everything up to the last server's end is untouched, and so is the tail.
    let cut = original.find(" }\n  },").expect("fixture shape") + 2;
    assert!(after.starts_with(&original[..cut]), "{after}");
    assert!(after.ends_with(&original[cut..]), "{after}");
    let v: Value = serde_json::from_str(&after).expect("valid JSON");
    let lackpy = &v["mcpServers"]["lackpy"];
    assert_eq!(
        lackpy["command"],
        env!("CARGO_BIN_EXE_lackpy"),
        "the absolute path of this binary"
    );
    let args: Vec<&str> = lackpy["args"]
        .as_array()
        .expect("args")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(args[..3], ["mcp", "serve", "--workspace"]);
    assert!(std::path::Path::new(args[3]).is_absolute(), "{args:?}");

    let again = lackpy_in(ws.path(), &["mcp", "init", "--workspace", &ws_arg], "");
    assert_eq!(again.code, 2);
    insta::assert_snapshot!("mcp_init_refuses", again.stderr.replace(&ws_arg, "<ws>"));
    assert_eq!(std::fs::read_to_string(&file).expect("read"), after);

    let forced = lackpy_in(
        ws.path(),
        &[
            "mcp",
            "init",
            "--workspace",
            &ws_arg,
            "--force",
            "--name",
            "lackpy",
        ],
        "",
    );
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    let forced_text = std::fs::read_to_string(&file).expect("read");
    assert!(forced_text.starts_with(&original[..cut]), "{forced_text}");
    let v: Value = serde_json::from_str(&forced_text).expect("valid JSON");
    assert_eq!(v["mcpServers"]["files"]["command"], "npx");
}

#[test]
fn init_prints_the_snippet_for_other_hosts() {
    let ws = tempfile::tempdir().expect("temp dir");
    let ws_arg = ws.path().display().to_string();
    for (host, top) in [
        ("claude-desktop", "mcpServers"),
        ("cursor", "mcpServers"),
        ("vscode", "servers"),
    ] {
        let out = lackpy_in(
            ws.path(),
            &["mcp", "init", "--workspace", &ws_arg, "--host", host],
            "",
        );
        assert_eq!(out.code, 0, "{}", out.stderr);
        let v: Value = serde_json::from_str(&out.stdout).expect("JSON snippet");
        assert_eq!(v[top]["lackpy"]["command"], env!("CARGO_BIN_EXE_lackpy"));
        if host == "vscode" {
            assert_eq!(v[top]["lackpy"]["type"], "stdio");
        }
    }
    assert!(!ws.path().join(".mcp.json").exists(), "nothing written");
}
