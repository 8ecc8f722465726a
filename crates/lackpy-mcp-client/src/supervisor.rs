//! One supervisor task per server: it owns the SDK session for its whole
//! life and runs submitted operations against it, concurrently (the SDK's
//! peer serves any number of requests on one session).
//!
//! When the session ends, every queued and in-flight operation fails at
//! once. The next operation reconnects once, after a backoff; if that
//! fails the server is down, and calls fail at once until
//! `down_retry_after` has passed.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use lackpy_sources::McpTransport;
use serde::Serialize;
use tokio::sync::{Notify, mpsc, watch};

use crate::error::McpError;
use crate::inflight::InFlight;
use crate::operation::{Client, OpMeta, Operation};
use crate::transport::{self, ConnectSpec, PeerSummary, Session};

/// Where a server stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ServerState {
    /// Connecting and listing tools at service start.
    Starting,
    /// Connected; calls go through.
    Ready,
    /// The session ended; the next call reconnects.
    Disconnected,
    /// Reconnecting now.
    Reconnecting,
    /// Unreachable; the reason says why.
    Down,
    /// Shut down.
    Closed,
}

#[derive(Debug)]
struct Inner {
    state: ServerState,
    reason: Option<String>,
    peer: PeerSummary,
    sessions: u32,
    pid: Option<i32>,
    down_since: Option<Instant>,
}

/// A server's state, shared by its supervisor, its handles and its source.
#[derive(Debug)]
pub(crate) struct Shared {
    pub server: Arc<str>,
    retry_after: Duration,
    /// Sessions ended so far, as the supervisor saw them.
    ends: AtomicU64,
    /// Sessions reopened after one ended.
    reconnects: AtomicU64,
    /// Woken when the server's tools should be listed again: it said they
    /// changed, or a new session began.
    pub relist: Arc<Notify>,
    inner: Mutex<Inner>,
}

/// A copy of a server's state.
#[derive(Debug, Clone)]
pub(crate) struct Snapshot {
    pub state: ServerState,
    pub reason: Option<String>,
    pub peer: PeerSummary,
    pub sessions: u32,
    pub pid: Option<i32>,
}

