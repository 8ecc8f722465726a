//! A test-only MCP server for lackpy-mcp-client's tests and benchmarks
//! (built by `cargo test`, never installed).
//!
//! Tools: `echo`, `add`, `slow(ms)`, `cancellations`, `pid`, one tool per
//! row of the annotation table, `get-sum`, `print` (a reserved name),
//! `ordered`, `structured`, `wrapped`, `texts`, `image`, `mixed`, `captioned`,
//! `nothing`, `convert` (a rich schema: enum, default, array, nested
//! object, `$ref`, an optional union, an `outputSchema`),
//! `fail`, `huge(mb)`, `chatter(kb)`, `crash`, `nan` and `deep` (replies no
//! JSON parser accepts: a bare `NaN`, arrays nested 151 deep); `tools/list`
//! is paged, five tools a page.
//!
//! Flags: `--hang` (never answer), `--exit-now` (exit with status 3),
//! `--start-delay-ms N`, `--ignore-sigterm`, `--ignore-stdin-eof` (keep
//! running after stdin closes), `--chatty-kb N` (write N KiB to stderr at
//! start), `--legacy` (reject `server/discover`, so clients use
//! `initialize`), `--spawn-child` (start a `sleep` in the same process
//! group), `--http ADDR` (serve streamable HTTP on ADDR, e.g.
//! `127.0.0.1:0`, and print `listening on http://HOST:PORT/mcp`),
//! `--dynamic` (one more tool, `add_tool(name)`: it adds a tool `name`
//! answering `"<name> called"` and sends `notifications/tools/list_changed`;
//! added tools live as long as the process).

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, DiscoverResult,
    ErrorData, JsonObject, ListToolsResult, PaginatedRequestParams, Resource, ResourceContents,
    ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::{RequestContext, RoleServer, ServiceExt};
use serde_json::{Value, json};

#[derive(Debug, Default, Clone)]
struct Flags {
    hang: bool,
    exit_now: bool,
    start_delay_ms: u64,
    ignore_sigterm: bool,
    ignore_stdin_eof: bool,
    chatty_kb: usize,
    legacy: bool,
    spawn_child: bool,
    http: Option<String>,
    dynamic: bool,
    record_traceparent: Option<String>,
}

fn flags() -> Flags {
    let mut f = Flags::default();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--hang" => f.hang = true,
            "--exit-now" => f.exit_now = true,
            "--start-delay-ms" => {
                f.start_delay_ms = args.next().and_then(|v| v.parse().ok()).unwrap_or(0)
            }
            "--ignore-sigterm" => f.ignore_sigterm = true,
            "--ignore-stdin-eof" => f.ignore_stdin_eof = true,
            "--chatty-kb" => f.chatty_kb = args.next().and_then(|v| v.parse().ok()).unwrap_or(0),
            "--legacy" => f.legacy = true,
            "--spawn-child" => f.spawn_child = true,
            "--http" => f.http = args.next(),
            "--dynamic" => f.dynamic = true,
            // Appends each tools/call's `_meta.traceparent` (or `-`) as a
            // line to this file: the trace-propagation tests read it.
            "--record-traceparent" => f.record_traceparent = args.next(),
            other => eprintln!("mcp_test_server: unknown flag {other}"),
        }
    }
    f
}

#[derive(Clone)]
struct TestServer {
    cancellations: Arc<AtomicU64>,
    legacy: bool,
    /// With `--dynamic`: the tools `add_tool` added so far.
    added: Option<Arc<Mutex<Vec<String>>>>,
    /// With `--record-traceparent FILE`: where each call's traceparent goes.
    record_traceparent: Option<Arc<str>>,
}

