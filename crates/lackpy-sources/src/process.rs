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
//! Setting the parent-death signal in a forked child before `exec` (a
//! `pre_exec` hook) makes the standard library fork instead of using
//! `posix_spawn`, and a fork copies the page tables of all of lackpy's
//! memory (and makes every page lackpy writes afterwards fault again): a
//! command tool call took 1.7 ms at 10 MB, 25 ms at 194 MB and 86 ms at
//! 621 MB. So a child is started with `posix_spawn` through an *exec
//! wrapper*, `<wrapper> __exec <lackpy's pid> <program> [args…]`, which
//! sets the parent-death signal, checks that its parent is still the
//! lackpy that started it (or exits: lackpy died in between) and `exec`s
//! the program; `exec` keeps the pid, the process group, the pipes, the
//! environment, the working directory and the parent-death signal. The
//! wrapper is a binary whose `main` is [`exec_wrapper_only`] (the small
//! `lackpy-exec`) or begins with [`exec_wrapper_main`] (`lackpy` itself),
//! chosen with [`set_exec_wrapper`]; a binary with neither forks as before.
//!
//! Linux sends the parent-death signal when the *thread* that started the
//! child ends, not the process. Tools run on short-lived runtime threads,
//! and a Python worker or an MCP server outlives the call that started it,
//! so every child is started on a small pool of spawner threads that live
//! as long as the process; several children start at once.

use std::collections::{BTreeMap, VecDeque};
use std::ffi::{OsStr, OsString};
use std::io;
use std::ops::{Deref, DerefMut};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus};
use std::sync::{Condvar, Mutex, PoisonError, mpsc};

use nix::errno::Errno;
use nix::sys::signal::{Signal, killpg};
use nix::unistd::{AccessFlags, Pid};

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

/// The hidden first argument that makes a binary calling
/// [`exec_wrapper_main`] or [`exec_wrapper_only`] the exec wrapper of one
/// child: `<exe> __exec <parent pid> <program> [args…]`.
pub const EXEC_WRAPPER_ARG: &str = "__exec";

/// The running binary, even when its file has been replaced or deleted.
const SELF_EXE: &str = "/proc/self/exe";

/// Exit status of a wrapper asked for wrongly (by hand, bad arguments).
const WRAPPER_USAGE: i32 = 2;

/// Exit status of a wrapper that could not become its program, as a shell's.
const WRAPPER_CANNOT_RUN: i32 = 127;

/// The binary children are started through, if any.
static WRAPPER: Mutex<Option<PathBuf>> = Mutex::new(None);

fn wrapper() -> Option<PathBuf> {
    WRAPPER
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone()
}

/// Chooses the exec wrapper that children are started through from now on:
/// a binary whose `main` is [`exec_wrapper_only`] or begins with
/// [`exec_wrapper_main`] (`lackpy-exec` and `lackpy` are both); `None`
/// forks each child instead. [`exec_wrapper_main`] sets its own binary;
/// `lackpy` then names the smaller `lackpy-exec` here, and an embedder
/// whose `main` is not its own can name either.
pub fn set_exec_wrapper(path: Option<PathBuf>) {
    *WRAPPER.lock().unwrap_or_else(PoisonError::into_inner) = path;
}

/// Whether children are started through an exec wrapper (`posix_spawn`)
/// rather than forked.
pub fn uses_exec_wrapper() -> bool {
    wrapper().is_some()
}

/// Call first in `main`. When lackpy started this process as a child's
/// exec wrapper ([`EXEC_WRAPPER_ARG`]), it becomes that child and never
/// returns (see [`exec_wrapper_only`]). Otherwise it makes this binary the
/// exec wrapper of the children it starts ([`set_exec_wrapper`]) and
/// returns.
pub fn exec_wrapper_main() {
    if std::env::args_os().nth(1).as_deref() == Some(OsStr::new(EXEC_WRAPPER_ARG)) {
        exec_wrapper_only();
    }
    if Path::new(SELF_EXE).exists() {
        set_exec_wrapper(Some(PathBuf::from(SELF_EXE)));
    }
}

