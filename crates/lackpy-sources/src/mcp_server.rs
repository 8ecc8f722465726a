//! [`McpServerDescriptor`]: an MCP server ready to connect to, whether it
//! comes from our own `[mcp_servers.<id>]` or from a host's config file.
//! The MCP client consumes these; this module only builds them (pure).

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use crate::config::{Config, McpServerConfig, McpToolOverride, TransportKind};
use crate::expand::{ExpandContext, ExpandError};
use crate::precedence::Precedence;

/// Where a server's definition came from; policy may trust host servers less.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Provenance {
    /// Our own `[mcp_servers.<id>]`.
    Own,
    /// A host config file (`[mcp].host_configs`).
    Host(PathBuf),
}

impl fmt::Display for Provenance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Provenance::Own => f.write_str("own"),
            Provenance::Host(file) => write!(f, "host:{}", file.display()),
        }
    }
}

/// How to reach a server, with every variable expanded.
#[derive(Clone, PartialEq, Eq)]
pub enum McpTransport {
    /// A child process speaking over stdin/stdout.
    Stdio {
        /// The program.
        command: String,
        /// Its arguments.
        args: Vec<String>,
        /// Variables added to its minimal environment (secret values).
        env: Vec<(String, String)>,
        /// Its working directory.
        cwd: Option<PathBuf>,
    },
    /// Streamable HTTP.
    Http {
        /// The endpoint.
        url: String,
        /// Request headers (secret values).
        headers: Vec<(String, String)>,
    },
}

/// Names only: values of `env` and `headers` are secrets.
fn keys(pairs: &[(String, String)]) -> Vec<&str> {
    pairs.iter().map(|(k, _)| k.as_str()).collect()
}

impl fmt::Debug for McpTransport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            McpTransport::Stdio {
                command,
                args,
                env,
                cwd,
            } => f
                .debug_struct("Stdio")
                .field("command", command)
                .field("args", args)
                .field("env_keys", &keys(env))
                .field("cwd", cwd)
                .finish(),
            McpTransport::Http { url, headers } => f
                .debug_struct("Http")
                .field("url", url)
                .field("header_names", &keys(headers))
                .finish(),
        }
    }
}

/// One server to connect to.
#[derive(Debug, Clone, PartialEq)]
pub struct McpServerDescriptor {
    /// The server id (`[mcp_servers.<id>]`, or the key in a host file).
    pub id: String,
    /// How to reach it.
    pub transport: McpTransport,
    /// Where it was defined.
    pub provenance: Provenance,
    /// The precedence its tools are added with.
    pub precedence: Precedence,
    /// Connect + discovery limit, when configured.
    pub connect_timeout: Option<Duration>,
    /// Per-call limit, when configured.
    pub call_timeout: Option<Duration>,
    /// Only these tools, when given.
    pub include: Option<Vec<String>>,
    /// Never these tools.
    pub exclude: Vec<String>,
    /// Per-tool overrides, by the server's tool name.
    pub tool_overrides: Vec<(String, McpToolOverride)>,
}

impl McpServerDescriptor {
    /// The name of the source its tools come from: `mcp:<id>`.
    pub fn source_name(&self) -> String {
        format!("mcp:{}", self.id)
    }

    /// The descriptor for own server `id`; `Ok(None)` when it is disabled,
    /// `Err` when a value cannot be expanded.
    pub fn from_config(
        id: &str,
        cfg: &McpServerConfig,
        ctx: &ExpandContext,
    ) -> Result<Option<McpServerDescriptor>, ExpandError> {
        if !cfg.enabled {
            return Ok(None);
        }
        let transport = match cfg.transport {
            TransportKind::Stdio => McpTransport::Stdio {
                command: ctx.expand_tilde(cfg.command.as_deref().unwrap_or_default())?,
                args: cfg
                    .args
                    .iter()
                    .map(|a| ctx.expand_tilde(a))
                    .collect::<Result<_, _>>()?,
                env: expand_pairs(&cfg.env, ctx)?,
                cwd: Some(ctx.expand_path(cfg.cwd.as_deref().unwrap_or("."))?),
            },
            TransportKind::Http => McpTransport::Http {
                url: ctx.expand(cfg.url.as_deref().unwrap_or_default())?,
                headers: expand_pairs(&cfg.headers, ctx)?,
            },
        };
        Ok(Some(McpServerDescriptor {
            id: id.to_string(),
            transport,
            provenance: Provenance::Own,
            precedence: Precedence::MCP,
            connect_timeout: cfg.connect_timeout_ms.map(Duration::from_millis),
            call_timeout: cfg.call_timeout_ms.map(Duration::from_millis),
            include: cfg.include.clone(),
            exclude: cfg.exclude.clone(),
            tool_overrides: cfg.tools.clone(),
        }))
    }

    /// The override for one of the server's tools.
    pub fn tool_override(&self, tool: &str) -> Option<&McpToolOverride> {
        self.tool_overrides
            .iter()
            .find(|(n, _)| n == tool)
            .map(|(_, o)| o)
    }

    /// Whether `include` / `exclude` let `tool` through.
    pub fn admits(&self, tool: &str) -> bool {
        let included = self
            .include
            .as_ref()
            .is_none_or(|list| list.iter().any(|t| t == tool));
        included && !self.exclude.iter().any(|t| t == tool)
    }
}

pub(crate) fn expand_pairs(
    pairs: &[(String, String)],
    ctx: &ExpandContext,
) -> Result<Vec<(String, String)>, ExpandError> {
    pairs
        .iter()
        .map(|(k, v)| Ok((k.clone(), ctx.expand(v)?)))
        .collect()
}

/// The descriptors of a config's own, enabled servers, in file order. A
/// server whose settings cannot be expanded is skipped with a WARN naming it
/// and the reason.
pub fn own_servers(config: &Config, ctx: &ExpandContext) -> Vec<McpServerDescriptor> {
    let mut out = Vec::new();
    for (id, cfg) in config.mcp_servers.iter() {
        match McpServerDescriptor::from_config(id, cfg, ctx) {
            Ok(Some(d)) => out.push(d),
            Ok(None) => tracing::info!(server = %id, "MCP server disabled in config"),
            Err(reason) => {
                tracing::warn!(server = %id, %reason, "MCP server skipped");
            }
        }
    }
    out
}
