//! The typed shape of `.lackpy/config.toml`.
//!
//! Every key of tools.md is here: lackpy's own (`[profile]`, `[profiles.*]`,
//! `[[tools]]`, `[[virtual_tools]]`, `[mcp_servers.*]`, `[mcp]`) plus ours
//! (`[limits]`, the MCP timeouts, `enabled`, `include`/`exclude`, per-tool
//! overrides, the command tool's `env`/`timeout_ms`/`max_output_bytes`, a
//! profile's `limits`/`rules`/`policy`; `[policy]` and `[runs]` have their
//! own files).
//! lackpy's other sections (`[inference]`, `[kit]`, `[sandbox]`,
//! `[tool_providers]`) are accepted so a lackpy config loads unchanged;
//! this crate does not use them.
//!
//! Checks that need more than one key (a command tool needs `command`, an
//! MCP server needs `command` or `url`) run while the table is read, so
//! their errors carry the table's line like any type error.

use std::fmt;

use lackpy_lang::Grade;
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Unexpected, Visitor};

use super::ordered::OrderedMap;
use super::policy_schema::{PolicyRules, PolicySection};
use super::runs::RunsSection;
use super::telemetry::TelemetrySection;
use super::values::rule_names;
use crate::builtin;
use crate::model::{ArgSpec, Example, Provider, ToolSpec};
use crate::naming;

/// The whole file.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Config {
    /// `[profile]`: which profile a call without one uses.
    pub profile: ProfileSection,
    /// `[profiles.<name>]`.
    pub profiles: OrderedMap<Profile>,
    /// `[limits]` (ours): defaults for every run.
    pub limits: LimitsSection,
    /// `[[tools]]`: config tools (precedence 20).
    pub tools: Vec<ToolDef>,
    /// `[[virtual_tools]]` or `[virtual_tools.<name>]` (precedence 7).
    pub virtual_tools: VirtualTools,
    /// `[mcp_servers.<id>]`: own MCP servers (precedence 5).
    pub mcp_servers: OrderedMap<McpServerConfig>,
    /// `[mcp]`.
    pub mcp: McpSection,
    /// `[files]` (ours): the file tools' protected paths and read cap.
    pub files: FilesSection,
    /// `[server]` (ours): `lackpy mcp serve`.
    pub server: ServerSection,
    /// `[policy]` (ours): grade ceilings and approval.
    pub policy: PolicySection,
    /// `[runs]` (ours): run journals.
    pub runs: RunsSection,
    /// `[telemetry]` (ours): what exported traces carry.
    pub telemetry: TelemetrySection,
    /// lackpy's `[inference]`, accepted and not used here.
    pub inference: InferenceSection,
    /// lackpy's `[kit]`, accepted and not used here.
    pub kit: KitSection,
    /// lackpy's `[sandbox]`, accepted and not used here.
    pub sandbox: SandboxSection,
    /// lackpy's `[tool_providers.<name>]`, accepted and not used here.
    pub tool_providers: OrderedMap<toml::Table>,
}

/// `[profile]`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct ProfileSection {
    /// The profile used when a call names none; absent → all tools.
    pub default: Option<String>,
}

/// `[profiles.<name>]`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Profile {
    /// The profile's tools.
    pub tools: Option<ToolSelection>,
    /// Tools added on top of `tools`.
    pub extra_tools: Vec<String>,
    /// Limits of the profile's runs (ours), over `[limits]`.
    pub limits: Option<ProfileLimits>,
    /// Extra validation rules (ours): names `lackpy_lang` knows.
    #[serde(deserialize_with = "rule_names")]
    pub rules: Vec<String>,
    /// Policy of the profile's runs (ours): may only tighten `[policy]`.
    pub policy: Option<PolicyRules>,
}

