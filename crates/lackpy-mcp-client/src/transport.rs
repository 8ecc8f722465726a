//! Opening a session with a server over stdio or streamable HTTP, in
//! whichever protocol generation it speaks (the `server/discover` probe,
//! falling back to the `initialize` handshake).

use std::collections::HashMap;
use std::future::Future;
use std::path::Path;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use http::{HeaderName, HeaderValue};
use lackpy_sources::McpTransport;
use lackpy_sources::process::describe_exit;
use rmcp::RoleClient;
use rmcp::model::ProtocolVersion;
use rmcp::service::{
    ClientInitializeError, ClientLifecycleMode, ClientServiceExt, QuitReason, RunningService,
    RunningServiceCancellationToken,
};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::common::client_side_sse::SseRetryPolicy;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;

use crate::discover_check::{DISCOVER_ANSWERED, DiscoverCheck};
use crate::handler::{self, Handler};
use crate::http_check::CheckedHttp;
use crate::operation::Client;
use crate::process::{self, ChildGuard, Launch};
use crate::stdio::StdioTransport;

/// How the session's end is awaited: completes once the SDK's service
/// loop has stopped, and stays complete (it may be awaited again).
pub(crate) struct Quit(Option<QuitFuture>);

/// The SDK's "service loop stopped" future.
type QuitFuture = Pin<Box<dyn Future<Output = Result<QuitReason, tokio::task::JoinError>> + Send>>;

impl Future for Quit {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<()> {
        let Some(fut) = self.0.as_mut() else {
            return std::task::Poll::Ready(());
        };
        match fut.as_mut().poll(cx) {
            std::task::Poll::Ready(_) => {
                self.0 = None;
                std::task::Poll::Ready(())
            }
            std::task::Poll::Pending => std::task::Poll::Pending,
        }
    }
}

/// What we learned about the server in the handshake.
#[derive(Debug, Clone, Default)]
pub(crate) struct PeerSummary {
    pub protocol_version: Option<String>,
    pub server_name: Option<String>,
    pub server_version: Option<String>,
}

/// One open session: the facade operations use, how to learn that it
/// ended, how to close it, and the server process for stdio.
pub(crate) struct Session {
    pub client: Client,
    pub quit: Quit,
    cancel: Option<RunningServiceCancellationToken>,
    pub child: Option<ChildGuard>,
    pub peer: PeerSummary,
    /// The `subscriptions/listen` stream for tool changes, when the server
    /// needs one (`handler::listen`).
    listen: Option<tokio::task::JoinHandle<()>>,
}

/// Everything needed to open a session.
pub(crate) struct ConnectSpec<'a> {
    pub server: &'a Arc<str>,
    pub transport: &'a McpTransport,
    pub workspace: Option<&'a Path>,
    pub cap: usize,
    /// Woken when the server says its tool list changed.
    pub relist: &'a Arc<tokio::sync::Notify>,
}

/// Reconnects of a streamable HTTP stream: a few quick tries, then give up
/// (the SDK's default retries forever, which hangs calls to a dead server).
/// After a graceful close the SDK waits the server's `retry:` delay instead
/// of the first one here, and resumes with `Last-Event-ID`.
#[derive(Debug)]
struct BoundedRetry;

impl SseRetryPolicy for BoundedRetry {
    fn retry(&self, current_times: usize) -> Option<Duration> {
        (current_times < 2).then(|| Duration::from_millis(200))
    }
}

/// The versions the `server/discover` probe offers.
fn preferred_versions() -> Vec<ProtocolVersion> {
    vec![ProtocolVersion::LATEST]
}

/// Probe with `server/discover`; a server that rejects it (or answers with
/// something unusable, see [`DiscoverCheck`]) gets `initialize`.
fn lifecycle() -> ClientLifecycleMode {
    ClientLifecycleMode::Auto {
        preferred_versions: preferred_versions(),
        legacy_version: Some(ProtocolVersion::LATEST_WITH_INITIALIZE),
    }
}

