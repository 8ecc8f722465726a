//! [`LackpyService`]: one version of the inventory (the config and every
//! tool it gives) over the runtime parts every version shares, and what it
//! says of itself. `start.rs` makes one; what it does is in the files
//! beside it (`plan.rs`, `run.rs`, `resume.rs`, `status.rs`, …), which read
//! its parts here and never the other way round.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use lackpy_bridge::Bridge;
use lackpy_lang::{Limits, Spec};
use lackpy_mcp_client::{McpClient, ProgressHook, ServerStatus};
use lackpy_sources::{
    Config, ConfigWarning, HarnessResolver, PythonRuntime, Tool, ToolListing, ToolSpec, Toolbox,
};

/// A service for one workspace.
#[derive(Clone)]
pub struct LackpyService {
    pub(super) inner: Arc<Inner>,
    /// Kept beside `inner` so [`LackpyService::with_tools`] can give a
    /// service more tools while sharing everything else.
    pub(super) toolbox: Arc<Toolbox>,
}

/// What every version of a service's inventory shares: the workspace, the
/// runtime parts and what was given in code.
pub(super) struct Base {
    pub(super) workspace: PathBuf,
    pub(super) bridge: Bridge,
    pub(super) python: Arc<PythonRuntime>,
    pub(super) mcp: Arc<McpClient>,
    /// The journals of resumable runs.
    pub(super) runs: crate::runs::RunStore,
    pub(super) harness: Option<Arc<dyn HarnessResolver>>,
    pub(super) tools: Vec<(ToolSpec, Arc<dyn Tool>)>,
    pub(super) limits: Option<Limits>,
    pub(super) models: Vec<crate::delegate::ModelSlot>,
    pub(super) progress: Option<ProgressHook>,
}

/// One version of the inventory: the config and what it decides. A run
/// holds the version it started with (`live.rs` makes new ones).
pub(super) struct Inner {
    pub(super) base: Arc<Base>,
    pub(super) config: Config,
    pub(super) config_file: Option<PathBuf>,
    pub(super) warnings: Vec<ConfigWarning>,
    pub(super) limits: Limits,
    /// Per-call timeouts of MCP sources, by source name.
    pub(super) call_timeouts: Vec<(String, Duration)>,
    /// The config file as JSON with secret values redacted.
    pub(super) config_view: serde_json::Value,
    /// The MCP servers the config names, in the order their tools are added.
    pub(super) servers: Vec<lackpy_sources::McpServerDescriptor>,
    /// Host config servers that are not started, with why.
    pub(super) skipped_servers: Vec<lackpy_sources::SkippedServer>,
    /// The delegation tiers.
    pub(super) generator: crate::delegate::Generator,
    /// The model tiers, for status.
    pub(super) models: crate::delegate::Models,
    /// `[policy]`: ceilings and approval gates.
    pub(super) policy: lackpy_sources::Policy,
    /// 1 at start, one more each time the inventory is built again.
    pub(super) version: u64,
    /// When this version was built, in seconds since the epoch.
    pub(super) changed_at: u64,
}

impl LackpyService {
    /// This inventory's version: 1 at start, one more each time a
    /// [`LiveService`](super::LiveService) built it again.
    pub fn version(&self) -> u64 {
        self.inner.version
    }

    /// When this version was built, in seconds since the Unix epoch.
    pub fn changed_at(&self) -> u64 {
        self.inner.changed_at
    }

    /// The workspace root.
    pub fn workspace(&self) -> &Path {
        &self.inner.base.workspace
    }

    /// The toolbox.
    pub fn toolbox(&self) -> &Toolbox {
        &self.toolbox
    }

    /// The resumable runs of this workspace, newest first.
    pub fn runs(&self) -> Vec<crate::runs::RunInfo> {
        self.inner.base.runs.list()
    }

    /// Every tool with its candidates, provenance, grade and availability.
    pub fn tools(&self) -> Vec<ToolListing> {
        self.toolbox.listing()
    }

    /// The templates folder (`<workspace>/.lackpy/templates`).
    pub fn templates_dir(&self) -> &Path {
        self.inner.generator.templates_dir()
    }

    /// The config in effect (the file's, or the one given at start).
    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    /// The config file as JSON, every secret value (environment values,
    /// headers, keys, tokens) replaced by `"<redacted>"`; `null` when the
    /// service runs on defaults or on a config given in code.
    pub fn config_redacted(&self) -> &serde_json::Value {
        &self.inner.config_view
    }

    /// The language spec.
    pub fn spec(&self) -> Spec {
        lackpy_lang::spec()
    }

    /// The state of every MCP server (connected or failed with a reason).
    pub fn mcp_status(&self) -> Vec<ServerStatus> {
        self.inner.base.mcp.status()
    }

    /// Closes every MCP session and reaps its processes, and stops the
    /// Python worker. Idempotent.
    pub async fn shutdown(&self) {
        self.inner.base.mcp.shutdown().await;
        self.inner.base.python.shutdown();
    }
}
