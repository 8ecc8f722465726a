//! Eager, parallel, bounded discovery with real server processes.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::*;
use lackpy_mcp_client::{DiscoveryEvent, McpClient, McpClientOptions, ProgressHook, ServerState};
use lackpy_sources::ToolSource;

#[test]
fn ten_servers_one_hanging_one_dead() {
    runtime().block_on(async {
        let connect = Duration::from_millis(1500);
        let mut servers = Vec::new();
        for n in 0..8 {
            servers.push(test_server(&format!("ok{n}"), &[]));
        }
        servers.push(test_server("hangs", &["--hang", "--ignore-sigterm"]));
        servers.push(test_server("dies", &["--exit-now"]));
        let opts = McpClientOptions {
            connect_timeout: connect,
            ..options()
        };
        let events: Arc<Mutex<Vec<DiscoveryEvent>>> = Arc::default();
        let sink = Arc::clone(&events);
        let hook: ProgressHook = Arc::new(move |e| sink.lock().unwrap().push(e.clone()));
        let client = McpClient::new(opts);
        let started = Instant::now();
        let disc = client.start(servers, Some(hook)).await;
        let took = started.elapsed();
        assert!(
            took < connect + Duration::from_secs(1),
            "discovery took {took:?}"
        );

        let statuses = disc.statuses();
        assert_eq!(statuses.len(), 10);
        for (source, status) in disc.sources.iter().zip(&statuses).take(8) {
            assert_eq!(status.state, ServerState::Ready, "{status:?}");
            assert!(source.available());
            assert_eq!(
                call(source, "echo", vec![s(&status.id)]).await,
                Ok(s(&status.id))
            );
        }
        let failures = disc.failures();
        assert_eq!(failures.len(), 2);
        let hangs = &failures[0];
        assert_eq!(
            (hangs.id.as_str(), hangs.state),
            ("hangs", ServerState::Down)
        );
        assert!(
            hangs
                .reason
                .as_deref()
                .unwrap_or_default()
                .contains("no answer to the handshake within"),
            "{hangs:?}"
        );
        let dies = &failures[1];
        assert_eq!(dies.id, "dies");
        let why = dies.reason.as_deref().unwrap_or_default();
        assert!(
            why.contains("exited with status 3") && why.contains("exiting at once as asked"),
            "{why}"
        );
        assert!(!disc.sources[8].available() && disc.sources[8].discover().is_empty());
        assert!(
            disc.sources[9]
                .unavailable_reason("echo")
                .unwrap_or_default()
                .contains("is down")
        );

        let events = events.lock().unwrap().clone();
        assert_eq!(events.first(), Some(&DiscoveryEvent::Started { total: 10 }));
        assert!(matches!(
            events.last(),
            Some(DiscoveryEvent::Finished {
                ready: 8,
                failed: 2,
                ..
            })
        ));
        assert_eq!(events.len(), 12);

        let pids: Vec<i32> = statuses.iter().filter_map(|s| s.pid).collect();
        assert_eq!(pids.len(), 8);
        client.shutdown().await;
        // The hanging server too (it ignores SIGTERM): nothing left, no zombies.
        assert!(groups_gone(&pids, Duration::from_secs(2)).await.is_empty());
        assert!(
            lackpy_mcp_client::live_server_groups()
                .iter()
                .all(|g| !pids.contains(g))
        );
    });
}

#[test]
fn slow_starters_start_in_parallel() {
    runtime().block_on(async {
        let servers: Vec<_> = (0..5)
            .map(|n| test_server(&format!("slow{n}"), &["--start-delay-ms", "600"]))
            .collect();
        let client = McpClient::new(options());
        let started = Instant::now();
        let disc = client.start(servers, None).await;
        let took = started.elapsed();
        assert!(disc.failures().is_empty());
        // In sequence this would be 3 s; in parallel about the slowest.
        assert!(took < Duration::from_millis(1800), "took {took:?}");
        client.shutdown().await;
    });
}

#[test]
fn missing_programs_and_the_overall_deadline() {
    runtime().block_on(async {
        let mut slow = test_server("late", &["--start-delay-ms", "5000"]);
        slow.connect_timeout = Some(Duration::from_secs(20));
        let servers = vec![stdio_cmd("nope", "/no/such/program", &[]), slow];
        let opts = McpClientOptions {
            discovery_deadline: Duration::from_millis(800),
            ..options()
        };
        let client = McpClient::new(opts);
        let started = Instant::now();
        let disc = client.start(servers, None).await;
        assert!(
            started.elapsed() < Duration::from_millis(1800),
            "took {:?}",
            started.elapsed()
        );
        let f = disc.failures();
        assert_eq!(f.len(), 2);
        assert!(
            f[0].reason
                .as_deref()
                .unwrap_or_default()
                .contains("cannot start '/no/such/program'"),
            "{:?}",
            f[0]
        );
        assert!(
            f[1].reason
                .as_deref()
                .unwrap_or_default()
                .contains("no answer to the handshake"),
            "{:?}",
            f[1]
        );
        client.shutdown().await;
    });
}