fn summarize(running: &RunningService<RoleClient, Handler>) -> PeerSummary {
    match running.peer().peer_info() {
        Some(info) => PeerSummary {
            protocol_version: Some(info.protocol_version.as_str().to_string()),
            server_name: info.server_info.as_ref().map(|i| i.name.clone()),
            server_version: info.server_info.as_ref().map(|i| i.version.clone()),
        },
        None => PeerSummary::default(),
    }
}

fn finish(
    running: RunningService<RoleClient, Handler>,
    spec: &ConnectSpec<'_>,
    child: Option<ChildGuard>,
) -> Session {
    let peer = summarize(&running);
    let client = Client::new(running.peer().clone(), spec.cap);
    let cancel = Some(running.cancellation_token());
    let listen = handler::needs_listen(running.peer()).then(|| {
        tokio::spawn(handler::listen(
            running.peer().clone(),
            Arc::clone(running.service().relist()),
            Arc::clone(spec.server),
        ))
    });
    Session {
        client,
        quit: Quit(Some(Box::pin(running.waiting()))),
        cancel,
        child,
        peer,
        listen,
    }
}

/// Why the handshake with a stdio server failed, with what the process
/// said and how it ended when it did.
async fn stdio_failure(child: &mut ChildGuard, err: &str) -> String {
    let status = match child.try_status() {
        Some(s) => Some(s),
        None => child.wait_exit(Duration::from_millis(100)).await,
    };
    let mut why = match status {
        // The SDK's reason too: a server that answered wrongly exits only
        // because the failed handshake closed its input.
        Some(s) => format!(
            "the server {} during the handshake ({err})",
            describe_exit(s)
        ),
        None => format!("the handshake failed: {err}"),
    };
    // A dead server's stderr closes at once; a live one's is not waited for.
    let wait = if status.is_some() {
        Duration::from_millis(300)
    } else {
        Duration::ZERO
    };
    let tail = child.stderr_tail(wait).await;
    if !tail.is_empty() {
        let last: Vec<&str> = tail.lines().rev().take(3).collect();
        let last: Vec<&str> = last.into_iter().rev().collect();
        why.push_str(&format!("; stderr: {}", last.join(" | ")));
    }
    why
}

/// Longest part of the SDK's handshake error kept (it may quote a whole
/// unexpected result).
const MAX_HANDSHAKE_ERROR: usize = 400;

/// The SDK's handshake error, with both reasons when the `initialize`
/// fallback failed too (the SDK's own text names neither).
fn handshake_error(error: &ClientInitializeError) -> String {
    let text = match error {
        ClientInitializeError::LegacyFallbackFailed { discover, fallback } => {
            let discover = match discover.as_ref() {
                // Our own reason (see DiscoverCheck) reads as it is.
                ClientInitializeError::JsonRpcError(data)
                    if data.message.starts_with(DISCOVER_ANSWERED) =>
                {
                    data.message.to_string()
                }
                other => format!("server/discover failed: {other}"),
            };
            format!("{discover}; then initialize failed: {fallback}")
        }
        other => other.to_string(),
    };
    let mut short: String = text.chars().take(MAX_HANDSHAKE_ERROR).collect();
    if short.len() < text.len() {
        short.push('…');
    }
    short
}

/// A pending connection: the process (for stdio) is owned outside the
/// handshake, so a timed-out handshake can still end it properly.
pub(crate) struct Pending {
    pub child: Option<ChildGuard>,
    stdio: Option<(tokio::process::ChildStdin, tokio::process::ChildStdout)>,
}

