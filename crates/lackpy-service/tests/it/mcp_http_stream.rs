//! The SSE stream of a streamable-HTTP POST as the wire carries it: a
//! quick answer is held until it can leave in one write, but a slow run's
//! headers, its progress notifications and the end of a cancelled run are
//! not held back. Driven by a plain HTTP client, so nothing is reordered
//! or dropped on the way.

use std::time::{Duration, Instant};

use crate::mcp_serve_support::*;
use serde_json::{Value, json};

const PROTOCOL: &str = "2025-06-18";

/// One session spoken in plain HTTP requests.
struct Session {
    client: reqwest::Client,
    url: String,
    id: String,
}

impl Session {
    async fn open(addr: &str) -> Session {
        let client = reqwest::Client::new();
        let url = format!("http://{addr}/mcp");
        let r = post(&client, &url, None, INITIALIZE.to_string()).await;
        let id = r
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .expect("a session id")
            .to_string();
        let _ = r.text().await.expect("the initialize answer");
        let s = Session { client, url, id };
        let r = s
            .post(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        assert_eq!(r.status(), 202);
        s
    }

    /// POSTs `message`; the response as soon as its head has arrived.
    async fn post(&self, message: Value) -> reqwest::Response {
        post(&self.client, &self.url, Some(&self.id), message.to_string()).await
    }
}

async fn post(
    client: &reqwest::Client,
    url: &str,
    session: Option<&str>,
    body: String,
) -> reqwest::Response {
    let mut r = client
        .post(url)
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .header("mcp-protocol-version", PROTOCOL);
    if let Some(id) = session {
        r = r.header("mcp-session-id", id);
    }
    r.body(body).send().await.expect("the server answers")
}

fn run_program(id: u64, program: &str, progress: Option<&str>) -> Value {
    let mut params = json!({"name": "run_program", "arguments": {"program": program}});
    if let Some(token) = progress {
        params["_meta"] = json!({ "progressToken": token });
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
}

/// The JSON-RPC messages in the SSE text read so far.
fn messages(sse: &str) -> Vec<Value> {
    sse.lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter_map(|d| serde_json::from_str(d.trim()).ok())
        .collect()
}

/// Reads `response` until `done` holds for what was read or the stream
/// ends (`true`: it ended), failing after `limit`.
async fn read_until(
    response: &mut reqwest::Response,
    text: &mut String,
    limit: Duration,
    done: impl Fn(&str) -> bool,
) -> bool {
    let deadline = Instant::now() + limit;
    while !done(text) {
        let chunk = tokio::time::timeout_at(deadline.into(), response.chunk())
            .await
            .unwrap_or_else(|_| panic!("nothing more within {limit:?}; read so far:\n{text}"))
            .expect("the stream reads");
        match chunk {
            Some(bytes) => text.push_str(&String::from_utf8_lossy(&bytes)),
            None => return true,
        }
    }
    false
}

#[tokio::test]
async fn a_quick_answer_comes_whole_on_its_stream() {
    let ws = workspace("");
    let (mut child, addr) = spawn_http(ws.path(), &[], &[]).await;
    let s = Session::open(&addr).await;
    for id in 2..12 {
        let r = s.post(run_program(id, "1 + 1", None)).await;
        assert_eq!(r.status(), 200);
        let text = r.text().await.expect("the stream reads");
        let answers = messages(&text);
        assert_eq!(answers.len(), 1, "{text}");
        assert_eq!(answers[0]["id"], id, "{text}");
        assert_eq!(answers[0]["result"]["structuredContent"]["output"], 2);
        // The resumption priming event still leads the stream.
        assert!(text.starts_with("data: \nid: "), "{text}");
    }
    let _ = child.start_kill();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_run_gets_its_headers_before_its_answer() {
    let ws = workspace(&with_test_server(""));
    let (mut child, addr) = spawn_http(ws.path(), &[], &[]).await;
    let s = Session::open(&addr).await;
    let sent = Instant::now();
    let mut r = s.post(run_program(2, "slow(3000)", None)).await;
    let head = sent.elapsed();
    assert!(
        head < Duration::from_millis(1500),
        "headers took {head:?}: held until the answer"
    );
    let mut text = String::new();
    assert!(read_until(&mut r, &mut text, Duration::from_secs(30), |_| false).await);
    assert!(sent.elapsed() >= Duration::from_secs(3));
    let answers = messages(&text);
    assert_eq!(answers.len(), 1, "{text}");
    assert_eq!(answers[0]["result"]["structuredContent"]["success"], true);
    let _ = child.start_kill();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn progress_streams_during_the_run_and_a_cancel_ends_it_without_an_answer() {
    let ws = workspace(&with_test_server(""));
    let (mut child, addr) = spawn_http(ws.path(), &[], &[]).await;
    let s = Session::open(&addr).await;
    let mut r = s
        .post(run_program(2, "echo('go')\nslow(30000)", Some("p")))
        .await;
    assert_eq!(r.status(), 200);
    let mut text = String::new();
    // The first call's progress arrives while the run waits in `slow`.
    let ended = read_until(&mut r, &mut text, Duration::from_secs(10), |t| {
        messages(t)
            .iter()
            .any(|m| m["method"] == "notifications/progress")
    })
    .await;
    assert!(!ended, "the stream ended before any progress:\n{text}");
    let progress = messages(&text);
    assert_eq!(progress[0]["params"]["progressToken"], "p", "{text}");
    assert_eq!(progress[0]["params"]["message"], "step 0: echo", "{text}");
    // Past `echo`, the run is on its way into `slow`: give it time to get
    // there, so that the cancel has a downstream call to reach.
    tokio::time::sleep(Duration::from_millis(100)).await;

    let cancel = s
        .post(
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                     "params": {"requestId": 2, "reason": "test"}}),
        )
        .await;
    assert_eq!(cancel.status(), 202);
    assert!(
        read_until(&mut r, &mut text, Duration::from_secs(10), |_| false).await,
        "the stream ends"
    );
    assert!(
        messages(&text).iter().all(|m| m.get("id").is_none()),
        "a cancelled run has no answer:\n{text}"
    );

    // The downstream call was cancelled, and the session still works.
    let mut seen = Value::Null;
    for id in 3..100 {
        let r = s.post(run_program(id, "cancellations()", None)).await;
        let text = r.text().await.expect("the stream reads");
        seen = messages(&text)
            .pop()
            .map(|m| m["result"]["structuredContent"].clone())
            .unwrap_or_default();
        if seen["output"] == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(seen["output"], 1, "{seen}");
    let _ = child.start_kill();
}