impl TestServer {
    /// Every tool, `--dynamic`'s included.
    fn tools(&self) -> Vec<Tool> {
        let mut tools = all_tools();
        if let Some(added) = &self.added {
            tools.push(tool(
                "add_tool",
                "Add a tool",
                json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}),
            ));
            let names = added.lock().map(|a| a.clone()).unwrap_or_default();
            for name in names {
                tools.push(Tool::new(
                    name,
                    "An added tool",
                    schema(json!({"type": "object", "properties": {}})),
                ));
            }
        }
        tools
    }

    /// Whether `name` is a tool `add_tool` added.
    fn added(&self, name: &str) -> bool {
        self.added
            .as_ref()
            .and_then(|a| a.lock().ok().map(|a| a.iter().any(|n| n == name)))
            .unwrap_or(false)
    }
}

fn schema(v: Value) -> Arc<JsonObject> {
    match v {
        Value::Object(m) => Arc::new(m),
        _ => Arc::new(JsonObject::new()),
    }
}

fn tool(name: &'static str, description: &'static str, input: Value) -> Tool {
    Tool::new(name, description, schema(input))
}

fn annotated(
    name: &'static str,
    ro: Option<bool>,
    open: Option<bool>,
    idem: Option<bool>,
    destr: Option<bool>,
) -> Tool {
    let mut t = tool(
        name,
        "An annotated tool",
        json!({"type": "object", "properties": {}}),
    );
    t.annotations = Some(ToolAnnotations::from_raw(None, ro, destr, idem, open));
    t
}

