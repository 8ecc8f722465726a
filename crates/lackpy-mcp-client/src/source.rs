//! [`McpToolSource`]: one server's tools as a lackpy tool source, and
//! [`McpTool`], one of them as a callable tool.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use lackpy_lang::{Data, Grade};
use lackpy_sources::{
    ArgSpec, CallContext, McpServerDescriptor, McpTransport, Precedence, Provenance, Provider,
    Tool, ToolAnnotations, ToolAnswer, ToolError, ToolSource, ToolSpec, apply_grade_override,
    bind_args, grade_from_annotations,
};
use rmcp::model::JsonObject;
use schemars::JsonSchema;
use serde::Serialize;
use tokio::runtime::Handle;
use tokio::task::JoinHandle;

use crate::convert::{data_to_json, result_to_data};
use crate::error::McpError;
use crate::naming::{Exposure, assign_names};
use crate::schema::{args_from_schema, returns_from_schema};
use crate::supervisor::{ServerHandle, ServerState, Shared};

/// How often a call in flight looks at its run's cancellation flag.
const CANCEL_POLL: Duration = Duration::from_millis(20);

/// A server tool and the name programs call it by.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ToolName {
    /// The name programs call (an identifier).
    pub name: String,
    /// The server's name for it (what calls send).
    pub server_name: String,
}

/// A server tool that is not offered, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SkippedTool {
    /// The server's name for it.
    pub server_name: String,
    /// Why it is not offered.
    pub reason: String,
}

/// One server as `lackpy status` and `lackpy tools` show it. Holds no
/// secrets: no environment values, no header values, no URL query.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ServerStatus {
    /// The server id.
    pub id: String,
    /// The tool source's name.
    pub source: String,
    /// `own` or `host:<file>`.
    pub provenance: String,
    /// `stdio: <command>` or `http: <url without query>`.
    pub transport: String,
    /// Where it stands now.
    pub state: ServerState,
    /// Why it is not ready, when it is not.
    pub reason: Option<String>,
    /// Tools offered.
    pub tools: Vec<ToolName>,
    /// Tools the server lists that are not offered.
    pub skipped_tools: Vec<SkippedTool>,
    /// The protocol version agreed on.
    pub protocol_version: Option<String>,
    /// The server's own name for itself.
    pub server_name: Option<String>,
    /// Its version.
    pub server_version: Option<String>,
    /// The stdio server's process id.
    pub pid: Option<i32>,
    /// Sessions opened so far (more than one after reconnects).
    pub sessions: u32,
    /// How long discovery took for it, in milliseconds.
    pub discovery_ms: u64,
    /// Sessions reopened after one ended (for metrics; not in the JSON,
    /// whose shape `sessions` already covers).
    #[serde(skip)]
    pub reconnects: u64,
}

/// The transport as shown: no secrets.
fn transport_summary(t: &McpTransport) -> String {
    match t {
        McpTransport::Stdio { command, .. } => format!("stdio: {command}"),
        McpTransport::Http { url, .. } => {
            let no_query = url.split(['?', '#']).next().unwrap_or_default();
            let shown = match no_query.split_once("://") {
                Some((scheme, rest)) => {
                    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
                    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
                    format!("{scheme}://{host}{path}")
                }
                None => no_query.to_string(),
            };
            format!("http: {shown}")
        }
    }
}

/// The tool source's name: `mcp:<id>` for our own servers,
/// `mcp:<id>@<file>` for a host file's.
pub(crate) fn source_name(d: &McpServerDescriptor) -> String {
    match &d.provenance {
        Provenance::Own => d.source_name(),
        Provenance::Host(file) => format!("{}@{}", d.source_name(), file.display()),
    }
}

/// One server's tools.
pub struct McpToolSource {
    name: String,
    descriptor: McpServerDescriptor,
    shared: Arc<Shared>,
    specs: Vec<ToolSpec>,
    tools: HashMap<String, Arc<McpTool>>,
    names: Vec<ToolName>,
    skipped: Vec<SkippedTool>,
    /// Where each exposed tool's grade comes from, for listings.
    grade_reasons: HashMap<String, String>,
    /// The server's own list, as last listed: a new listing equal to it
    /// changes nothing.
    listed: Vec<rmcp::model::Tool>,
    call_timeout: Duration,
    discovery_time: Duration,
}

