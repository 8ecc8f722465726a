//! Streamable HTTP: the test server on 127.0.0.1, both protocol
//! generations, headers, the size cap, and a server that goes away.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::io::BufRead;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::*;
use lackpy_lang::Data;
use lackpy_mcp_client::{McpClientOptions, ServerState};
use lackpy_sources::{McpTransport, ToolErrorKind, ToolSource};

struct HttpServer {
    child: Child,
    url: String,
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn http_server(extra: &[&str]) -> HttpServer {
    let mut child = Command::new(server_bin())
        .args(["--http", "127.0.0.1:0"])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("server said {line:?}"))
        .to_string();
    HttpServer { child, url }
}

#[test]
fn calls_over_streamable_http_in_both_generations() {
    runtime().block_on(async {
        for (flags, version) in [(&[][..], "2026-07-28"), (&["--legacy"][..], "2025-11-25")] {
            let server = http_server(flags);
            let mut d = http("web", &server.url);
            d.transport = McpTransport::Http {
                url: server.url.clone(),
                headers: vec![
                    ("Authorization".into(), "Bearer secret-token".into()),
                    ("X-Extra".into(), "1".into()),
                ],
            };
            let (client, source) = start_one(d, options()).await;
            let status = source.status();
            assert_eq!(status.state, ServerState::Ready, "{status:?}");
            assert_eq!(status.protocol_version.as_deref(), Some(version));
            assert!(status.transport.starts_with("http: http://127.0.0.1:"));
            assert_eq!(source.discover().len(), 27);
            assert_eq!(
                call(&source, "echo", vec![s("over http")]).await,
                Ok(s("over http"))
            );
            assert_eq!(
                call(&source, "get_sum", vec![i(20), i(22)]).await,
                Ok(s("42"))
            );
            assert_eq!(
                call(&source, "wrapped", vec![]).await,
                Ok(Data::List(vec![i(1), i(2), i(3)]))
            );
            // Calls overlap on the one session.
            let started = Instant::now();
            let calls: Vec<_> = (0..4)
                .map(|_| {
                    let src = source.clone();
                    tokio::spawn(async move { call(&src, "slow", vec![i(300)]).await })
                })
                .collect();
            for c in calls {
                assert_eq!(c.await.unwrap(), Ok(s("slept 300 ms")));
            }
            assert!(
                started.elapsed() < Duration::from_millis(900),
                "{:?}",
                started.elapsed()
            );
            client.shutdown().await;
        }
    });
}

#[test]
fn http_responses_over_the_cap_fail() {
    runtime().block_on(async {
        let server = http_server(&[]);
        let opts = McpClientOptions {
            response_cap: 1024 * 1024,
            ..options()
        };
        let (client, source) = start_one(http("web", &server.url), opts).await;
        let started = Instant::now();
        let err = call(&source, "huge", vec![Data::Float(2.0)])
            .await
            .unwrap_err();
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
        assert_eq!(err.kind(), ToolErrorKind::Failed, "{err:?}");
        assert_eq!(call(&source, "echo", vec![s("fine")]).await, Ok(s("fine")));
        client.shutdown().await;
    });
}

#[test]
fn a_dead_http_server_fails_calls_instead_of_hanging() {
    runtime().block_on(async {
        let mut server = http_server(&[]);
        let mut d = http("web", &server.url);
        d.call_timeout = Some(Duration::from_secs(5));
        d.connect_timeout = Some(Duration::from_secs(2));
        let (client, source) = start_one(d, options()).await;
        assert_eq!(call(&source, "echo", vec![s("x")]).await, Ok(s("x")));
        server.child.kill().unwrap();
        server.child.wait().unwrap();
        let started = Instant::now();
        let err = call(&source, "echo", vec![s("x")]).await.unwrap_err();
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "took {:?}: {err:?}",
            started.elapsed()
        );
        // Later calls fail too, and quickly.
        for _ in 0..3 {
            let started = Instant::now();
            assert!(call(&source, "echo", vec![s("x")]).await.is_err());
            assert!(started.elapsed() < Duration::from_secs(5));
        }
        client.shutdown().await;
    });
}

#[test]
fn unreachable_http_servers_fail_discovery_with_a_reason() {
    runtime().block_on(async {
        // A port nothing listens on: bind one, note it, close it.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let d = http("gone", &format!("http://127.0.0.1:{port}/mcp?token=secret"));
        let (client, source) = start_one(d, options()).await;
        let status = source.status();
        assert_eq!(status.state, ServerState::Down);
        assert!(
            status
                .reason
                .as_deref()
                .unwrap_or_default()
                .contains("handshake"),
            "{status:?}"
        );
        assert!(!status.transport.contains("secret"), "{}", status.transport);
        assert!(!source.available());
        client.shutdown().await;
    });
}

#[test]
fn replies_no_parser_reads_fail_the_call_at_once_over_http() {
    runtime().block_on(async {
        for flags in [&[][..], &["--legacy"][..]] {
            let server = http_server(flags);
            let mut d = http("web", &server.url);
            // Far longer than the test may take: the answer must not wait for it.
            d.call_timeout = Some(Duration::from_secs(60));
            let (client, source) = start_one(d, options()).await;
            for (tool, reason) in [
                ("nan", "expected value"),
                ("deep", "recursion limit exceeded"),
            ] {
                let started = Instant::now();
                let err = call(&source, tool, vec![]).await.unwrap_err();
                assert!(
                    started.elapsed() < Duration::from_secs(5),
                    "{flags:?} {tool} took {:?}",
                    started.elapsed()
                );
                assert_eq!(err.kind(), ToolErrorKind::Failed, "{}", err.message());
                assert!(
                    err.message().starts_with(&format!(
                        "MCP tool '{tool}' on server 'web': protocol error: the server's response could not be read: "
                    )) && err.message().contains(reason),
                    "{flags:?}: {}",
                    err.message()
                );
            }
            assert_eq!(
                call(&source, "echo", vec![s("after")]).await,
                Ok(s("after"))
            );
            client.shutdown().await;
        }
    });
}
