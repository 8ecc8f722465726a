//! [`McpClient`]: every MCP server of one service — discovery at start,
//! status, and shutdown.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use lackpy_sources::Config;
use lackpy_sources::{ExpandContext, McpServerDescriptor, own_servers, read_host_configs};
use lackpy_sources::{SkippedServer, UnreadableFile};
use tokio::sync::watch;
use tokio::task::JoinSet;

use crate::discovery::{DiscoveryEvent, Outcome, ProgressHook, discover_one};
use crate::options::McpClientOptions;
use crate::process;
use crate::relist::{self, Slot};
use crate::source::{McpToolSource, ServerStatus};
use crate::supervisor::ServerHandle;

/// The servers a config names: its own `[mcp_servers.<id>]` (precedence 5)
/// and those of its `[mcp].host_configs` files (precedence `max(1, 4 − i)`),
/// each descriptor keeping its provenance.
#[derive(Debug, Clone, Default)]
pub struct ConfiguredServers {
    /// Servers to connect to: own ones first, then host files' in order.
    pub servers: Vec<McpServerDescriptor>,
    /// Host servers that will not be used, with reasons (already logged).
    pub skipped: Vec<SkippedServer>,
    /// Host files that could not be read (already logged).
    pub unreadable: Vec<UnreadableFile>,
}

impl ConfiguredServers {
    /// Reads the servers of `config`, expanding variables with `ctx`.
    pub fn from_config(config: &Config, ctx: &ExpandContext) -> ConfiguredServers {
        let mut servers = own_servers(config, ctx);
        let host = read_host_configs(&config.mcp.host_configs, ctx);
        servers.extend(host.servers);
        ConfiguredServers {
            servers,
            skipped: host.skipped,
            unreadable: host.unreadable,
        }
    }
}

/// The outcome of discovery.
#[derive(Debug)]
pub struct Discovery {
    /// One source per server, in the order given, failed ones included
    /// (unavailable, no tools, the reason in their status). Add each to the
    /// toolbox with [`McpToolSource::precedence`].
    pub sources: Vec<Arc<McpToolSource>>,
    /// How long discovery took.
    pub elapsed: Duration,
}

impl Discovery {
    /// The status of every server.
    pub fn statuses(&self) -> Vec<ServerStatus> {
        self.sources.iter().map(|s| s.status()).collect()
    }

    /// The servers that could not be used, with their statuses.
    pub fn failures(&self) -> Vec<ServerStatus> {
        self.statuses()
            .into_iter()
            .filter(|s| s.reason.is_some())
            .collect()
    }
}

struct Running {
    /// The server.
    descriptor: McpServerDescriptor,
    handle: ServerHandle,
    task: tokio::task::JoinHandle<()>,
    /// Lists its tools again when asked (`relist.rs`).
    relister: Option<tokio::task::JoinHandle<()>>,
}

impl Running {
    /// Stops the server and waits for its supervisor to close the session.
    async fn stop(self) {
        if let Some(r) = &self.relister {
            r.abort();
        }
        self.handle.stop();
        let _ = self.task.await;
    }
}

#[derive(Default)]
struct State {
    slots: Vec<Slot>,
    running: Vec<Running>,
    cleanups: Vec<tokio::task::JoinHandle<()>>,
}

/// Every MCP server of one service. Create it, [`start`](McpClient::start)
/// it with the servers (again with more servers when the config grows;
/// [`stop_servers`](McpClient::stop_servers) when it shrinks), and
/// [`shutdown`](McpClient::shutdown) it when the service stops. Needs a
/// multi-thread tokio runtime.
pub struct McpClient {
    options: McpClientOptions,
    state: Mutex<State>,
    closed: AtomicBool,
    /// Counts the times a server's tool list changed after discovery.
    changes: Arc<watch::Sender<u64>>,
}

