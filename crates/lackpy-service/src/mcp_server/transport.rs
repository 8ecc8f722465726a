//! Serving the handler over stdio or streamable HTTP, and shutting down:
//! stop taking new work, let running programs finish within a grace
//! period, stop the rest, then close every downstream MCP server.

use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use hyper_util::rt::{TokioIo, TokioTimer};
use rmcp::service::ServiceExt;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio_util::sync::CancellationToken;

use super::McpServer;
use super::admin::Admin;
use super::http_guard::{Guard, LOOPBACK_HOSTS, loopback_origins};
use super::listener::{Accepted, Listener, connection_cap};
use super::request_body::BodyLimits;
use super::scrape::{Scrape, Sessions};
use super::session_cap::{DEFAULT_MAX_SESSIONS, SessionCap};

/// How to serve.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// Streamable HTTP instead of stdio.
    pub http: Option<HttpOptions>,
    /// How long running programs may finish after SIGINT/SIGTERM before
    /// they are stopped.
    pub grace: Duration,
    /// A second port serving only `/healthz`, `/readyz` and `/metrics`
    /// (`--admin`), with either transport.
    pub admin: Option<SocketAddr>,
}

/// Streamable HTTP settings.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// Where to listen.
    pub addr: SocketAddr,
    /// Extra `Host` names to accept (a non-loopback bind's own name).
    pub allowed_hosts: Vec<String>,
    /// Requests must carry `Authorization: Bearer <token>`.
    pub auth_token: Option<String>,
    /// Largest request body, bytes.
    pub max_body_bytes: usize,
    /// A session idle this long is closed (its runs stop).
    pub session_idle: Duration,
    /// How long a request's headers may take (`--header-timeout-ms`);
    /// `None`: `[server] header_timeout_ms`, else 10 s.
    pub header_timeout: Option<Duration>,
    /// Every POST answered on its own, without sessions (`--stateless`):
    /// any replica can answer any request; a gated call pauses its run
    /// (no elicitation), and a run is stopped by closing its request.
    pub stateless: bool,
}

/// The default header timeout (`--header-timeout-ms`).
pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// Serves `server` until the client leaves (stdio) or a signal arrives,
/// then shuts down; an error is one line for stderr.
pub async fn serve(server: McpServer, options: ServeOptions) -> Result<(), String> {
    let admin = match options.admin {
        Some(addr) => Admin::bind(addr).await.map(Some),
        None => Ok(None),
    };
    let result = match (admin, &options.http) {
        (Err(e), _) => Err(e),
        (Ok(admin), None) => serve_stdio(&server, admin, options.grace).await,
        (Ok(admin), Some(http)) => serve_http(&server, http, admin, options.grace).await,
    };
    server.service().shutdown().await;
    result
}

async fn serve_stdio(
    server: &McpServer,
    admin: Option<Admin>,
    grace: Duration,
) -> Result<(), String> {
    let admin_stop = CancellationToken::new();
    let _admin_stop = admin_stop.clone().drop_guard();
    if let Some(admin) = admin {
        let scrape = Scrape {
            server: server.clone(),
            sessions: Sessions::Stdio,
        };
        admin.serve(server.shared.draining.clone(), scrape, admin_stop);
    }
    let session = CancellationToken::new();
    let handler = server.for_session(session.clone());
    let (stdin, stdout) = stdio();
    let stdin = EofCancels {
        inner: stdin,
        token: session.clone(),
    };
    let running = handler
        .serve((stdin, stdout))
        .await
        .map_err(|e| format!("MCP session did not start: {e}"))?;
    // The session must outlive the signal: dropping `running` would cancel
    // every request at once, so the signal is heard on a task of its own.
    let cancel = running.cancellation_token();
    let draining = server.clone();
    let on_signal = tokio::spawn(async move {
        let name = signalled().await;
        tracing::info!("{name}: shutting down");
        drain(&draining, grace).await;
        cancel.cancel();
    });
    let _ = running.waiting().await;
    on_signal.abort();
    Ok(())
}

