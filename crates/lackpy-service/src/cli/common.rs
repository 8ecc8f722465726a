//! What every command shares: the workspace, the runtime, the service, logging.

use std::future::Future;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, OnceLock};

use clap::Args;
use lackpy_mcp_client::{DiscoveryEvent, ProgressHook};
use nix::sys::signal::Signal;
use tracing::level_filters::LevelFilter;
use tracing::span::{Attributes, Id, Record};
use tracing::subscriber::{Interest, Subscriber};
use tracing::{Dispatch, Event, Metadata};
use tracing_core::span::Current;
use tracing_subscriber::EnvFilter;

use super::error::CliError;
use super::log_format;
use lackpy_service::{LackpyService, ServiceOptions};

/// `--workspace DIR`.
#[derive(Debug, Clone, Args)]
pub struct WorkspaceArg {
    /// The workspace directory (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub workspace: Option<PathBuf>,
}

impl WorkspaceArg {
    /// The workspace path, without `.` components (`/ws/.` is `/ws`, so
    /// no message shows `/ws/./.lackpy/config.toml`).
    pub fn path(&self) -> Result<PathBuf, CliError> {
        match &self.workspace {
            Some(p) => Ok(without_dots(p)),
            None => std::env::current_dir()
                .map_err(|e| CliError::usage(format!("cannot read the current directory: {e}"))),
        }
    }
}

/// `-v`'s count, for the progress lines drawn outside the log.
static VERBOSE: AtomicU8 = AtomicU8::new(0);

/// `p` without its `.` components (a path of only `.` stays `.`).
pub fn without_dots(p: &std::path::Path) -> PathBuf {
    let kept: PathBuf = p
        .components()
        .filter(|c| !matches!(c, std::path::Component::CurDir))
        .collect();
    if kept.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        kept
    }
}

/// Logs go to stderr: warnings always; with `-v` our crates' progress as
/// short lines, with `-vv` their debug and the SDKs' info in the full
/// format; `RUST_LOG` overrides the filter.
pub fn init_logging(verbose: u8) {
    VERBOSE.store(verbose, Ordering::Relaxed);
    // Only parsed when set: a plain run builds no filter at all.
    let from_env = std::env::var_os("RUST_LOG")
        .is_some()
        .then(|| EnvFilter::try_from_default_env().ok())
        .flatten();
    #[cfg(feature = "otel")]
    let from_env = match lackpy_service::telemetry::Exporter::from_env() {
        Ok(None) => from_env,
        Ok(Some(exporter)) => return init_with_traces(verbose, from_env, exporter),
        Err(e) => {
            init_logging_only(verbose, from_env);
            tracing::warn!("{e}");
            return;
        }
    };
    init_logging_only(verbose, from_env);
}

/// The log subscriber alone (no traces exported).
fn init_logging_only(verbose: u8, from_env: Option<EnvFilter>) {
    if verbose == 0 && from_env.is_none() {
        // The filter is "warn", and most runs warn about nothing: the
        // formatting subscriber waits for the first warning.
        let _ = tracing::subscriber::set_global_default(WarnOnly::default());
        return;
    }
    let filter = from_env.unwrap_or_else(|| EnvFilter::new(log_format::filter_for(verbose)));
    if verbose == 1 {
        let _ = tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_writer((|| RedactingStderr) as fn() -> RedactingStderr)
            .with_ansi(std::io::stderr().is_terminal())
            .event_format(log_format::Human)
            .try_init();
    } else {
        let _ = fmt_subscriber(verbose, filter).try_init();
    }
}

/// The traces exporter `OTEL_*` asked for, kept to be flushed on exit.
#[cfg(feature = "otel")]
static EXPORTER: OnceLock<lackpy_service::telemetry::Exporter> = OnceLock::new();