impl std::fmt::Debug for McpClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpClient")
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl McpClient {
    /// A client with these options; nothing starts yet.
    pub fn new(options: McpClientOptions) -> McpClient {
        McpClient {
            options,
            state: Mutex::new(State::default()),
            closed: AtomicBool::new(false),
            changes: Arc::new(watch::Sender::new(0)),
        }
    }

    /// The options.
    pub fn options(&self) -> &McpClientOptions {
        &self.options
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Connects every server at once and lists its tools. Each server has
    /// its own connect timeout (its `connect_timeout_ms`, else the options'),
    /// all of them `discovery_deadline`; failures are logged at WARN and
    /// reported in the sources' statuses. `progress` hears of each server as
    /// it finishes.
    pub async fn start(
        &self,
        servers: Vec<McpServerDescriptor>,
        progress: Option<ProgressHook>,
    ) -> Discovery {
        let started = Instant::now();
        let deadline = started + self.options.discovery_deadline;
        let total = servers.len();
        let emit = |e: DiscoveryEvent| {
            if let Some(p) = &progress {
                p(&e);
            }
        };
        emit(DiscoveryEvent::Started { total });
        let mut set = JoinSet::new();
        for (index, descriptor) in servers.into_iter().enumerate() {
            let options = self.options.clone();
            set.spawn(async move { (index, discover_one(descriptor, &options, deadline).await) });
        }
        let mut outcomes: Vec<(usize, Outcome)> = Vec::with_capacity(total);
        let (mut ready, mut failed) = (0, 0);
        while let Some(joined) = set.join_next().await {
            let Ok((index, outcome)) = joined else {
                // A panicking discovery task is a bug; its server is simply missing.
                failed += 1;
                continue;
            };
            let status = outcome.source.status();
            let elapsed = Duration::from_millis(status.discovery_ms);
            match &status.reason {
                None => {
                    ready += 1;
                    emit(DiscoveryEvent::Ready {
                        server: status.id.clone(),
                        tools: status.tools.len(),
                        protocol_version: status.protocol_version.clone(),
                        elapsed,
                        done: ready + failed,
                        total,
                    });
                }
                Some(reason) => {
                    failed += 1;
                    emit(DiscoveryEvent::Failed {
                        server: status.id.clone(),
                        reason: reason.clone(),
                        elapsed,
                        done: ready + failed,
                        total,
                    });
                }
            }
            outcomes.push((index, outcome));
        }
        outcomes.sort_by_key(|(i, _)| *i);
        let mut sources = Vec::with_capacity(outcomes.len());
        {
            let mut state = self.lock();
            for (_, outcome) in outcomes {
                let ready = outcome.source.status().reason.is_none();
                let descriptor = outcome.source.descriptor().clone();
                let source = Arc::new(outcome.source);
                let slot: Slot = Arc::new(Mutex::new(Arc::clone(&source)));
                state.slots.push(Arc::clone(&slot));
                sources.push(source);
                if let Some((handle, task)) = outcome.supervisor {
                    // Only a server whose tools were listed follows them.
                    let relister = ready.then(|| {
                        tokio::spawn(relist::follow(
                            slot,
                            handle.clone(),
                            self.options.max_tools,
                            self.options.connect_timeout,
                            Arc::clone(&self.changes),
                        ))
                    });
                    state.running.push(Running {
                        descriptor,
                        handle,
                        task,
                        relister,
                    });
                }
                if let Some(child) = outcome.leftover {
                    // End a failed server's process in the background:
                    // readiness never waits for it; shutdown does.
                    let (grace, term) = (self.options.close_grace, self.options.term_grace);
                    state
                        .cleanups
                        .push(tokio::spawn(child.terminate(grace, term)));
                }
            }
        }
        let elapsed = started.elapsed();
        emit(DiscoveryEvent::Finished {
            ready,
            failed,
            elapsed,
        });
        if total > 0 {
            // Debug: `lackpy -v` shows a line per server from the events.
            tracing::debug!(
                ready,
                failed,
                elapsed_ms = u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
                "MCP discovery finished"
            );
        }
        if self.closed.load(Ordering::Acquire) {
            // Shut down while discovering: end what just started.
            self.shutdown().await;
        }
        Discovery { sources, elapsed }
    }

    /// The sources of every server started (and not stopped) so far, as
    /// they are now: a server whose tools were listed again has a new one.
    pub fn sources(&self) -> Vec<Arc<McpToolSource>> {
        self.lock().slots.iter().map(relist::current).collect()
    }

    /// A receiver of the count of tool-list changes: it goes up each time
    /// a server's tools, listed again after `notifications/tools/list_changed`
    /// or a reconnect, differ from before ([`sources`](Self::sources) then
    /// holds the new source).
    pub fn changes(&self) -> watch::Receiver<u64> {
        self.changes.subscribe()
    }

    /// Stops these servers (as [`start`](Self::start) was given them):
    /// their sessions are closed, their processes ended, and they leave
    /// [`sources`](Self::sources) and [`status`](Self::status). Others are
    /// untouched.
    pub async fn stop_servers(&self, servers: &[McpServerDescriptor]) {
        let stopping: Vec<Running> = {
            let mut state = self.lock();
            state
                .slots
                .retain(|s| !servers.contains(relist::current(s).descriptor()));
            let (stop, keep) = std::mem::take(&mut state.running)
                .into_iter()
                .partition(|r| servers.contains(&r.descriptor));
            state.running = keep;
            stop
        };
        for r in stopping {
            r.stop().await;
        }
    }

    /// The status of every server started so far.
    pub fn status(&self) -> Vec<ServerStatus> {
        self.sources().iter().map(|s| s.status()).collect()
    }

    /// Closes every session (the SDK's graceful close), ends every server
    /// process group and reaps it. Idempotent; calls after it fail as
    /// unavailable.
    pub async fn shutdown(&self) {
        self.closed.store(true, Ordering::Release);
        let (running, cleanups) = {
            let mut state = self.lock();
            (
                std::mem::take(&mut state.running),
                std::mem::take(&mut state.cleanups),
            )
        };
        for r in &running {
            if let Some(relister) = &r.relister {
                relister.abort();
            }
            r.handle.stop();
        }
        for r in running {
            r.stop().await;
        }
        for c in cleanups {
            let _ = c.await;
        }
    }

    /// Kills every stdio server process group of this process at once,
    /// synchronously: for a signal handler, when there is no time for
    /// [`shutdown`](McpClient::shutdown). See [`process::kill_all_servers`].
    pub fn kill_now(&self) {
        self.closed.store(true, Ordering::Release);
        process::kill_all_servers();
    }
}

impl Drop for McpClient {
    fn drop(&mut self) {
        // Not shut down: ask the supervisors to close (and the relisters to
        // end); any process left when the runtime stops is killed by its
        // guard.
        for r in &self.lock().running {
            if let Some(relister) = &r.relister {
                relister.abort();
            }
            r.handle.stop();
        }
    }
}
