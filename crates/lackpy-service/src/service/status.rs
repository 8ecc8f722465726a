//! `status`: what the service is working with.

use schemars::JsonSchema;
use serde::Serialize;

use super::inventory::LackpyService;
use crate::delegate::ProviderStatus;

/// The limits every run gets unless a call overrides them.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct LimitsInfo {
    /// Wall-clock limit, ms.
    pub timeout_ms: u128,
    /// Step limit.
    pub max_steps: u64,
    /// Memory limit, bytes.
    pub max_memory_bytes: usize,
    /// Evaluation depth limit.
    pub max_depth: u32,
    /// Captured stdout limit, bytes.
    pub max_stdout_bytes: usize,
    /// Trace entries a run keeps.
    pub max_trace_entries: usize,
}

/// Which version of the tool inventory a service is on.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct InventoryInfo {
    /// 1 at start, one more each time the inventory changed (an MCP
    /// server's tools, or the config under `lackpy mcp serve --watch`).
    pub version: u64,
    /// When it last changed (RFC 3339, UTC; the start for version 1).
    pub changed_at: String,
}

/// The service's state. Holds no secrets: environment values and headers
/// are never included.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Status {
    /// The workspace root.
    pub workspace: String,
    /// The config file, when there is one.
    pub config_file: Option<String>,
    /// Unknown config keys.
    pub config_warnings: Vec<String>,
    /// Default limits.
    pub limits: LimitsInfo,
    /// The default profile.
    pub default_profile: Option<String>,
    /// Profiles defined in the config.
    pub profiles: Vec<String>,
    /// The tool inventory's version.
    pub inventory: InventoryInfo,
    /// How many tool names the toolbox has.
    pub tools_total: usize,
    /// Tools available now.
    pub tools_available: usize,
    /// Every MCP server: connected or failed with its reason, tool count,
    /// protocol version. No environment values or header values.
    pub mcp_servers: Vec<lackpy_mcp_client::ServerStatus>,
    /// Host config servers that are not started (a disabled entry, an
    /// unsupported transport, one that would start lackpy itself), with
    /// why; absent when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped_mcp_servers: Vec<SkippedServerInfo>,
    /// Every model tier of delegation: name, base URL, model, whether it
    /// answers. No keys: only the name of the variable a key is read from.
    pub providers: Vec<ProviderStatus>,
}

/// A host config server that is not started.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SkippedServerInfo {
    /// Its key in the file.
    pub server: String,
    /// The host config file.
    pub file: String,
    /// Why it is not started.
    pub reason: String,
}

pub(super) fn build(service: &LackpyService, providers: Vec<ProviderStatus>) -> Status {
    let inner = &service.inner;
    let l = &inner.limits;
    Status {
        workspace: inner.base.workspace.display().to_string(),
        config_file: inner.config_file.as_ref().map(|f| f.display().to_string()),
        config_warnings: inner.warnings.iter().map(|w| w.to_string()).collect(),
        limits: LimitsInfo {
            timeout_ms: l.timeout.as_millis(),
            max_steps: l.max_steps,
            max_memory_bytes: l.max_memory,
            max_depth: l.max_depth,
            max_stdout_bytes: l.max_stdout,
            max_trace_entries: l.max_trace_entries,
        },
        default_profile: inner.config.profile.default.clone(),
        profiles: inner
            .config
            .profiles
            .iter()
            .map(|(k, _)| k.to_string())
            .collect(),
        inventory: InventoryInfo {
            version: inner.version,
            changed_at: crate::runs::time::rfc3339(inner.changed_at),
        },
        tools_total: service.toolbox.names().len(),
        tools_available: service.toolbox.available_names().len(),
        mcp_servers: service.mcp_status(),
        skipped_mcp_servers: inner
            .skipped_servers
            .iter()
            .map(|s| SkippedServerInfo {
                server: s.server.clone(),
                file: s.file.display().to_string(),
                reason: lackpy_sources::redact_urls(&s.reason).into_owned(),
            })
            .collect(),
        providers,
    }
}

impl LackpyService {
    /// The service's state: workspace, config, limits, tools, MCP servers
    /// and model tiers (not asked whether they answer; see
    /// [`status_probed`](Self::status_probed)).
    pub fn status(&self) -> Status {
        build(self, self.providers())
    }

    /// [`status`](Self::status), each model endpoint asked whether it
    /// answers.
    pub async fn status_probed(&self) -> Status {
        let providers = self.providers_probed().await;
        build(self, providers)
    }
}