/// The whole `main` of a binary that is nothing but an exec wrapper
/// (`lackpy-exec`): started as `<exe> __exec <parent pid> <program>
/// [args…]`, it sets the parent-death signal, checks that its parent is the
/// process named and `exec`s the program. Run any other way (by hand, with
/// wrong arguments, by a parent that is not the one named) it says why on
/// stderr and exits with status 2; a program that cannot be run makes it
/// exit with 127.
pub fn exec_wrapper_only() -> ! {
    let mut args = std::env::args_os().skip(1);
    let (code, message) = if args.next().as_deref() == Some(OsStr::new(EXEC_WRAPPER_ARG)) {
        become_child(args)
    } else {
        (WRAPPER_USAGE, wrapper_usage())
    };
    eprintln!("lackpy: {message}");
    std::process::exit(code);
}

fn wrapper_usage() -> String {
    format!(
        "'{EXEC_WRAPPER_ARG}' is internal: lackpy starts its child processes through it \
         ({EXEC_WRAPPER_ARG} PARENT-PID PROGRAM [ARG...])"
    )
}

/// The wrapper's work; returns only on failure, with the exit status and
/// what went wrong.
fn become_child(mut args: impl Iterator<Item = OsString>) -> (i32, String) {
    let parent = args
        .next()
        .and_then(|p| p.to_str().and_then(|p| p.parse::<i32>().ok()))
        // 1 too: lackpy may be a container's init.
        .filter(|p| *p > 0);
    let (Some(parent), Some(program)) = (parent, args.next()) else {
        return (WRAPPER_USAGE, wrapper_usage());
    };
    if program.is_empty() {
        return (WRAPPER_USAGE, wrapper_usage());
    }
    // Set before the check: a parent that dies after the check still
    // takes this process along; one that died before is seen by it.
    if let Err(e) = nix::sys::prctl::set_pdeathsig(Signal::SIGKILL) {
        return (
            WRAPPER_CANNOT_RUN,
            format!("cannot set the parent-death signal: {e}"),
        );
    }
    let actual = nix::unistd::getppid().as_raw();
    if actual != parent {
        return (
            WRAPPER_USAGE,
            format!(
                "'{EXEC_WRAPPER_ARG}' is internal: this process was to be started by \
                 process {parent}, but its parent is {actual} (that process has ended, \
                 or this was run by hand)"
            ),
        );
    }
    // The environment, working directory, descriptors and process group
    // are already the child's; `exec` keeps them and resets the signal
    // dispositions the Rust runtime changed (SIGPIPE).
    let err = Command::new(&program).args(args).exec();
    (
        WRAPPER_CANNOT_RUN,
        format!("cannot run '{}': {err}", program.to_string_lossy()),
    )
}

/// A child process to start with [`spawn`]. It dereferences to the
/// [`Command`] that starts it, so arguments, environment, working
/// directory and stdio are set as on any command; with an exec wrapper
/// that command runs the wrapper, which then becomes `program` with them.
#[derive(Debug)]
pub struct ChildCommand {
    cmd: Command,
    program: OsString,
    wrapped: bool,
}

/// A command that starts `program` (looked up on the child's `PATH` as
/// [`Command::new`] does) once given to [`spawn`].
pub fn command(program: impl AsRef<OsStr>) -> ChildCommand {
    let program = program.as_ref().to_os_string();
    match wrapper() {
        Some(exe) => {
            let mut cmd = Command::new(exe);
            cmd.arg0("lackpy")
                .arg(EXEC_WRAPPER_ARG)
                .arg(std::process::id().to_string())
                .arg(&program);
            ChildCommand {
                cmd,
                program,
                wrapped: true,
            }
        }
        None => ChildCommand {
            cmd: Command::new(&program),
            program,
            wrapped: false,
        },
    }
}

impl ChildCommand {
    /// The program the child runs (not the wrapper).
    pub fn program(&self) -> &OsStr {
        &self.program
    }
}

impl Deref for ChildCommand {
    type Target = Command;

    fn deref(&self) -> &Command {
        &self.cmd
    }
}

impl DerefMut for ChildCommand {
    fn deref_mut(&mut self) -> &mut Command {
        &mut self.cmd
    }
}

