//! `lackpy mcp serve`: lackpy as an MCP server (see `mcp_server`).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use clap::{Args, Subcommand};

use super::common::{WorkspaceArg, start_service};
use super::error::CliError;
use lackpy_service::{HttpOptions, LiveService, McpServer, ServeOptions, serve, watch_config};

/// Arguments of `lackpy mcp`.
#[derive(Debug, Args)]
pub struct McpArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: McpCommand,
}

/// The `lackpy mcp` subcommands.
#[derive(Debug, Subcommand)]
pub enum McpCommand {
    /// Serve lackpy over MCP: stdio by default, streamable HTTP with --http.
    #[command(after_help = SERVE_LIMITS)]
    Serve(ServeArgs),
    /// Add lackpy to an agent host's workspace config (Claude Code's
    /// `.mcp.json`, Cursor's, VS Code's), or print the snippet to paste.
    #[command(after_help = super::help::MCP_INIT)]
    Init(super::mcp_init::InitArgs),
}

/// The `[server]` limits, for `lackpy mcp serve --help`.
const SERVE_LIMITS: &str = "\
Limits ([server] in .lackpy/config.toml):
  max_concurrent_runs = 64   programs running at once
  max_queued_runs = 256      more waiting; past that a call is answered Busy
  max_sessions = 1024        open HTTP sessions; past it the least recently used
                             idle one is closed, and initialize gets HTTP 503
                             when every session has a run in flight
  header_timeout_ms = 10000  as --header-timeout-ms
  max_connections = 4096     open HTTP connections (never above the open-file
                             limit less a quarter); past it a newcomer closes
                             the oldest connection without a request head,
                             else waits for one to close
  watch = false              as --watch
Only /mcp is served (404 elsewhere). A malformed JSON-RPC body is HTTP 400
with error -32700 (not JSON) or -32600 (not a request). A client whose
connection closes (HTTP) or whose stdin ends (stdio) has its runs stopped.

Example:
  lackpy mcp serve --workspace ~/project --http 8765";

/// Arguments of `lackpy mcp serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub workspace: WorkspaceArg,
    /// Serve streamable HTTP on ADDR (`PORT`, `HOST:PORT`; the host
    /// defaults to 127.0.0.1) at path /mcp.
    #[arg(long, value_name = "ADDR")]
    pub http: Option<String>,
    /// Allow binding a non-loopback address (anyone who can reach it can
    /// run programs: use --auth-token-env too).
    #[arg(long, requires = "http")]
    pub allow_remote: bool,
    /// Also accept this Host header (repeatable), e.g. the name a
    /// non-loopback bind is reached by.
    #[arg(long = "allowed-host", value_name = "NAME", requires = "http")]
    pub allowed_hosts: Vec<String>,
    /// Require `Authorization: Bearer <value of NAME>` on every HTTP request.
    #[arg(long, value_name = "NAME", requires = "http")]
    pub auth_token_env: Option<String>,
    /// Largest HTTP request body, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = 4 * 1024 * 1024)]
    pub max_body_bytes: usize,
    /// Close an HTTP session idle this many seconds.
    #[arg(long, value_name = "SECS", default_value_t = 300)]
    pub session_idle_secs: u64,
    /// An HTTP request's headers must arrive within this many milliseconds
    /// (also the idle time of a kept-alive connection); past it, a body must
    /// have arrived at 1 KiB/s on average [default: `[server]
    /// header_timeout_ms`, else 10000].
    #[arg(long, value_name = "MS", requires = "http")]
    pub header_timeout_ms: Option<u64>,
    /// On SIGINT/SIGTERM, let running programs finish this long before
    /// stopping them, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub grace_ms: u64,
    /// Also serve /healthz, /readyz and /metrics on ADDR (`PORT`,
    /// `HOST:PORT`), without MCP and without the bearer token, with either
    /// transport.
    #[arg(long, value_name = "ADDR")]
    pub admin: Option<String>,
    /// Answer every HTTP request on its own, without sessions (no
    /// Mcp-Session-Id): any replica can answer any request. A call that
    /// needs approval pauses its run (no elicitation).
    #[arg(long, requires = "http")]
    pub stateless: bool,
    /// Watch .lackpy/ (the config, kits, templates) and the host config
    /// files, and use their new contents without a restart (also `[server]
    /// watch = true`); a config with errors is logged and the old one kept.
    #[arg(long)]
    pub watch: bool,
}

