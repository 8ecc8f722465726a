//! Building a [`LackpyService`]: [`ServiceOptions`], the runtime parts
//! every version of the inventory shares ([`LackpyService::start`]), and
//! one version from a config (`assemble`, also how `live.rs` builds the
//! next one).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use lackpy_bridge::{Bridge, BridgeConfig};
use lackpy_lang::Limits;
use lackpy_mcp_client::{ConfiguredServers, McpClient, McpClientOptions, ProgressHook};
use lackpy_sources::{
    Config, ExpandContext, HarnessResolver, LoadedConfig, PythonRuntime, Tool, ToolSource,
    ToolSpec, Toolbox, add_local_sources, load_config,
};

use super::config_view;
use super::error::ServiceError;
use super::inventory::{Base, Inner, LackpyService};

/// How long a run goes on the thread that awaits it before it moves to an
/// interpreter thread (at its first tool call, or when this has passed): a
/// short program then answers without a thread hand-off, and a runtime
/// worker is never held longer than this.
const INLINE_SLICE: Duration = Duration::from_micros(200);

/// How to build a [`LackpyService`].
#[derive(Default)]
pub struct ServiceOptions {
    /// The workspace root (files, processes and the config live here).
    pub workspace: PathBuf,
    /// A typed config to use instead of `<workspace>/.lackpy/config.toml`.
    pub config: Option<Config>,
    /// The harness that implements virtual tools.
    pub harness: Option<Arc<dyn HarnessResolver>>,
    /// Tools registered directly; they win every name (precedence ∞).
    pub tools: Vec<(ToolSpec, Arc<dyn Tool>)>,
    /// Default limits, over the config's `[limits]`.
    pub limits: Option<Limits>,
    /// At most this many programs run at once (default 64).
    pub max_concurrent_runs: Option<usize>,
    /// Hears of each MCP server as discovery finishes it (a progress line).
    pub progress: Option<ProgressHook>,
    /// Model tiers given in code, tried after the configured ones.
    pub models: Vec<crate::delegate::ModelSlot>,
}

impl LackpyService {
    /// Builds a service: loads the config (unless one is given) and adds
    /// every tool source at its precedence.
    pub async fn start(options: ServiceOptions) -> Result<LackpyService, ServiceError> {
        let workspace = options.workspace;
        if !workspace.is_dir() {
            return Err(ServiceError::Workspace(workspace.display().to_string()));
        }
        let loaded = match options.config {
            Some(config) => LoadedConfig {
                config,
                file: None,
                warnings: Vec::new(),
            },
            // The loader logs each unknown key at WARN itself.
            None => load_config(&workspace)?,
        };
        let config = &loaded.config;
        // A PostgreSQL store connects (and migrates) here: off the runtime.
        let (ws, section) = (workspace.clone(), config.runs.clone());
        let runs = tokio::task::spawn_blocking(move || {
            crate::runs::select::open_store(&ws, &section, |v| std::env::var(v).ok())
        })
        .await
        .map_err(|e| ServiceError::RunStore(e.to_string()))?
        .map_err(ServiceError::RunStore)?;
        let defaults = McpClientOptions::default();
        let mcp = Arc::new(McpClient::new(McpClientOptions {
            workspace: Some(workspace.clone()),
            discovery_deadline: config
                .mcp
                .discovery_timeout_ms
                .map_or(defaults.discovery_deadline, Duration::from_millis),
            ..defaults
        }));
        let bridge = Bridge::new(BridgeConfig {
            max_interpreters: options
                .max_concurrent_runs
                .or(config.server.max_concurrent_runs)
                .unwrap_or(64),
            inline_slice: INLINE_SLICE,
        });
        // The local sources first: a config error there is reported before
        // any MCP server is started.
        let python = PythonRuntime::new();
        let local = local_toolbox(config, &python, options.harness.as_ref())?;
        // MCP servers: own ones and host-config ones, discovered eagerly and
        // in parallel; a failed server is an unavailable source, never an error.
        let servers = ConfiguredServers::from_config(
            config,
            &ExpandContext::from_env(Some(workspace.clone())),
        );
        mcp.start(servers.servers.clone(), options.progress.clone())
            .await;
        let base = Arc::new(Base {
            workspace,
            bridge,
            python,
            mcp,
            runs,
            harness: options.harness,
            tools: options.tools,
            limits: options.limits,
            models: options.models,
            progress: options.progress,
        });
        Ok(Self::assemble(base, loaded, servers, local, 1))
    }

