//! Approval gates through `lackpy mcp serve` (the real binary): a client
//! that declared elicitation is asked about each gated call, on the stream
//! of the request that started the run; a client that did not gets a
//! paused run, which `list_runs` shows and `resume_run` continues. Driven
//! by our own rmcp clients; `mcp_approvals_python.rs` does the same with
//! the official Python SDK.

use crate::mcp_serve_support::*;

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::ClientHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientConfig, ElicitRequestParams, ElicitResult,
    ElicitationAction, ElicitationCapability, ErrorData, FormElicitationCapability, Implementation,
    ProtocolVersion,
};
use rmcp::service::{
    InboundStreamOrigin, Peer, RequestContext, RoleClient, RunningService, ServiceExt,
};
use serde_json::{Value, json};

/// The rule every gated call of [`gated_workspace`] names.
pub const RULE: &str = "[policy] approve_above (2, 1)";

/// A workspace whose `send` tool (grade (3, 3)) needs approval under
/// `[policy] approve_above (2, 1)` and whose `note` tool (grade (1, 1))
/// does not. Each appends its JSON arguments as one line to `sent.log` /
/// `notes.log` and answers `"sent"` / `"noted"`; a `send` whose text holds
/// `slow` takes two seconds first.
pub fn gated_workspace(approval_timeout_ms: u64) -> tempfile::TempDir {
    let ws = workspace(&format!(
        "[[tools]]\nname = \"send\"\nprovider = \"command\"\ncommand = [\"./send.sh\"]\n\
         args = [{{ name = \"text\", type = \"str\" }}]\ngrade_w = 3\neffects_ceiling = 3\n\n\
         [[tools]]\nname = \"note\"\nprovider = \"command\"\ncommand = [\"./note.sh\"]\n\
         args = [{{ name = \"text\", type = \"str\" }}]\ngrade_w = 1\neffects_ceiling = 1\n\n\
         [policy]\napprove_above = {{ w = 2, d = 1 }}\napproval_timeout_ms = {approval_timeout_ms}\n"
    ));
    let scripts = [
        (
            "send.sh",
            "#!/bin/sh\ninput=$(cat)\ncase \"$input\" in *slow*) sleep 2 ;; esac\n\
             printf '%s\\n' \"$input\" >> sent.log\necho '\"sent\"'\n",
        ),
        (
            "note.sh",
            "#!/bin/sh\nprintf '%s\\n' \"$(cat)\" >> notes.log\necho '\"noted\"'\n",
        ),
    ];
    for (name, text) in scripts {
        let path = ws.path().join(name);
        std::fs::write(&path, text).expect("script");
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    ws
}

/// The lines a tool appended to `name` (none when it never ran).
pub fn lines(ws: &Path, name: &str) -> Vec<String> {
    std::fs::read_to_string(ws.join(name))
        .map(|t| t.lines().map(String::from).collect())
        .unwrap_or_default()
}

/// How [`Asker`] answers.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Reply {
    /// Accept with `approve: true`.
    Approve,
    /// Accept with `approve: false`.
    Refuse,
    Decline,
    Cancel,
    /// An error response.
    Fail,
    /// Never: waits for the server to cancel the elicitation.
    Silent,
}

/// One elicitation as the client saw it.
#[derive(Clone, Debug)]
struct Asked {
    message: String,
    schema: Value,
    /// The HTTP stream it came on (`None` over stdio).
    origin: Option<InboundStreamOrigin>,
    /// The server cancelled it (a silent reply only).
    cancelled: bool,
}

/// A client that declares form elicitation and answers as told.
#[derive(Clone)]
struct Asker {
    reply: Arc<Mutex<Reply>>,
    asked: Arc<Mutex<Vec<Asked>>>,
}

impl Asker {
    fn new() -> Asker {
        Asker {
            reply: Arc::new(Mutex::new(Reply::Approve)),
            asked: Arc::default(),
        }
    }

    fn answer(&self, reply: Reply) {
        *self.reply.lock().expect("lock") = reply;
    }

    fn asked(&self) -> Vec<Asked> {
        self.asked.lock().expect("lock").clone()
    }
}

