//! Child processes: the one place lackpy starts them, and what command
//! tools, the Python worker and MCP stdio servers share about them (the
//! minimal environment, program lookup, how an exit is told).
//!
//! Every child is started by [`spawn`]: in its own process group, with the
//! parent-death signal set (`SIGKILL` on Linux, so even a `SIGKILL`ed lackpy
//! takes its children with it), and registered until its [`ProcessGroup`]
//! is dropped, so [`kill_all_groups`] can end them all from a signal
//! handler.
//!
//! Linux sends the parent-death signal when the *thread* that forked the
//! child ends, not the process. Tools run on short-lived runtime threads,
//! and a Python worker or an MCP server outlives the call that started it,
//! so every fork happens on one spawner thread that lives as long as the
//! process.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus};
use std::sync::mpsc;
use std::sync::{Mutex, PoisonError};

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

/// Variables passed from the parent to a child when set; everything else
/// (tokens, keys) stays out unless the tool's or server's config names it.
const PASSED_VARS: &[&str] = &[
    "PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR",
];

/// `PATH` when the parent has none.
const DEFAULT_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// The minimal base environment of a child process (command tools, stdio
/// MCP servers): `PATH`, `HOME`, `USER`, `LOGNAME`, `LANG`, `LC_ALL`,
/// `LC_CTYPE`, `TZ` and `TMPDIR` as far as they are set, and a default
/// `PATH` when there is none. The child's own configured variables go on
/// top.
pub fn minimal_env() -> Vec<(String, String)> {
    let mut env: Vec<(String, String)> = PASSED_VARS
        .iter()
        .filter_map(|k| std::env::var(k).ok().map(|v| ((*k).to_string(), v)))
        .collect();
    if !env.iter().any(|(k, _)| k == "PATH") {
        env.push(("PATH".to_string(), DEFAULT_PATH.to_string()));
    }
    env
}

/// Finds `program` the way `execvp` would: a name with a `/` is taken as
/// is, anything else is searched on `path_var` (or the parent's `PATH`).
pub(crate) fn find_program(program: &str, path_var: Option<&str>) -> Option<PathBuf> {
    if program.contains('/') {
        let p = PathBuf::from(program);
        return is_executable(&p).then_some(p);
    }
    let path = match path_var {
        Some(p) => p.to_string(),
        None => std::env::var("PATH").unwrap_or_else(|_| DEFAULT_PATH.to_string()),
    };
    path.split(':')
        .filter(|d| !d.is_empty())
        .map(|d| Path::new(d).join(program))
        .find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// A readable account of how a process ended: `exited with status 3`,
/// `was killed by SIGKILL`.
pub fn describe_exit(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exited with status {code}"),
        (None, Some(sig)) => match Signal::try_from(sig) {
            Ok(s) => format!("was killed by {s}"),
            Err(_) => format!("was killed by signal {sig}"),
        },
        _ => "ended".to_string(),
    }
}

/// The last `max` bytes of `bytes` as text, marked when cut.
pub(crate) fn tail_text(bytes: &[u8], max: usize) -> String {
    let cut = bytes.len() > max;
    let start = bytes.len().saturating_sub(max);
    let text = String::from_utf8_lossy(&bytes[start..]);
    let text = text.trim();
    if cut {
        format!("…{text}")
    } else {
        text.to_string()
    }
}

/// Process groups of live children, with what started them.
static GROUPS: Mutex<BTreeMap<i32, &'static str>> = Mutex::new(BTreeMap::new());

fn groups() -> std::sync::MutexGuard<'static, BTreeMap<i32, &'static str>> {
    GROUPS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A child's process group, registered while this lives. Dropping it kills
/// the whole group (`SIGKILL`) and forgets it.
#[derive(Debug)]
pub struct ProcessGroup {
    pgid: i32,
}

impl ProcessGroup {
    /// The group id (the leader's pid).
    pub fn pgid(&self) -> i32 {
        self.pgid
    }

    /// Sends `signal` to the whole group; "no such process" (already gone)
    /// is not worth reporting.
    pub fn signal(&self, signal: Signal) {
        signal_group(self.pgid, signal);
    }

    /// Kills the whole group at once (`SIGKILL`).
    pub fn kill(&self) {
        self.signal(Signal::SIGKILL);
    }
}

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        self.kill();
        groups().remove(&self.pgid);
    }
}