/// Runs `lackpy mcp ...`.
pub fn run(args: McpArgs) -> Result<u8, CliError> {
    match args.command {
        McpCommand::Serve(a) => serve_command(a),
        McpCommand::Init(a) => super::mcp_init::run(a),
    }
}

fn serve_command(args: ServeArgs) -> Result<u8, CliError> {
    let http = match &args.http {
        None => None,
        Some(addr) => Some(http_options(&args, addr)?),
    };
    let admin = match &args.admin {
        None => None,
        Some(text) => Some(admin_addr(text)?),
    };
    let workspace = args.workspace.path()?;
    let options = ServeOptions {
        http,
        grace: Duration::from_millis(args.grace_ms),
        admin,
    };
    // Runs wait on tools on blocking threads; the worker only moves
    // messages (and runs a program's first slice, bounded by the bridge),
    // so one serves many sessions. A second worker made each request wake
    // it across threads (a futex round trip per spawned task) for no gain.
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .map_err(|e| CliError::usage(format!("cannot start the async runtime: {e}")))?;
    let served = rt.block_on(async {
        let service = start_service(workspace).await?;
        let watch = args.watch || service.config().server.watch == Some(true);
        // MCP servers' tool changes are always followed; the config only
        // with --watch.
        let live = LiveService::new(service);
        live.follow_mcp();
        if watch {
            watch_config(&live).map_err(|e| CliError::usage(e.to_string()))?;
        }
        serve(McpServer::live(live), options)
            .await
            .map_err(CliError::usage)
    });
    // A read of a terminal or file stdin may still be blocked on a
    // runtime thread: do not wait for it.
    rt.shutdown_timeout(std::time::Duration::from_millis(100));
    served?;
    Ok(0)
}

fn http_options(args: &ServeArgs, addr: &str) -> Result<HttpOptions, CliError> {
    let addr = parse_addr(addr, "--http")?;
    if !addr.ip().is_loopback() {
        if !args.allow_remote {
            return Err(CliError::usage(format!(
                "--http {addr} is not a loopback address: add --allow-remote to serve other machines"
            )));
        }
        eprintln!(
            "warning: lackpy mcp serve is reachable from other machines on {addr}{}",
            if args.auth_token_env.is_some() {
                ""
            } else {
                "; anyone who reaches it can run programs (add --auth-token-env)"
            }
        );
    }
    let auth_token = match &args.auth_token_env {
        None => None,
        Some(name) => match std::env::var(name) {
            Ok(v) if !v.trim().is_empty() => Some(v.trim().to_string()),
            _ => {
                return Err(CliError::usage(format!(
                    "--auth-token-env {name}: the variable is not set or empty"
                )));
            }
        },
    };
    Ok(HttpOptions {
        addr,
        allowed_hosts: args.allowed_hosts.clone(),
        auth_token,
        max_body_bytes: args.max_body_bytes,
        session_idle: Duration::from_secs(args.session_idle_secs.max(1)),
        header_timeout: args.header_timeout_ms.map(Duration::from_millis),
        stateless: args.stateless,
    })
}

/// The `--admin` address; a non-loopback one is allowed (probes come
/// from other machines) with a warning: it answers without a token.
fn admin_addr(text: &str) -> Result<SocketAddr, CliError> {
    let addr = parse_addr(text, "--admin")?;
    if !addr.ip().is_loopback() {
        eprintln!(
            "warning: --admin {addr} serves health and metrics (tool and server names) to other machines without a token"
        );
    }
    Ok(addr)
}

/// `PORT` or `HOST:PORT`; a bare port binds 127.0.0.1. `flag` names the
/// option in the error.
fn parse_addr(text: &str, flag: &str) -> Result<SocketAddr, CliError> {
    if let Ok(port) = text.parse::<u16>() {
        return Ok(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port));
    }
    if let Ok(a) = text.parse::<SocketAddr>() {
        return Ok(a);
    }
    if let Some(port) = text.strip_prefix("localhost:")
        && let Ok(port) = port.parse::<u16>()
    {
        return Ok(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port));
    }
    Err(CliError::usage(format!(
        "{flag} expects PORT or HOST:PORT (an IP address), got '{text}'"
    )))
}