/// `[profiles.<name>].limits` (ours): each key absent keeps `[limits]`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct ProfileLimits {
    /// Wall-clock limit of a run.
    pub timeout_ms: Option<u64>,
    /// Interpreter step limit.
    pub max_steps: Option<u64>,
    /// Memory limit of a run's values.
    pub max_memory_mb: Option<u64>,
    /// Trace entries a run keeps; at most `[limits]`'s (a config error
    /// otherwise).
    pub max_trace_entries: Option<u64>,
}

/// A profile's tool list in lackpy's grammar: a name, a list of names, a
/// table of `alias = "tool"`, or `"none"`.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolSelection {
    /// These tools under their own names (`"none"` is the empty list).
    Names(Vec<String>),
    /// Programs call `alias`, which runs `tool`: `(alias, tool)` pairs.
    Aliases(Vec<(String, String)>),
}

impl<'de> Deserialize<'de> for ToolSelection {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ToolSelection;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a tool name, a list of tool names, a table of aliases or \"none\"")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<ToolSelection, E> {
                Ok(ToolSelection::Names(if v == "none" {
                    Vec::new()
                } else {
                    vec![v.to_string()]
                }))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ToolSelection, A::Error> {
                let mut names = Vec::new();
                while let Some(n) = seq.next_element::<String>()? {
                    names.push(n);
                }
                Ok(ToolSelection::Names(names))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ToolSelection, A::Error> {
                let mut pairs = Vec::new();
                while let Some(alias) = map.next_key::<String>()? {
                    pairs.push((alias, map.next_value::<String>()?));
                }
                Ok(ToolSelection::Aliases(pairs))
            }
        }
        d.deserialize_any(V)
    }
}

/// `[limits]` (ours): defaults for every run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct LimitsSection {
    /// Wall-clock limit of a run.
    pub timeout_ms: Option<u64>,
    /// Interpreter step limit.
    pub max_steps: Option<u64>,
    /// Memory limit of a run's values.
    pub max_memory_mb: Option<u64>,
    /// Trace entries a run keeps (the first half and the last half; the
    /// calls between are summarised). 0 keeps only the summary.
    pub max_trace_entries: Option<u64>,
}

/// `[files]` (ours): what the builtin file tools may touch.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct FilesSection {
    /// Workspace-relative paths added to the protected set (never written;
    /// a directory protects everything below it).
    pub protected: Vec<String>,
    /// `true` lifts the built-in protected set for writes (logged at WARN);
    /// `protected` above still holds.
    pub allow_protected_writes: bool,
    /// The largest file `read_file` / `edit_file` read, in bytes.
    pub max_read_bytes: Option<u64>,
    /// `true` lets `write_file` / `edit_file` write a regular file that has
    /// more than one hard link (one of which may lie outside the workspace).
    pub allow_hardlinks: bool,
}

/// `[server]` (ours): how `lackpy mcp serve` admits runs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct ServerSection {
    /// At most this many programs run at once (default 64).
    pub max_concurrent_runs: Option<usize>,
    /// At most this many more wait for a slot; past that a call is
    /// answered `Busy` at once (default 256).
    pub max_queued_runs: Option<usize>,
    /// At most this many HTTP sessions are open; past it the least
    /// recently used idle one is closed, and an `initialize` is answered
    /// 503 when none is idle (default 1024).
    pub max_sessions: Option<usize>,
    /// An HTTP request's headers must arrive within this many
    /// milliseconds; past it, a body must have arrived at 1 KiB/s on
    /// average (default 10000; `--header-timeout-ms` overrides).
    pub header_timeout_ms: Option<u64>,
    /// At most this many HTTP connections are open at once (default 4096,
    /// never above the open-file limit less a quarter); past it a newcomer
    /// closes the oldest connection that has not sent a request head yet.
    pub max_connections: Option<usize>,
    /// `true` does what `lackpy mcp serve --watch` does: the config's
    /// files are watched and the inventory built again when they change.
    pub watch: Option<bool>,
}

/// A grade component, 0 to 3.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Level(pub u8);

