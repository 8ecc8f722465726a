//! Stdio server processes: started through `lackpy_sources::process` (own
//! process group, parent-death signal, registered for signal handlers;
//! the minimal environment command tools get too), stderr drained into
//! tracing, and ended as a group (gently first: closed stdin, `SIGTERM`,
//! then `SIGKILL`).

use std::path::Path;
use std::process::{Child, ExitStatus, Stdio};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use lackpy_sources::process::{self as procs, ProcessGroup};
use nix::sys::signal::Signal;
use tokio::io::AsyncReadExt;
use tokio::process::{ChildStdin, ChildStdout};

/// How much of a server's stderr is kept for failure reports.
const TAIL_BYTES: usize = 2048;

/// Longest stderr line logged; the rest of a longer one is cut.
const MAX_LOG_LINE: usize = 4096;

/// How often a wait for a server's exit looks again.
const EXIT_POLL: Duration = Duration::from_millis(5);

/// The label of MCP server groups in the process registry.
const KIND: &str = "mcp";

/// Kills every process group this process started and has not yet ended —
/// stdio MCP servers, command tools, Python workers — at once (`SIGKILL`).
/// Synchronous, idempotent and cheap: call it from the host's signal
/// handler before exiting.
pub fn kill_all_servers() {
    procs::kill_all_groups();
}

/// The process groups of the stdio servers alive right now (for tests and
/// diagnostics).
pub fn live_server_groups() -> Vec<i32> {
    procs::live_groups(Some(KIND))
}

/// The last bytes a server wrote to stderr.
#[derive(Debug, Default)]
pub struct StderrTail {
    bytes: Mutex<Vec<u8>>,
    closed: std::sync::atomic::AtomicBool,
    closed_note: tokio::sync::Notify,
}

impl StderrTail {
    fn close(&self) {
        self.closed
            .store(true, std::sync::atomic::Ordering::Release);
        self.closed_note.notify_waiters();
    }

    /// Waits up to `within` for the server's stderr to close, so a dead
    /// server's last words are in the tail.
    pub async fn wait_closed(&self, within: Duration) {
        let _ = tokio::time::timeout(within, async {
            loop {
                let notified = self.closed_note.notified();
                if self.closed.load(std::sync::atomic::Ordering::Acquire) {
                    return;
                }
                notified.await;
            }
        })
        .await;
    }

    fn push(&self, bytes: &[u8]) {
        let mut tail = self.bytes.lock().unwrap_or_else(PoisonError::into_inner);
        tail.extend_from_slice(bytes);
        if tail.len() > TAIL_BYTES {
            let cut = tail.len() - TAIL_BYTES;
            tail.drain(..cut);
        }
    }

    /// The kept text, trimmed; empty when the server said nothing.
    pub fn text(&self) -> String {
        let tail = self.bytes.lock().unwrap_or_else(PoisonError::into_inner);
        String::from_utf8_lossy(&tail).trim().to_string()
    }
}

/// A running stdio server. Dropping it kills the whole group.
pub struct ChildGuard {
    child: Option<Child>,
    group: Option<ProcessGroup>,
    pgid: i32,
    server: Arc<str>,
    tail: Arc<StderrTail>,
}

/// What a spawned server hands the transport.
pub struct Spawned {
    /// The process, owned until it is ended.
    pub guard: ChildGuard,
    /// Its stdin.
    pub stdin: ChildStdin,
    /// Its stdout.
    pub stdout: ChildStdout,
}

/// How to start one server.
pub struct Launch<'a> {
    /// The server id (logs, the stderr target's field).
    pub server: &'a Arc<str>,
    /// The program.
    pub command: &'a str,
    /// Its arguments.
    pub args: &'a [String],
    /// Variables added to the minimal environment.
    pub env: &'a [(String, String)],
    /// Working directory, if any.
    pub cwd: Option<&'a Path>,
}