async fn serve_http(
    server: &McpServer,
    http: &HttpOptions,
    admin: Option<Admin>,
    grace: Duration,
) -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind(http.addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", http.addr))?;
    let local = listener
        .local_addr()
        .map_err(|e| format!("cannot read the listening address: {e}"))?;
    let stop = CancellationToken::new();
    let mut config = StreamableHttpServerConfig::default()
        .with_max_request_body_bytes(http.max_body_bytes)
        .with_cancellation_token(stop.child_token())
        .with_legacy_session_mode(!http.stateless);
    if http.addr.ip().is_loopback() {
        let mut hosts: Vec<String> = LOOPBACK_HOSTS.iter().map(|h| h.to_string()).collect();
        hosts.extend(http.allowed_hosts.iter().cloned());
        config = config
            .with_allowed_hosts(hosts)
            .with_allowed_origins(loopback_origins())
            .enforce_origin_validation();
    } else if http.allowed_hosts.is_empty() {
        config = config.disable_allowed_hosts();
    } else {
        config = config.with_allowed_hosts(http.allowed_hosts.clone());
    }
    let service = server.service();
    let limits = &service.config().server;
    let header_timeout = http
        .header_timeout
        .or(limits.header_timeout_ms.map(Duration::from_millis))
        .unwrap_or(DEFAULT_HEADER_TIMEOUT)
        .max(Duration::from_millis(1));
    let mut sessions = LocalSessionManager::default();
    sessions.session_config.keep_alive = Some(http.session_idle);
    let sessions = Arc::new(sessions);
    let scrape = Scrape {
        server: server.clone(),
        sessions: if http.stateless {
            Sessions::Stateless
        } else {
            Sessions::Http(Arc::clone(&sessions))
        },
    };
    let cap = SessionCap::new(
        Arc::clone(&sessions),
        server.shared.http_sessions.clone(),
        limits.max_sessions.unwrap_or(DEFAULT_MAX_SESSIONS),
    );
    let factory = server.clone();
    let sessions_stop = stop.clone();
    let service = StreamableHttpService::new(
        move || Ok(factory.for_session(sessions_stop.child_token())),
        sessions,
        config,
    );
    let guard = Guard {
        inner: service,
        token: http.auth_token.as_deref().map(Arc::from),
        sessions: server.shared.http_sessions.clone(),
        cap,
        body: BodyLimits {
            max_bytes: http.max_body_bytes,
            timeout: header_timeout,
        },
        draining: server.shared.draining.clone(),
        scrape: scrape.clone(),
        stateless: http.stateless,
    };
    if let Some(admin) = admin {
        admin.serve(server.shared.draining.clone(), scrape, stop.clone());
    }
    let mut listener = Listener::new(listener, connection_cap(limits.max_connections));
    eprintln!("lackpy mcp serve: listening on http://{local}/mcp");
    let signal = signalled();
    tokio::pin!(signal);
    // Set once the drain after a signal is over.
    let drained = CancellationToken::new();
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let Accepted { stream, slot, conn } = accepted;
                // An answer is written in pieces (headers, SSE event, end of
                // stream): without NODELAY the last piece waits for the
                // client's delayed ACK, 40 ms a request.
                let _ = stream.set_nodelay(true);
                let guard = guard.clone();
                let conn_stop = stop.clone();
                tokio::spawn(async move {
                    // HTTP/1.1 only (the streamable HTTP transport needs
                    // nothing more), without a protocol sniffing layer.
                    // The header timeout also closes a connection idle
                    // between requests.
                    let shed = conn.shed.clone();
                    let svc = hyper::service::service_fn(move |req| {
                        conn.headed();
                        hyper::service::Service::call(&guard, req)
                    });
                    let served = hyper::server::conn::http1::Builder::new()
                        .timer(TokioTimer::new())
                        .header_read_timeout(header_timeout)
                        .serve_connection(TokioIo::new(stream), svc);
                    tokio::pin!(served);
                    tokio::select! {
                        _ = served.as_mut() => {}
                        () = conn_stop.cancelled() => {
                            // The server stops: an answer being written is
                            // written whole (a balancer would see a cut one
                            // as a lost call), then the connection closes;
                            // an idle one closes at once.
                            served.as_mut().graceful_shutdown();
                            let _ = tokio::time::timeout(CLOSE_GRACE, served).await;
                        }
                        () = shed.cancelled() => {}
                    }
                    drop(slot);
                });
            }
            name = &mut signal, if !server.shared.draining.is_set() => {
                // Connections are still taken while the runs in flight
                // finish: probes see `/readyz` answer 503 and new sessions
                // are refused with 503 (a balancer sends them elsewhere),
                // while open sessions are served to the end of their runs.
                tracing::info!("{name}: shutting down");
                server.begin_drain();
                let server = server.clone();
                let drained = drained.clone();
                tokio::spawn(async move {
                    drain(&server, grace).await;
                    drained.cancel();
                });
            }
            () = drained.cancelled() => break,
        }
    }
    // No new connections; the open ones finish what they are writing.
    let open = listener.close();
    stop.cancel();
    open.closed(CLOSE_GRACE).await;
    Ok(())
}

