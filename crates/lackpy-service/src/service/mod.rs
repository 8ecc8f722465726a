//! [`LackpyService`]: the API the CLI and the MCP server are thin layers over.

mod approver;
mod config_view;
mod delegate;
mod error;
mod execute;
mod lang_json;
mod live;
mod observe;
mod params;
mod plan;
mod policy_view;
pub mod profile;
mod resume;
mod signatures;
mod status;
mod tool_list;
mod watch;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tracing::Instrument;

use lackpy_bridge::{Bridge, BridgeConfig, ExecutionResult, NamespaceTool, RunRequest};
use lackpy_lang::ExceptionKind;
use lackpy_lang::Limits;
use lackpy_lang::Spec;
use lackpy_lang::{Data, Grade, ParseError, Rule, Validation, compute_grade, parse};
use lackpy_lang::{Teardown, Variables};
use lackpy_mcp_client::{
    ConfiguredServers, McpClient, McpClientOptions, ProgressHook, ServerStatus,
};
use lackpy_sources::{Config, LoadedConfig};
use lackpy_sources::{
    ConfigWarning, ExpandContext, HarnessResolver, PythonRuntime, Tool, ToolListing, ToolSource,
    ToolSpec, Toolbox, add_local_sources, load_config,
};

pub use crate::delegate::ProviderStatus;
pub use approver::ApproverHandle;
pub use delegate::Delegate;
pub use error::{ServiceError, ToolOrigin};
pub(crate) use lang_json::SpecJson;
pub use live::LiveService;
pub use observe::{RunControl, ToolCallEvent, ToolCallObserver};
pub use params::{params_from_json, params_from_value};
pub use policy_view::{GatedCall, PolicyView, ValidationReport};
pub use profile::{Namespace, Selection};
pub use resume::Resume;
pub use status::{InventoryInfo, LimitsInfo, SkippedServerInfo, Status};
pub use tool_list::{ListedTool, ToolList};
pub use watch::watch_config;

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

/// One `run_program` call.
#[derive(Debug, Clone, Default)]
pub struct RunProgram {
    /// The program text.
    pub program: String,
    /// Exactly these tools (overrides `profile`).
    pub tools: Option<Vec<String>>,
    /// A named profile.
    pub profile: Option<String>,
    /// Params as JSON object text (exact; see [`params_from_json`]) already
    /// converted, in order.
    pub params: Vec<(String, Data)>,
    /// Extra validation rules.
    pub rules: Vec<Rule>,
    /// Wall-clock limit for this run, over the service default.
    pub timeout: Option<Duration>,
    /// Trace entries this run keeps, over `[limits] max_trace_entries`
    /// (a profile's binds: a caller may only lower it).
    pub max_trace_entries: Option<usize>,
    /// Whether the result carries the program's `variables` (collected by
    /// default, as runtime.md's ExecutionResult has them; omitted, the
    /// result's `variables` is `{}` and no time goes into writing them).
    pub variables: Variables,
    /// Whether the program's values are freed when the run ends (the
    /// default) or left to the exit of a process that ends right after
    /// this run ([`Teardown::AtExit`], what `lackpy run` does).
    pub teardown: Teardown,
    /// Whether the result's outcome also holds the output as a `Data` tree
    /// keeping its Python forms (`RunOutcome::output_value`): for an
    /// embedder that hands the value on to Python. Off by default.
    pub output_value: bool,
    /// Who approves the run's gated calls; `None`: a gated call pauses
    /// the run.
    pub approver: Option<ApproverHandle>,
    /// Journal every call as it completes (synced to disk), so the run can
    /// be resumed after its process dies (`[runs] journal` does it for
    /// every run).
    pub journal: bool,
    /// How the caller stops the run and hears of its calls.
    pub control: RunControl,
}

/// A service for one workspace.
#[derive(Clone)]
pub struct LackpyService {
    inner: Arc<Inner>,
    /// Kept beside `inner` so [`LackpyService::with_tools`] can give a
    /// service more tools while sharing everything else.
    toolbox: Arc<Toolbox>,
}

/// What every version of a service's inventory shares: the workspace, the
/// runtime parts and what was given in code.
struct Base {
    workspace: PathBuf,
    bridge: Bridge,
    python: Arc<PythonRuntime>,
    mcp: Arc<McpClient>,
    /// The journals of resumable runs.
    runs: crate::runs::RunStore,
    harness: Option<Arc<dyn HarnessResolver>>,
    tools: Vec<(ToolSpec, Arc<dyn Tool>)>,
    limits: Option<Limits>,
    models: Vec<crate::delegate::ModelSlot>,
    progress: Option<ProgressHook>,
}