    /// One version of the inventory: the toolbox (`local`, the local
    /// sources of `loaded`'s config from [`local_toolbox`]; the MCP
    /// client's current source of each of `servers`; the tools given in
    /// code) and everything else the config decides.
    pub(super) fn assemble(
        base: Arc<Base>,
        loaded: LoadedConfig,
        servers: ConfiguredServers,
        local: Toolbox,
        version: u64,
    ) -> LackpyService {
        let LoadedConfig {
            config,
            file: config_file,
            warnings,
        } = loaded;
        let mut toolbox = local;
        let sources = base.mcp.sources();
        let mut call_timeouts = Vec::new();
        for descriptor in &servers.servers {
            let Some(source) = sources.iter().find(|s| s.descriptor() == descriptor) else {
                continue;
            };
            call_timeouts.push((source.name().to_string(), source.call_timeout()));
            toolbox.add_source(
                Arc::clone(source) as Arc<dyn ToolSource>,
                source.precedence(),
            );
        }
        for (spec, tool) in &base.tools {
            toolbox.register(spec.clone(), Arc::clone(tool));
        }
        let limits = base
            .limits
            .clone()
            .unwrap_or_else(|| limits_from_config(&config));
        let config_view = config_view::redacted(config_file.as_deref());
        let models = crate::delegate::Models::from_config(&config.inference, base.models.clone());
        let policy = lackpy_sources::Policy::from_config(&config);
        let generator = crate::delegate::Generator::new(
            base.workspace.join(".lackpy").join("templates"),
            models.slots.clone(),
        );
        LackpyService {
            inner: Arc::new(Inner {
                config,
                config_file,
                warnings,
                limits,
                call_timeouts,
                config_view,
                servers: servers.servers,
                skipped_servers: servers.skipped,
                generator,
                models,
                policy,
                version,
                changed_at: crate::runs::time::now_secs(),
                base,
            }),
            toolbox: Arc::new(toolbox),
        }
    }

    /// This service with `tools` registered directly as well (precedence
    /// ∞, as [`ServiceOptions::tools`] registers them): the config, MCP
    /// sessions, limits and run store are shared with `self`, which keeps
    /// its own tools. For an embedder that adds tools after start (the
    /// Python package's `@svc.tool`).
    pub fn with_tools(&self, tools: Vec<(ToolSpec, Arc<dyn Tool>)>) -> LackpyService {
        let mut toolbox = (*self.toolbox).clone();
        for (spec, tool) in tools {
            toolbox.register(spec, tool);
        }
        LackpyService {
            inner: Arc::clone(&self.inner),
            toolbox: Arc::new(toolbox),
        }
    }
}

/// A toolbox with the local sources of `config` (defaults, virtual,
/// command and Python tools), or the config's error.
pub(super) fn local_toolbox(
    config: &Config,
    python: &Arc<PythonRuntime>,
    harness: Option<&Arc<dyn HarnessResolver>>,
) -> Result<Toolbox, ServiceError> {
    let mut toolbox = Toolbox::new();
    add_local_sources(&mut toolbox, config, python, harness.cloned())?;
    Ok(toolbox)
}

fn limits_from_config(config: &Config) -> Limits {
    let mut l = Limits::default();
    if let Some(ms) = config.limits.timeout_ms {
        l.timeout = Duration::from_millis(ms);
    }
    if let Some(s) = config.limits.max_steps {
        l.max_steps = s;
    }
    if let Some(mb) = config.limits.max_memory_mb {
        l.max_memory = usize::try_from(mb.saturating_mul(1024 * 1024)).unwrap_or(usize::MAX);
        // The result limit follows the memory limit (runtime.md).
        l.max_result = l.max_memory;
    }
    if let Some(n) = config.limits.max_trace_entries {
        l.max_trace_entries = usize::try_from(n).unwrap_or(usize::MAX);
    }
    l
}