impl std::fmt::Debug for McpToolSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpToolSource")
            .field("name", &self.name)
            .field("state", &self.shared.snapshot().state)
            .field("tools", &self.names)
            .finish_non_exhaustive()
    }
}

/// Why an MCP tool has its grade: a config override, the server's
/// annotation hints, or the worst case when they say too little. A server
/// from a host file can carry no override, so its reason says how to set one.
fn grade_reason(
    server: &str,
    provenance: &Provenance,
    tool: &str,
    hints: Option<&ToolAnnotations>,
    derived: Grade,
    overridden: bool,
) -> String {
    let from_hints = match hints {
        None => "no annotation hints: the (3, 3) worst case".to_string(),
        Some(a) => {
            let said: Vec<String> = [
                ("readOnlyHint", a.read_only),
                ("openWorldHint", a.open_world),
                ("idempotentHint", a.idempotent),
                ("destructiveHint", a.destructive),
            ]
            .iter()
            .filter_map(|(k, v)| v.map(|v| format!("{k}={v}")))
            .collect();
            let said = if said.is_empty() {
                "none".to_string()
            } else {
                said.join(", ")
            };
            if derived == Grade::UNKNOWN {
                format!("annotation hints ({said}) do not settle it: the (3, 3) worst case")
            } else {
                format!("annotation hints: {said}")
            }
        }
    };
    if overridden {
        format!("config override [mcp_servers.{server}.tools.{tool}] grade, over {from_hints}")
    } else if let Provenance::Host(file) = provenance {
        format!(
            "{from_hints} (server from host file {}, which cannot set grades: \
             define it as [mcp_servers.{server}] to override one)",
            file.display()
        )
    } else {
        from_hints
    }
}

/// What discovery found on a server, ready to become a source.
pub(crate) struct Found {
    pub tools: Vec<rmcp::model::Tool>,
    pub handle: ServerHandle,
    pub runtime: Handle,
}

/// Whether `include` / `exclude` let a tool through, by the server's name
/// or the name programs call.
fn admitted(d: &McpServerDescriptor, name: &str, form: &str) -> bool {
    let named = |t: &String| t == name || t == form;
    d.include.as_ref().is_none_or(|list| list.iter().any(named)) && !d.exclude.iter().any(named)
}

fn first_line(text: &str) -> &str {
    text.trim().lines().next().unwrap_or_default().trim()
}

impl McpToolSource {
    /// A source for a server discovery could not reach: no tools, and the
    /// reason in its status.
    pub(crate) fn failed(
        descriptor: McpServerDescriptor,
        shared: Arc<Shared>,
        call_timeout: Duration,
        took: Duration,
    ) -> McpToolSource {
        McpToolSource {
            name: source_name(&descriptor),
            descriptor,
            shared,
            specs: Vec::new(),
            tools: HashMap::new(),
            names: Vec::new(),
            skipped: Vec::new(),
            grade_reasons: HashMap::new(),
            listed: Vec::new(),
            call_timeout,
            discovery_time: took,
        }
    }

