//! What every command shares: the workspace, the runtime, the service, logging.

use std::future::Future;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use lackpy_mcp_client::{DiscoveryEvent, ProgressHook};
use tracing_subscriber::EnvFilter;

use super::CliError;
use crate::service::{LackpyService, ServiceOptions};

/// `--workspace DIR`.
#[derive(Debug, Clone, Args)]
pub struct WorkspaceArg {
    /// The workspace directory (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub workspace: Option<PathBuf>,
}

impl WorkspaceArg {
    /// The workspace path.
    pub fn path(&self) -> Result<PathBuf, CliError> {
        match &self.workspace {
            Some(p) => Ok(p.clone()),
            None => std::env::current_dir()
                .map_err(|e| CliError::usage(format!("cannot read the current directory: {e}"))),
        }
    }
}

/// Logs go to stderr: warnings always, more with `-v`; `RUST_LOG` overrides.
pub fn init_logging(verbose: u8) {
    let default = match verbose {
        0 => "warn",
        1 => "info",
        _ => "debug",
    };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_target(verbose > 1)
        .without_time()
        .try_init();
}

/// Runs `f` on a runtime made for this command. SIGINT or SIGTERM ends it
/// at once, after killing every MCP server's process group (no orphans).
pub fn block_on<F: Future>(f: F) -> Result<F::Output, CliError> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::usage(format!("cannot start the async runtime: {e}")))?;
    rt.block_on(async {
        tokio::select! {
            out = f => Ok(out),
            (name, code) = signalled() => {
                lackpy_mcp_client::kill_all_servers();
                Err(CliError { message: format!("interrupted by {name}"), code })
            }
        }
    })
}

/// Waits for SIGINT or SIGTERM: the signal's name and the exit code for it.
async fn signalled() -> (&'static str, u8) {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut int), Ok(mut term)) = (
        signal(SignalKind::interrupt()),
        signal(SignalKind::terminate()),
    ) else {
        // No signal handling available: never fire.
        return std::future::pending().await;
    };
    tokio::select! {
        _ = int.recv() => ("SIGINT", 130),
        _ = term.recv() => ("SIGTERM", 143),
    }
}

/// Starts the service for `workspace`, drawing MCP discovery progress on a
/// terminal's stderr (nothing when stderr is piped).
pub async fn start_service(workspace: PathBuf) -> Result<LackpyService, CliError> {
    let progress: Option<ProgressHook> = std::io::stderr().is_terminal().then(|| {
        Arc::new(|e: &DiscoveryEvent| {
            let mut err = std::io::stderr().lock();
            let _ = match e {
                DiscoveryEvent::Started { total } => {
                    write!(err, "\rconnecting {total} MCP servers…")
                }
                DiscoveryEvent::Ready { done, total, .. }
                | DiscoveryEvent::Failed { done, total, .. } => {
                    write!(err, "\rconnecting MCP servers: {done}/{total}")
                }
                DiscoveryEvent::Finished { .. } => write!(err, "\r\x1b[2K"),
            };
            let _ = err.flush();
        }) as ProgressHook
    });
    Ok(LackpyService::start(ServiceOptions {
        workspace,
        progress,
        ..ServiceOptions::default()
    })
    .await?)
}

/// Prints one JSON object on stdout.
pub fn print_json<T: serde::Serialize>(value: &T) -> Result<(), CliError> {
    let text = serde_json::to_string(value)
        .map_err(|e| CliError::usage(format!("cannot encode the result: {e}")))?;
    println!("{text}");
    Ok(())
}
