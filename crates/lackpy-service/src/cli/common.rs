//! What every command shares: the workspace, the runtime, the service, logging.

use std::future::Future;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use lackpy_mcp_client::{DiscoveryEvent, ProgressHook};
use nix::sys::signal::Signal;
use tracing_subscriber::EnvFilter;

use super::CliError;
use lackpy_service::{LackpyService, ServiceOptions};

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

/// Runs `f` on a runtime made for this command. A terminating signal
/// (see [`TERMINATING`]) ends it at once, after killing every child
/// process group (MCP servers, command tools, Python workers), with the
/// conventional status 128 + the signal's number.
pub fn block_on<F: Future>(f: F) -> Result<F::Output, CliError> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::usage(format!("cannot start the async runtime: {e}")))?;
    let out = rt.block_on(async {
        tokio::select! {
            out = f => Ok(out),
            (name, code) = signalled() => {
                lackpy_mcp_client::kill_all_servers();
                Err(CliError { message: format!("interrupted by {name}"), code })
            }
        }
    });
    if out.is_err() {
        // Do not wait for interpreter threads: their children are gone.
        rt.shutdown_background();
    }
    out
}

/// Every signal whose default action ends the process and that a program
/// may catch: lackpy catches them all so it never dies leaving children
/// behind. (`SIGPIPE` is ignored by Rust programs; a closed pipe is handled
/// where output is written. Faults such as `SIGSEGV` cannot be caught
/// safely; the parent-death signal covers them, as it covers `SIGKILL`.)
pub const TERMINATING: &[Signal] = &[
    Signal::SIGHUP,
    Signal::SIGINT,
    Signal::SIGQUIT,
    Signal::SIGTERM,
    Signal::SIGUSR1,
    Signal::SIGUSR2,
    Signal::SIGALRM,
    Signal::SIGVTALRM,
    Signal::SIGPROF,
    Signal::SIGXCPU,
    Signal::SIGXFSZ,
    Signal::SIGIO,
    Signal::SIGPWR,
];

/// Waits for any of [`TERMINATING`]: the signal's name and the exit code
/// for it (128 + its number).
async fn signalled() -> (&'static str, u8) {
    use tokio::signal::unix::{SignalKind, signal};
    let mut streams = Vec::with_capacity(TERMINATING.len());
    for &sig in TERMINATING {
        match signal(SignalKind::from_raw(sig as i32)) {
            Ok(s) => streams.push((sig.as_str(), sig as i32, s)),
            Err(e) => tracing::warn!("cannot listen for {sig}: {e}"),
        }
    }
    if streams.is_empty() {
        // No signal handling available: never fire.
        return std::future::pending().await;
    }
    std::future::poll_fn(|cx| {
        for (name, number, stream) in &mut streams {
            if stream.poll_recv(cx).is_ready() {
                let code = u8::try_from(128 + *number).unwrap_or(u8::MAX);
                return std::task::Poll::Ready((*name, code));
            }
        }
        std::task::Poll::Pending
    })
    .await
}

/// Starts the service for `workspace`, drawing MCP discovery progress on a
/// terminal's stderr (nothing when stderr is piped).
pub async fn start_service(workspace: PathBuf) -> Result<LackpyService, CliError> {
    let progress: Option<ProgressHook> = std::io::stderr().is_terminal().then(|| {
        Arc::new(|e: &DiscoveryEvent| {
            let text = match e {
                DiscoveryEvent::Started { total } => {
                    format!("\rconnecting {total} MCP servers…")
                }
                DiscoveryEvent::Ready { done, total, .. }
                | DiscoveryEvent::Failed { done, total, .. } => {
                    format!("\rconnecting MCP servers: {done}/{total}")
                }
                DiscoveryEvent::Finished { .. } => "\r\x1b[2K".to_string(),
            };
            super::output::err(&text);
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
    super::output::out_line(&text);
    Ok(())
}
