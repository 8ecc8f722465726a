//! `delegate` and `generate` through `lackpy mcp serve` with a real MCP
//! client, the model being the scripted OpenAI-compatible server.

use crate::mcp_serve_support;

use std::time::Duration;

use mcp_serve_support::chat_server::{ChatServer, Reply};
use mcp_serve_support::*;
use serde_json::{Value, json};

fn config(url: &str, extra: &str) -> String {
    format!("[inference.providers.local]\nbase_url = \"{url}\"\nmodel = \"scripted\"\n{extra}\n")
}

const CHATTY: &str = "Here is the cell:\n```python\nimport os\nwith open('notes.txt') as f:\n    text = f.read()\nlen(text.split())\n```";

#[tokio::test]
async fn delegate_and_generate_over_stdio() {
    let server = ChatServer::start(vec![
        Reply::answer(CHATTY),
        Reply::answer("import os"),
        Reply::answer("import os"),
        Reply::answer("import os"),
    ]);
    // lackpy's inline key is never used, and never shown.
    let ws = workspace(&config(&server.base_url(), "api_key = \"inline-s3cret\""));
    std::fs::write(ws.path().join("notes.txt"), "one two three four\n").expect("notes");
    let mut child = spawn_serve(ws.path(), &[], &[]);
    let client = stdio_client(&mut child, initialize()).await;

    let tools = client.list_all_tools().await.expect("tools/list");
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(
        names,
        [
            "run_program",
            "validate",
            "delegate",
            "generate",
            "list_tools",
            "language_spec",
            "status",
            "resume_run",
            "list_runs"
        ]
    );
    let hint = |name: &str| {
        tools
            .iter()
            .find(|t| t.name == name)
            .and_then(|t| t.annotations.as_ref())
            .and_then(|a| a.read_only_hint)
    };
    assert_eq!(hint("delegate"), Some(false));
    // generate asks a model: neither read-only nor closed-world.
    assert_eq!(hint("generate"), Some(false));
    let generate = tools
        .iter()
        .find(|t| t.name == "generate")
        .and_then(|t| t.annotations.as_ref());
    assert_eq!(generate.and_then(|a| a.open_world_hint), Some(true));
    assert_eq!(generate.and_then(|a| a.destructive_hint), Some(false));
    for t in tools
        .iter()
        .filter(|t| t.name == "delegate" || t.name == "generate")
    {
        assert!(t.output_schema.is_some(), "{}", t.name);
        assert_eq!(t.input_schema["required"], json!(["intent"]), "{}", t.name);
    }

    let r = call(
        &client,
        "delegate",
        json!({"intent": "count the words in notes.txt", "tools": ["read_file"]}),
    )
    .await;
    assert_ne!(r.is_error, Some(true), "{r:?}");
    let v = structured(&r);
    assert_eq!(v["success"], true, "{v}");
    assert_eq!(
        v["program"],
        "text = read_file('notes.txt')\nlen(text.split())"
    );
    assert_eq!(v["generation_tier"], "local");
    assert_eq!(v["output"], 4);
    assert_eq!(v["trace"][0]["tool"], "read_file");
    let first = &server.requests()[0];
    assert!(
        first.message(0).contains("  read_file(path: str) -> str"),
        "{}",
        first.message(0)
    );
    assert_eq!(first.message(1), "count the words in notes.txt");

    // Rules answer without the model.
    let g = structured(
        &call(
            &client,
            "generate",
            json!({"intent": "read file notes.txt"}),
        )
        .await,
    );
    assert_eq!(
        g,
        json!({"success": true, "program": "content = read_file('notes.txt')\ncontent", "provider": "rules",
               "generation_time_ms": g["generation_time_ms"], "correction_attempts": 0, "error": null,
               "generation_errors": []})
    );

    // No tier yields a program: a result, not an error.
    let r = call(&client, "delegate", json!({"intent": "list the folder"})).await;
    assert_ne!(r.is_error, Some(true), "{r:?}");
    let v = structured(&r);
    assert_eq!(v["success"], false, "{v}");
    assert_eq!(v["generation_tier"], Value::Null);
    assert_eq!(v["correction_attempts"], 2);
    assert_eq!(v["generation_errors"][2]["tier"], "local");
    assert_eq!(server.requests().len(), 4);

    // Malformed requests are errors the caller can fix.
    for args in [
        json!({}),
        json!({"intent": 3}),
        json!({"intent": "x", "program": "1"}),
        json!({"intent": "x", "tools": ["nope"]}),
    ] {
        let r = call(&client, "delegate", args.clone()).await;
        assert_eq!(r.is_error, Some(true), "{args}: {r:?}");
    }

    let st = structured(&call(&client, "status", json!({})).await);
    assert_eq!(st["providers"][0]["name"], "local");
    assert_eq!(st["providers"][0]["reachable"], true);
    assert!(!st.to_string().contains("inline-s3cret"), "{st}");
    let read = client
        .read_resource(rmcp::model::ReadResourceRequestParams::new(
            "lackpy://config",
        ))
        .await
        .expect("read config");
    let text = format!("{:?}", read.contents);
    assert!(
        text.contains("<redacted>") && !text.contains("inline-s3cret"),
        "{text}"
    );
    assert!(
        server
            .requests()
            .iter()
            .all(|r| r.header("authorization").is_none())
    );
    client.cancel().await.expect("close");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_delegate_stops_waiting_for_the_model_and_frees_its_place() {
    let server = ChatServer::start(vec![Reply::Hang]);
    let ws = workspace(&format!(
        "{}[server]\nmax_concurrent_runs = 1\nmax_queued_runs = 0\n",
        config(&server.base_url(), "timeout_ms = 60000")
    ));
    let mut child = spawn_serve(ws.path(), &[], &[]);
    let client = stdio_client(&mut child, initialize()).await;
    let handle = start_call(
        client.peer(),
        "delegate",
        json!({"intent": "summarise everything"}),
    )
    .await;
    assert!(
        eventually(Duration::from_secs(10), || server.requests().len() == 1).await,
        "the model was asked"
    );
    // The only place is taken.
    let busy = run(&client, "1", json!({})).await;
    assert_eq!(busy["error_type"], "Busy", "{busy}");
    handle
        .cancel(Some("test".into()))
        .await
        .expect("cancel sent");
    let mut freed = Value::Null;
    for _ in 0..100 {
        freed = run(&client, "2", json!({})).await;
        if freed["success"] == true {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(freed["output"], 2, "{freed}");
    client.cancel().await.expect("close");
}