impl ClientHandler for Asker {
    fn get_info(&self) -> ClientConfig {
        let mut info = ClientConfig::default();
        info.client_info = Implementation::new("lackpy-approval-tests", "0");
        info.protocol_version = ProtocolVersion::LATEST_WITH_INITIALIZE;
        info.capabilities.elicitation =
            Some(ElicitationCapability::new().with_form(FormElicitationCapability::new()));
        info
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let ElicitRequestParams::FormElicitationParams {
            message,
            requested_schema,
            ..
        } = request
        else {
            return Err(ErrorData::invalid_params("not a form", None));
        };
        let reply = *self.reply.lock().expect("lock");
        let cancelled = reply == Reply::Silent
            && tokio::time::timeout(Duration::from_secs(20), context.ct.cancelled())
                .await
                .is_ok();
        self.asked.lock().expect("lock").push(Asked {
            message,
            schema: serde_json::to_value(requested_schema).expect("schema JSON"),
            origin: context.extensions.get::<InboundStreamOrigin>().cloned(),
            cancelled,
        });
        let accept = |approve: bool| {
            ElicitResult::new(ElicitationAction::Accept).with_content(json!({ "approve": approve }))
        };
        match reply {
            Reply::Approve | Reply::Silent => Ok(accept(true)),
            Reply::Refuse => Ok(accept(false)),
            Reply::Decline => Ok(ElicitResult::new(ElicitationAction::Decline)),
            Reply::Cancel => Ok(ElicitResult::new(ElicitationAction::Cancel)),
            Reply::Fail => Err(ErrorData::internal_error("the client broke", None)),
        }
    }
}

/// Calls `name` with `args` through any client's peer.
async fn call_on(peer: &Peer<RoleClient>, name: &str, args: Value) -> CallToolResult {
    let Value::Object(map) = args else {
        panic!("arguments must be an object")
    };
    peer.call_tool(CallToolRequestParams::new(name.to_string()).with_arguments(map))
        .await
        .unwrap_or_else(|e| panic!("{name} call failed: {e}"))
}

/// `run_program` of `program`: its structured result.
async fn run_on(peer: &Peer<RoleClient>, program: &str) -> Value {
    let r = call_on(peer, "run_program", json!({ "program": program })).await;
    assert_ne!(r.is_error, Some(true), "run_program isError: {r:?}");
    structured(&r)
}

/// `resume_run` with `args`: its structured result.
async fn resume_on(peer: &Peer<RoleClient>, args: Value) -> Value {
    let r = call_on(peer, "resume_run", args).await;
    assert_ne!(r.is_error, Some(true), "resume_run isError: {r:?}");
    structured(&r)
}

/// The text of an `isError` result.
fn error_text(r: &CallToolResult) -> String {
    assert_eq!(r.is_error, Some(true), "expected isError: {r:?}");
    r.content
        .first()
        .and_then(|c| c.as_text())
        .map(|t| t.text.clone())
        .unwrap_or_default()
}

/// The run id of a paused result, checked to wait at `tool`.
fn paused_at(r: &Value, tool: &str) -> String {
    assert_eq!(r["success"], false, "{r}");
    assert_eq!(r["error_type"], "ApprovalRequired", "{r}");
    assert_eq!(r["paused"]["tool"], tool, "{r}");
    assert_eq!(r["paused"]["rule"], RULE, "{r}");
    r["paused"]["run_id"]
        .as_str()
        .unwrap_or_else(|| panic!("no run id: {r}"))
        .to_string()
}

fn refused(r: &Value) {
    assert_eq!(r["success"], false, "{r}");
    assert_eq!(r["error_type"], "PermissionError", "{r}");
    assert_eq!(r["error"], "call to send was not approved", "{r}");
}

