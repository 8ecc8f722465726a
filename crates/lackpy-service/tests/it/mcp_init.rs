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
fn init_writes_cursor_and_vscode_workspace_files() {
    let ws = tempfile::tempdir().expect("temp dir");
    let ws_arg = ws.path().display().to_string();
    std::fs::create_dir(ws.path().join(".vscode")).expect("fixture");
    let vscode = ws.path().join(".vscode/mcp.json");
    let original = "{\n  \"inputs\": [],\n  \"servers\": {\n    \"web\": { \"type\": \"http\",  \"url\": \"http://localhost:9/mcp\" }\n  }\n}\n";
    std::fs::write(&vscode, original).expect("fixture");
    for (host, file, top) in [
        ("cursor", ".cursor/mcp.json", "mcpServers"),
        ("vscode", ".vscode/mcp.json", "servers"),
    ] {
        let out = lackpy_in(
            ws.path(),
            &["mcp", "init", "--workspace", &ws_arg, "--host", host],
            "",
        );
        assert_eq!(out.code, 0, "{}", out.stderr);
        let path = ws.path().join(file);
        assert_eq!(
            out.stdout,
            format!("added 'lackpy' to {}\n", path.display())
        );
        let text = std::fs::read_to_string(&path).expect("written");
        let v: Value = serde_json::from_str(&text).expect("valid JSON");
        let entry = &v[top]["lackpy"];
        assert_eq!(entry["command"], env!("CARGO_BIN_EXE_lackpy"));
        assert_eq!(entry["args"][3], ws_arg.as_str());
        if host == "vscode" {
            assert_eq!(entry["type"], "stdio");
            // The other server keeps its bytes.
            let cut = original.find(" }\n  }").expect("fixture shape") + 2;
            assert!(text.starts_with(&original[..cut]), "{text}");
            assert!(text.ends_with(&original[cut..]), "{text}");
        }
        let again = lackpy_in(
            ws.path(),
            &["mcp", "init", "--workspace", &ws_arg, "--host", host],
            "",
        );
        assert_eq!(again.code, 2);
        assert!(again.stderr.contains("--force"), "{}", again.stderr);
        let forced = lackpy_in(
            ws.path(),
            &[
                "mcp",
                "init",
                "--workspace",
                &ws_arg,
                "--host",
                host,
                "--force",
            ],
            "",
        );
        assert_eq!(forced.code, 0, "{}", forced.stderr);
    }
    assert!(!ws.path().join(".mcp.json").exists());
}

#[test]
fn init_prints_the_snippet_with_print_and_for_claude_desktop() {
    let ws = tempfile::tempdir().expect("temp dir");
    let ws_arg = ws.path().display().to_string();
    for (host, top, print) in [
        ("claude-desktop", "mcpServers", false),
        ("claude-code", "mcpServers", true),
        ("cursor", "mcpServers", true),
        ("vscode", "servers", true),
    ] {
        let mut args = vec!["mcp", "init", "--workspace", &ws_arg, "--host", host];
        if print {
            args.push("--print");
        }
        let out = lackpy_in(ws.path(), &args, "");
        assert_eq!(out.code, 0, "{}", out.stderr);
        let v: Value = serde_json::from_str(&out.stdout).expect("JSON snippet");
        assert_eq!(v[top]["lackpy"]["command"], env!("CARGO_BIN_EXE_lackpy"));
        if host == "vscode" {
            assert_eq!(v[top]["lackpy"]["type"], "stdio");
        }
        if host == "claude-desktop" {
            insta::assert_snapshot!("mcp_init_claude_desktop_path", out.stderr);
        } else {
            assert_eq!(out.stderr, "");
        }
    }
    assert_eq!(
        std::fs::read_dir(ws.path()).expect("list").count(),
        0,
        "nothing written"
    );
}

#[test]
fn init_keeps_the_path_the_user_invoked() {
    let ws = tempfile::tempdir().expect("temp dir");
    let bin = ws.path().join("bin");
    std::fs::create_dir(&bin).expect("fixture");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_lackpy"), bin.join("lackpy")).expect("link");
    let run = |program: &str, path: Option<&std::path::Path>| {
        let mut cmd = std::process::Command::new(program);
        cmd.args(["mcp", "init", "--print"]).current_dir(ws.path());
        if let Some(p) = path {
            cmd.env("PATH", p);
        }
        let out = cmd.output().expect("lackpy runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: Value = serde_json::from_slice(&out.stdout).expect("JSON snippet");
        v["mcpServers"]["lackpy"]["command"].clone()
    };
    let link = bin.join("lackpy").display().to_string();
    // Relative to the cwd: made absolute, the link kept.
    assert_eq!(run("bin/lackpy", None), link.as_str());
    // A bare name: found on PATH, the link kept.
    assert_eq!(run("lackpy", Some(&bin)), link.as_str());
}
