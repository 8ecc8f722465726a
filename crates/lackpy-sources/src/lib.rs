//! Tool sources for lackpy.
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
//! * The model: [`ToolSpec`], [`ArgSpec`], [`Provider`] ([`model`]); the
//!   callable side: [`Tool`], [`CallContext`], [`ToolAnswer`] ([`tool`]);
//!   failures: [`ToolError`] ([`error`]); Python-style argument binding
//!   ([`binding`]).
//! * [`ToolSource`] ([`source`]) and the [`Toolbox`] ([`toolbox`]) that
//!   merges sources under bare names by [`Precedence`] ([`precedence`]),
//!   keeping shadowed candidates so a name resolves to the highest one
//!   available now.
//! * The config file ([`config`]) and the shipped defaults ([`defaults`]);
//!   [`add_local_sources`] puts them into a toolbox.
//! * Which names a tool may have: [`naming`], shared with the MCP client.
//! * Sources: [`ConfigToolSource`] (builtin, command and Python tools),
//!   [`VirtualToolSource`] (harness-provided tools), with the builtin file
//!   tools ([`builtin`], confined to the workspace and kept off the paths it
//!   trusts by a [`FilePolicy`]), [`CommandTool`] ([`command`]) and the
//!   Python worker ([`python`]).
//! * For the MCP client: server descriptors from own config and host
//!   config files ([`mcp_server`], [`host_config`], [`expand`]) and grades
//!   from MCP annotations ([`annotations`]).
//!
//! # Calling a tool
//!
//! ```
//! use lackpy_sources::config::Config;
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

pub mod annotations;
pub mod binding;
mod bounded_file;
pub mod builtin;
pub mod command;
pub mod config;
pub mod config_source;
pub mod defaults;
pub mod error;
pub mod expand;
pub mod host_config;
pub mod local;
pub mod mcp_server;
pub mod model;
pub mod naming;
pub mod precedence;
pub mod process;
pub mod python;
pub mod source;
pub mod tool;
pub mod toolbox;
pub mod virtual_tools;

pub use annotations::{ToolAnnotations, apply_grade_override, grade_from_annotations};
pub use binding::bind_args;
pub use builtin::FilePolicy;
pub use command::CommandTool;
pub use config::{Config, ConfigError, ConfigWarning, LoadedConfig, load_config, parse_config};
pub use config_source::ConfigToolSource;
pub use error::{ToolError, ToolErrorKind};
pub use expand::{ExpandContext, ExpandError};
pub use host_config::{HostServers, read_host_configs};
pub use local::add_local_sources;
pub use mcp_server::{McpServerDescriptor, McpTransport, Provenance, own_servers};
pub use model::{ArgSpec, Example, Provider, ToolSpec};
pub use precedence::Precedence;
pub use python::{CallLimits, PythonRuntime, PythonTool};
pub use source::ToolSource;
pub use tool::{CallContext, FileLog, FnTool, Tool, ToolAnswer, ToolFuture, ToolResult, tool_fn};
pub use toolbox::{CandidateInfo, ResolvedTool, ToolListing, Toolbox};
pub use virtual_tools::{HarnessResolver, VirtualToolSource};