impl<'de> Deserialize<'de> for Level {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Level, D::Error> {
        struct V;
        const EXPECTED: &str = "a grade level from 0 to 3";
        impl Visitor<'_> for V {
            type Value = Level;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(EXPECTED)
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Level, E> {
                match u8::try_from(v) {
                    Ok(n) if n <= 3 => Ok(Level(n)),
                    _ => Err(E::invalid_value(Unexpected::Signed(v), &EXPECTED)),
                }
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Level, E> {
                match u8::try_from(v) {
                    Ok(n) if n <= 3 => Ok(Level(n)),
                    _ => Err(E::invalid_value(Unexpected::Unsigned(v), &EXPECTED)),
                }
            }
        }
        d.deserialize_i64(V)
    }
}

fn worst_level() -> Level {
    Level(3)
}

fn any_type() -> String {
    "Any".to_string()
}

fn python_provider() -> String {
    "python".to_string()
}

/// How a config tool is implemented.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolImpl {
    /// `provider = "builtin"`: a native tool named by `function`.
    Builtin {
        /// The builtin's name in the registry.
        function: String,
    },
    /// `provider = "command"`: a program run without a shell.
    Command(CommandDef),
    /// `provider = "python"`: `module.function` in the Python worker.
    Python {
        /// The module to import (the workspace is on `sys.path`).
        module: String,
        /// The function to call.
        function: String,
        /// Per-call time limit; the default when absent.
        timeout_ms: Option<u64>,
        /// The largest reply (the result as JSON) accepted, in bytes; the
        /// default when absent.
        max_output_bytes: Option<u64>,
    },
}

/// A command tool's settings.
#[derive(Debug, Clone, PartialEq)]
pub struct CommandDef {
    /// The argv; `argv[0]` is looked up on `PATH` unless it holds a `/`
    /// (then it is relative to the workspace).
    pub argv: Vec<String>,
    /// Variables added to the minimal environment.
    pub env: Vec<(String, String)>,
    /// Per-call time limit; the default when absent.
    pub timeout_ms: Option<u64>,
    /// Largest stdout accepted; the default when absent.
    pub max_output_bytes: Option<u64>,
}

/// One `[[tools]]` entry: a full spec plus how to run it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "RawToolDef")]
pub struct ToolDef {
    /// The bare name.
    pub name: String,
    /// One line for prompts.
    pub description: String,
    /// Display type of the result.
    pub returns: String,
    /// Declared arguments.
    pub args: Vec<ArgSpec>,
    /// `(grade_w, effects_ceiling)`.
    pub grade: Grade,
    /// Usage examples.
    pub examples: Vec<Example>,
    /// Documentation reference.
    pub docs: Option<String>,
    /// How it runs.
    pub implementation: ToolImpl,
}

impl ToolDef {
    /// The tool's spec.
    pub fn spec(&self) -> ToolSpec {
        let provider = match self.implementation {
            ToolImpl::Builtin { .. } => Provider::Builtin,
            ToolImpl::Command(_) => Provider::Command,
            ToolImpl::Python { .. } => Provider::Python,
        };
        ToolSpec {
            name: self.name.clone(),
            provider,
            description: self.description.clone(),
            args: self.args.clone(),
            returns: self.returns.clone(),
            grade: self.grade,
            examples: self.examples.clone(),
            docs: self.docs.clone(),
        }
    }
}

