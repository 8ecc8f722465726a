//! OpenTelemetry traces end to end: an OTLP/HTTP receiver inside the test,
//! the real `lackpy` binary with `OTEL_*` set, the MCP test server
//! downstream recording the `traceparent` each call carried.

use crate::common::test_server::mcp_test_server;
use crate::mcp_serve_support::*;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use rmcp::model::{CallToolRequestParams, RequestMetaObject};
use serde_json::{Value, json};

/// The host's trace: what a `traceparent` from the client carries.
const HOST_TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const HOST_SPAN: &str = "00f067aa0ba902b7";

/// One exported span, from either encoding.
#[derive(Debug, Clone)]
struct Span {
    name: String,
    trace_id: String,
    span_id: String,
    parent: String,
    attrs: BTreeMap<String, String>,
    service: String,
}

/// A loopback OTLP/HTTP receiver: every `POST /v1/traces`, decoded.
struct Receiver {
    addr: SocketAddr,
    spans: Arc<Mutex<Vec<Span>>>,
    posts: Arc<Mutex<Vec<String>>>,
}

impl Receiver {
    async fn start() -> Receiver {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the receiver");
        let addr = listener.local_addr().expect("address");
        let spans = Arc::new(Mutex::new(Vec::new()));
        let posts = Arc::new(Mutex::new(Vec::new()));
        let (s, p) = (Arc::clone(&spans), Arc::clone(&posts));
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let (s, p) = (Arc::clone(&s), Arc::clone(&p));
                tokio::spawn(async move {
                    let service = hyper::service::service_fn(move |req: Request<Incoming>| {
                        let (s, p) = (Arc::clone(&s), Arc::clone(&p));
                        async move {
                            let path = req.uri().path().to_string();
                            let kind = req
                                .headers()
                                .get("content-type")
                                .and_then(|v| v.to_str().ok())
                                .unwrap_or_default()
                                .to_string();
                            let body = req.into_body().collect().await?.to_bytes();
                            p.lock().expect("posts").push(format!("{path} {kind}"));
                            let decoded = if kind.contains("json") {
                                from_json(&body)
                            } else {
                                from_protobuf(&body)
                            };
                            s.lock().expect("spans").extend(decoded);
                            Ok::<_, hyper::Error>(Response::new(Full::new(Bytes::new())))
                        }
                    });
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
            }
        });
        Receiver { addr, spans, posts }
    }

    fn endpoint(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Waits (up to 20 s) for spans named `names` of trace `trace`.
    async fn wait_for(&self, trace: &str, names: &[&str]) -> Vec<Span> {
        let found = || {
            let spans = self.spans.lock().expect("spans").clone();
            let of_trace: Vec<Span> = spans.into_iter().filter(|s| s.trace_id == trace).collect();
            names
                .iter()
                .all(|n| of_trace.iter().any(|s| s.name == *n))
                .then_some(of_trace)
        };
        assert!(
            eventually(Duration::from_secs(20), || found().is_some()).await,
            "spans {names:?} of trace {trace} not received; got {:?}",
            self.spans.lock().expect("spans")
        );
        found().unwrap_or_default()
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// OTLP/JSON: ids are hex strings, integers may be strings.
fn from_json(body: &[u8]) -> Vec<Span> {
    let v: Value = serde_json::from_slice(body).expect("an OTLP/JSON body");
    let attrs = |a: &Value| -> BTreeMap<String, String> {
        a.as_array()
            .into_iter()
            .flatten()
            .map(|kv| {
                let value = &kv["value"];
                let text = ["stringValue", "intValue", "boolValue", "doubleValue"]
                    .iter()
                    .find_map(|k| value.get(*k))
                    .map(|x| match x {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    })
                    .unwrap_or_default();
                (kv["key"].as_str().unwrap_or_default().to_string(), text)
            })
            .collect()
    };
    let mut out = Vec::new();
    for rs in v["resourceSpans"].as_array().into_iter().flatten() {
        let service = attrs(&rs["resource"]["attributes"])
            .remove("service.name")
            .unwrap_or_default();
        for ss in rs["scopeSpans"].as_array().into_iter().flatten() {
            for s in ss["spans"].as_array().into_iter().flatten() {
                out.push(Span {
                    name: s["name"].as_str().unwrap_or_default().to_string(),
                    trace_id: s["traceId"].as_str().unwrap_or_default().to_lowercase(),
                    span_id: s["spanId"].as_str().unwrap_or_default().to_lowercase(),
                    parent: s["parentSpanId"]
                        .as_str()
                        .unwrap_or_default()
                        .to_lowercase(),
                    attrs: attrs(&s["attributes"]),
                    service: service.clone(),
                });
            }
        }
    }
    out
}

/// OTLP/protobuf, decoded with the opentelemetry-proto types.
fn from_protobuf(body: &[u8]) -> Vec<Span> {
    use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
    use opentelemetry_proto::tonic::common::v1::KeyValue;
    use opentelemetry_proto::tonic::common::v1::any_value::Value as Any;
    use prost::Message;
    let req = ExportTraceServiceRequest::decode(body).expect("an OTLP/protobuf body");
    let attrs = |a: &[KeyValue]| -> BTreeMap<String, String> {
        a.iter()
            .map(|kv| {
                let text = match kv.value.as_ref().and_then(|v| v.value.as_ref()) {
                    Some(Any::StringValue(s)) => s.clone(),
                    Some(Any::IntValue(i)) => i.to_string(),
                    Some(Any::BoolValue(b)) => b.to_string(),
                    Some(Any::DoubleValue(d)) => d.to_string(),
                    _ => String::new(),
                };
                (kv.key.clone(), text)
            })
            .collect()
    };
    let mut out = Vec::new();
    for rs in &req.resource_spans {
        let service = rs
            .resource
            .as_ref()
            .map(|r| attrs(&r.attributes))
            .and_then(|mut a| a.remove("service.name"))
            .unwrap_or_default();
        for ss in &rs.scope_spans {
            for s in &ss.spans {
                out.push(Span {
                    name: s.name.clone(),
                    trace_id: hex(&s.trace_id),
                    span_id: hex(&s.span_id),
                    parent: hex(&s.parent_span_id),
                    attrs: attrs(&s.attributes),
                    service: service.clone(),
                });
            }
        }
    }
    out
}

/// A workspace whose MCP server `ours` (the test server) appends each
/// call's `traceparent` to `traceparents.txt`.
fn traced_workspace(extra: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let log = dir.path().join("traceparents.txt");
    let config = format!(
        "[mcp_servers.ours]\ncommand = {:?}\nargs = [\"--record-traceparent\", {:?}]\n{extra}",
        mcp_test_server().display().to_string(),
        log.display().to_string()
    );
    std::fs::create_dir(dir.path().join(".lackpy")).expect("mkdir");
    std::fs::write(dir.path().join(".lackpy/config.toml"), config).expect("config");
    dir
}

/// The `traceparent`s the test server received, one per call.
fn received_traceparents(ws: &Path) -> Vec<String> {
    std::fs::read_to_string(ws.join("traceparents.txt"))
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

fn one<'a>(spans: &'a [Span], name: &str) -> &'a Span {
    let found: Vec<&Span> = spans.iter().filter(|s| s.name == name).collect();
    assert_eq!(found.len(), 1, "one {name} span: {spans:#?}");
    found[0]
}

/// The span tree of one run with one MCP call: the host's span →
/// `lackpy.run` → `lackpy.tool_call` → `lackpy.mcp.operation`, with the
/// attributes runtime.md names; the upstream server got the operation's
/// context.
fn check_tree(spans: &[Span], ws: &Path, program: &str, host_parent: Option<&str>) {
    let run = one(spans, "lackpy.run");
    let call = one(spans, "lackpy.tool_call");
    let op = one(spans, "lackpy.mcp.operation");
    if let Some(parent) = host_parent {
        assert_eq!(run.parent, parent, "{run:?}");
    }
    assert_eq!(call.parent, run.span_id, "{call:?}");
    assert_eq!(op.parent, call.span_id, "{op:?}");

    assert_eq!(run.attrs["lackpy.outcome"], "ok", "{run:?}");
    assert_eq!(run.attrs["lackpy.steps"], "1", "{run:?}");
    assert_eq!(run.attrs["lackpy.program.sha256"].len(), 64, "{run:?}");
    assert!(run.attrs.contains_key("lackpy.grade.w"), "{run:?}");
    assert!(!run.attrs.contains_key("lackpy.error_type"), "{run:?}");
    assert_eq!(
        run.attrs.get("lackpy.program").map(String::as_str),
        Some(program)
    );

    assert_eq!(call.attrs["lackpy.tool"], "add", "{call:?}");
    assert_eq!(call.attrs["lackpy.source"], "mcp:ours", "{call:?}");
    assert_eq!(call.attrs["lackpy.provenance"], "mcp", "{call:?}");
    assert_eq!(call.attrs["lackpy.step"], "0", "{call:?}");
    assert_eq!(call.attrs["lackpy.outcome"], "ok", "{call:?}");
    assert!(call.attrs.contains_key("lackpy.grade.d"), "{call:?}");

    assert_eq!(op.attrs["mcp.server"], "ours", "{op:?}");
    assert_eq!(op.attrs["mcp.operation"], "tools/call add", "{op:?}");
    assert_eq!(op.attrs["mcp.connection"], "0", "{op:?}");
    assert!(op.attrs.contains_key("mcp.sequence"), "{op:?}");
    assert!(op.attrs.contains_key("mcp.queued_us"), "{op:?}");

    // The upstream server continues the operation's span.
    let expected = format!("00-{}-{}-01", op.trace_id, op.span_id);
    assert_eq!(received_traceparents(ws), [expected]);
}

#[tokio::test]
async fn a_hosts_trace_continues_through_mcp_serve_into_upstream_servers() {
    let receiver = Receiver::start().await;
    let ws = traced_workspace("[telemetry]\ninclude_program = true\n");
    let endpoint = receiver.endpoint();
    let (mut child, addr) = spawn_http(
        ws.path(),
        &[],
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint.as_str()),
            ("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json"),
            ("OTEL_SERVICE_NAME", "lackpy-under-test"),
            ("OTEL_BSP_SCHEDULE_DELAY", "50"),
        ],
    )
    .await;
    let client = http_client(&addr, initialize()).await;
    let program = "add(a=1, b=2)";
    let mut meta = RequestMetaObject::default();
    meta.set_traceparent(format!("00-{HOST_TRACE}-{HOST_SPAN}-01"));
    let Value::Object(args) = json!({ "program": program }) else {
        unreachable!()
    };
    let mut params = CallToolRequestParams::new("run_program").with_arguments(args);
    params.meta = Some(meta);
    let r = client.call_tool(params).await.expect("run_program");
    assert_eq!(structured(&r)["output"], 3, "{r:?}");

    let spans = receiver
        .wait_for(
            HOST_TRACE,
            &["lackpy.run", "lackpy.tool_call", "lackpy.mcp.operation"],
        )
        .await;
    check_tree(&spans, ws.path(), program, Some(HOST_SPAN));
    assert!(spans.iter().all(|s| s.service == "lackpy-under-test"));
    let posts = receiver.posts.lock().expect("posts").clone();
    assert!(
        posts.iter().all(|p| p == "/v1/traces application/json"),
        "{posts:?}"
    );
    client.cancel().await.expect("close");
    let _ = child.kill().await;
}