/// Starts the server process (stdio) or does nothing yet (HTTP).
pub(crate) fn prepare(spec: &ConnectSpec<'_>) -> Result<Pending, String> {
    match spec.transport {
        McpTransport::Stdio {
            command,
            args,
            env,
            cwd,
        } => {
            let cwd = cwd.as_deref().or(spec.workspace);
            let spawned = process::spawn(&Launch {
                server: spec.server,
                command,
                args,
                env,
                cwd,
            })?;
            Ok(Pending {
                child: Some(spawned.guard),
                stdio: Some((spawned.stdin, spawned.stdout)),
            })
        }
        McpTransport::Http { .. } => Ok(Pending {
            child: None,
            stdio: None,
        }),
    }
}

/// Does the handshake. On failure the process (if any) stays in `pending`
/// for the caller to end.
pub(crate) async fn handshake(
    spec: &ConnectSpec<'_>,
    pending: &mut Pending,
) -> Result<Session, String> {
    match spec.transport {
        McpTransport::Stdio { .. } => {
            let Some((stdin, stdout)) = pending.stdio.take() else {
                return Err("the server process is gone".to_string());
            };
            let transport = StdioTransport::new(stdout, stdin, spec.cap);
            let transport =
                DiscoverCheck::new(transport, Arc::clone(spec.server), preferred_versions());
            match Handler::new(Arc::clone(spec.relist))
                .serve_with_lifecycle(transport, lifecycle())
                .await
            {
                Ok(running) => Ok(finish(running, spec, pending.child.take())),
                Err(e) => {
                    let err = handshake_error(&e);
                    Err(match pending.child.as_mut() {
                        Some(child) => stdio_failure(child, &err).await,
                        None => format!("the handshake failed: {err}"),
                    })
                }
            }
        }
        McpTransport::Http { url, headers } => {
            let mut custom = HashMap::new();
            for (name, value) in headers {
                let n = HeaderName::from_bytes(name.as_bytes())
                    .map_err(|_| format!("invalid header name '{name}'"))?;
                // The value is a secret: never echo it.
                let v = HeaderValue::from_str(value)
                    .map_err(|_| format!("invalid value for header '{name}'"))?;
                custom.insert(n, v);
            }
            let mut config = StreamableHttpClientTransportConfig::with_uri(url.as_str())
                .custom_headers(custom)
                .max_json_response_size(spec.cap)
                .max_sse_event_size(spec.cap);
            config.retry_config = Arc::new(BoundedRetry);
            let transport = StreamableHttpClientTransport::with_client(CheckedHttp::new()?, config);
            let transport =
                DiscoverCheck::new(transport, Arc::clone(spec.server), preferred_versions());
            match Handler::new(Arc::clone(spec.relist))
                .serve_with_lifecycle(transport, lifecycle())
                .await
            {
                Ok(running) => Ok(finish(running, spec, None)),
                Err(e) => Err(format!(
                    "the handshake with {url} failed: {}",
                    handshake_error(&e)
                )),
            }
        }
    }
}

impl Session {
    /// Closes the session: the SDK's graceful close (for stdio that closes
    /// the server's stdin), then the process group is ended.
    pub(crate) async fn close(mut self, grace: Duration, term_grace: Duration) {
        if let Some(listen) = self.listen.take() {
            listen.abort();
        }
        if let Some(cancel) = self.cancel.take() {
            cancel.cancel();
        }
        let _ = tokio::time::timeout(grace + term_grace, &mut self.quit).await;
        if let Some(child) = self.child.take() {
            child.terminate(grace, term_grace).await;
        }
    }

    /// Why the session ended, once `quit` has completed.
    pub(crate) async fn end_reason(&mut self) -> String {
        match self.child.as_mut() {
            Some(child) => {
                let status = match child.try_status() {
                    Some(s) => Some(s),
                    None => child.wait_exit(Duration::from_millis(200)).await,
                };
                match status {
                    Some(s) => format!("the server process {}", describe_exit(s)),
                    None => "the server closed its output".to_string(),
                }
            }
            None => "the connection closed".to_string(),
        }
    }
}
