//! Following a server's tools: its `notifications/tools/list_changed` and a
//! reconnect list them again, and `stop_servers` / a second `start` change
//! which servers run. Real test-server processes; waits poll under a
//! generous limit and nothing is timed.

use std::time::{Duration, Instant};

use lackpy_sources::ToolSource;

use crate::common::*;

/// Long enough for a loaded machine.
const LIMIT: Duration = Duration::from_secs(60);

/// The names of the current source of server `id`.
fn names(client: &lackpy_mcp_client::McpClient, id: &str) -> Vec<String> {
    client
        .sources()
        .iter()
        .find(|s| s.descriptor().id == id)
        .map(|s| s.discover().into_iter().map(|t| t.name).collect())
        .unwrap_or_default()
}

/// Waits until `cond` holds, up to [`LIMIT`].
async fn until(what: &str, mut cond: impl FnMut() -> bool) {
    let deadline = Instant::now() + LIMIT;
    while !cond() {
        assert!(Instant::now() < deadline, "{what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[test]
fn list_changed_and_reconnects_relist_and_servers_come_and_go() {
    runtime().block_on(async {
        let (client, source) = start_one(test_server("dyn", &["--dynamic"]), options()).await;
        let mut changes = client.changes();
        assert!(!names(&client, "dyn").contains(&"late".to_string()));

        // The server adds a tool and says so: a new source, one change.
        assert_eq!(
            call(&source, "add_tool", vec![s("late")]).await,
            Ok(s("added late"))
        );
        tokio::time::timeout(LIMIT, changes.changed())
            .await
            .expect("a change within the limit")
            .expect("the client lives");
        until("the new tool is listed", || {
            names(&client, "dyn").contains(&"late".to_string())
        })
        .await;
        // The old source (a run's snapshot) is untouched.
        assert!(!source.discover().iter().any(|t| t.name == "late"));
        let new = client.sources().into_iter().next().expect("the source");
        assert_eq!(call(&new, "late", vec![]).await, Ok(s("late called")));
        assert_eq!(new.status().reconnects, 0);

        // The process dies; the next call reconnects to a new one, which
        // has no `late`: the reconnect lists its tools again.
        let _ = call(&new, "crash", vec![]).await;
        let _ = call(&new, "pid", vec![]).await;
        until("the reconnect's listing replaced the old one", || {
            !names(&client, "dyn").contains(&"late".to_string())
        })
        .await;
        let status = client.status();
        assert_eq!(status[0].reconnects, 1, "{status:?}");
        assert_eq!(status[0].sessions, 2, "{status:?}");

        // A second start adds a server; stopping one leaves the other.
        client.start(vec![test_server("two", &[])], None).await;
        assert_eq!(client.sources().len(), 2);
        let first = client.sources()[0].descriptor().clone();
        client.stop_servers(&[first]).await;
        let left: Vec<String> = client
            .sources()
            .iter()
            .map(|s| s.descriptor().id.clone())
            .collect();
        assert_eq!(left, ["two"]);
        let two = client.sources().into_iter().next().expect("two");
        assert_eq!(call(&two, "echo", vec![s("hi")]).await, Ok(s("hi")));
        client.shutdown().await;
    });
}
