//! Own `[mcp_servers.<id>]` into descriptors, and grades for MCP tools.

use std::path::{Path, PathBuf};
use std::time::Duration;

use lackpy_sources::lang::Grade;
use lackpy_sources::parse_config;
use lackpy_sources::{
    ExpandContext, McpTransport, Precedence, Provenance, ToolAnnotations, apply_grade_override,
    grade_from_annotations, own_servers,
};

const CONFIG: &str = r#"
[mcp_servers.time]
command = "~/bin/mcp-server-time"
args = ["--tz", "${TZ_NAME:-UTC}"]
env = { TOKEN = "${API_TOKEN}" }
cwd = "servers"
connect_timeout_ms = 2500
call_timeout_ms = 9000
include = ["get_current_time", "convert_time"]
exclude = ["convert_time"]

[mcp_servers.time.tools.get_current_time]
grade = { d = 0 }
description = "Now"

[mcp_servers.remote]
url = "https://mcp.example.com/mcp"
headers = { Authorization = "Bearer ${API_TOKEN}" }

[mcp_servers.off]
command = "never"
enabled = false

[mcp_servers.needs_secret]
url = "https://x/mcp"
headers = { Authorization = "Bearer ${MISSING_TOKEN}" }
"#;

#[test]
fn own_servers_expand_and_keep_their_settings() {
    let cfg = parse_config(CONFIG, Path::new("config.toml"))
        .unwrap_or_else(|e| panic!("{e}"))
        .config;
    let ctx = ExpandContext::with_vars(
        Some(PathBuf::from("/ws")),
        Some(PathBuf::from("/home/me")),
        vec![("API_TOKEN".into(), "t0k".into())],
    );
    let servers = own_servers(&cfg, &ctx);
    let ids: Vec<&str> = servers.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(
        ids,
        vec!["time", "remote"],
        "disabled and unexpandable servers are skipped"
    );
    let time = &servers[0];
    assert_eq!(time.provenance, Provenance::Own);
    assert_eq!(time.provenance.to_string(), "own");
    assert_eq!(time.precedence, Precedence::MCP);
    assert_eq!(time.source_name(), "mcp:time");
    assert_eq!(
        time.transport,
        McpTransport::Stdio {
            command: "/home/me/bin/mcp-server-time".into(),
            args: vec!["--tz".into(), "UTC".into()],
            env: vec![("TOKEN".into(), "t0k".into())],
            cwd: Some(PathBuf::from("/ws/servers")),
        }
    );
    assert_eq!(time.connect_timeout, Some(Duration::from_millis(2500)));
    assert_eq!(time.call_timeout, Some(Duration::from_millis(9000)));
    assert!(time.admits("get_current_time"));
    assert!(!time.admits("convert_time"), "exclude wins");
    assert!(!time.admits("other"), "not included");
    let over = time
        .tool_override("get_current_time")
        .unwrap_or_else(|| panic!("override"));
    assert_eq!(over.description.as_deref(), Some("Now"));
    // A partial override fills the rest from the derived grade.
    let derived = grade_from_annotations(Some(&ToolAnnotations {
        read_only: Some(true),
        open_world: Some(true),
        ..ToolAnnotations::default()
    }));
    assert_eq!(derived, Grade::new(2, 1));
    assert_eq!(
        apply_grade_override(derived, over.grade.as_ref()),
        Grade::new(2, 0)
    );
    match &servers[1].transport {
        McpTransport::Http { url, headers } => {
            assert_eq!(url, "https://mcp.example.com/mcp");
            assert_eq!(
                headers,
                &vec![("Authorization".to_string(), "Bearer t0k".to_string())]
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(servers[1].admits("anything"));
    assert!(
        !format!("{servers:?}").contains("t0k"),
        "secrets stay out of Debug"
    );
}