    /// A source for a server whose tools were listed.
    pub(crate) fn found(
        descriptor: McpServerDescriptor,
        shared: Arc<Shared>,
        call_timeout: Duration,
        took: Duration,
        found: Found,
    ) -> McpToolSource {
        let mut source = McpToolSource::failed(descriptor, shared, call_timeout, took);
        source.listed = found.tools.clone();
        let server_id: Arc<str> = Arc::from(source.descriptor.id.as_str());
        let mut admitted_tools: Vec<rmcp::model::Tool> = Vec::new();
        for tool in found.tools {
            let form = crate::naming::identifier_form(&tool.name);
            if admitted(&source.descriptor, &tool.name, &form) {
                admitted_tools.push(tool);
            }
        }
        let server_names: Vec<&str> = admitted_tools.iter().map(|t| t.name.as_ref()).collect();
        let exposures = assign_names(&server_names);
        for (tool, exposure) in admitted_tools.iter().zip(exposures) {
            let exposed = match exposure {
                Exposure::Exposed(n) => n,
                Exposure::Skipped(reason) => {
                    tracing::warn!(server = %server_id, tool = %tool.name, %reason, "MCP tool skipped");
                    source.skipped.push(SkippedTool {
                        server_name: tool.name.to_string(),
                        reason,
                    });
                    continue;
                }
            };
            let (args, open) = args_from_schema(&tool.input_schema);
            let over = source
                .descriptor
                .tool_override(&tool.name)
                .or_else(|| source.descriptor.tool_override(&exposed));
            let annotations = tool.annotations.as_ref().map(|a| ToolAnnotations {
                read_only: a.read_only_hint,
                destructive: a.destructive_hint,
                idempotent: a.idempotent_hint,
                open_world: a.open_world_hint,
            });
            let derived = grade_from_annotations(annotations.as_ref());
            let grade_override = over.and_then(|o| o.grade.as_ref());
            let grade = apply_grade_override(derived, grade_override);
            source.grade_reasons.insert(
                exposed.clone(),
                grade_reason(
                    &source.descriptor.id,
                    &source.descriptor.provenance,
                    &tool.name,
                    annotations.as_ref(),
                    derived,
                    grade_override.is_some(),
                ),
            );
            let server_description = tool.description.as_deref().unwrap_or_default();
            let description = match over.and_then(|o| o.description.clone()) {
                Some(d) => d,
                None => first_line(server_description).to_string(),
            };
            let mut spec =
                ToolSpec::new(exposed.clone(), Provider::Mcp(source.descriptor.id.clone()))
                    .with_description(description)
                    .with_returns(returns_from_schema(tool.output_schema.as_deref()))
                    .with_grade(grade);
            spec.args = args.clone();
            if let Some(o) = over {
                spec.examples = o.examples.clone();
            }
            let full = server_description.trim();
            if !full.is_empty() && full != spec.description {
                spec.docs = Some(full.to_string());
            }
            let imp = McpTool {
                server: Arc::clone(&server_id),
                exposed: exposed.clone(),
                server_name: Arc::from(tool.name.as_ref()),
                label: Arc::from(format!("tools/call {}", tool.name)),
                args,
                open,
                handle: found.handle.clone(),
                runtime: found.runtime.clone(),
                call_timeout,
            };
            source.names.push(ToolName {
                name: exposed.clone(),
                server_name: tool.name.to_string(),
            });
            source.tools.insert(exposed, Arc::new(imp));
            source.specs.push(spec);
        }
        source
    }

    /// This server's source built again from a new listing of its tools
    /// (after `notifications/tools/list_changed` or a reconnect).
    pub(crate) fn relisted(&self, found: Found) -> McpToolSource {
        McpToolSource::found(
            self.descriptor.clone(),
            Arc::clone(&self.shared),
            self.call_timeout,
            self.discovery_time,
            found,
        )
    }

    /// Whether `tools` is what the server listed last time.
    pub(crate) fn lists(&self, tools: &[rmcp::model::Tool]) -> bool {
        self.listed == tools
    }

    /// The descriptor the source was built from (provenance, precedence).
    pub fn descriptor(&self) -> &McpServerDescriptor {
        &self.descriptor
    }

    /// The precedence to add the source's tools with.
    pub fn precedence(&self) -> Precedence {
        self.descriptor.precedence
    }

    /// Where the server's definition came from.
    pub fn provenance(&self) -> &Provenance {
        &self.descriptor.provenance
    }

    /// The per-call limit its tools use (for the bridge's `call_timeout`).
    pub fn call_timeout(&self) -> Duration {
        self.call_timeout
    }

    /// Every offered tool with the server's name for it.
    pub fn tool_names(&self) -> &[ToolName] {
        &self.names
    }

    /// Tools the server lists that are not offered, with reasons.
    pub fn skipped_tools(&self) -> &[SkippedTool] {
        &self.skipped
    }

    /// The server's status now.
    pub fn status(&self) -> ServerStatus {
        let snap = self.shared.snapshot();
        ServerStatus {
            id: self.descriptor.id.clone(),
            source: self.name.clone(),
            provenance: self.descriptor.provenance.to_string(),
            transport: transport_summary(&self.descriptor.transport),
            state: snap.state,
            reason: snap.reason,
            tools: self.names.clone(),
            skipped_tools: self.skipped.clone(),
            protocol_version: snap.peer.protocol_version,
            server_name: snap.peer.server_name,
            server_version: snap.peer.server_version,
            pid: snap.pid,
            sessions: snap.sessions,
            discovery_ms: u64::try_from(self.discovery_time.as_millis()).unwrap_or(u64::MAX),
            reconnects: self.shared.reconnects(),
        }
    }

