//! Host config files of every shape, with variable expansion.

use crate::common;

use std::path::{Path, PathBuf};

use lackpy_sources::{ExpandContext, McpTransport, Precedence, Provenance};
use lackpy_sources::{HostServers, read_host_configs};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/host")
}

fn ctx() -> ExpandContext {
    ExpandContext::with_vars(
        Some(PathBuf::from("/ws/project")),
        Some(PathBuf::from("/home/tester")),
        vec![
            ("API_TOKEN".into(), "secret-token".into()),
            ("EMPTY_VAR".into(), String::new()),
        ],
    )
}

fn read(files: &[&str]) -> HostServers {
    let paths: Vec<String> = files
        .iter()
        .map(|f| fixtures().join(f).display().to_string())
        .collect();
    read_host_configs(&paths, &ctx())
}

/// A readable dump (test values are not secrets) with the fixture path cut.
fn dump(h: &HostServers) -> String {
    let base = fixtures().display().to_string();
    let mut out = String::new();
    for s in &h.servers {
        let t = match &s.transport {
            McpTransport::Stdio {
                command,
                args,
                env,
                cwd,
            } => format!(
                "stdio command={command} args={args:?} env={env:?} cwd={:?}",
                cwd.as_ref().map(|c| c.display().to_string())
            ),
            McpTransport::Http { url, headers } => format!("http url={url} headers={headers:?}"),
        };
        out.push_str(&format!(
            "server {} [{} @ {}] {t}\n",
            s.id, s.provenance, s.precedence
        ));
    }
    for s in &h.skipped {
        out.push_str(&format!(
            "skipped {} in {}: {}\n",
            s.server,
            s.file.display(),
            s.reason
        ));
    }
    for u in &h.unreadable {
        out.push_str(&format!("unreadable {}: {}\n", u.file.display(), u.reason));
    }
    out.replace(&base, "<fixtures>")
}

#[test]
fn every_shape_reads_with_expansion_precedence_and_provenance() {
    let h = read(&[
        "claude_desktop.json",
        "claude_code.json",
        "missing.json",
        "cursor.json",
        "vscode.json",
        "vscode_settings.json",
        "bare.json",
        "broken.json",
    ]);
    insta::assert_snapshot!("host_configs", dump(&h));
}

#[test]
fn expansion_reaches_command_args_env_cwd_url_and_headers() {
    let h = read(&["claude_desktop.json", "claude_code.json"]);
    let get = |id: &str| {
        h.servers
            .iter()
            .find(|s| s.id == id)
            .unwrap_or_else(|| panic!("{id}"))
    };
    match &get("filesystem").transport {
        McpTransport::Stdio { args, env, .. } => {
            assert_eq!(args[2], "/ws/project");
            assert_eq!(args[3], "/home/tester/Documents");
            assert_eq!(
                env[0],
                ("GITHUB_TOKEN".to_string(), "secret-token".to_string())
            );
        }
        other => panic!("{other:?}"),
    }
    match &get("defaulted").transport {
        McpTransport::Stdio { args, cwd, .. } => {
            assert_eq!(args[1], "8080");
            assert_eq!(cwd.as_deref(), Some(Path::new("/ws/project/tools")));
        }
        other => panic!("{other:?}"),
    }
    match &get("remote").transport {
        McpTransport::Http { headers, .. } => assert_eq!(headers[0].1, "Bearer secret-token"),
        other => panic!("{other:?}"),
    }
    match &get("api").transport {
        McpTransport::Http { url, headers } => {
            assert_eq!(url, "http://localhost:3000/mcp");
            assert_eq!(headers[0].1, "secret-token");
        }
        other => panic!("{other:?}"),
    }
    match &get("local").transport {
        McpTransport::Stdio { command, .. } => assert_eq!(command, "/home/tester/bin/server"),
        other => panic!("{other:?}"),
    }
    assert_eq!(get("filesystem").precedence, Precedence::host_config(0));
    assert_eq!(get("api").precedence, Precedence::host_config(1));
    assert_eq!(
        get("api").provenance,
        Provenance::Host(fixtures().join("claude_code.json"))
    );
    assert_eq!(get("api").source_name(), "mcp:api");
}

#[test]
fn secrets_never_show_in_debug_output() {
    let h = read(&["claude_desktop.json"]);
    let text = format!("{:?}", h.servers);
    assert!(!text.contains("secret-token"), "{text}");
    assert!(
        text.contains("GITHUB_TOKEN") && text.contains("Authorization"),
        "{text}"
    );
}

#[test]
fn an_unreadable_file_does_not_stop_the_next() {
    let h = read(&["missing.json", "broken.json", "bare.json"]);
    assert_eq!(h.unreadable.len(), 2);
    assert_eq!(
        h.servers.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(),
        vec!["time", "both"]
    );
    assert!(
        h.servers
            .iter()
            .all(|s| s.precedence == Precedence::host_config(2))
    );
}

#[test]
fn host_config_paths_expand_tilde_and_variables() {
    let home = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    std::fs::create_dir_all(home.path().join(".cursor")).unwrap_or_else(|e| panic!("{e}"));
    std::fs::copy(
        fixtures().join("cursor.json"),
        home.path().join(".cursor/mcp.json"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let ctx = ExpandContext::with_vars(
        Some(PathBuf::from("/ws")),
        Some(home.path().to_path_buf()),
        vec![("CFG".into(), home.path().display().to_string())],
    );
    let h = read_host_configs(
        &[
            "~/.cursor/mcp.json".to_string(),
            "${CFG}/.cursor/mcp.json".to_string(),
        ],
        &ctx,
    );
    assert!(h.unreadable.is_empty(), "{:?}", h.unreadable);
    assert_eq!(h.servers.len(), 4);
    let bad = read_host_configs(&["${NOPE}/mcp.json".to_string()], &ctx);
    assert_eq!(
        bad.unreadable[0].reason,
        "cannot expand the path: variable ${NOPE} is not set and has no default"
    );
}

#[test]
fn skips_are_warnings_naming_file_server_and_reason() {
    let (h, logs) = common::with_logs(|| read(&["vscode.json", "missing.json"]));
    assert_eq!(h.skipped.len(), 3);
    assert!(logs.contains("WARN"), "{logs}");
    assert!(logs.contains("host MCP server skipped"), "{logs}");
    assert!(
        logs.contains("server=github") && logs.contains("vscode.json"),
        "{logs}"
    );
    assert!(logs.contains("input:api-key"), "{logs}");
    assert!(
        logs.contains("host MCP config skipped") && logs.contains("missing.json"),
        "{logs}"
    );
}