/// `lackpy mcp serve` over stdio with `asker` as its client (the child is
/// killed when dropped).
async fn asker_over_stdio(
    ws: &Path,
    asker: Asker,
) -> (tokio::process::Child, RunningService<RoleClient, Asker>) {
    let mut child = spawn_serve(ws, &[], &[]);
    let stdout = child.stdout.take().expect("stdout");
    let stdin = child.stdin.take().expect("stdin");
    if let Some(stderr) = child.stderr.take() {
        tokio::spawn(async move {
            use tokio::io::AsyncBufReadExt;
            let mut lines = tokio::io::BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                eprintln!("[lackpy] {line}");
            }
        });
    }
    let client = asker
        .serve((stdout, stdin))
        .await
        .expect("the MCP handshake over stdio");
    (child, client)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_elicitation_decides_each_gated_call() {
    let ws = gated_workspace(1000);
    let asker = Asker::new();
    let (_server, client) = asker_over_stdio(ws.path(), asker.clone()).await;

    let r = run_on(&client, "note(text='before')\nsend(text='approved')").await;
    assert_eq!(r["success"], true, "{r}");
    assert_eq!(r["output"], "sent");
    assert_eq!(r["trace"][0].get("approval"), None, "{r}");
    assert_eq!(r["trace"][1]["approval"], "elicitation", "{r}");
    assert_eq!(lines(ws.path(), "sent.log"), [r#"{"text": "approved"}"#]);
    let asked = asker.asked();
    assert_eq!(asked.len(), 1, "only the gated call asks: {asked:?}");
    assert_eq!(
        asked[0].message,
        format!(
            "lackpy wants to call send(text='approved') — grade (3, 3), {RULE}. Allow this call?"
        )
    );
    assert_eq!(asked[0].schema["type"], "object");
    assert_eq!(asked[0].schema["required"], json!(["approve"]));
    assert_eq!(asked[0].schema["properties"]["approve"]["type"], "boolean");

    for reply in [Reply::Refuse, Reply::Decline, Reply::Cancel] {
        asker.answer(reply);
        let r = run_on(&client, "send(text='no')").await;
        refused(&r);
        assert_eq!(r["trace"][0]["approval"], "elicitation", "{reply:?}: {r}");
    }
    assert_eq!(
        lines(ws.path(), "sent.log").len(),
        1,
        "nothing more was sent"
    );

    // A failed elicitation decides nothing: the run pauses.
    asker.answer(Reply::Fail);
    let r = run_on(&client, "send(text='failed')").await;
    paused_at(&r, "send");

    // No answer within approval_timeout_ms: the run pauses and the client
    // is told to stop asking; its late yes changes nothing.
    asker.answer(Reply::Silent);
    let r = run_on(&client, "send(text='silent')").await;
    let id = paused_at(&r, "send");
    assert!(
        eventually(Duration::from_secs(10), || asker.asked().len() == 6).await,
        "the silent elicitation ended"
    );
    assert!(asker.asked()[5].cancelled, "the server cancelled it");
    assert_eq!(
        lines(ws.path(), "sent.log").len(),
        1,
        "nothing more was sent"
    );
    let runs = structured(&call_on(&client, "list_runs", json!({})).await);
    assert!(
        runs["runs"].as_array().is_some_and(|r| r
            .iter()
            .any(|r| r["run_id"] == id && r["state"] == "paused")),
        "{runs}"
    );
    let _ = client.cancel().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_http_the_elicitation_rides_the_stream_of_its_call() {
    let ws = gated_workspace(5000);
    let (mut server, addr) = spawn_http(ws.path(), &[], &[]).await;
    let asker = Asker::new();
    let transport =
        rmcp::transport::StreamableHttpClientTransport::from_uri(format!("http://{addr}/mcp"));
    let client = asker
        .clone()
        .serve(transport)
        .await
        .expect("the MCP handshake over HTTP");
    let r = run_on(&client, "send(text='over http')").await;
    assert_eq!(r["success"], true, "{r}");
    assert_eq!(r["trace"][0]["approval"], "elicitation", "{r}");
    let asked = asker.asked();
    assert!(
        matches!(
            asked.first().and_then(|a| a.origin.clone()),
            Some(InboundStreamOrigin::OutboundRequest(_))
        ),
        "the elicitation came on the tools/call's own stream: {asked:?}"
    );
    asker.answer(Reply::Decline);
    refused(&run_on(&client, "send(text='declined')").await);
    assert_eq!(lines(ws.path(), "sent.log"), [r#"{"text": "over http"}"#]);
    let _ = client.cancel().await;
    let _ = server.start_kill();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_elicitation_a_gated_call_pauses_until_resume_run_decides() {
    let ws = gated_workspace(1000);
    let mut child = spawn_serve(ws.path(), &[], &[]);
    let client = stdio_client(&mut child, initialize()).await;

    let tools = client.list_all_tools().await.expect("tools/list");
    let tool = |name: &str| {
        tools
            .iter()
            .find(|t| t.name == name)
            .unwrap_or_else(|| panic!("{name} is listed"))
    };
    let read_only = |name: &str| {
        tool(name)
            .annotations
            .as_ref()
            .and_then(|a| a.read_only_hint)
    };
    assert_eq!(read_only("resume_run"), Some(false));
    assert_eq!(read_only("list_runs"), Some(true));
    assert_eq!(
        Value::Object((*tool("resume_run").input_schema).clone())["required"],
        json!(["run_id"])
    );
    for t in ["resume_run", "list_runs"] {
        assert!(tool(t).output_schema.is_some(), "{t} has an outputSchema");
    }
    let v = structured(
        &call(
            &client,
            "validate",
            json!({"program": "note(text='a')\nsend(text='b')"}),
        )
        .await,
    );
    assert_eq!(v["grade"], json!({"w": 3, "d": 3}), "{v}");
    assert_eq!(
        v["needs_approval"],
        json!([{"tool": "send", "rule": RULE}]),
        "{v}"
    );

    let r = run_on(&client, "note(text='before')\nsend(text='resumed')\n'done'").await;
    let id = paused_at(&r, "send");
    assert_eq!(r["paused"]["step"], 1, "{r}");
    assert_eq!(r["paused"]["args"], json!({"text": "resumed"}), "{r}");
    assert!(lines(ws.path(), "sent.log").is_empty());
    let runs = structured(&call(&client, "list_runs", json!({})).await);
    let listed: Vec<&Value> = runs["runs"]
        .as_array()
        .map(|r| r.iter().filter(|r| r["run_id"] == id.as_str()).collect())
        .unwrap_or_default();
    assert_eq!(listed.len(), 1, "{runs}");
    assert_eq!(listed[0]["state"], "paused", "{runs}");
    assert_eq!(listed[0]["tool"], "send", "{runs}");
    assert_eq!(listed[0]["calls"], 1, "{runs}");

    // A paused run needs a decision.
    let e = error_text(&call(&client, "resume_run", json!({ "run_id": id })).await);
    assert!(
        e.contains("waits for an approval") && e.contains("resume_run"),
        "{e}"
    );

    let r = resume_on(&client, json!({"run_id": id, "approve": true})).await;
    assert_eq!(r["success"], true, "{r}");
    assert_eq!(r["output"], "done", "{r}");
    assert_eq!(r["trace"][0]["replayed"], true, "{r}");
    assert_eq!(r["trace"][1]["approval"], "api", "{r}");
    assert_eq!(
        lines(ws.path(), "notes.log"),
        [r#"{"text": "before"}"#],
        "note ran once"
    );
    assert_eq!(
        lines(ws.path(), "sent.log"),
        [r#"{"text": "resumed"}"#],
        "send ran once"
    );
    let runs = structured(&call(&client, "list_runs", json!({})).await);
    assert_eq!(runs, json!({"runs": []}), "a finished run is gone");

    // Refused on resume: the program sees a PermissionError.
    let id = paused_at(&run_on(&client, "send(text='refused')").await, "send");
    let r = resume_on(&client, json!({"run_id": id, "approve": false})).await;
    refused(&r);
    assert_eq!(r["trace"][0]["approval"], "api", "{r}");
    assert_eq!(
        lines(ws.path(), "sent.log").len(),
        1,
        "nothing more was sent"
    );

    // Requests the model can fix.
    for (args, want) in [
        (
            json!({"run_id": "r0000000000000000", "approve": true}),
            "no resumable run 'r0000000000000000' (list_runs",
        ),
        (
            json!({"approve": true}),
            "argument 'run_id' (a string) is required",
        ),
        (
            json!({"run_id": id, "approve": "yes"}),
            "argument 'approve' must be a boolean",
        ),
        (
            json!({"run_id": id, "force": true}),
            "unknown argument 'force'",
        ),
    ] {
        let e = error_text(&call(&client, "resume_run", args.clone()).await);
        assert!(e.contains(want), "{args}: {e}");
    }
    let e = error_text(&call(&client, "list_runs", json!({"all": true})).await);
    assert!(e.contains("unknown argument 'all'"), "{e}");
    let _ = client.cancel().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_resumes_of_one_paused_run_one_runs_and_the_other_is_busy() {
    let ws = gated_workspace(1000);
    let mut child = spawn_serve(ws.path(), &[], &[]);
    let client = stdio_client(&mut child, initialize()).await;
    let id = paused_at(&run_on(&client, "send(text='slow')").await, "send");
    let args = json!({"run_id": id, "approve": true});
    // The slow call holds the run's journal for two seconds.
    let (a, b) = tokio::join!(resume_on(&client, args.clone()), resume_on(&client, args));
    let (won, busy) = if a["success"] == true { (a, b) } else { (b, a) };
    assert_eq!(won["success"], true, "{won}");
    assert_eq!(busy["success"], false, "{busy}");
    assert_eq!(busy["error_type"], "Busy", "{busy}");
    assert!(
        busy["error"].as_str().is_some_and(|e| e.contains(&id)),
        "{busy}"
    );
    assert_eq!(
        lines(ws.path(), "sent.log"),
        [r#"{"text": "slow"}"#],
        "sent once"
    );
    let _ = client.cancel().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_paused_in_one_server_is_resumed_in_another_that_asks_the_next_call() {
    let ws = gated_workspace(1000);
    let mut first = spawn_serve(ws.path(), &[], &[]);
    let client = stdio_client(&mut first, initialize()).await;
    let id = paused_at(
        &run_on(&client, "send(text='one')\nsend(text='two')").await,
        "send",
    );
    let _ = client.cancel().await;
    let _ = first.wait().await;

    let asker = Asker::new();
    let (_server, other) = asker_over_stdio(ws.path(), asker.clone()).await;
    let r = resume_on(&other, json!({"run_id": id, "approve": true})).await;
    assert_eq!(r["success"], true, "{r}");
    assert_eq!(r["trace"][0]["approval"], "api", "{r}");
    assert_eq!(r["trace"][1]["approval"], "elicitation", "{r}");
    assert_eq!(asker.asked().len(), 1, "only the second call asked");
    assert_eq!(
        lines(ws.path(), "sent.log"),
        [r#"{"text": "one"}"#, r#"{"text": "two"}"#]
    );
    let _ = other.cancel().await;
}