fn all_tools() -> Vec<Tool> {
    let int2 = json!({"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]});
    vec![
        tool(
            "echo",
            "Echo a message back\nSecond line of docs.",
            json!({"type": "object", "properties": {"message": {"type": "string", "description": "What to echo"}}, "required": ["message"]}),
        ),
        {
            // The `{"result": T}` wrapper FastMCP writes for a plain result.
            let mut add = tool("add", "Add two integers", int2.clone());
            add.output_schema = Some(schema(
                json!({"type": "object", "properties": {"result": {"type": "integer"}}, "required": ["result"]}),
            ));
            add
        },
        tool(
            "slow",
            "Sleep for ms milliseconds",
            json!({"type": "object", "properties": {"ms": {"type": "integer"}}, "required": ["ms"]}),
        ),
        tool(
            "cancellations",
            "How many calls were cancelled",
            json!({"type": "object"}),
        ),
        tool(
            "pid",
            "The server's process id",
            json!({"type": "object", "properties": {}}),
        ),
        annotated("ro_closed", Some(true), Some(false), None, None),
        annotated("ro_open", Some(true), Some(true), None, None),
        annotated(
            "write_idempotent",
            Some(false),
            None,
            Some(true),
            Some(false),
        ),
        annotated(
            "write_destructive",
            Some(false),
            None,
            Some(true),
            Some(true),
        ),
        annotated("ro_no_world", Some(true), None, None, None),
        tool(
            "no_hints",
            "No annotations",
            json!({"type": "object", "properties": {}}),
        ),
        tool("get-sum", "Sum of a and b", int2),
        tool(
            "print",
            "A tool whose name is a builtin",
            json!({"type": "object", "properties": {}}),
        ),
        tool(
            "ordered",
            "Echo arguments in order",
            // Document order (zeta, alpha, mid) is neither sorted nor
            // required-first (mid, …): a client that loses it shows.
            json!({"type": "object", "properties": {"zeta": {"type": "string"}, "alpha": {"type": "integer"}, "mid": {"type": "boolean"}}, "required": ["mid"]}),
        ),
        tool(
            "structured",
            "Structured content",
            json!({"type": "object", "properties": {}}),
        ),
        tool(
            "wrapped",
            "Structured {result: v}",
            json!({"type": "object", "properties": {}}),
        ),
        tool(
            "texts",
            "Several text blocks",
            json!({"type": "object", "properties": {}}),
        ),
        tool(
            "image",
            "An image block",
            json!({"type": "object", "properties": {}}),
        ),
        tool(
            "mixed",
            "Audio, a resource link and embedded resources",
            json!({"type": "object", "properties": {}}),
        ),
        tool(
            "captioned",
            "A text block and an image block",
            json!({"type": "object", "properties": {}}),
        ),
        tool(
            "nothing",
            "No content at all",
            json!({"type": "object", "properties": {}}),
        ),
        tool(
            "fail",
            "Always fails (isError)",
            json!({"type": "object", "properties": {}}),
        ),
        tool(
            "huge",
            "mb MiB of text",
            json!({"type": "object", "properties": {"mb": {"type": "number"}}, "required": ["mb"]}),
        ),
        tool(
            "chatter",
            "Write kb KiB to stderr",
            json!({"type": "object", "properties": {"kb": {"type": "integer"}}, "required": ["kb"]}),
        ),
        tool(
            "crash",
            "Exit the process mid-call",
            json!({"type": "object", "properties": {}}),
        ),
        tool(
            "nan",
            "Reply with a bare NaN in the JSON",
            json!({"type": "object", "properties": {}}),
        ),
        tool(
            "deep",
            "Reply with arrays nested deeper than JSON parsers allow",
            json!({"type": "object", "properties": {}}),
        ),
        convert_tool(),
    ]
}

/// A tool whose schemas use what real servers use: an enum with a
/// default, arrays, a nested object, a `$ref`, an optional union, and an
/// `outputSchema` of a few fields.
fn convert_tool() -> Tool {
    let mut t = tool(
        "convert",
        "Convert a temperature. Rounds to the given digits.",
        json!({
            "type": "object",
            "$defs": {"Unit": {"type": "string", "enum": ["c", "f", "k"]}},
            "properties": {
                "amount": {"type": "number", "description": "The temperature"},
                "unit": {"type": "string", "enum": ["c", "f"], "default": "c", "description": "Its unit"},
                "to": {"$ref": "#/$defs/Unit"},
                "digits": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": null},
                "tags": {"type": "array", "items": {"type": "string"}},
                "options": {"type": "object", "properties": {"strict": {"type": "boolean"}}}
            },
            "required": ["amount", "to"]
        }),
    );
    t.output_schema = Some(schema(json!({
        "type": "object",
        "properties": {"value": {"type": "number"}, "unit": {"type": "string"}},
        "required": ["value", "unit"]
    })));
    t
}

const PAGE: usize = 5;

fn text(s: impl Into<String>) -> ContentBlock {
    ContentBlock::text(s)
}

fn arg_i64(args: &JsonObject, k: &str) -> i64 {
    args.get(k).and_then(Value::as_i64).unwrap_or(0)
}

impl ServerHandler for TestServer {
    fn get_info(&self) -> ServerConfig {
        let mut info = ServerConfig::new(ServerCapabilities::builder().enable_tools().build());
        info.server_info.name = "lackpy-test-server".into();
        info.server_info.version = "1.0.0".into();
        info
    }

    async fn discover(
        &self,
        _context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        if self.legacy {
            return Err(ErrorData::method_not_found::<
                rmcp::model::DiscoverRequestMethod,
            >());
        }
        Ok(DiscoverResult::from_server_info(
            self.supported_protocol_versions().into_owned(),
            self.get_info(),
        ))
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let tools = self.tools();
        let start: usize = request
            .and_then(|r| r.cursor)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        let end = (start + PAGE).min(tools.len());
        let mut result = ListToolsResult::with_all_items(
            tools
                .get(start..end)
                .map(<[Tool]>::to_vec)
                .unwrap_or_default(),
        );
        result.next_cursor = (end < tools.len()).then(|| end.to_string());
        Ok(result)
    }

    async fn call_tool(
        &self,
        mut request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if let Some(path) = &self.record_traceparent {
            let line = format!("{}\n", context.meta.get_traceparent().unwrap_or("-"));
            let file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&**path);
            if let Ok(mut f) = file {
                let _ = std::io::Write::write_all(&mut f, line.as_bytes());
            }
        }
        let args = request.arguments.take().unwrap_or_default();
        let result = match request.name.as_ref() {
            "echo" => CallToolResult::success(vec![text(
                args.get("message")
                    .and_then(Value::as_str)
                    .unwrap_or_default(),
            )]),
            "add" => {
                let sum = arg_i64(&args, "a") + arg_i64(&args, "b");
                let mut r = CallToolResult::success(vec![text(sum.to_string())]);
                r.structured_content = Some(json!({"result": sum}));
                r
            }
            "get-sum" => CallToolResult::success(vec![text(
                (arg_i64(&args, "a") + arg_i64(&args, "b")).to_string(),
            )]),
            "slow" => {
                let ms = u64::try_from(arg_i64(&args, "ms")).unwrap_or(0);
                tokio::select! {
                    () = tokio::time::sleep(Duration::from_millis(ms)) => {}
                    () = context.ct.cancelled() => {
                        self.cancellations.fetch_add(1, Ordering::SeqCst);
                        eprintln!("mcp_test_server: call cancelled");
                        return Err(ErrorData::internal_error("cancelled", None));
                    }
                }
                CallToolResult::success(vec![text(format!("slept {ms} ms"))])
            }
            "cancellations" => {
                let mut r = CallToolResult::success(vec![]);
                r.structured_content =
                    Some(json!({"result": self.cancellations.load(Ordering::SeqCst)}));
                r
            }
            "pid" => {
                let mut r = CallToolResult::success(vec![]);
                r.structured_content = Some(json!({"result": std::process::id()}));
                r
            }
            "ordered" => CallToolResult::success(vec![text(Value::Object(args).to_string())]),
            "convert" => {
                let amount = args.get("amount").and_then(Value::as_f64).unwrap_or(0.0);
                let to = args.get("to").and_then(Value::as_str).unwrap_or("c");
                let mut r = CallToolResult::success(vec![text(amount.to_string())]);
                r.structured_content = Some(json!({"value": amount, "unit": to}));
                r
            }
            "structured" => {
                let mut r = CallToolResult::success(vec![text("{\"x\": 1}")]);
                r.structured_content = Some(json!({"x": 1, "y": [1, 2], "z": {"k": null}}));
                r
            }
            "wrapped" => {
                let mut r = CallToolResult::success(vec![text("[1, 2, 3]")]);
                r.structured_content = Some(json!({"result": [1, 2, 3]}));
                r
            }
            "texts" => CallToolResult::success(vec![text("a"), text("b"), text("c")]),
            "image" => {
                CallToolResult::success(vec![ContentBlock::image("iVBORw0KGgo=", "image/png")])
            }
            "mixed" => {
                let mut link = Resource::new("file:///tmp/a.txt", "a.txt");
                link.mime_type = Some("text/plain".into());
                CallToolResult::success(vec![
                    ContentBlock::audio("UklGRg==", "audio/wav"),
                    ContentBlock::resource_link(link),
                    ContentBlock::resource(ResourceContents::text("hello", "file:///tmp/b.txt")),
                ])
            }
            "captioned" => CallToolResult::success(vec![
                text("a small picture"),
                ContentBlock::image("iVBORw0KGgo=", "image/png"),
            ]),
            "nothing" => CallToolResult::success(vec![]),
            "fail" => CallToolResult::error(vec![text("it failed"), text("badly")]),
            "huge" => {
                let mb = args.get("mb").and_then(Value::as_f64).unwrap_or(1.0);
                let bytes = (mb * 1024.0 * 1024.0) as usize;
                CallToolResult::success(vec![text("x".repeat(bytes))])
            }
            "chatter" => {
                let kb = usize::try_from(arg_i64(&args, "kb")).unwrap_or(0);
                let line = "chatter chatter chatter chatter chatter chatter chatter chatter chatter chatter chatter chatter\n";
                let mut err = std::io::stderr().lock();
                let mut written = 0;
                while written < kb * 1024 {
                    let _ = err.write_all(line.as_bytes());
                    written += line.len();
                }
                CallToolResult::success(vec![text("ok")])
            }
            "crash" => {
                eprintln!("mcp_test_server: crashing as asked");
                std::process::exit(1);
            }
            // The writer swaps these markers for text no JSON parser accepts.
            "nan" => CallToolResult::success(vec![text(NAN_MARK)]),
            "deep" => CallToolResult::success(vec![text(deep_mark())]),
            "ro_closed" | "ro_open" | "write_idempotent" | "write_destructive" | "ro_no_world"
            | "no_hints" | "print" => CallToolResult::success(vec![text(request.name.to_string())]),
            "add_tool" if self.added.is_some() => {
                let name = args
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or("added")
                    .to_string();
                if let Some(added) = &self.added
                    && let Ok(mut a) = added.lock()
                {
                    a.push(name.clone());
                }
                let _ = context.peer.notify_tool_list_changed().await;
                CallToolResult::success(vec![text(format!("added {name}"))])
            }
            other if self.added(other) => {
                CallToolResult::success(vec![text(format!("{other} called"))])
            }
            other => {
                return Err(ErrorData::invalid_params(
                    format!("unknown tool: {other}"),
                    None,
                ));
            }
        };
        Ok(CallToolResponse::Complete(result))
    }
}

async fn serve_http(server: TestServer, addr: &str) -> std::io::Result<()> {
    use hyper_util::rt::{TokioExecutor, TokioIo};
    use hyper_util::service::TowerToHyperService;
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};

    let listener = tokio::net::TcpListener::bind(addr).await?;
    let local = listener.local_addr()?;
    println!("listening on http://{local}/mcp");
    let _ = std::io::stdout().flush();
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    loop {
        let (stream, _) = listener.accept().await?;
        let svc = TowerToHyperService::new(service.clone());
        tokio::spawn(async move {
            let _ = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
                .serve_connection(TokioIo::new(Reorder(stream)), svc)
                .await;
        });
    }
}