#[tokio::test]
async fn the_http_traceparent_header_is_the_hosts_trace_too() {
    use rmcp::service::ClientServiceExt;
    use rmcp::transport::StreamableHttpClientTransport;
    use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
    let receiver = Receiver::start().await;
    let ws = traced_workspace("");
    let traces = format!("{}/v1/traces", receiver.endpoint());
    let (mut child, addr) = spawn_http(
        ws.path(),
        &[],
        &[
            ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", traces.as_str()),
            ("OTEL_BSP_SCHEDULE_DELAY", "50"),
        ],
    )
    .await;
    let trace = "0af7651916cd43dd8448eb211c80319c";
    let header = format!("00-{trace}-b7ad6b7169203331-01");
    let mut headers = std::collections::HashMap::new();
    headers.insert(
        http::HeaderName::from_static("traceparent"),
        http::HeaderValue::from_str(&header).expect("a header value"),
    );
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(format!("http://{addr}/mcp"))
            .custom_headers(headers),
    );
    let client = Recorder::default()
        .serve_with_lifecycle(transport, initialize())
        .await
        .expect("the MCP handshake over HTTP");
    let r = run(&client, "add(a=2, b=2)", json!({})).await;
    assert_eq!(r["output"], 4, "{r}");
    let spans = receiver
        .wait_for(
            trace,
            &["lackpy.run", "lackpy.tool_call", "lackpy.mcp.operation"],
        )
        .await;
    let run = one(&spans, "lackpy.run");
    assert_eq!(run.parent, "b7ad6b7169203331");
    // Without `include_program`, only the program's hash.
    assert!(!run.attrs.contains_key("lackpy.program"), "{run:?}");
    // The default service name, in protobuf (the default protocol).
    assert_eq!(run.service, "lackpy");
    let posts = receiver.posts.lock().expect("posts").clone();
    assert!(
        posts
            .iter()
            .all(|p| p == "/v1/traces application/x-protobuf"),
        "{posts:?}"
    );
    client.cancel().await.expect("close");
    let _ = child.kill().await;
}