/// lackpy's `provider_config = { module, function }`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
struct ProviderConfig {
    module: Option<String>,
    function: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(super) struct RawToolDef {
    name: String,
    #[serde(default = "python_provider")]
    provider: String,
    #[serde(default)]
    description: String,
    #[serde(default = "any_type")]
    returns: String,
    #[serde(default = "worst_level")]
    grade_w: Level,
    #[serde(default = "worst_level")]
    effects_ceiling: Level,
    #[serde(default)]
    args: Vec<ArgSpec>,
    #[serde(default)]
    examples: Vec<Example>,
    #[serde(default)]
    docs: Option<String>,
    #[serde(default)]
    module: Option<String>,
    #[serde(default)]
    function: Option<String>,
    #[serde(default)]
    provider_config: Option<ProviderConfig>,
    #[serde(default)]
    command: Option<Vec<String>>,
    #[serde(default)]
    env: OrderedMap<String>,
    #[serde(default)]
    timeout_ms: Option<u64>,
    #[serde(default)]
    max_output_bytes: Option<u64>,
}

impl TryFrom<RawToolDef> for ToolDef {
    type Error = String;

    fn try_from(raw: RawToolDef) -> Result<ToolDef, String> {
        let name = raw.name;
        if let Some(why) = naming::tool_name_problem(&name) {
            return Err(why);
        }
        let pc = raw.provider_config.unwrap_or_default();
        let module = raw.module.or(pc.module);
        let function = raw.function.or(pc.function);
        let implementation = match raw.provider.as_str() {
            "builtin" => {
                let function = function.unwrap_or_else(|| name.clone());
                if !builtin::is_builtin(&function) {
                    return Err(format!(
                        "tool '{name}': unknown builtin function '{function}' (known: {})",
                        builtin::names().join(", ")
                    ));
                }
                ToolImpl::Builtin { function }
            }
            "command" => {
                let argv = raw.command.unwrap_or_default();
                if argv.is_empty() || argv[0].is_empty() {
                    return Err(format!(
                        "tool '{name}': a command tool needs `command = [\"program\", \"arg\", …]`"
                    ));
                }
                ToolImpl::Command(CommandDef {
                    argv,
                    env: raw.env.0,
                    timeout_ms: raw.timeout_ms,
                    max_output_bytes: raw.max_output_bytes,
                })
            }
            "python" => match (module, function) {
                (Some(module), Some(function)) if !module.is_empty() && !function.is_empty() => {
                    ToolImpl::Python {
                        module,
                        function,
                        timeout_ms: raw.timeout_ms,
                        max_output_bytes: raw.max_output_bytes,
                    }
                }
                _ => {
                    return Err(format!(
                        "tool '{name}': a python tool needs `module` and `function`"
                    ));
                }
            },
            other => {
                return Err(format!(
                    "tool '{name}': unknown provider '{other}' (expected builtin, command or python)"
                ));
            }
        };
        Ok(ToolDef {
            name,
            description: raw.description,
            returns: raw.returns,
            args: raw.args,
            grade: Grade::new(raw.grade_w.0, raw.effects_ceiling.0),
            examples: raw.examples,
            docs: raw.docs,
            implementation,
        })
    }
}

/// One virtual tool: fully declared here, implemented by the harness.
#[derive(Debug, Clone, PartialEq)]
pub struct VirtualToolDef {
    /// The bare name.
    pub name: String,
    /// One line for prompts.
    pub description: String,
    /// Declared arguments.
    pub args: Vec<ArgSpec>,
    /// Display type of the result.
    pub returns: String,
    /// `(grade_w, effects_ceiling)`.
    pub grade: Grade,
    /// Usage examples.
    pub examples: Vec<Example>,
    /// Documentation reference.
    pub docs: Option<String>,
}

impl VirtualToolDef {
    /// The tool's spec.
    pub fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: self.name.clone(),
            provider: Provider::Virtual,
            description: self.description.clone(),
            args: self.args.clone(),
            returns: self.returns.clone(),
            grade: self.grade,
            examples: self.examples.clone(),
            docs: self.docs.clone(),
        }
    }
}

#[derive(Debug, Deserialize)]
pub(super) struct RawVirtualToolDef {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    description: String,
    #[serde(default)]
    args: Vec<ArgSpec>,
    #[serde(default = "any_type")]
    returns: String,
    #[serde(default = "worst_level")]
    grade_w: Level,
    #[serde(default = "worst_level")]
    effects_ceiling: Level,
    #[serde(default)]
    examples: Vec<Example>,
    #[serde(default)]
    docs: Option<String>,
}