/// The error `exec` of `program` would give, found before the wrapper is
/// started, so that a program that does not exist is still an error of
/// [`spawn`] rather than a wrapper exiting with 127: the same lookup as
/// `execvp`, on the child's `PATH` (its own when set, else this process's)
/// and relative to its working directory.
fn check_program(cmd: &Command, program: &OsStr) -> io::Result<()> {
    if program.is_empty() {
        return Err(Errno::ENOENT.into());
    }
    // A relative path is the child's, from its working directory.
    let in_child_dir = |path: &Path| match cmd.get_current_dir() {
        Some(dir) if path.is_relative() => dir.join(path),
        _ => path.to_path_buf(),
    };
    if program.as_bytes().contains(&b'/') {
        return check_executable(&in_child_dir(Path::new(program)));
    }
    let path_var: OsString = match cmd.get_envs().find(|(k, _)| *k == "PATH") {
        Some((_, Some(v))) => v.to_os_string(),
        Some((_, None)) => OsString::from(DEFAULT_PATH),
        None => std::env::var_os("PATH").unwrap_or_else(|| OsString::from(DEFAULT_PATH)),
    };
    // As `execvp`: a match that cannot be run is passed over, and its
    // error is the answer only when nothing else is found.
    let mut denied = None;
    for dir in path_var.as_bytes().split(|b| *b == b':') {
        let dir = if dir.is_empty() { b".".as_slice() } else { dir };
        let candidate = in_child_dir(&Path::new(OsStr::from_bytes(dir)).join(program));
        match check_executable(&candidate) {
            Ok(()) => return Ok(()),
            Err(e) if e.kind() == io::ErrorKind::PermissionDenied => denied = Some(e),
            Err(_) => {}
        }
    }
    Err(denied.unwrap_or_else(|| Errno::ENOENT.into()))
}

/// `Ok` for an executable regular file; the error `exec` gives otherwise.
fn check_executable(path: &Path) -> io::Result<()> {
    let meta = path.metadata()?;
    if !meta.is_file() {
        return Err(Errno::EACCES.into());
    }
    nix::unistd::access(path, AccessFlags::X_OK).map_err(io::Error::from)
}

/// One child to start on a spawner thread.
struct Job {
    cmd: Command,
    kind: &'static str,
    wrapped: bool,
    reply: mpsc::Sender<io::Result<(Child, ProcessGroup)>>,
}

/// The most spawner threads; more only when that many starts overlap.
const MAX_SPAWNERS: usize = 8;

/// The spawner threads' queue. Threads are started as starts overlap, up
/// to [`MAX_SPAWNERS`], and never end before the process does.
struct Spawners {
    jobs: VecDeque<Job>,
    idle: usize,
    threads: usize,
}

static SPAWNERS: Mutex<Spawners> = Mutex::new(Spawners {
    jobs: VecDeque::new(),
    idle: 0,
    threads: 0,
});
static JOB_READY: Condvar = Condvar::new();

fn spawners() -> std::sync::MutexGuard<'static, Spawners> {
    SPAWNERS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Queues `job` and makes sure a spawner thread will take it.
fn submit(job: Job) -> io::Result<()> {
    let mut state = spawners();
    state.jobs.push_back(job);
    if state.jobs.len() > state.idle && state.threads < MAX_SPAWNERS {
        let started = std::thread::Builder::new()
            .name("lackpy-spawner".to_string())
            .spawn(spawner_loop);
        match started {
            Ok(_) => state.threads += 1,
            // Without any thread the job would wait for ever.
            Err(e) if state.threads == 0 => {
                state.jobs.pop_back();
                return Err(e);
            }
            Err(_) => {}
        }
    }
    drop(state);
    JOB_READY.notify_one();
    Ok(())
}

fn spawner_loop() {
    let mut state = spawners();
    loop {
        if let Some(job) = state.jobs.pop_front() {
            drop(state);
            let _ = job.reply.send(start(job.cmd, job.kind, job.wrapped));
            state = spawners();
            continue;
        }
        state.idle += 1;
        state = JOB_READY
            .wait(state)
            .unwrap_or_else(PoisonError::into_inner);
        state.idle -= 1;
    }
}

/// Runs on a spawner thread: the only place lackpy starts a process.
fn start(mut cmd: Command, kind: &'static str, wrapped: bool) -> io::Result<(Child, ProcessGroup)> {
    let child = if wrapped {
        // No `pre_exec`, so the standard library uses `posix_spawn`.
        cmd.spawn()?
    } else {
        ur_taking_me_with_you::spawn_dying_with_parent(cmd)?
    };
    let pgid = i32::try_from(child.id()).unwrap_or(0);
    groups().insert(pgid, kind);
    Ok((child, ProcessGroup { pgid }))
}