impl Shared {
    pub(crate) fn new(server: Arc<str>, retry_after: Duration) -> Arc<Shared> {
        Arc::new(Shared {
            server,
            retry_after,
            ends: AtomicU64::new(0),
            reconnects: AtomicU64::new(0),
            relist: Arc::new(Notify::new()),
            inner: Mutex::new(Inner {
                state: ServerState::Starting,
                reason: None,
                peer: PeerSummary::default(),
                sessions: 0,
                pid: None,
                down_since: None,
            }),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn set(&self, state: ServerState, reason: Option<String>) {
        let mut g = self.lock();
        if state == ServerState::Down && g.state != ServerState::Down {
            g.down_since = Some(Instant::now());
        }
        g.state = state;
        // Every reason shown (status, errors) passes here: a URL's
        // credentials never reach it.
        g.reason = reason.map(|r| lackpy_sources::redact_urls(&r).into_owned());
    }

    fn connected(&self, session: &Session) {
        let mut g = self.lock();
        g.state = ServerState::Ready;
        g.reason = None;
        g.peer = session.peer.clone();
        g.sessions += 1;
        g.pid = session.child.as_ref().map(|c| c.pid());
        g.down_since = None;
    }

    /// How many times the session was reopened after it ended.
    pub(crate) fn reconnects(&self) -> u64 {
        self.reconnects.load(Ordering::Relaxed)
    }

    pub(crate) fn snapshot(&self) -> Snapshot {
        let g = self.lock();
        Snapshot {
            state: g.state,
            reason: g.reason.clone(),
            peer: g.peer.clone(),
            sessions: g.sessions,
            pid: g.pid,
        }
    }

    /// Whether calls can be tried now: not shut down, and not down unless
    /// the retry delay has passed (then the next call tries again).
    pub(crate) fn callable(&self) -> bool {
        let g = self.lock();
        match g.state {
            ServerState::Closed | ServerState::Starting => false,
            ServerState::Down => g.down_since.is_none_or(|t| t.elapsed() >= self.retry_after),
            _ => true,
        }
    }

    /// The error for an operation the supervisor dropped unanswered.
    fn dropped_error(&self) -> McpError {
        let g = self.lock();
        let reason = g
            .reason
            .clone()
            .unwrap_or_else(|| "the session ended".to_string());
        match g.state {
            ServerState::Closed => McpError::Closed,
            ServerState::Down => McpError::Down(reason),
            _ => McpError::SessionEnded(reason),
        }
    }
}

/// How the supervisor reconnects and closes.
#[derive(Debug, Clone)]
pub(crate) struct Timing {
    pub connect_timeout: Duration,
    pub close_grace: Duration,
    pub term_grace: Duration,
    pub backoff: Duration,
    pub down_retry_after: Duration,
}

/// What the supervisor needs to reconnect.
#[derive(Debug, Clone)]
pub(crate) struct Endpoint {
    pub server: Arc<str>,
    pub transport: McpTransport,
    pub workspace: Option<PathBuf>,
    pub cap: usize,
    /// The server's [`Shared::relist`], for the session's handler.
    pub relist: Arc<Notify>,
}

impl Endpoint {
    pub(crate) fn spec(&self) -> ConnectSpec<'_> {
        ConnectSpec {
            server: &self.server,
            transport: &self.transport,
            workspace: self.workspace.as_deref(),
            cap: self.cap,
            relist: &self.relist,
        }
    }
}

/// A failed connect: why, and the process started for it (if any), which
/// the caller must end.
pub(crate) type ConnectFailure = (String, Option<crate::process::ChildGuard>);

/// Opens a session within `timeout`.
pub(crate) async fn connect(
    endpoint: &Endpoint,
    timeout: Duration,
) -> Result<Session, ConnectFailure> {
    let spec = endpoint.spec();
    let mut pending = transport::prepare(&spec).map_err(|e| (e, None))?;
    let result =
        match tokio::time::timeout(timeout, transport::handshake(&spec, &mut pending)).await {
            Ok(r) => r,
            Err(_) => Err(format!(
                "no answer to the handshake within {} ms",
                timeout.as_millis()
            )),
        };
    result.map_err(|e| (e, pending.child.take()))
}

/// Submits operations to a server's supervisor. Cheap to clone.
#[derive(Clone)]
pub(crate) struct ServerHandle {
    tx: mpsc::UnboundedSender<Operation>,
    pub shared: Arc<Shared>,
    seq: Arc<AtomicU64>,
    stop: Arc<watch::Sender<bool>>,
}

impl ServerHandle {
    /// Runs `work` on the server's session and returns its answer.
    pub(crate) async fn submit<T, F, Fut>(&self, label: Arc<str>, work: F) -> Result<T, McpError>
    where
        T: Send + 'static,
        F: FnOnce(Client) -> Fut + Send + 'static,
        Fut: std::future::Future<Output = Result<T, McpError>> + Send + 'static,
    {
        let meta = OpMeta {
            label,
            server: Arc::clone(&self.shared.server),
            seq: self.seq.fetch_add(1, Ordering::Relaxed),
            submitted: Instant::now(),
            parent: tracing::Span::current(),
        };
        let epoch = self.shared.ends.load(Ordering::Acquire);
        let (op, rx) = Operation::new(meta, epoch, work);
        if self.tx.send(op).is_err() {
            return Err(McpError::Closed);
        }
        let result = match rx.await {
            Ok(r) => r,
            Err(_) => Err(self.shared.dropped_error()),
        };
        if matches!(result, Err(McpError::SessionEnded(_))) {
            // The call may learn of the end before the supervisor counts
            // it. Wait (briefly) for the count, so that a call made after
            // this error lands on the next session instead of the dead one.
            let until = Instant::now() + Duration::from_secs(1);
            while self.shared.ends.load(Ordering::Acquire) <= epoch && Instant::now() < until {
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
        }
        result
    }

    /// Asks the supervisor to close the session and end.
    pub(crate) fn stop(&self) {
        let _ = self.stop.send(true);
    }
}

/// The supervisor task's state.
struct Supervisor {
    shared: Arc<Shared>,
    rx: mpsc::UnboundedReceiver<Operation>,
    stop: watch::Receiver<bool>,
    endpoint: Endpoint,
    timing: Timing,
    quick_ends: u32,
    last_end: Option<Instant>,
}

enum Served {
    Stop(Session),
    /// The session ended (the count of ends is the third field); the
    /// operations that arrived after its connection was gone wait for the
    /// reconnect.
    Ended(Session, Vec<Operation>, u64),
}

/// Starts the supervisor of a connected server.
pub(crate) fn start(
    session: Session,
    shared: Arc<Shared>,
    endpoint: Endpoint,
    timing: Timing,
) -> (ServerHandle, tokio::task::JoinHandle<()>) {
    let (tx, rx) = mpsc::unbounded_channel();
    let (stop_tx, stop_rx) = watch::channel(false);
    shared.connected(&session);
    let sup = Supervisor {
        shared: Arc::clone(&shared),
        rx,
        stop: stop_rx,
        endpoint,
        timing,
        quick_ends: 0,
        last_end: None,
    };
    let task = tokio::spawn(sup.run(session));
    let handle = ServerHandle {
        tx,
        shared,
        seq: Arc::new(AtomicU64::new(0)),
        stop: Arc::new(stop_tx),
    };
    (handle, task)
}

impl Supervisor {
    async fn run(mut self, first: Session) {
        let mut session = Some(first);
        let mut waiting: Vec<Operation> = Vec::new();
        loop {
            if let Some(s) = session.take() {
                match self.serve(s, std::mem::take(&mut waiting)).await {
                    Served::Stop(s) => return self.finish(Some(s)).await,
                    Served::Ended(s, held, ends) => {
                        // Operations submitted before the end was seen fail;
                        // later ones wait for the reconnect.
                        waiting = held;
                        waiting.extend(self.fail_queued_before(ends));
                        s.close(self.timing.close_grace, self.timing.term_grace)
                            .await;
                        self.note_end();
                        continue;
                    }
                }
            }
            if waiting.is_empty() {
                let op = tokio::select! {
                    op = self.rx.recv() => op,
                    _ = self.stop.changed() => None,
                };
                let Some(op) = op else {
                    return self.finish(None).await;
                };
                waiting.push(op);
            }
            let snap = self.shared.snapshot();
            if snap.state == ServerState::Down && self.down_recently() {
                waiting.clear();
                continue;
            }
            self.shared.set(ServerState::Reconnecting, snap.reason);
            let backoff = self.backoff();
            let attempt = async {
                tokio::time::sleep(backoff).await;
                match connect(&self.endpoint, self.timing.connect_timeout).await {
                    Ok(s) => Ok(s),
                    Err((reason, child)) => {
                        if let Some(child) = child {
                            child
                                .terminate(self.timing.close_grace, self.timing.term_grace)
                                .await;
                        }
                        Err(reason)
                    }
                }
            };
            let result = tokio::select! {
                r = attempt => Some(r),
                _ = self.stop.changed() => None,
            };
            match result {
                None => {
                    waiting.clear();
                    return self.finish(None).await;
                }
                Some(Ok(s)) => {
                    tracing::info!(server = %self.shared.server, "MCP server reconnected");
                    self.shared.connected(&s);
                    // A new session may be a new server: list its tools again.
                    self.shared.reconnects.fetch_add(1, Ordering::Relaxed);
                    self.shared.relist.notify_one();
                    session = Some(s);
                }
                Some(Err(reason)) => {
                    let reason = lackpy_sources::redact_urls(&reason).into_owned();
                    tracing::warn!(server = %self.shared.server, %reason, "MCP server is down");
                    // State first: callers read the reason when their
                    // operation is dropped.
                    self.shared.set(ServerState::Down, Some(reason));
                    waiting.clear();
                    self.fail_queued();
                }
            }
        }
    }

    /// Runs operations on `session` until it ends or we are stopped.
    ///
    /// Operations in flight are polled here, in this task ([`InFlight`]),
    /// rather than spawned: an operation only awaits the SDK, so a task of
    /// its own would cost a spawn and a join wake-up per call, and on a
    /// multi-thread runtime its completion would push the caller out of
    /// the worker's next-task slot and wake another worker to steal it.
    /// Dropping one cancels its request, as aborting its task did.
    async fn serve(&mut self, mut session: Session, first: Vec<Operation>) -> Served {
        let client = session.client.clone();
        let mut inflight = InFlight::new();
        let mut held = Vec::new();
        for op in first {
            inflight.push(op.start(client.clone()));
        }
        // One wait for the stop signal for the whole session, polled again
        // on each turn: a new `changed()` each turn registered and removed a
        // waiter on every wake-up, about a tenth of a call's CPU time.
        let mut stop = self.stop.clone();
        let stopped = stop.changed();
        tokio::pin!(stopped);
        loop {
            tokio::select! {
                biased;
                _ = &mut stopped => {
                    drop(inflight);
                    return Served::Stop(session);
                }
                () = &mut session.quit => {
                    let reason = session.end_reason().await;
                    let reason = lackpy_sources::redact_urls(&reason).into_owned();
                    tracing::warn!(server = %self.shared.server, %reason, "MCP session ended");
                    // Count the end before anyone can see it: a caller that
                    // learns of it (from the state, or its failed call) and
                    // calls again must land after it, on the next session.
                    let ends = self.shared.ends.fetch_add(1, Ordering::AcqRel) + 1;
                    self.shared.set(ServerState::Disconnected, Some(reason));
                    drop(inflight);
                    return Served::Ended(session, held, ends);
                }
                op = self.rx.recv() => match op {
                    // The connection is gone but the end not yet seen:
                    // keep the operation for the next session.
                    Some(op) if client.is_closed() => held.push(op),
                    Some(op) => inflight.push(op.start(client.clone())),
                    None => {
                        drop(inflight);
                        return Served::Stop(session);
                    }
                },
                () = std::future::poll_fn(|cx| inflight.poll(cx)) => {}
            }
        }
    }

    /// Drops the queued operations submitted before the `ends`-th end was
    /// seen (their callers read the state's reason) and returns the later
    /// ones.
    fn fail_queued_before(&mut self, ends: u64) -> Vec<Operation> {
        let mut later = Vec::new();
        while let Ok(op) = self.rx.try_recv() {
            if op.epoch >= ends {
                later.push(op);
            }
        }
        later
    }

    /// Drops every queued operation; their callers read the state's reason.
    fn fail_queued(&mut self) {
        while let Ok(op) = self.rx.try_recv() {
            drop(op);
        }
    }

    async fn finish(mut self, session: Option<Session>) {
        // A server that failed discovery keeps its reason.
        if self.shared.snapshot().state != ServerState::Down {
            self.shared
                .set(ServerState::Closed, Some("shut down".to_string()));
        }
        self.rx.close();
        self.fail_queued();
        if let Some(s) = session {
            s.close(self.timing.close_grace, self.timing.term_grace)
                .await;
        }
    }

    fn note_end(&mut self) {
        let now = Instant::now();
        let quick = self
            .last_end
            .is_some_and(|t| now.duration_since(t) < Duration::from_secs(60));
        self.quick_ends = if quick {
            self.quick_ends.saturating_add(1)
        } else {
            0
        };
        self.last_end = Some(now);
    }

    fn backoff(&self) -> Duration {
        let factor = 1u32 << self.quick_ends.min(5);
        (self.timing.backoff * factor).min(Duration::from_secs(2))
    }

    fn down_recently(&self) -> bool {
        !self.shared.callable()
    }
}