impl RawVirtualToolDef {
    fn finish(self, name: String) -> VirtualToolDef {
        VirtualToolDef {
            name,
            description: self.description,
            args: self.args,
            returns: self.returns,
            grade: Grade::new(self.grade_w.0, self.effects_ceiling.0),
            examples: self.examples,
            docs: self.docs,
        }
    }
}

/// `[[virtual_tools]]` (an array of tables with `name`) or
/// `[virtual_tools.<name>]` (tables keyed by name), in file order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VirtualTools(pub Vec<VirtualToolDef>);

impl<'de> Deserialize<'de> for VirtualTools {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = VirtualTools;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an array of tables ([[virtual_tools]]) or tables keyed by name ([virtual_tools.<name>])")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<VirtualTools, A::Error> {
                let mut out = Vec::new();
                while let Some(def) = seq.next_element_seed(NamedVirtual { key: None })? {
                    out.push(def);
                }
                Ok(VirtualTools(out))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<VirtualTools, A::Error> {
                let mut out = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    out.push(map.next_value_seed(NamedVirtual { key: Some(key) })?);
                }
                Ok(VirtualTools(out))
            }
        }
        d.deserialize_any(V)
    }
}

/// Reads one virtual tool table and settles its name against the table key
/// (when keyed), so errors point at that table.
struct NamedVirtual {
    key: Option<String>,
}

impl<'de> de::DeserializeSeed<'de> for NamedVirtual {
    type Value = VirtualToolDef;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<VirtualToolDef, D::Error> {
        let raw = RawVirtualToolDef::deserialize(d)?;
        let name = match (self.key, &raw.name) {
            (None, None) => return Err(de::Error::missing_field("name")),
            (None, Some(n)) => n.clone(),
            (Some(key), Some(inner)) if *inner != key => {
                return Err(de::Error::custom(format!(
                    "[virtual_tools.{key}] has name = '{inner}'; the table name and `name` must agree"
                )));
            }
            (Some(key), _) => key,
        };
        if let Some(why) = naming::tool_name_problem(&name) {
            return Err(de::Error::custom(why));
        }
        Ok(raw.finish(name))
    }
}

/// How to reach an MCP server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransportKind {
    /// A child process speaking over stdin/stdout.
    Stdio,
    /// Streamable HTTP.
    Http,
}

/// `[mcp_servers.<id>.tools.<name>]`: overrides for one discovered tool.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct McpToolOverride {
    /// Grade override; a missing component keeps the derived one.
    pub grade: Option<GradeOverride>,
    /// Description override.
    pub description: Option<String>,
    /// Examples for prompts.
    pub examples: Vec<Example>,
}

/// A full or partial grade override.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct GradeOverride {
    /// World coupling.
    pub w: Option<Level>,
    /// Effects ceiling.
    pub d: Option<Level>,
}

/// `[mcp_servers.<id>]`: one own MCP server. Values are kept as written;
/// `${VAR}` expansion happens when a descriptor is built
/// ([`crate::mcp_server::McpServerDescriptor::from_config`]).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "RawMcpServer")]
pub struct McpServerConfig {
    /// stdio or http (inferred from `command` / `url` when absent).
    pub transport: TransportKind,
    /// stdio: the program.
    pub command: Option<String>,
    /// stdio: its arguments.
    pub args: Vec<String>,
    /// stdio: variables added to its minimal environment.
    pub env: Vec<(String, String)>,
    /// stdio: working directory, relative to the workspace.
    pub cwd: Option<String>,
    /// http: the endpoint.
    pub url: Option<String>,
    /// http: request headers.
    pub headers: Vec<(String, String)>,
    /// Connect + discovery time limit.
    pub connect_timeout_ms: Option<u64>,
    /// Per-call time limit.
    pub call_timeout_ms: Option<u64>,
    /// `false` skips the server.
    pub enabled: bool,
    /// Only these tools, when given.
    pub include: Option<Vec<String>>,
    /// Never these tools.
    pub exclude: Vec<String>,
    /// Per-tool overrides.
    pub tools: Vec<(String, McpToolOverride)>,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Deserialize)]
