//! Children started through an exec wrapper, as the `lackpy` binary starts
//! them: `posix_spawn` of the wrapper, which sets the parent-death signal,
//! checks its parent and becomes the program. The wrapper here is the
//! `spawn_host` example (a binary that is its own wrapper, as `lackpy` is);
//! every test of this binary starts its children through it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::BufRead;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use lackpy_sources::lang::Data;
use lackpy_sources::process;
use lackpy_sources::{ArgSpec, CallContext, CommandTool, Tool};

/// How long anything here may take before the test fails instead of hanging.
const BOUND: Duration = Duration::from_secs(15);

/// An example of this crate, built by `cargo test` beside the tests.
fn example_bin(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("test exe");
    let profile_dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target dir");
    let bin = profile_dir.join("examples").join(name);
    assert!(
        bin.exists(),
        "{} is missing: build it with `cargo test -p lackpy-sources`",
        bin.display()
    );
    bin
}

/// Starts this binary's children through the `spawn_host` wrapper.
fn wrapped() {
    process::set_exec_wrapper(Some(example_bin("spawn_host")));
    assert!(process::uses_exec_wrapper());
}

/// pid, parent pid and process group of a live process, from /proc.
fn stat(pid: u32) -> Option<(u32, u32, u32, char)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = text.rsplit(')').next()?;
    let mut f = rest.split_whitespace();
    let state = f.next()?.chars().next()?;
    let ppid = f.next()?.parse().ok()?;
    let pgrp = f.next()?.parse().ok()?;
    Some((pid, ppid, pgrp, state))
}

/// Alive and not a zombie.
fn alive(pid: u32) -> bool {
    stat(pid).is_some_and(|(_, _, _, state)| state != 'Z')
}