    /// The implementation of one offered tool, by program name.
    pub fn tool(&self, name: &str) -> Option<Arc<dyn Tool>> {
        self.tools.get(name).map(|t| Arc::clone(t) as Arc<dyn Tool>)
    }
}

impl ToolSource for McpToolSource {
    fn name(&self) -> &str {
        &self.name
    }

    fn grade_reason(&self, name: &str) -> Option<String> {
        self.grade_reasons.get(name).cloned()
    }

    fn available(&self) -> bool {
        !self.tools.is_empty() && self.shared.callable()
    }

    fn discover(&self) -> Vec<ToolSpec> {
        self.specs.clone()
    }

    fn resolve(&self, spec: &ToolSpec) -> Result<Arc<dyn Tool>, ToolError> {
        self.tool(&spec.name).ok_or_else(|| {
            ToolError::unavailable(format!(
                "MCP server '{}' has no tool '{}'",
                self.descriptor.id, spec.name
            ))
        })
    }

    fn unavailable_reason(&self, _name: &str) -> Option<String> {
        if self.available() {
            return None;
        }
        let snap = self.shared.snapshot();
        Some(match snap.reason {
            Some(r) => format!(
                "MCP server '{}' is {}: {r}",
                self.descriptor.id,
                state_word(snap.state)
            ),
            None => format!(
                "MCP server '{}' is {}",
                self.descriptor.id,
                state_word(snap.state)
            ),
        })
    }
}

fn state_word(s: ServerState) -> &'static str {
    match s {
        ServerState::Starting => "starting",
        ServerState::Ready => "ready",
        ServerState::Disconnected => "disconnected",
        ServerState::Reconnecting => "reconnecting",
        ServerState::Down => "down",
        ServerState::Closed => "shut down",
    }
}

/// One MCP tool as a callable tool: positional arguments map onto the
/// schema's properties in order; the call runs on the server's session
/// with the per-call limit, and is cancelled when it times out, when the
/// run is cancelled, or when the answer's future is dropped.
pub struct McpTool {
    server: Arc<str>,
    exposed: String,
    server_name: Arc<str>,
    /// The operation label for tracing, made once.
    label: Arc<str>,
    args: Vec<ArgSpec>,
    open: bool,
    handle: ServerHandle,
    runtime: Handle,
    call_timeout: Duration,
}

/// A spawned call; dropping it aborts the task (and so the request).
struct CallTask(JoinHandle<Result<Data, ToolError>>);

/// A call's answer. Polled on the client's runtime (the usual case: the
/// bridge runs it there) it runs in place; polled anywhere else it is
/// spawned onto the client's runtime first, whose timers and session it
/// needs. Dropping it cancels the call either way.
enum CallFuture {
    /// Not polled yet.
    Start(Option<(Handle, BoxFuture<Result<Data, ToolError>>)>),
    /// Running in the poller's task.
    Inline(BoxFuture<Result<Data, ToolError>>),
    /// Running on the client's runtime.
    Spawned(CallTask),
}

/// A boxed, sendable future.
type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

impl Future for CallFuture {
    type Output = Result<Data, ToolError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        loop {
            match &mut *self {
                CallFuture::Start(start) => {
                    let Some((runtime, fut)) = start.take() else {
                        return Poll::Ready(Err(ToolError::failed(
                            "the MCP call was polled after it ended",
                        )));
                    };
                    let here = Handle::try_current().is_ok_and(|h| h.id() == runtime.id());
                    *self = if here {
                        CallFuture::Inline(fut)
                    } else {
                        CallFuture::Spawned(CallTask(runtime.spawn(fut)))
                    };
                }
                CallFuture::Inline(fut) => return fut.as_mut().poll(cx),
                CallFuture::Spawned(task) => return Pin::new(task).poll(cx),
            }
        }
    }
}

impl Future for CallTask {
    type Output = Result<Data, ToolError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.0).poll(cx).map(|r| match r {
            Ok(r) => r,
            Err(e) if e.is_cancelled() => Err(ToolError::cancelled()),
            Err(_) => Err(ToolError::failed("the MCP call panicked")),
        })
    }
}

