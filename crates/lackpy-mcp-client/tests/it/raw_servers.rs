//! Hand-written servers (lackpy-test-support's examples/raw_json_rpc_server.rs), as simple ones
//! are written. One whose `server/discover` answer is no discover result
//! (`{}`, a wrong shape, no version we speak) is reached through
//! `initialize` on the same connection; one that fails `initialize` too is
//! down, with both reasons. An SSE stream the server closes before its
//! answer is resumed with `GET` after the server's `retry:` delay.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::io::BufRead;
use std::process::{Child, Command, Stdio};

use common::*;
use lackpy_mcp_client::ServerState;

/// What the raw server saw by the time of the call: everything over one
/// connection (one process, for stdio), discover first.
const ONE_CONNECTION: &str =
    "server/discover,initialize,notifications/initialized,tools/list,tools/call";

fn raw_bin() -> String {
    example_bin("raw_json_rpc_server").display().to_string()
}

async fn reached_through_initialize(flags: &[&str]) {
    let (client, source) = start_one(stdio_cmd("raw", &raw_bin(), flags), options()).await;
    let status = source.status();
    assert_eq!(status.state, ServerState::Ready, "{flags:?}: {status:?}");
    assert_eq!(status.protocol_version.as_deref(), Some("2025-11-25"));
    assert_eq!(status.server_name.as_deref(), Some("raw"));
    assert_eq!(status.sessions, 1);
    assert_eq!(call(&source, "seen", vec![]).await, Ok(s(ONE_CONNECTION)));
    client.shutdown().await;
}

#[test]
fn an_empty_discover_answer_falls_back_to_initialize_over_stdio() {
    runtime().block_on(reached_through_initialize(&[]));
}

#[test]
fn a_discover_answer_of_the_wrong_shape_falls_back_to_initialize() {
    runtime().block_on(async {
        for answer in [
            r#"{"supportedVersions":"all of them"}"#,
            r#"{"tools":[]}"#,
            r#"{"resultType":"complete","capabilities":{},"ttlMs":0,"cacheScope":"private","supportedVersions":["2099-01-01"]}"#,
        ] {
            reached_through_initialize(&["--discover", answer]).await;
        }
    });
}

#[test]
fn a_server_that_fails_initialize_too_is_down_with_both_reasons() {
    runtime().block_on(async {
        let (client, source) = start_one(
            stdio_cmd("broken", &raw_bin(), &["--no-initialize"]),
            options(),
        )
        .await;
        let status = source.status();
        assert_eq!(status.state, ServerState::Down, "{status:?}");
        let reason = status.reason.unwrap_or_default();
        assert!(
            reason.contains("server/discover answered with an empty result"),
            "{reason}"
        );
        assert!(reason.contains("initialize"), "{reason}");
        client.shutdown().await;
    });
}

struct HttpServer(Child);

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts the raw server over HTTP; returns it and its URL.
fn raw_http(flags: &[&str]) -> (HttpServer, String) {
    let mut child = Command::new(raw_bin())
        .arg("--http")
        .args(flags)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let server = HttpServer(child);
    let url = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("server said {line:?}"))
        .to_string();
    (server, url)
}

#[test]
fn an_empty_discover_answer_falls_back_to_initialize_over_http() {
    let (_server, url) = raw_http(&[]);
    runtime().block_on(async {
        let (client, source) = start_one(http("raw", &url), options()).await;
        let status = source.status();
        assert_eq!(status.state, ServerState::Ready, "{status:?}");
        assert_eq!(status.protocol_version.as_deref(), Some("2025-11-25"));
        assert_eq!(call(&source, "seen", vec![]).await, Ok(s(ONE_CONNECTION)));
        client.shutdown().await;
    });
}

#[test]
fn an_http_server_that_fails_initialize_too_is_down_with_both_reasons() {
    let (_server, url) = raw_http(&["--no-initialize"]);
    runtime().block_on(async {
        let (client, source) = start_one(http("broken", &url), options()).await;
        let status = source.status();
        assert_eq!(status.state, ServerState::Down, "{status:?}");
        let reason = status.reason.unwrap_or_default().replace(&url, "<url>");
        insta::assert_snapshot!(reason);
        client.shutdown().await;
    });
}

#[test]
fn a_closed_sse_stream_is_resumed_with_get_after_the_retry_delay() {
    // The answer to the call comes only on the GET that resumes its stream.
    let (_server, url) = raw_http(&["--sse-close", "300"]);
    runtime().block_on(async {
        let (client, source) = start_one(http("sse", &url), options()).await;
        assert_eq!(source.status().state, ServerState::Ready);
        let Ok(lackpy_lang::Data::Str(text)) = call(&source, "seen", vec![]).await else {
            panic!("the call failed");
        };
        let text = text.to_string();
        assert!(text.ends_with("with Last-Event-ID ev-1"), "{text}");
        let ms: u64 = text
            .strip_prefix("resumed after ")
            .and_then(|t| t.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{text}"));
        // The server's `retry:` is honoured (never earlier).
        assert!(ms >= 290, "{text}");
        client.shutdown().await;
    });
}