fn signal_group(pgid: i32, signal: Signal) {
    // Never 0 (our own group) or 1 (everything).
    if pgid > 1 {
        let _ = killpg(Pid::from_raw(pgid), signal);
    }
}

/// Kills every live child process group this process started (`SIGKILL`).
/// Synchronous, idempotent and cheap: for a signal handler before exiting.
pub fn kill_all_groups() {
    let live: Vec<i32> = groups().keys().copied().collect();
    for pgid in live {
        signal_group(pgid, Signal::SIGKILL);
    }
}

/// The process groups alive right now that `kind` started (the label given
/// to [`spawn`]); every group for `None`. For tests and diagnostics.
pub fn live_groups(kind: Option<&str>) -> Vec<i32> {
    groups()
        .iter()
        .filter(|(_, k)| kind.is_none_or(|want| **k == want))
        .map(|(pgid, _)| *pgid)
        .collect()
}

/// One fork request for the spawner thread.
struct Request {
    cmd: Command,
    kind: &'static str,
    reply: mpsc::Sender<io::Result<(Child, ProcessGroup)>>,
}

/// The spawner thread's queue, started on first use. The sender is never
/// dropped, so the thread never ends before the process does.
static SPAWNER: Mutex<Option<mpsc::Sender<Request>>> = Mutex::new(None);

fn spawner() -> io::Result<mpsc::Sender<Request>> {
    let mut slot = SPAWNER.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(tx) = slot.as_ref() {
        return Ok(tx.clone());
    }
    let (tx, rx) = mpsc::channel::<Request>();
    std::thread::Builder::new()
        .name("lackpy-spawner".to_string())
        .spawn(move || {
            for req in rx {
                let _ = req.reply.send(fork(req.cmd, req.kind));
            }
        })?;
    *slot = Some(tx.clone());
    Ok(tx)
}

/// Runs on the spawner thread: the only `fork` in lackpy.
fn fork(cmd: Command, kind: &'static str) -> io::Result<(Child, ProcessGroup)> {
    let child = ur_taking_me_with_you::spawn_dying_with_parent(cmd)?;
    let pgid = i32::try_from(child.id()).unwrap_or(0);
    groups().insert(pgid, kind);
    Ok((child, ProcessGroup { pgid }))
}

/// Starts `cmd` as the leader of a new process group that dies with this
/// process, and registers the group under `kind` (a label for
/// [`live_groups`]). The group is killed when the returned [`ProcessGroup`]
/// is dropped.
pub fn spawn(mut cmd: Command, kind: &'static str) -> io::Result<(Child, ProcessGroup)> {
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let (reply, answer) = mpsc::channel();
    spawner()?
        .send(Request { cmd, kind, reply })
        .map_err(|_| io::Error::other("the spawner thread is gone"))?;
    answer
        .recv()
        .map_err(|_| io::Error::other("the spawner thread is gone"))?
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn alive(pid: i32) -> bool {
        // A zombie has not been reaped yet but is dead.
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
            s.rsplit(')')
                .next()
                .is_some_and(|r| !r.trim_start().starts_with('Z'))
        })
    }

    #[test]
    fn a_child_outlives_the_thread_that_asked_for_it() {
        let spawned = std::thread::spawn(|| {
            let mut cmd = Command::new("sleep");
            cmd.arg("30");
            spawn(cmd, "test")
        })
        .join();
        let Ok(Ok((mut child, group))) = spawned else {
            panic!("spawn failed");
        };
        let pid = group.pgid();
        assert!(live_groups(Some("test")).contains(&pid));
        // The parent-death signal would have come at once when the thread ended.
        std::thread::sleep(Duration::from_millis(150));
        assert_eq!(
            child.try_wait().ok().flatten(),
            None,
            "child died with its thread"
        );
        drop(group);
        let _ = child.wait();
        assert!(!alive(pid));
        assert!(!live_groups(Some("test")).contains(&pid));
    }

    #[test]
    fn a_missing_program_is_an_error() {
        let cmd = Command::new("/no/such/program");
        assert!(spawn(cmd, "test").is_err());
    }
}