/// How long a stopping server waits for its connections to finish writing
/// their answers and close.
const CLOSE_GRACE: Duration = Duration::from_secs(2);

/// Waits up to `grace` for in-flight runs and the answers being written,
/// then stops the runs left and gives them a moment to unwind (each stops
/// within one step).
async fn drain(server: &McpServer, grace: Duration) {
    server.begin_drain();
    let deadline = Instant::now() + grace;
    let busy = || server.runs_in_flight() > 0 || server.shared.draining.answers_in_flight() > 0;
    while busy() && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    if server.runs_in_flight() > 0 {
        tracing::warn!(
            "stopping {} runs still going after the grace period",
            server.runs_in_flight()
        );
        server.stop_all_runs();
        let unwind = Instant::now() + Duration::from_secs(2);
        while server.runs_in_flight() > 0 && Instant::now() < unwind {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

/// Waits for SIGINT or SIGTERM and names it.
async fn signalled() -> &'static str {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut int), Ok(mut term)) = (
        signal(SignalKind::interrupt()),
        signal(SignalKind::terminate()),
    ) else {
        return std::future::pending().await;
    };
    tokio::select! {
        _ = int.recv() => "SIGINT",
        _ = term.recv() => "SIGTERM",
    }
}

type Reader = Box<dyn AsyncRead + Send + Unpin>;
type Writer = Box<dyn AsyncWrite + Send + Unpin>;

/// Stdin and stdout, each as a non-blocking pipe when it is a pipe (what
/// every MCP host gives a server): no blocking thread per read, and nothing
/// left blocked in a read when the server exits. Each is decided on its
/// own: a failed conversion must not leave the other half non-blocking
/// under a blocking reader.
fn stdio() -> (Reader, Writer) {
    use std::os::fd::AsFd;
    let stdin: Reader = match std::io::stdin()
        .as_fd()
        .try_clone_to_owned()
        .and_then(tokio::net::unix::pipe::Receiver::from_owned_fd)
    {
        Ok(pipe) => Box::new(pipe),
        Err(_) => Box::new(tokio::io::stdin()),
    };
    let stdout: Writer = match std::io::stdout()
        .as_fd()
        .try_clone_to_owned()
        .and_then(tokio::net::unix::pipe::Sender::from_owned_fd)
    {
        Ok(pipe) => Box::new(pipe),
        Err(_) => Box::new(tokio::io::stdout()),
    };
    (stdin, stdout)
}

/// Stdin that cancels the session when it reaches its end: a client that
/// closed its pipe is gone, so its runs stop at once rather than after
/// rmcp's drain of in-flight answers.
struct EofCancels<R> {
    inner: R,
    token: CancellationToken,
}

impl<R: AsyncRead + Unpin> AsyncRead for EofCancels<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let this = &mut *self;
        let polled = Pin::new(&mut this.inner).poll_read(cx, buf);
        match &polled {
            Poll::Ready(Ok(())) if buf.filled().len() == before && buf.remaining() > 0 => {
                this.token.cancel();
            }
            Poll::Ready(Err(_)) => this.token.cancel(),
            _ => {}
        }
        polled
    }
}