fn assert_gone(pid: u32, what: &str) {
    let started = Instant::now();
    while alive(pid) {
        assert!(started.elapsed() < BOUND, "{what}: {pid} is still alive");
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn tool(argv: &[&str]) -> CommandTool {
    CommandTool::new(
        "t",
        vec![ArgSpec::new("text")],
        argv.iter().map(|a| a.to_string()).collect(),
    )
}

fn call(t: &CommandTool, ctx: &CallContext) -> Result<Data, String> {
    t.call(vec![Data::Str("hi".into())], vec![], ctx)
        .wait()
        .map_err(|e| format!("{}: {}", e.error_type(), e.message()))
}

fn text(r: Result<Data, String>) -> String {
    match r {
        Ok(Data::Str(s)) => s,
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_command_tool_keeps_its_pipes_environment_directory_and_group() {
    wrapped();
    let dir = tempfile::tempdir().unwrap();
    let ctx = CallContext::new(dir.path());
    // stdin arrives, stdout is the result.
    assert_eq!(
        call(&tool(&["cat"]), &ctx),
        Ok(Data::Dict(vec![(
            Data::Str("text".into()),
            Data::Str("hi".into())
        )]))
    );
    // The program is the wrapper's pid: its parent is this process, and it
    // leads its own group; the workspace and the tool's env are its own.
    let probe = tool(&[
        "sh",
        "-c",
        "cat >/dev/null; cut -d' ' -f1,4,5 /proc/$$/stat; pwd; echo \"$PROBE\"",
    ])
    .with_env(vec![("PROBE".into(), "from-config".into())]);
    let out = text(call(&probe, &ctx));
    let lines: Vec<&str> = out.lines().collect();
    let ids: Vec<u32> = lines[0].split(' ').map(|n| n.parse().unwrap()).collect();
    assert_eq!(ids[1], std::process::id(), "{out}");
    assert_eq!(ids[0], ids[2], "not a group leader: {out}");
    assert_eq!(lines[1], dir.path().display().to_string());
    assert_eq!(lines[2], "from-config");
    // stderr and the exit status are the program's.
    assert_eq!(
        call(&tool(&["sh", "-c", "echo oops >&2; exit 3"]), &ctx),
        Err("ToolError: command tool 't' exited with status 3: oops".into())
    );
}

#[test]
fn a_program_that_cannot_start_is_an_error_of_spawn() {
    wrapped();
    let dir = tempfile::tempdir().unwrap();
    let ctx = CallContext::new(dir.path());
    let err = call(&tool(&["no-such-program-lackpy"]), &ctx).unwrap_err();
    assert_eq!(
        err,
        "ToolError: command tool 't': cannot start 'no-such-program-lackpy': No such file or directory (os error 2)"
    );
    std::fs::write(dir.path().join("plain"), "not a program").unwrap();
    let err = call(&tool(&["./plain"]), &ctx).unwrap_err();
    assert!(err.ends_with("Permission denied (os error 13)"), "{err}");
    let err = process::spawn(process::command("/no/such/program"), "test").unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::NotFound);
    // A program that exists but cannot be run past the check: the wrapper
    // says so and exits 127, as a shell would.
    let mut cmd = process::command("sh");
    cmd.env("PATH", "/no/such/dir")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    assert_eq!(
        process::spawn(cmd, "test").unwrap_err().kind(),
        std::io::ErrorKind::NotFound
    );
}

#[test]
fn timeouts_and_cancellations_kill_the_whole_group() {
    wrapped();
    let dir = tempfile::tempdir().unwrap();
    let ctx = CallContext::new(dir.path());
    let script = "sleep 30 & echo $! > bg.pid; wait";
    let slow = tool(&["sh", "-c", script]).with_timeout(Duration::from_millis(300));
    let started = Instant::now();
    let err = call(&slow, &ctx).unwrap_err();
    assert_eq!(err, "TimeoutError: command tool 't' timed out after 300 ms");
    assert!(started.elapsed() < Duration::from_secs(5));
    let bg: u32 = std::fs::read_to_string(dir.path().join("bg.pid"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert_gone(bg, "the timed-out tool's background child");

    std::fs::remove_file(dir.path().join("bg.pid")).unwrap();
    let cancel = Arc::clone(&ctx.cancel);
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        cancel.store(true, Ordering::SeqCst);
    });
    let err = call(&tool(&["sh", "-c", script]), &ctx).unwrap_err();
    assert_eq!(err, "Cancelled: the call was cancelled");
    let bg: u32 = std::fs::read_to_string(dir.path().join("bg.pid"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert_gone(bg, "the cancelled tool's background child");
}

#[test]
fn many_threads_start_children_at_once_and_the_children_outlive_them() {
    wrapped();
    let askers: Vec<_> = (0..32)
        .map(|_| {
            std::thread::spawn(|| {
                let mut cmd = process::command("sleep");
                cmd.arg("30");
                let started = process::spawn(cmd, "test");
                // Long enough for the wrapper to have set the parent-death
                // signal: had this thread started the child, its end
                // would now kill it.
                std::thread::sleep(Duration::from_millis(300));
                started
            })
        })
        .collect();
    let children: Vec<_> = askers
        .into_iter()
        .map(|a| a.join().unwrap().unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(150));
    for (child, group) in &children {
        let (pid, ppid, pgrp, state) = stat(child.id()).unwrap();
        assert_ne!(state, 'Z', "{pid} died with the thread that asked for it");
        assert_eq!(ppid, std::process::id());
        assert_eq!(pgrp, pid);
        assert_eq!(group.pgid(), i32::try_from(pid).unwrap());
    }
    let pids: Vec<u32> = children.iter().map(|(c, _)| c.id()).collect();
    for (mut child, group) in children {
        drop(group);
        child.wait().unwrap();
    }
    for pid in pids {
        assert_gone(pid, "a dropped group");
    }
}

#[test]
fn sigkill_of_the_host_takes_its_children_along() {
    let mut host = Command::new(example_bin("spawn_host"))
        .arg("8")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(host.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let pids: Vec<u32> = line
        .strip_prefix("ready ")
        .unwrap_or_else(|| panic!("host said {line:?}"))
        .split_whitespace()
        .map(|p| p.parse().unwrap())
        .collect();
    assert_eq!(pids.len(), 8);
    for &pid in &pids {
        let (_, ppid, pgrp, _) = stat(pid).unwrap();
        assert_eq!(ppid, host.id(), "started through the wrapper by the host");
        assert_eq!(pgrp, pid);
        assert!(alive(pid));
    }
    host.kill().unwrap();
    host.wait().unwrap();
    for pid in pids {
        assert_gone(pid, "after SIGKILL of the host");
    }
}

#[test]
fn the_hidden_wrapper_mode_refuses_misuse() {
    let run = |args: &[&str]| {
        let out = Command::new(example_bin("spawn_host"))
            .arg(process::EXEC_WRAPPER_ARG)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, err) = run(&[]);
    assert_eq!(code, Some(2));
    assert_eq!(
        err,
        "lackpy: '__exec' is internal: lackpy starts its child processes through it \
         (__exec PARENT-PID PROGRAM [ARG...])\n"
    );
    assert_eq!(run(&["x", "true"]).0, Some(2));
    // Started by a process other than the one named: that one has ended,
    // or this was run by hand; the program is not run.
    let (code, err) = run(&["2", "true"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("this process was to be started by process 2, but its parent is"),
        "{err}"
    );
    // Named right (this test is the parent), it becomes the program.
    let me = std::process::id().to_string();
    assert_eq!(run(&[&me, "sh", "-c", "exit 7"]).0, Some(7));
    let (code, err) = run(&[&me, "/no/such/program"]);
    assert_eq!(code, Some(127));
    assert!(
        err.starts_with("lackpy: cannot run '/no/such/program': No such file"),
        "{err}"
    );
}