pub(super) struct RawMcpServer {
    #[serde(default)]
    transport: Option<String>,
    #[serde(default)]
    command: Option<String>,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    env: OrderedMap<String>,
    #[serde(default)]
    cwd: Option<String>,
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    headers: OrderedMap<String>,
    #[serde(default)]
    connect_timeout_ms: Option<u64>,
    #[serde(default)]
    call_timeout_ms: Option<u64>,
    #[serde(default = "yes")]
    enabled: bool,
    #[serde(default)]
    include: Option<Vec<String>>,
    #[serde(default)]
    exclude: Vec<String>,
    #[serde(default)]
    tools: OrderedMap<McpToolOverride>,
}

impl TryFrom<RawMcpServer> for McpServerConfig {
    type Error = String;

    fn try_from(raw: RawMcpServer) -> Result<McpServerConfig, String> {
        let transport = match raw.transport.as_deref() {
            Some("stdio") => TransportKind::Stdio,
            Some("http" | "streamable-http") => TransportKind::Http,
            Some(other) => {
                return Err(format!(
                    "unknown transport '{other}' (expected stdio or http)"
                ));
            }
            None => match (&raw.command, &raw.url) {
                (Some(_), None) => TransportKind::Stdio,
                (None, Some(_)) => TransportKind::Http,
                (Some(_), Some(_)) => {
                    return Err(
                        "both `command` and `url` are set; add `transport = \"stdio\"` or `\"http\"`"
                            .to_string(),
                    );
                }
                (None, None) => {
                    return Err("an MCP server needs `command` (stdio) or `url` (http)".to_string());
                }
            },
        };
        match transport {
            TransportKind::Stdio if raw.command.as_deref().is_none_or(str::is_empty) => {
                return Err("a stdio MCP server needs `command`".to_string());
            }
            TransportKind::Http if raw.url.as_deref().is_none_or(str::is_empty) => {
                return Err("an http MCP server needs `url`".to_string());
            }
            _ => {}
        }
        Ok(McpServerConfig {
            transport,
            command: raw.command,
            args: raw.args,
            env: raw.env.0,
            cwd: raw.cwd,
            url: raw.url,
            headers: raw.headers.0,
            connect_timeout_ms: raw.connect_timeout_ms,
            call_timeout_ms: raw.call_timeout_ms,
            enabled: raw.enabled,
            include: raw.include,
            exclude: raw.exclude,
            tools: raw.tools.0,
        })
    }
}

/// `[mcp]`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct McpSection {
    /// Host config files (`~` and `${VAR}` expanded when read).
    pub host_configs: Vec<String>,
    /// The deadline for discovering every MCP server at start, in
    /// milliseconds (30,000 when absent); a server still connecting then
    /// is unavailable with its reason.
    pub discovery_timeout_ms: Option<u64>,
}

/// lackpy's `[inference]`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct InferenceSection {
    /// Inference tiers in order.
    pub order: Option<Vec<String>>,
    /// Inference mode.
    pub mode: Option<String>,
    /// `[inference.providers.<name>]` tables.
    pub providers: OrderedMap<toml::Table>,
}

/// lackpy's `[kit]`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct KitSection {
    /// The default kit.
    pub default: Option<String>,
}

/// lackpy's `[sandbox]`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct SandboxSection {
    /// Whether lackpy's sandbox is on.
    pub enabled: Option<bool>,
    /// Its timeout.
    pub timeout_seconds: Option<u64>,
    /// Its memory limit.
    pub memory_mb: Option<u64>,
}