/// `lackpy ARGS` with `program` on stdin, `OTEL_*` as given (and no other).
async fn lackpy_run(ws: &Path, program: &str, env: &[(&str, &str)]) -> std::process::Output {
    use tokio::io::AsyncWriteExt;
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_lackpy"));
    cmd.args(["run", "-", "--json", "--workspace"])
        .arg(ws)
        .env_remove("RUST_LOG")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    for (k, _) in std::env::vars() {
        if k.starts_with("OTEL_") {
            cmd.env_remove(k);
        }
    }
    cmd.envs(env.iter().copied());
    let mut child = cmd.spawn().expect("lackpy starts");
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(program.as_bytes()).await.expect("program");
    }
    child.wait_with_output().await.expect("lackpy exits")
}

#[tokio::test]
async fn lackpy_run_flushes_its_spans_on_exit() {
    let receiver = Receiver::start().await;
    let ws = traced_workspace("[telemetry]\ninclude_program = true\n");
    let endpoint = receiver.endpoint();
    let program = "add(a=20, b=22)";
    // A batch delay of a minute: only the flush at exit sends the spans.
    let out = lackpy_run(
        ws.path(),
        program,
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint.as_str()),
            ("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf"),
            ("OTEL_BSP_SCHEDULE_DELAY", "60000"),
        ],
    )
    .await;
    assert!(out.status.success(), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("42"),
        "{out:?}"
    );
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("traces"),
        "{out:?}"
    );
    let spans = receiver.spans.lock().expect("spans").clone();
    let trace = spans
        .iter()
        .find(|s| s.name == "lackpy.run")
        .map(|s| s.trace_id.clone())
        .unwrap_or_else(|| panic!("no lackpy.run span: {spans:?}"));
    let spans: Vec<Span> = spans.into_iter().filter(|s| s.trace_id == trace).collect();
    // A new trace: the run is its root.
    check_tree(&spans, ws.path(), program, Some(""));
}