/// `serde_json` here writes object keys sorted, so no server built on it
/// can show a non-alphabetical property order. This writer puts the
/// `ordered` tool's properties back in their declared order (same length,
/// so byte counts still match), to test that clients keep wire order. It
/// also turns the `nan` and `deep` markers into JSON no parser accepts
/// (again the same length).
struct Reorder<W>(W);

const SORTED_PROPS: &str = r#""properties":{"alpha":{"type":"integer"},"mid":{"type":"boolean"},"zeta":{"type":"string"}}"#;
const DECLARED_PROPS: &str = r#""properties":{"zeta":{"type":"string"},"alpha":{"type":"integer"},"mid":{"type":"boolean"}}"#;

/// The `nan` tool's text; quoted on the wire it becomes `NaN` and spaces.
const NAN_MARK: &str = "__NAN_MARK__";

/// How deep the `deep` tool's arrays nest (serde_json stops at 128).
const DEEP: usize = 151;

/// The `deep` tool's text: quoted on the wire it is `2 * DEEP` bytes.
fn deep_mark() -> String {
    format!("__DEEP_MARK{}", "_".repeat(2 * DEEP - 2 - 11))
}

/// What the writer swaps: (on the wire, sent instead), equal lengths.
static SWAPS: std::sync::LazyLock<Vec<(Vec<u8>, Vec<u8>)>> = std::sync::LazyLock::new(swaps);