/// Starts `cmd` as the leader of a new process group that dies with this
/// process, and registers the group under `kind` (a label for
/// [`live_groups`]). The group is killed when the returned [`ProcessGroup`]
/// is dropped. Any thread may call this, and several at once: the child is
/// started on a spawner thread that lives as long as the process.
pub fn spawn(cmd: ChildCommand, kind: &'static str) -> io::Result<(Child, ProcessGroup)> {
    let ChildCommand {
        mut cmd,
        program,
        wrapped,
    } = cmd;
    cmd.process_group(0);
    if wrapped {
        check_program(&cmd, &program)?;
    }
    let (reply, answer) = mpsc::channel();
    submit(Job {
        cmd,
        kind,
        wrapped,
        reply,
    })?;
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
            let mut cmd = command("sleep");
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
        let cmd = command("/no/such/program");
        assert!(spawn(cmd, "test").is_err());
    }

    #[test]
    fn programs_are_checked_as_exec_would() {
        let kind = |cmd: &Command, p: &str| check_program(cmd, OsStr::new(p)).map_err(|e| e.kind());
        let plain = Command::new("x");
        assert_eq!(kind(&plain, "sh"), Ok(()));
        assert_eq!(kind(&plain, "/bin/sh"), Ok(()));
        assert_eq!(kind(&plain, ""), Err(io::ErrorKind::NotFound));
        assert_eq!(
            kind(&plain, "no-such-program-here"),
            Err(io::ErrorKind::NotFound)
        );
        assert_eq!(kind(&plain, "/"), Err(io::ErrorKind::PermissionDenied));
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"));
        std::fs::write(dir.path().join("data"), "not a program")
            .unwrap_or_else(|e| panic!("write: {e}"));
        // A relative path is the child's working directory's; a bare name
        // is looked up on the child's own PATH when it has one.
        let mut in_dir = Command::new("x");
        in_dir.current_dir(dir.path());
        assert_eq!(
            kind(&in_dir, "./data"),
            Err(io::ErrorKind::PermissionDenied)
        );
        assert_eq!(kind(&in_dir, "./none"), Err(io::ErrorKind::NotFound));
        let mut own_path = Command::new("x");
        own_path.env("PATH", dir.path());
        assert_eq!(kind(&own_path, "sh"), Err(io::ErrorKind::NotFound));
        assert_eq!(
            kind(&own_path, "data"),
            Err(io::ErrorKind::PermissionDenied)
        );
        // An empty or relative entry is the child's directory, not ours.
        in_dir.env("PATH", ":/no/such/dir");
        assert_eq!(kind(&in_dir, "data"), Err(io::ErrorKind::PermissionDenied));
        in_dir.env("PATH", "/no/such/dir");
        assert_eq!(kind(&in_dir, "data"), Err(io::ErrorKind::NotFound));
    }

    #[test]
    fn the_wrapper_refuses_wrong_arguments() {
        let refuse = |args: &[&str]| {
            let (code, message) = become_child(args.iter().map(OsString::from));
            assert_eq!(code, WRAPPER_USAGE, "{args:?}");
            assert!(message.contains("is internal"), "{message}");
        };
        refuse(&[]);
        refuse(&["not-a-pid", "true"]);
        refuse(&["0", "true"]);
        refuse(&["-5", "true"]);
        refuse(&["1234"]);
        refuse(&["1234", ""]);
    }

    #[test]
    fn many_threads_spawn_at_once() {
        let handles: Vec<_> = (0..16)
            .map(|_| {
                std::thread::spawn(|| {
                    let mut cmd = command("sleep");
                    cmd.arg("30");
                    spawn(cmd, "test")
                })
            })
            .collect();
        let mut started = Vec::new();
        for h in handles {
            match h.join() {
                Ok(Ok(pair)) => started.push(pair),
                _ => panic!("spawn failed"),
            }
        }
        // Every requesting thread has ended; the children live on.
        std::thread::sleep(Duration::from_millis(100));
        for (child, group) in &mut started {
            assert_eq!(child.try_wait().ok().flatten(), None);
            assert_eq!(group.pgid(), i32::try_from(child.id()).unwrap_or(0));
        }
        assert!(spawners().threads <= MAX_SPAWNERS);
        for (mut child, group) in started {
            drop(group);
            let _ = child.wait();
        }
    }
}