#[tokio::test]
async fn without_otel_nothing_is_sent_and_no_traceparent_passed_on() {
    let ws = traced_workspace("");
    let out = lackpy_run(ws.path(), "add(a=1, b=1)", &[("OTEL_SERVICE_NAME", "x")]).await;
    assert!(out.status.success(), "{out:?}");
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("OTEL"),
        "{out:?}"
    );
    // The upstream server got no trace context.
    assert_eq!(received_traceparents(ws.path()), ["-"]);
}

#[tokio::test]
async fn an_unsupported_protocol_warns_and_runs_untraced() {
    let ws = traced_workspace("");
    let out = lackpy_run(
        ws.path(),
        "add(a=1, b=1)",
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9"),
            ("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"),
        ],
    )
    .await;
    assert!(out.status.success(), "{out:?}");
    // (The test server's `print` tool is skipped with a warning of its own.)
    let stderr = String::from_utf8_lossy(&out.stderr);
    let ours: Vec<&str> = stderr.lines().filter(|l| l.contains("OTEL")).collect();
    insta::assert_snapshot!(ours.join("\n"));
    assert_eq!(received_traceparents(ws.path()), ["-"]);
}

#[tokio::test]
async fn mcp_serve_flushes_its_spans_at_shutdown() {
    let receiver = Receiver::start().await;
    let ws = traced_workspace("");
    let endpoint = receiver.endpoint();
    // A batch delay of a minute: only the flush at shutdown sends them.
    let (mut child, addr) = spawn_http(
        ws.path(),
        &[],
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint.as_str()),
            ("OTEL_BSP_SCHEDULE_DELAY", "60000"),
        ],
    )
    .await;
    let client = http_client(&addr, initialize()).await;
    let r = run(&client, "add(a=5, b=5)", json!({})).await;
    assert_eq!(r["output"], 10, "{r}");
    client.cancel().await.expect("close");
    assert!(receiver.spans.lock().expect("spans").is_empty());
    let pid = child.id().expect("pid");
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(i32::try_from(pid).expect("pid")),
        nix::sys::signal::Signal::SIGTERM,
    )
    .expect("SIGTERM");
    let status = tokio::time::timeout(Duration::from_secs(30), child.wait())
        .await
        .expect("the server exits")
        .expect("status");
    assert!(status.success(), "{status:?}");
    let names: Vec<String> = receiver
        .spans
        .lock()
        .expect("spans")
        .iter()
        .map(|s| s.name.clone())
        .collect();
    for name in ["lackpy.run", "lackpy.tool_call", "lackpy.mcp.operation"] {
        assert!(names.iter().any(|n| n == name), "{name} in {names:?}");
    }
}