fn swaps() -> Vec<(Vec<u8>, Vec<u8>)> {
    let nan = format!("\"{NAN_MARK}\"");
    let deep = format!("\"{}\"", deep_mark());
    vec![
        (
            SORTED_PROPS.as_bytes().to_vec(),
            DECLARED_PROPS.as_bytes().to_vec(),
        ),
        (
            nan.as_bytes().to_vec(),
            format!("NaN{}", " ".repeat(nan.len() - 3)).into_bytes(),
        ),
        (
            deep.as_bytes().to_vec(),
            format!("{}{}", "[".repeat(DEEP), "]".repeat(DEEP)).into_bytes(),
        ),
    ]
}

impl<W: tokio::io::AsyncWrite + Unpin> tokio::io::AsyncWrite for Reorder<W> {
    fn poll_write(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        // Tool lists and marker replies are small; scanning big results on
        // every partial write would be quadratic.
        if buf.len() > 64 * 1024 {
            return std::pin::Pin::new(&mut self.0).poll_write(cx, buf);
        }
        let mut fixed: Option<Vec<u8>> = None;
        for (needle, instead) in SWAPS.iter() {
            let hay = fixed.as_deref().unwrap_or(buf);
            if let Some(at) = hay.windows(needle.len()).position(|w| w == needle) {
                let mut out = hay.to_vec();
                out[at..at + needle.len()].copy_from_slice(instead);
                fixed = Some(out);
            }
        }
        match fixed {
            Some(fixed) => std::pin::Pin::new(&mut self.0).poll_write(cx, &fixed),
            None => std::pin::Pin::new(&mut self.0).poll_write(cx, buf),
        }
    }

