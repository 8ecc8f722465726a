//! A service that follows its world. [`LiveService`] holds the current
//! version of the inventory (a [`LackpyService`]: the config and the tools
//! it gives) and builds a new one when an MCP server's tools change
//! (`notifications/tools/list_changed`, a reconnect) or when the config is
//! read again (`lackpy mcp serve --watch`). A run takes the version current
//! at its start and keeps it to the end: no tool appears or vanishes
//! mid-run.

use std::sync::{Arc, Mutex, PoisonError, RwLock, Weak};

use lackpy_mcp_client::ConfiguredServers;
use lackpy_sources::{ExpandContext, LoadedConfig, McpServerDescriptor, load_config};
use tokio::sync::watch;
use tokio::task::JoinHandle;

use super::error::ServiceError;
use super::inventory::LackpyService;
use super::start::local_toolbox;

/// The current inventory of a long-lived service, and its versions.
pub struct LiveService {
    current: RwLock<LackpyService>,
    /// The current version's number.
    versions: watch::Sender<u64>,
    /// One rebuild at a time.
    rebuilding: tokio::sync::Mutex<()>,
    /// Tasks that follow changes; aborted when the service is dropped.
    tasks: Mutex<Vec<JoinHandle<()>>>,
}

impl std::fmt::Debug for LiveService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveService")
            .field("version", &*self.versions.borrow())
            .finish_non_exhaustive()
    }
}

impl LiveService {
    /// A live service starting from `service`'s inventory. Call
    /// [`follow_mcp`](Self::follow_mcp) to follow MCP servers' tool changes.
    pub fn new(service: LackpyService) -> Arc<LiveService> {
        let version = service.version();
        Arc::new(LiveService {
            current: RwLock::new(service),
            versions: watch::Sender::new(version),
            rebuilding: tokio::sync::Mutex::new(()),
            tasks: Mutex::new(Vec::new()),
        })
    }

    /// The current version of the inventory (cheap: two reference counts).
    /// A run holds it from start to end.
    pub fn current(&self) -> LackpyService {
        self.current
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// A receiver of the current version's number, changed at each new
    /// version.
    pub fn versions(&self) -> watch::Receiver<u64> {
        self.versions.subscribe()
    }

    /// Follows the MCP servers' tool changes from now on (inside a tokio
    /// runtime): each one builds a new version with the server's new tools.
    pub fn follow_mcp(self: &Arc<Self>) {
        let mut changes = self.current().inner.base.mcp.changes();
        let live: Weak<LiveService> = Arc::downgrade(self);
        let task = tokio::spawn(async move {
            while changes.changed().await.is_ok() {
                let Some(live) = live.upgrade() else {
                    return;
                };
                live.refresh().await;
            }
        });
        self.keep(task);
    }

    /// Keeps a task that follows changes, to abort it with the service.
    pub(crate) fn keep(&self, task: JoinHandle<()>) {
        self.tasks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(task);
    }

    /// Builds the inventory again from the config in effect with each MCP
    /// server's tools as they are now. Returns whether a new version began.
    pub async fn refresh(&self) -> bool {
        let _one = self.rebuilding.lock().await;
        let old = self.current();
        let inner = &old.inner;
        let loaded = LoadedConfig {
            config: inner.config.clone(),
            file: inner.config_file.clone(),
            warnings: inner.warnings.clone(),
        };
        let servers = ConfiguredServers {
            servers: inner.servers.clone(),
            skipped: inner.skipped_servers.clone(),
            unreadable: Vec::new(),
        };
        let base = &inner.base;
        match local_toolbox(&loaded.config, &base.python, base.harness.as_ref()) {
            Ok(local) => {
                let new = LackpyService::assemble(
                    Arc::clone(base),
                    loaded,
                    servers,
                    local,
                    old.version() + 1,
                );
                self.install(&old, new)
            }
            Err(e) => {
                // The config was good a moment ago and is not read again
                // here, so this is not expected.
                tracing::warn!(error = %e, "the inventory could not be built again; the old one stays");
                false
            }
        }
    }

    /// Reads the workspace's config file again and builds the inventory
    /// from it: MCP servers it no longer names (or names differently) are
    /// stopped, new ones started, the others kept connected. A config that
    /// cannot be read or is invalid changes nothing and is the error.
    /// Returns whether a new version began.
    pub async fn reload(&self) -> Result<bool, ServiceError> {
        let _one = self.rebuilding.lock().await;
        let old = self.current();
        let base = Arc::clone(&old.inner.base);
        let loaded = load_config(&base.workspace)?;
        // A config error in the local sources changes nothing, no server
        // included.
        let local = local_toolbox(&loaded.config, &base.python, base.harness.as_ref())?;
        let servers = ConfiguredServers::from_config(
            &loaded.config,
            &ExpandContext::from_env(Some(base.workspace.clone())),
        );
        let running: Vec<McpServerDescriptor> = base
            .mcp
            .sources()
            .iter()
            .map(|s| s.descriptor().clone())
            .collect();
        let stop: Vec<McpServerDescriptor> = running
            .iter()
            .filter(|d| !servers.servers.contains(d))
            .cloned()
            .collect();
        let start: Vec<McpServerDescriptor> = servers
            .servers
            .iter()
            .filter(|d| !running.contains(d))
            .cloned()
            .collect();
        if !stop.is_empty() {
            base.mcp.stop_servers(&stop).await;
        }
        if !start.is_empty() {
            base.mcp.start(start, base.progress.clone()).await;
        }
        let new = LackpyService::assemble(base, loaded, servers, local, old.version() + 1);
        Ok(self.install(&old, new))
    }

    /// Makes `new` current unless it gives what `old` gives.
    fn install(&self, old: &LackpyService, new: LackpyService) -> bool {
        if same_inventory(old, &new) {
            return false;
        }
        let version = new.version();
        *self.current.write().unwrap_or_else(PoisonError::into_inner) = new;
        self.versions.send_replace(version);
        tracing::info!(version, "the tool inventory changed");
        true
    }
}

impl Drop for LiveService {
    fn drop(&mut self) {
        for task in self
            .tasks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
        {
            task.abort();
        }
    }
}

/// Whether two versions give the same: the same config, servers and tools
/// (a file touched but not changed makes no new version).
fn same_inventory(a: &LackpyService, b: &LackpyService) -> bool {
    a.inner.config == b.inner.config
        && a.inner.servers == b.inner.servers
        && a.tools() == b.tools()
        && a.default_namespace_description() == b.default_namespace_description()
}