/// One version of the inventory: the config and what it decides. A run
/// holds the version it started with (`live.rs` makes new ones).
struct Inner {
    base: Arc<Base>,
    config: Config,
    config_file: Option<PathBuf>,
    warnings: Vec<ConfigWarning>,
    limits: Limits,
    /// Per-call timeouts of MCP sources, by source name.
    call_timeouts: Vec<(String, Duration)>,
    /// The config file as JSON with secret values redacted.
    config_view: serde_json::Value,
    /// The MCP servers the config names, in the order their tools are added.
    servers: Vec<lackpy_sources::McpServerDescriptor>,
    /// Host config servers that are not started, with why.
    skipped_servers: Vec<lackpy_sources::SkippedServer>,
    /// The delegation tiers.
    generator: crate::delegate::Generator,
    /// The model tiers, for status.
    models: crate::delegate::Models,
    /// `[policy]`: ceilings and approval gates.
    policy: lackpy_sources::Policy,
    /// 1 at start, one more each time the inventory is built again.
    version: u64,
    /// When this version was built, in seconds since the epoch.
    changed_at: u64,
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
    fn assemble(
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

    /// This inventory's version: 1 at start, one more each time a
    /// [`LiveService`] built it again.
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

    /// Resolves which tools a call may use, dropping unavailable ones.
    pub fn namespace(
        &self,
        tools: Option<&[String]>,
        profile: Option<&str>,
    ) -> Result<Namespace, ServiceError> {
        let selection = match (tools, profile) {
            (Some(t), _) => Selection::Tools(t),
            (None, Some(p)) => Selection::Profile(p),
            (None, None) => Selection::Default,
        };
        let mut ns = profile::resolve(
            selection,
            &self.inner.config,
            &self.inner.base.workspace,
            &self.toolbox,
        )?;
        plan::apply_ceilings(self, &mut ns);
        Ok(ns)
    }

    /// Validates a program against a namespace and params, without running it.
    pub fn validate(
        &self,
        program: &str,
        tools: Option<&[String]>,
        profile: Option<&str>,
        params: &[(String, Data)],
        rules: &[Rule],
    ) -> Result<Validation, ServiceError> {
        let ns = self.namespace(tools, profile)?;
        Ok(self.validate_in(&ns, program, params, rules))
    }

    /// Validates a program against an already resolved namespace (its
    /// tools' signatures, its profile's rules and ceilings).
    fn validate_in(
        &self,
        ns: &Namespace,
        program: &str,
        params: &[(String, Data)],
        rules: &[Rule],
    ) -> Validation {
        let mut allowed = ns.names();
        allowed.extend(params.iter().map(|(k, _)| k.clone()));
        let mut rules = rules.to_vec();
        rules.extend(plan::profile_rules(self, ns.profile.as_deref()));
        let signatures = signatures::of_namespace(&self.toolbox, ns);
        let mut v = lackpy_lang::validate_with(program, &allowed, &rules, &signatures);
        plan::explain_ceilings(ns, &mut v);
        v
    }

    /// The result of a run whose program could not be read as source at
    /// all (`error`, e.g. from [`lackpy_lang::parse_bytes`] on bytes
    /// that are not UTF-8): the same `ValidationError` result, with the
    /// same grade, as any other program that does not parse.
    pub fn rejected_program(
        &self,
        request: &RunProgram,
        error: &ParseError,
    ) -> Result<ExecutionResult, ServiceError> {
        let started = Instant::now();
        let tools = self.run_tools(request)?;
        Ok(rejected(
            error,
            compute_grade(tools.iter().map(|t| t.grade)),
            started,
        ))
    }

    /// The run's tools: its namespace, resolved, with their call timeouts
    /// and approval gates.
    fn run_tools(&self, request: &RunProgram) -> Result<Vec<NamespaceTool>, ServiceError> {
        let ns = self.namespace(request.tools.as_deref(), request.profile.as_deref())?;
        Ok(plan::namespace_tools(self, &ns))
    }

    /// Validates and runs a program. Expected failures (validation, tool
    /// errors, limits) are results; misconfiguration is an error. The
    /// request's [`RunControl`] can stop it and hear of its tool calls.
    pub async fn run_program(&self, request: RunProgram) -> Result<ExecutionResult, ServiceError> {
        let span = crate::telemetry::run_span::start(
            &request.program,
            self.inner.config.telemetry.include_program,
            request.control.traceparent.as_deref(),
        );
        let result = self
            .run_program_in(request, &span)
            .instrument(span.clone())
            .await;
        match &result {
            Ok(r) => crate::telemetry::run_span::finish(&span, r),
            Err(_) => crate::telemetry::run_span::refused(&span),
        }
        result
    }

    /// The run's tools wrapped to trace each call under `span`, when traces
    /// are exported (otherwise as they are).
    pub(super) fn traced_tools(
        &self,
        tools: Vec<NamespaceTool>,
        ns: &Namespace,
        span: &tracing::Span,
        first_step: usize,
    ) -> Vec<NamespaceTool> {
        if span.is_disabled() {
            return tools;
        }
        let source_of = |called: &str| {
            let (_, name) = ns.entries.iter().find(|(c, _)| c.as_str() == called)?;
            self.toolbox
                .resolve(name)
                .ok()
                .map(|r| r.source.to_string())
        };
        crate::telemetry::tool_span::traced(tools, span, source_of, first_step)
    }

    /// [`LackpyService::run_program`] under its `lackpy.run` span.
    async fn run_program_in(
        &self,
        request: RunProgram,
        span: &tracing::Span,
    ) -> Result<ExecutionResult, ServiceError> {
        let started = Instant::now();
        let plan = plan::plan(self, &request)?;
        crate::telemetry::run_span::record_profile(span, plan.ns.profile.as_deref());
        let module = match parse(&request.program) {
            Ok(m) => m,
            Err(e) => return Ok(rejected(&e, plan.grade, started)),
        };
        if let Some(failed) = plan.validate(&module, &request.params, started) {
            return Ok(failed);
        }
        let journal = match plan.journal(self, &request) {
            Ok(j) => j,
            Err(e) => {
                return Ok(ExecutionResult::failed(
                    "JournalError",
                    e,
                    plan.grade,
                    started.elapsed(),
                ));
            }
        };
        let run_id = journal.as_ref().map(|j| j.run_id.clone());
        let cancel = request.control.token();
        let tools = match &request.control.observer {
            Some(o) => observe::observed(plan.tools, o, 0),
            None => plan.tools,
        };
        let tools = self.traced_tools(tools, &plan.ns, span, 0);
        let run = RunRequest {
            module: Arc::new(module),
            journal: journal.as_ref().map(|j| j.bridge_journal(Vec::new())),
            tools,
            params: request.params,
            limits: plan.limits,
            default_call_timeout: None,
            workspace: self.inner.base.workspace.clone(),
            variables: request.variables,
            teardown: request.teardown,
            output_value: request.output_value,
            approvals: lackpy_bridge::Approvals {
                approver: request.approver.map(|a| a.0),
                timeout: plan.approval_timeout,
                decided: None,
            },
            run_id,
        };
        let mut result = execute::run_journaled(self, run, cancel, journal).await;
        result.duration = started.elapsed();
        Ok(result)
    }

    /// The resumable runs of this workspace, newest first.
    pub fn runs(&self) -> Vec<crate::runs::RunInfo> {
        self.inner.base.runs.list()
    }

    /// Every tool with its candidates, provenance, grade and availability.
    pub fn tools(&self) -> Vec<ToolListing> {
        self.toolbox.listing()
    }

    /// The namespace a profile (or the default) gives, with the prompt lines.
    pub fn profile_info(&self, profile: Option<&str>) -> Result<ProfileInfo, ServiceError> {
        let ns = self.namespace(None, profile)?;
        let names: Vec<String> = ns.entries.iter().map(|(_, t)| t.clone()).collect();
        Ok(ProfileInfo {
            grade: self.toolbox.grade(&names),
            description: self.toolbox.format_description(&names),
            namespace: ns,
        })
    }

    /// The service's state: workspace, config, limits, tools, MCP servers
    /// and model tiers (not asked whether they answer; see
    /// [`status_probed`](Self::status_probed)).
    pub fn status(&self) -> Status {
        status::build(self, self.providers())
    }

    /// [`status`](Self::status), each model endpoint asked whether it
    /// answers.
    pub async fn status_probed(&self) -> Status {
        let providers = self.providers_probed().await;
        status::build(self, providers)
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

    /// The prompt lines of the namespace a call without tools or profile
    /// gets (one line per available tool).
    pub fn default_namespace_description(&self) -> String {
        match self.profile_info(None) {
            Ok(info) => info.description,
            Err(_) => String::new(),
        }
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

/// What a profile gives a program.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ProfileInfo {
    /// The resolved namespace.
    pub namespace: Namespace,
    /// The grade of its tools.
    pub grade: lackpy_lang::Grade,
    /// One prompt line per tool.
    pub description: String,
}

/// A toolbox with the local sources of `config` (defaults, virtual,
/// command and Python tools), or the config's error.
fn local_toolbox(
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

/// A program that does not parse: a `ValidationError` result.
fn rejected(error: &ParseError, grade: Grade, started: Instant) -> ExecutionResult {
    let mut r = ExecutionResult::failed(
        ExceptionKind::ValidationError.name(),
        format!("Validation failed: {error}"),
        grade,
        started.elapsed(),
    );
    r.error_line = Some(error.line);
    r
}
