//! Calls to pinned third-party servers, installed by
//! `scripts/install-mcp-test-servers.sh`:
//! `@modelcontextprotocol/server-everything` (npm, `initialize`) and
//! `mcp-server-time` (PyPI, `server/discover`).
//!
//! The commands come from `LACKPY_TEST_EVERYTHING_CMD` / `LACKPY_TEST_TIME_CMD`,
//! else from the script's default place under `target/mcp-test-servers/`.
//! The tests are `#[ignore]`d (CI runs them with `--ignored`); a missing
//! server fails its test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use common::*;
use lackpy_lang::Data;
use lackpy_mcp_client::{McpClient, McpClientOptions, ServerState};
use lackpy_sources::ToolSource;

fn installed(var: &str, default_rel: &str) -> Option<String> {
    if let Ok(cmd) = std::env::var(var)
        && !cmd.is_empty()
    {
        return Some(cmd);
    }
    let exe = std::env::current_exe().ok()?;
    let target: PathBuf = exe.parent()?.parent()?.parent()?.to_path_buf();
    let guess = target.join("mcp-test-servers").join(default_rel);
    guess.exists().then(|| guess.display().to_string())
}

/// The installed server's command; a test that needs it is `#[ignore]`d
/// and fails when it is missing.
fn server(var: &str, default_rel: &str) -> String {
    installed(var, default_rel).unwrap_or_else(|| {
        panic!(
            "{var} is not set and {default_rel} is not installed; run scripts/install-mcp-test-servers.sh"
        )
    })
}

fn opts() -> McpClientOptions {
    McpClientOptions {
        connect_timeout: Duration::from_secs(20),
        discovery_deadline: Duration::from_secs(30),
        ..options()
    }
}

#[test]
#[ignore = "needs scripts/install-mcp-test-servers.sh"]
fn server_everything_over_stdio() {
    let cmd = server("LACKPY_TEST_EVERYTHING_CMD", "bin/server-everything");
    runtime().block_on(async {
        let mut d = stdio_cmd("everything", &cmd, &[]);
        d.call_timeout = Some(Duration::from_millis(700));
        let client = McpClient::new(opts());
        let disc = client.start(vec![d], None).await;
        let source = disc.sources[0].clone();
        let status = source.status();
        assert_eq!(status.state, ServerState::Ready, "{status:?}");
        assert!(status.protocol_version.is_some());
        let names: Vec<String> = source.discover().into_iter().map(|s| s.name).collect();
        for want in ["echo", "get_sum", "trigger_long_running_operation"] {
            assert!(
                names.iter().any(|n| n == want),
                "{want} missing from {names:?}"
            );
        }
        assert!(
            source
                .tool_names()
                .iter()
                .any(|t| t.name == "get_sum" && t.server_name == "get-sum")
        );
        let echoed = call(&source, "echo", vec![s("hello")]).await.unwrap();
        assert!(
            matches!(&echoed, Data::Str(t) if t.contains("hello")),
            "{echoed:?}"
        );
        let sum = call(&source, "get_sum", vec![i(2), i(3)]).await.unwrap();
        assert!(matches!(&sum, Data::Str(t) if t.contains('5')), "{sum:?}");

        // A long operation times out, is cancelled, and the session goes on.
        let started = Instant::now();
        let err = call_kw(
            &source,
            "trigger_long_running_operation",
            vec![],
            vec![("duration".into(), i(10)), ("steps".into(), i(5))],
            &ctx(),
        )
        .await
        .unwrap_err();
        assert_eq!(err.error_type(), "TimeoutError", "{err:?}");
        assert!(started.elapsed() < Duration::from_secs(2));
        let again = call(&source, "echo", vec![s("after")]).await.unwrap();
        assert!(matches!(&again, Data::Str(t) if t.contains("after")));
        assert_eq!(source.status().sessions, 1);
        let pid = pid_of(&source);
        client.shutdown().await;
        assert!(groups_gone(&[pid], Duration::from_secs(3)).await.is_empty());
    });
}

#[test]
#[ignore = "needs scripts/install-mcp-test-servers.sh"]
fn mcp_server_time_over_stdio() {
    let cmd = server("LACKPY_TEST_TIME_CMD", "venv/bin/mcp-server-time");
    runtime().block_on(async {
        let d = stdio_cmd("time", &cmd, &["--local-timezone", "UTC"]);
        let client = McpClient::new(opts());
        let disc = client.start(vec![d], None).await;
        let source = disc.sources[0].clone();
        let status = source.status();
        assert_eq!(status.state, ServerState::Ready, "{status:?}");
        assert_eq!(
            status.protocol_version.as_deref(),
            Some("2026-07-28"),
            "the newer protocol"
        );
        let specs = source.discover();
        let convert = specs
            .iter()
            .find(|s| s.name == "convert_time")
            .expect("convert_time");
        let order: Vec<&str> = convert.args.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(
            order,
            ["source_timezone", "time", "target_timezone"],
            "wire order kept"
        );
        let now = call(&source, "get_current_time", vec![s("UTC")])
            .await
            .unwrap();
        let Data::Dict(pairs) = &now else {
            panic!("expected a dict, got {now:?}");
        };
        assert!(
            pairs
                .iter()
                .any(|(k, v)| *k == s("timezone") && *v == s("UTC")),
            "{now:?}"
        );
        let converted = call(
            &source,
            "convert_time",
            vec![s("UTC"), s("12:00"), s("Asia/Tokyo")],
        )
        .await
        .unwrap();
        assert!(matches!(&converted, Data::Dict(_)), "{converted:?}");
        let bad = call(&source, "get_current_time", vec![s("Not/AZone")])
            .await
            .unwrap_err();
        assert!(!bad.message().is_empty());
        let pid = pid_of(&source);
        client.shutdown().await;
        assert!(groups_gone(&[pid], Duration::from_secs(3)).await.is_empty());
    });
}
