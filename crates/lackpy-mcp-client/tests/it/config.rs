//! Servers from a real config file and a host config file: descriptors,
//! provenance, precedence, env and cwd, through to working tools.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::time::Duration;

use common::*;
use lackpy_mcp_client::{ConfiguredServers, McpClient, McpClientOptions};
use lackpy_sources::{ExpandContext, Precedence, Provenance, ToolSource, parse_config};

#[test]
fn own_and_host_servers_keep_their_provenance() {
    let ws = tempfile::tempdir().unwrap();
    let server = server_bin();
    let host_file = ws.path().join("mcp.json");
    std::fs::write(
        &host_file,
        format!(
            r#"{{"mcpServers": {{
                "hosted": {{"command": "{server}", "args": ["--legacy"]}},
                "needs-input": {{"command": "x", "env": {{"K": "${{input:key}}"}}}}
            }}}}"#
        ),
    )
    .unwrap();
    // The own server runs through `sh` to show its env and cwd.
    let text = format!(
        r#"
[mcp_servers.own]
command = "sh"
args = ["-c", "test \"$GREETING\" = hello && test -f marker && exec '{server}'"]
env = {{ GREETING = "hello" }}
cwd = "sub"
call_timeout_ms = 1234
include = ["echo", "get_sum"]

[mcp_servers.off]
command = "{server}"
enabled = false

[mcp]
host_configs = ["{host}"]
"#,
        host = host_file.display()
    );
    std::fs::create_dir(ws.path().join("sub")).unwrap();
    std::fs::write(ws.path().join("sub").join("marker"), "").unwrap();
    let loaded = parse_config(&text, &ws.path().join(".lackpy/config.toml")).unwrap();
    let ctx = ExpandContext::from_env(Some(ws.path().to_path_buf()));
    let configured = ConfiguredServers::from_config(&loaded.config, &ctx);
    assert_eq!(configured.servers.len(), 2, "{:?}", configured.servers);
    assert_eq!(configured.skipped.len(), 1);
    assert_eq!(configured.skipped[0].server, "needs-input");
    assert_eq!(configured.servers[0].precedence, Precedence::MCP);
    assert_eq!(configured.servers[1].precedence, Precedence::host_config(0));

    runtime().block_on(async {
        let opts = McpClientOptions {
            workspace: Some(ws.path().to_path_buf()),
            ..options()
        };
        let client = McpClient::new(opts);
        let disc = client.start(configured.servers, None).await;
        assert!(disc.failures().is_empty(), "{:?}", disc.failures());
        let own = &disc.sources[0];
        let hosted = &disc.sources[1];
        assert_eq!(own.name(), "mcp:own");
        assert_eq!(*own.provenance(), Provenance::Own);
        assert_eq!(own.precedence(), Precedence::MCP);
        assert_eq!(own.call_timeout(), Duration::from_millis(1234));
        let names: Vec<String> = own.discover().into_iter().map(|s| s.name).collect();
        assert_eq!(names, ["echo", "get_sum"]);
        assert_eq!(
            call(own, "echo", vec![s("configured")]).await,
            Ok(s("configured"))
        );

        assert_eq!(hosted.name(), format!("mcp:hosted@{}", host_file.display()));
        assert_eq!(*hosted.provenance(), Provenance::Host(host_file.clone()));
        assert_eq!(hosted.precedence(), Precedence::host_config(0));
        let status = hosted.status();
        assert_eq!(status.provenance, format!("host:{}", host_file.display()));
        assert_eq!(status.protocol_version.as_deref(), Some("2025-11-25"));
        assert_eq!(call(hosted, "add", vec![i(1), i(2)]).await, Ok(i(3)));
        assert_eq!(client.status().len(), 2);
        client.shutdown().await;
    });
}