/// Logs as [`init_logging_only`] does, and lackpy's spans exported by
/// `exporter` (each layer with its own filter: the log lines are the same
/// as without traces). Start-up work only a traced process does.
#[cfg(feature = "otel")]
fn init_with_traces(
    verbose: u8,
    from_env: Option<EnvFilter>,
    exporter: lackpy_service::telemetry::Exporter,
) {
    use tracing_subscriber::Layer;
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    let filter = from_env.unwrap_or_else(|| {
        EnvFilter::new(if verbose == 0 {
            "warn".to_string()
        } else {
            log_format::filter_for(verbose)
        })
    });
    let ansi = std::io::stderr().is_terminal();
    let writer = (|| RedactingStderr) as fn() -> RedactingStderr;
    let traces = exporter.layer();
    let registry = tracing_subscriber::registry().with(traces);
    let _ = if verbose == 1 {
        let logs = tracing_subscriber::fmt::layer()
            .with_writer(writer)
            .with_ansi(ansi)
            .event_format(log_format::Human)
            .with_filter(filter);
        registry.with(logs).try_init()
    } else {
        let logs = tracing_subscriber::fmt::layer()
            .with_writer(writer)
            .with_ansi(ansi)
            .with_target(verbose > 1)
            .without_time()
            .with_filter(filter);
        registry.with(logs).try_init()
    };
    let _ = EXPORTER.set(exporter);
}

/// Sends the spans not yet exported (the CLI's last step: a run's spans
/// end just before it exits, a server's at shutdown); nothing without an
/// exporter.
pub fn flush_traces() {
    #[cfg(feature = "otel")]
    if let Some(Err(e)) = EXPORTER.get().map(|x| x.shutdown()) {
        super::output::err_line(&format!("warning: traces not sent: {e}"));
    }
}

/// The `-v` count the command line was given.
pub fn verbosity() -> u8 {
    VERBOSE.load(Ordering::Relaxed)
}

/// The builder of the subscriber that writes the log lines.
type FmtBuilder = tracing_subscriber::fmt::SubscriberBuilder<
    tracing_subscriber::fmt::format::DefaultFields,
    tracing_subscriber::fmt::format::Format<tracing_subscriber::fmt::format::Full, ()>,
    EnvFilter,
    fn() -> RedactingStderr,
>;

/// Standard error for log lines, each passed through
/// [`lackpy_sources::redact_urls`] (the SDK's own logs name URLs with
/// their queries). The formatter writes a whole event in one call.
pub(crate) struct RedactingStderr;