    fn poll_flush(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.0).poll_flush(cx)
    }

    fn poll_shutdown(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.0).poll_shutdown(cx)
    }
}

/// Reads pass through (the HTTP connection is read and written).
impl<W: tokio::io::AsyncRead + Unpin> tokio::io::AsyncRead for Reorder<W> {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.0).poll_read(cx, buf)
    }
}

/// Stdin and stdout as non-blocking pipes when they are pipes (no thread
/// hop per read, which matters for the latency benchmark).
fn stdio_pipes() -> std::io::Result<(
    tokio::net::unix::pipe::Receiver,
    tokio::net::unix::pipe::Sender,
)> {
    use std::os::fd::AsFd;
    let stdin = std::io::stdin().as_fd().try_clone_to_owned()?;
    let stdout = std::io::stdout().as_fd().try_clone_to_owned()?;
    Ok((
        tokio::net::unix::pipe::Receiver::from_owned_fd(stdin)?,
        tokio::net::unix::pipe::Sender::from_owned_fd(stdout)?,
    ))
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let f = flags();
    if f.chatty_kb > 0 {
        let mut err = std::io::stderr().lock();
        for i in 0..(f.chatty_kb * 16) {
            let _ = writeln!(
                err,
                "mcp_test_server: chatty startup line {i:05} .................................."
            );
        }
    }
    if f.exit_now {
        eprintln!("mcp_test_server: exiting at once as asked");
        std::process::exit(3);
    }
    let _term = if f.ignore_sigterm {
        // Listening for SIGTERM replaces its default action: it no longer ends us.
        tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok()
    } else {
        None
    };
    let _child = if f.spawn_child {
        tokio::process::Command::new("sleep")
            .arg("1000")
            .spawn()
            .ok()
    } else {
        None
    };
    if f.start_delay_ms > 0 {
        tokio::time::sleep(Duration::from_millis(f.start_delay_ms)).await;
    }
    if f.hang {
        // Read and drop everything; never answer.
        let mut stdin = tokio::io::stdin();
        let mut buf = vec![0u8; 4096];
        loop {
            match tokio::io::AsyncReadExt::read(&mut stdin, &mut buf).await {
                Ok(0) | Err(_) => {
                    if !f.ignore_stdin_eof {
                        return;
                    }
                    tokio::time::sleep(Duration::from_secs(3600)).await;
                }
                Ok(_) => {}
            }
        }
    }
    let server = TestServer {
        cancellations: Arc::new(AtomicU64::new(0)),
        legacy: f.legacy,
        added: f.dynamic.then(|| Arc::new(Mutex::new(Vec::new()))),
        record_traceparent: f.record_traceparent.as_deref().map(Arc::from),
    };
    if let Some(addr) = &f.http {
        if let Err(e) = serve_http(server, addr).await {
            eprintln!("mcp_test_server: http: {e}");
            std::process::exit(2);
        }
        return;
    }
    let running = match stdio_pipes() {
        Ok((rx, tx)) => server.serve((rx, Reorder(tx))).await,
        Err(_) => {
            server
                .serve((tokio::io::stdin(), Reorder(tokio::io::stdout())))
                .await
        }
    };
    match running {
        Ok(service) => {
            let _ = service.waiting().await;
        }
        Err(e) => eprintln!("mcp_test_server: {e}"),
    }
    if f.ignore_stdin_eof {
        tokio::time::sleep(Duration::from_secs(3600)).await;
    }
}