impl Drop for CallTask {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl McpTool {
    fn arguments(
        &self,
        args: Vec<Data>,
        kwargs: Vec<(String, Data)>,
    ) -> Result<JsonObject, ToolError> {
        let bound = if self.open {
            if !args.is_empty() {
                return Err(ToolError::type_error(format!(
                    "{}() takes 0 positional arguments but {} {} given",
                    self.exposed,
                    args.len(),
                    if args.len() == 1 { "was" } else { "were" }
                )));
            }
            kwargs
        } else {
            bind_args(&self.exposed, &self.args, args, kwargs)?
        };
        let mut map = JsonObject::new();
        for (k, v) in bound {
            map.insert(k, data_to_json(&v)?);
        }
        Ok(map)
    }
}

/// Which limit stopped a call.
enum Limit {
    Deadline,
    Cancelled,
}

/// Completes when the call's deadline passes or its run is cancelled. One
/// timer serves both (armed for the deadline or the next look at the
/// cancel flag, whichever is sooner), so a call registers one timer.
async fn limits(deadline: Instant, cancel: &AtomicBool) -> Limit {
    loop {
        let now = Instant::now();
        if now >= deadline {
            return Limit::Deadline;
        }
        if cancel.load(Ordering::Relaxed) {
            return Limit::Cancelled;
        }
        tokio::time::sleep_until(deadline.min(now + CANCEL_POLL).into()).await;
    }
}

impl Tool for McpTool {
    fn call(&self, args: Vec<Data>, kwargs: Vec<(String, Data)>, ctx: &CallContext) -> ToolAnswer {
        let arguments = match self
            .arguments(args, kwargs)
            .and_then(|a| ctx.check().map(|()| a))
        {
            Ok(a) => a,
            Err(e) => return ToolAnswer::Ready(Err(e)),
        };
        let deadline = ctx.call_deadline(self.call_timeout);
        let run_deadline = ctx
            .deadline
            .is_some_and(|d| d <= Instant::now() + self.call_timeout);
        let timeout = self.call_timeout;
        let cancel = Arc::clone(&ctx.cancel);
        let handle = self.handle.clone();
        let name = Arc::clone(&self.server_name);
        let server = Arc::clone(&self.server);
        let label = Arc::clone(&self.label);
        let call: BoxFuture<Result<Data, ToolError>> = Box::pin(async move {
            let call = handle.submit(label, {
                let name = Arc::clone(&name);
                move |client| async move { client.call_tool(name, arguments).await }
            });
            let outcome = tokio::select! {
                biased;
                r = call => r,
                e = limits(deadline, &cancel) => Err(match e {
                    Limit::Deadline => McpError::Timeout { after: timeout, run: run_deadline },
                    Limit::Cancelled => McpError::Cancelled,
                }),
            };
            match outcome {
                Ok(result) => result_to_data(&result),
                Err(e) => Err(e.into_tool_error(&server, &name)),
            }
        });
        ToolAnswer::Pending(Box::pin(CallFuture::Start(Some((
            self.runtime.clone(),
            call,
        )))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_host_file_server_reason_says_where_a_grade_can_be_set() {
        let hints = ToolAnnotations {
            read_only: Some(true),
            destructive: None,
            idempotent: None,
            open_world: Some(false),
        };
        let derived = grade_from_annotations(Some(&hints));
        let host = Provenance::Host(".mcp.json".into());
        let why = grade_reason("fs", &host, "read", Some(&hints), derived, false);
        assert_eq!(
            why,
            "annotation hints: readOnlyHint=true, openWorldHint=false (server from host file \
             .mcp.json, which cannot set grades: define it as [mcp_servers.fs] to override one)"
        );
        let own = grade_reason("fs", &Provenance::Own, "read", Some(&hints), derived, false);
        assert_eq!(
            own,
            "annotation hints: readOnlyHint=true, openWorldHint=false"
        );
        let over = grade_reason("fs", &Provenance::Own, "read", None, Grade::UNKNOWN, true);
        assert_eq!(
            over,
            "config override [mcp_servers.fs.tools.read] grade, over no annotation hints: \
             the (3, 3) worst case"
        );
    }
}