/// Starts a server in its own process group with stdin/stdout piped and
/// stderr drained into tracing (target `lackpy_mcp_client::stderr`, field
/// `server`).
pub fn spawn(launch: &Launch<'_>) -> Result<Spawned, String> {
    let mut cmd = procs::command(launch.command);
    cmd.args(launch.args)
        .env_clear()
        .envs(procs::minimal_env())
        .envs(launch.env.iter().map(|(k, v)| (k, v)))
        // A lackpy started here as a server knows it: it starts no host
        // config servers, so lackpy never starts itself without end.
        .env(lackpy_sources::MCP_PARENT_ENV, "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(cwd) = launch.cwd {
        cmd.current_dir(cwd);
    }
    let (mut child, group) = procs::spawn(cmd, KIND).map_err(|e| match launch.cwd {
        Some(cwd) => format!(
            "cannot start '{}' in {}: {e}",
            launch.command,
            cwd.display()
        ),
        None => format!("cannot start '{}': {e}", launch.command),
    })?;
    let pgid = group.pgid();
    let tail = Arc::new(StderrTail::default());
    let pipes = (child.stdin.take(), child.stdout.take(), child.stderr.take());
    let guard = ChildGuard {
        child: Some(child),
        group: Some(group),
        pgid,
        server: Arc::clone(launch.server),
        tail: Arc::clone(&tail),
    };
    let (Some(stdin), Some(stdout), Some(stderr)) = pipes else {
        return Err("the server's pipes could not be set up".to_string());
    };
    let broken = |e: std::io::Error| format!("the server's pipes could not be set up: {e}");
    let stdin = ChildStdin::from_std(stdin).map_err(broken)?;
    let stdout = ChildStdout::from_std(stdout).map_err(broken)?;
    let stderr = tokio::process::ChildStderr::from_std(stderr).map_err(broken)?;
    tokio::spawn(drain_stderr(stderr, Arc::clone(launch.server), tail));
    Ok(Spawned {
        guard,
        stdin,
        stdout,
    })
}

/// Logs a server's stderr line by line until it closes, keeping a tail.
async fn drain_stderr(
    mut stderr: tokio::process::ChildStderr,
    server: Arc<str>,
    tail: Arc<StderrTail>,
) {
    let mut buf = vec![0u8; 8192];
    let mut line: Vec<u8> = Vec::new();
    let mut cut = false;
    loop {
        let n = match stderr.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let data = &buf[..n];
        tail.push(data);
        for &b in data {
            if b == b'\n' {
                log_line(&server, &line, cut);
                line.clear();
                cut = false;
            } else if line.len() < MAX_LOG_LINE {
                line.push(b);
            } else {
                cut = true;
            }
        }
    }
    if !line.is_empty() {
        log_line(&server, &line, cut);
    }
    tail.close();
}

fn log_line(server: &str, line: &[u8], cut: bool) {
    let text = String::from_utf8_lossy(line);
    let text = text.trim_end();
    if !text.is_empty() {
        let more = if cut { " …" } else { "" };
        tracing::info!(target: "lackpy_mcp_client::stderr", server, "{text}{more}");
    }
}

impl ChildGuard {
    /// The server's process id (its group id).
    pub fn pid(&self) -> i32 {
        self.pgid
    }

    /// The kept stderr tail, once stderr has closed (or `within` passed).
    pub async fn stderr_tail(&self, within: Duration) -> String {
        self.tail.wait_closed(within).await;
        self.tail.text()
    }

    /// The exit status if the process has ended (reaping it).
    pub fn try_status(&mut self) -> Option<ExitStatus> {
        self.child
            .as_mut()
            .and_then(|c| c.try_wait().ok().flatten())
    }

    /// Waits up to `within` for the process to end by itself.
    pub async fn wait_exit(&mut self, within: Duration) -> Option<ExitStatus> {
        let child = self.child.as_mut()?;
        wait_child(child, within).await
    }

    /// Ends the server: waits `grace` for it to leave by itself (its stdin
    /// is closed by then), then `SIGTERM`s the group and waits `term_grace`,
    /// then `SIGKILL`s the group, reaps the leader and kills whatever of the
    /// group is left (a wrapper's children).
    pub async fn terminate(mut self, grace: Duration, term_grace: Duration) {
        let pgid = self.pgid;
        if let (Some(mut child), Some(group)) = (self.child.take(), self.group.as_ref()) {
            let mut done = wait_child(&mut child, grace).await.is_some();
            if !done {
                group.signal(Signal::SIGTERM);
                done = wait_child(&mut child, term_grace).await.is_some();
            }
            group.kill();
            if !done {
                reap(child);
            }
        }
        // Kills what is left of the group and forgets it.
        self.group = None;
        tracing::debug!(server = %self.server, pid = pgid, "MCP server process ended");
    }
}

/// Waits up to `within` for `child` to exit (reaping it), looking every few
/// milliseconds: the process is a plain child, not one of the runtime's.
async fn wait_child(child: &mut Child, within: Duration) -> Option<ExitStatus> {
    let until = Instant::now() + within;
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            return Some(status);
        }
        let now = Instant::now();
        if now >= until {
            return None;
        }
        tokio::time::sleep(EXIT_POLL.min(until - now)).await;
    }
}

/// Reaps a killed child off the runtime (its exit is a moment away).
fn reap(mut child: Child) {
    if !matches!(child.try_wait(), Ok(Some(_))) {
        std::thread::spawn(move || {
            let _ = child.wait();
        });
    }
}

impl Drop for ChildGuard {
    fn drop(&mut self) {
        // Not ended through `terminate` (a dropped task, a stopped runtime):
        // kill the group now and reap the leader.
        if let Some(group) = self.group.take() {
            group.kill();
            drop(group);
            if let Some(child) = self.child.take() {
                reap(child);
            }
        }
    }
}
