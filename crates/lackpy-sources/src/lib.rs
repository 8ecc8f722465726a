#![doc = include_str!("../README.md")]
//!
//! # Design
//!
//! This crate owns the tool model (`ToolSpec`, `ArgSpec`, `Tool`), the toolbox
//! that merges sources by precedence, the `.lackpy/config.toml` file and the
//! local sources that need no network: builtin, command, python and virtual
//! tools. No tool name is hard-coded anywhere but in a source: the shipped
//! defaults are data (`default_tools.toml`), and the only place that names a
//! tool is the registry of builtin implementations.
//!
//! # Map
//!
//! * The model: [`ToolSpec`], [`ArgSpec`], [`Provider`]; the callable side:
//!   [`Tool`], [`CallContext`], [`ToolAnswer`]; failures: [`ToolError`];
//!   Python-style argument binding: [`bind_args`].
//! * [`ToolSource`] and the [`Toolbox`] that merges sources under bare
//!   names by [`Precedence`], keeping shadowed candidates so a name resolves
//!   to the highest one available now.
//! * The config file ([`Config`], read by [`load_config`]) and the shipped
//!   defaults ([`default_tools`]); [`add_local_sources`] puts them into a
//!   toolbox.
//! * What `[policy]` says about a tool: [`Policy::evaluate`] gives its
//!   [`PolicyState`] (allowed, needs approval, auto-approved, over a
//!   ceiling) by grade and [`ProvenanceKind`].
//! * Which names a tool may have: [`naming`], shared with the MCP client.
//! * Sources: [`ConfigToolSource`] (builtin, command and Python tools),
//!   [`VirtualToolSource`] (harness-provided tools), with the builtin file
//!   tools (confined to the workspace and kept off the paths it trusts by a
//!   [`FilePolicy`]), [`CommandTool`] and the Python worker
//!   ([`PythonRuntime`]).
//! * For the MCP client: server descriptors from own config and host
//!   config files ([`own_servers`], [`read_host_configs`], [`ExpandContext`])
//!   and grades from MCP annotations ([`grade_from_annotations`]); the
//!   child-process helpers it shares ([`process`]).
//!
//! # Calling a tool
//!
//! ```
//! use lackpy_sources::Config;
//! use lackpy_sources::lang::Data;
//! use lackpy_sources::{CallContext, PythonRuntime, Toolbox, add_local_sources};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut toolbox = Toolbox::new();
//! add_local_sources(&mut toolbox, &Config::default(), &PythonRuntime::new(), None)?;
//! let read = toolbox.resolve("read_file")?;
//! let ctx = CallContext::new(std::env::temp_dir());
//! let answer = read.tool.call(vec![Data::Str("no-such-file.txt".into())], vec![], &ctx).wait();
//! let err = answer.err().ok_or("expected an error")?;
//! assert_eq!(err.message(), "[Errno 2] No such file or directory: 'no-such-file.txt'");
//! assert_eq!(err.error_type(), "FileNotFoundError");
//! # Ok(())
//! # }
//! ```
#![forbid(unsafe_code)]

/// The language crate this layer builds on, re-exported for callers.
pub use lackpy_lang as lang;

mod annotations;
mod binding;
mod bounded_file;
mod builtin;
mod command;
mod config;
mod config_source;
mod defaults;
mod error;
mod expand;
mod grade_json;
mod host_config;
mod local;
mod mcp_server;
mod model;
pub mod naming;
mod policy;
mod precedence;
pub mod process;
mod python;
mod redact;
mod signature;
mod source;
mod tool;
mod toolbox;
mod virtual_tools;

pub use annotations::{ToolAnnotations, apply_grade_override, grade_from_annotations};
pub use binding::bind_args;
pub use builtin::{DEFAULT_MAX_READ_BYTES, FilePolicy, PROTECTED_NAMES};
pub use command::CommandTool;
pub use config::{
    CommandDef, Config, ConfigError, ConfigWarning, FilesSection, GradeOverride, InferenceSection,
    Level, LimitsSection, LoadedConfig, MAX_CONFIG_BYTES, MAX_NESTING, McpSection, McpServerConfig,
    McpToolOverride, OrderedMap, PolicyRules, PolicySection, Profile, ProfileLimits,
    ProfileSection, ProvenancePolicies, RunsSection, ServerSection, TelemetrySection, ToolDef,
    ToolImpl, ToolSelection, TransportKind, VirtualToolDef, VirtualTools, check_run_store,
    config_path, load_config, load_config_file, parse_config,
};
pub use config_source::ConfigToolSource;
pub use defaults::{DEFAULT_TOOLS_TOML, DEFAULTS_SOURCE, default_tools, defaults_source};
pub use error::{ToolError, ToolErrorKind};
pub use expand::{ExpandContext, ExpandError};
pub use grade_json::GradeJson;
pub use host_config::{
    HostServers, MAX_HOST_CONFIG_BYTES, MCP_PARENT_ENV, SkippedServer, UnreadableFile,
    parse_host_config, read_host_configs,
};
pub use local::{CONFIG_SOURCE, add_local_sources};
pub use mcp_server::{McpServerDescriptor, McpTransport, Provenance, own_servers};
pub use model::{ArgSpec, Example, Provider, ToolSpec};
pub use policy::{Policy, PolicyState, ProvenanceKind, over_ceiling_message};
pub use precedence::Precedence;
pub use python::{CallLimits, PythonRuntime, PythonTool};
pub use redact::{REDACTED, redact_urls};
pub use signature::{
    DESCRIPTION_BUDGET, MAX_CHOICES, MAX_NAME, MAX_PARAMS, MAX_TYPE, describe_within,
    first_sentence, fit_descriptions, is_parameter_name, literal, py_repr,
};
pub use source::ToolSource;
pub use tool::{CallContext, FileLog, FnTool, Tool, ToolAnswer, ToolFuture, ToolResult, tool_fn};
pub use toolbox::{CandidateInfo, ResolvedTool, ToolListing, Toolbox};
pub use virtual_tools::{HarnessResolver, VirtualToolSource};