impl std::io::Write for RedactingStderr {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let text = String::from_utf8_lossy(buf);
        std::io::stderr().write_all(lackpy_sources::redact_urls(&text).as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}

/// The subscriber that writes the log lines.
fn fmt_subscriber(verbose: u8, filter: EnvFilter) -> FmtBuilder {
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer((|| RedactingStderr) as fn() -> RedactingStderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_target(verbose > 1)
        .without_time()
}

/// The global subscriber for the "warn" filter without `-v` or `RUST_LOG`:
/// it filters as `EnvFilter::new("warn")` does and hands what passes to
/// the formatting subscriber, built on the first warning or span that
/// passes. Building that subscriber (its filter, its span registry's
/// 32 KiB shard table) is start-up work, and code and data made resident,
/// that a run without warnings never needs.
#[derive(Default)]
struct WarnOnly {
    inner: OnceLock<Dispatch>,
}

impl WarnOnly {
    /// The formatting subscriber, built on first use.
    fn inner(&self) -> &Dispatch {
        self.inner
            .get_or_init(|| Dispatch::new(fmt_subscriber(0, EnvFilter::new("warn")).finish()))
    }
}

impl Subscriber for WarnOnly {
    fn register_callsite(&self, metadata: &'static Metadata<'static>) -> Interest {
        if self.enabled(metadata) {
            Interest::always()
        } else {
            Interest::never()
        }
    }

    fn max_level_hint(&self) -> Option<LevelFilter> {
        Some(LevelFilter::WARN)
    }

    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        *metadata.level() <= LevelFilter::WARN
    }

    fn new_span(&self, span: &Attributes<'_>) -> Id {
        self.inner().new_span(span)
    }

    fn event(&self, event: &Event<'_>) {
        self.inner().event(event);
    }

    // A span id comes from `new_span`, so these find the subscriber built.
    fn record(&self, span: &Id, values: &Record<'_>) {
        if let Some(d) = self.inner.get() {
            d.record(span, values);
        }
    }

    fn record_follows_from(&self, span: &Id, follows: &Id) {
        if let Some(d) = self.inner.get() {
            d.record_follows_from(span, follows);
        }
    }

    fn enter(&self, span: &Id) {
        if let Some(d) = self.inner.get() {
            d.enter(span);
        }
    }

    fn exit(&self, span: &Id) {
        if let Some(d) = self.inner.get() {
            d.exit(span);
        }
    }

    fn clone_span(&self, id: &Id) -> Id {
        match self.inner.get() {
            Some(d) => d.clone_span(id),
            None => id.clone(),
        }
    }

    fn try_close(&self, id: Id) -> bool {
        match self.inner.get() {
            Some(d) => d.try_close(id),
            None => false,
        }
    }

    fn current_span(&self) -> Current {
        match self.inner.get() {
            Some(d) => d.current_span(),
            None => Current::none(),
        }
    }
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
    if out.is_err() || super::tty_approver::prompt_pending() {
        // Do not wait for interpreter threads (their children are gone), nor
        // for a prompt's read that the approval timeout gave up on.
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

/// With `-v`, a line per MCP server as discovery goes (`discovering 2 MCP
/// servers …`, `  everything: 13 tools (2025-11-25) in 180 ms`); nothing
/// without servers.
fn discovery_lines() -> ProgressHook {
    Arc::new(|e: &DiscoveryEvent| {
        let line = match e {
            DiscoveryEvent::Started { total: 0 } | DiscoveryEvent::Finished { .. } => return,
            DiscoveryEvent::Started { total: 1 } => "discovering 1 MCP server …".to_string(),
            DiscoveryEvent::Started { total } => format!("discovering {total} MCP servers …"),
            DiscoveryEvent::Ready {
                server,
                tools,
                protocol_version,
                elapsed,
                ..
            } => {
                let version = protocol_version
                    .as_deref()
                    .map(|v| format!(" ({v})"))
                    .unwrap_or_default();
                let s = if *tools == 1 { "" } else { "s" };
                format!(
                    "  {server}: {tools} tool{s}{version} in {}",
                    millis(*elapsed)
                )
            }
            DiscoveryEvent::Failed {
                server,
                reason,
                elapsed,
                ..
            } => format!("  {server}: failed after {}: {reason}", millis(*elapsed)),
        };
        super::output::err_line(&line);
    })
}

/// A duration as a person reads it: `180 ms`, `1.2 s`.
pub fn millis(d: std::time::Duration) -> String {
    if d.as_millis() < 1000 {
        format!("{} ms", d.as_millis())
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}

/// Starts the service for `workspace`, drawing MCP discovery progress on a
/// terminal's stderr (nothing when stderr is piped), or with `-v` a line
/// per server.
pub async fn start_service(workspace: PathBuf) -> Result<LackpyService, CliError> {
    let progress: Option<ProgressHook> = if verbosity() > 0 {
        Some(discovery_lines())
    } else {
        terminal_progress()
    };
    Ok(LackpyService::start(ServiceOptions {
        workspace,
        progress,
        ..ServiceOptions::default()
    })
    .await?)
}

/// The one-line counter a terminal's stderr shows while servers connect.
fn terminal_progress() -> Option<ProgressHook> {
    std::io::stderr().is_terminal().then(|| {
        // Nothing is drawn without servers to connect: a prompt or an
        // error then starts on a clean line.
        let drawn = AtomicBool::new(false);
        Arc::new(move |e: &DiscoveryEvent| {
            let text = match e {
                DiscoveryEvent::Started { total: 0 } => return,
                DiscoveryEvent::Started { total } => {
                    drawn.store(true, Ordering::SeqCst);
                    format!("\rconnecting {total} MCP servers…")
                }
                DiscoveryEvent::Ready { done, total, .. }
                | DiscoveryEvent::Failed { done, total, .. } => {
                    format!("\rconnecting MCP servers: {done}/{total}")
                }
                DiscoveryEvent::Finished { .. } if drawn.load(Ordering::SeqCst) => {
                    "\r\x1b[2K".to_string()
                }
                DiscoveryEvent::Finished { .. } => return,
            };
            super::output::err(&text);
        }) as ProgressHook
    })
}

/// Prints one JSON object on stdout.
pub fn print_json<T: serde::Serialize>(value: &T) -> Result<(), CliError> {
    let text = serde_json::to_string(value)
        .map_err(|e| CliError::usage(format!("cannot encode the result: {e}")))?;
    super::output::out_line(&text);
    Ok(())
}
