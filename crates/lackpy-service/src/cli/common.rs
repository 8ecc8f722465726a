//! What every command shares: the workspace, the runtime, the service, logging.

use std::future::Future;
use std::io::IsTerminal;
use std::path::PathBuf;

use clap::Args;
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

/// Runs `f` on a runtime made for this command.
pub fn block_on<F: Future>(f: F) -> Result<F::Output, CliError> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::usage(format!("cannot start the async runtime: {e}")))?;
    Ok(rt.block_on(f))
}

/// Starts the service for `workspace`.
pub async fn start_service(workspace: PathBuf) -> Result<LackpyService, CliError> {
    Ok(LackpyService::start(ServiceOptions {
        workspace,
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
