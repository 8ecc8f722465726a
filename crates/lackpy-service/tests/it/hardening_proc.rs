//! Processes and pipes through the real `lackpy` binary (issue 12, parts 5
//! and 6): every terminating signal, and `SIGKILL`, take lackpy's children
//! with it; a closed stdout ends lackpy quietly; a run's timeout that ends a
//! tool call names the run's limit; a program that is not UTF-8 gets a JSON
//! result; a command tool whose program does not exist is unavailable.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::lackpy_in;
use common::procs::{alive, children_of};
use common::test_server::mcp_test_server;

/// How long anything here may take before the test fails instead of hanging.
const BOUND: Duration = Duration::from_secs(15);

/// A workspace whose `slow` command tool records its pid, then sleeps.
fn slow_workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let script = dir.path().join("slow.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\necho $$ > child.pid.tmp\nmv child.pid.tmp child.pid\nexec sleep 60\n",
    )
    .expect("script");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    write_config(
        dir.path(),
        "[[tools]]\nname = \"slow\"\nprovider = \"command\"\ncommand = [\"./slow.sh\"]\n",
    );
    dir
}

fn write_config(ws: &Path, text: &str) {
    std::fs::create_dir_all(ws.join(".lackpy")).expect("config dir");
    std::fs::write(ws.join(".lackpy/config.toml"), text).expect("config");
}

/// Starts `lackpy run -` on `program` in `ws` with extra `args`.
fn start(ws: &Path, program: &str, args: &[&str]) -> Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_lackpy"))
        .args(["run", "-", "--workspace"])
        .arg(ws)
        .args(args)
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("lackpy starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(program.as_bytes())
        .expect("program");
    child
}

/// Waits for `ws/child.pid` (the command tool is running) and reads it.
fn child_pid(ws: &Path, lackpy: &mut Child) -> u32 {
    let file = ws.join("child.pid");
    let started = Instant::now();
    loop {
        if let Some(pid) = std::fs::read_to_string(&file)
            .ok()
            .and_then(|t| t.trim().parse().ok())
        {
            return pid;
        }
        if let Ok(Some(status)) = lackpy.try_wait() {
            let mut err = String::new();
            let _ = lackpy.stderr.take().map(|mut e| e.read_to_string(&mut err));
            panic!("lackpy ended before the tool ran ({status}): {err}");
        }
        assert!(started.elapsed() < BOUND, "the command tool never started");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Polls until `pid` is gone; fails after [`BOUND`].
fn assert_gone(pid: u32, what: &str) {
    let started = Instant::now();
    while alive(pid) {
        assert!(
            started.elapsed() < BOUND,
            "{what}: child {pid} outlived lackpy"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn send(pid: u32, signal: &str) {
    let sent = Command::new("kill")
        .args([&format!("-{signal}"), &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success(), "kill -{signal} {pid}");
}

fn signal_number(name: &str) -> i32 {
    use nix::sys::signal::Signal;
    let sig: Signal = format!("SIG{name}").parse().expect("a signal name");
    sig as i32
}

#[test]
fn every_terminating_signal_takes_the_command_tool_child_along() {
    for signal in [
        "HUP", "USR1", "ALRM", "INT", "TERM", "QUIT", "USR2", "VTALRM", "PROF",
    ] {
        let ws = slow_workspace();
        let mut lackpy = start(ws.path(), "slow()\n", &["--tools", "slow"]);
        let child = child_pid(ws.path(), &mut lackpy);
        assert!(alive(child));
        send(lackpy.id(), signal);
        let out = lackpy.wait_with_output().expect("lackpy exits");
        assert_eq!(
            out.status.code(),
            Some(128 + signal_number(signal)),
            "SIG{signal}: {out:?}"
        );
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!("error: interrupted by SIG{signal}\n")
        );
        assert_gone(child, &format!("SIG{signal}"));
    }
}

#[test]
fn sigkill_of_lackpy_takes_the_command_tool_child_along() {
    let ws = slow_workspace();
    let mut lackpy = start(ws.path(), "slow()\n", &["--tools", "slow"]);
    let child = child_pid(ws.path(), &mut lackpy);
    send(lackpy.id(), "KILL");
    let status = lackpy.wait().expect("lackpy exits");
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status),
        Some(9)
    );
    // The parent-death signal: nothing of lackpy ran after SIGKILL.
    assert_gone(child, "SIGKILL");
}

#[test]
fn a_command_tool_child_is_lackpys_own_and_leads_its_group() {
    // Started through the exec wrapper, the child is still lackpy's own
    // (the wrapper became the program), leads its own group and dies with
    // a SIGKILLed lackpy.
    let ws = slow_workspace();
    let mut lackpy = start(ws.path(), "slow()\n", &["--tools", "slow"]);
    let child = child_pid(ws.path(), &mut lackpy);
    let stat = std::fs::read_to_string(format!("/proc/{child}/stat")).expect("stat");
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .expect("fields")
        .split_whitespace()
        .collect();
    assert_eq!(fields[1], lackpy.id().to_string(), "parent: {stat}");
    assert_eq!(fields[2], child.to_string(), "group: {stat}");
    send(lackpy.id(), "KILL");
    lackpy.wait().expect("lackpy exits");
    assert_gone(child, "SIGKILL");
}

#[test]
fn the_exec_wrappers_refuse_misuse() {
    let run = |bin: &str, args: &[&str]| {
        let out = Command::new(bin)
            .args(args)
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .output()
            .expect("the wrapper runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let usage = "lackpy: '__exec' is internal: lackpy starts its child processes through it \
                 (__exec PARENT-PID PROGRAM [ARG...])\n";
    // `lackpy __exec` and the small `lackpy-exec` are the same wrapper.
    for bin in [
        env!("CARGO_BIN_EXE_lackpy"),
        env!("CARGO_BIN_EXE_lackpy-exec"),
    ] {
        assert_eq!(
            run(bin, &["__exec"]),
            (Some(2), String::new(), usage.to_string()),
            "{bin}"
        );
        assert_eq!(run(bin, &["__exec", "x", "true"]).0, Some(2), "{bin}");
        // Run by hand: its parent is not the process it names, so nothing runs.
        let (code, out, err) = run(bin, &["__exec", "2", "sh", "-c", "echo ran"]);
        assert_eq!((code, out.as_str()), (Some(2), ""), "{bin}: {err}");
        assert!(
            err.starts_with(
                "lackpy: '__exec' is internal: this process was to be started by process 2, but its parent is "
            ),
            "{bin}: {err}"
        );
    }
    assert_eq!(
        run(env!("CARGO_BIN_EXE_lackpy-exec"), &[]),
        (Some(2), String::new(), usage.to_string())
    );
    // Not a subcommand: the help does not offer it.
    let (_, help, _) = run(env!("CARGO_BIN_EXE_lackpy"), &["--help"]);
    assert!(!help.contains("__exec"), "{help}");
}

/// Runs `slow(60000)` on the MCP test server, sends `signal` to lackpy
/// once the server runs, and checks the server is gone.
fn mcp_server_dies_with_lackpy(signal: &str) {
    let server = mcp_test_server();
    let ws = tempfile::tempdir().expect("temp dir");
    write_config(
        ws.path(),
        &format!(
            "[mcp_servers.t]\ncommand = {:?}\n",
            server.display().to_string()
        ),
    );
    let mut lackpy = start(ws.path(), "slow(60000)\n", &[]);
    let started = Instant::now();
    let servers = loop {
        let kids: Vec<u32> = children_of(lackpy.id())
            .into_iter()
            .map(|(pid, _)| pid)
            .collect();
        if !kids.is_empty() {
            break kids;
        }
        assert!(started.elapsed() < BOUND, "the MCP server never started");
        std::thread::sleep(Duration::from_millis(10));
    };
    // Let the call get in flight.
    std::thread::sleep(Duration::from_millis(300));
    send(lackpy.id(), signal);
    let status = lackpy.wait().expect("lackpy exits");
    if signal != "KILL" {
        assert_eq!(status.code(), Some(128 + signal_number(signal)), "{status}");
    }
    for pid in servers {
        assert_gone(pid, &format!("MCP server after SIG{signal}"));
    }
}

#[test]
fn sighup_mid_mcp_call_leaves_no_server_behind() {
    mcp_server_dies_with_lackpy("HUP");
}

#[test]
fn sigkill_mid_mcp_call_leaves_no_server_behind() {
    mcp_server_dies_with_lackpy("KILL");
}

/// Starts `lackpy run` with stdout piped, reads `keep` bytes of its output,
/// closes the pipe and returns lackpy's exit code and stderr.
fn read_then_close(program: &str, args: &[&str], keep: usize) -> (Option<i32>, String) {
    let ws = tempfile::tempdir().expect("temp dir");
    let mut lackpy = Command::new(env!("CARGO_BIN_EXE_lackpy"))
        .args(["run", "-", "--workspace"])
        .arg(ws.path())
        .args(args)
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("lackpy starts");
    lackpy
        .stdin
        .take()
        .expect("stdin")
        .write_all(program.as_bytes())
        .expect("program");
    let mut stdout = lackpy.stdout.take().expect("stdout");
    let mut head = vec![0u8; keep];
    stdout.read_exact(&mut head).expect("the first bytes");
    drop(stdout);
    let out = lackpy.wait_with_output().expect("lackpy exits");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_closed_stdout_ends_lackpy_quietly() {
    // Far more output than a pipe holds, so lackpy is still writing.
    let program = "print('x' * 300000)\n'done'\n";
    for args in [&["--json"][..], &[][..]] {
        let (code, stderr) = read_then_close(program, args, 10);
        assert_eq!(code, Some(141), "{args:?}: {stderr}");
        assert_eq!(stderr, "", "{args:?}");
    }
}

#[test]
fn the_runs_timeout_during_a_command_call_is_named() {
    let ws = slow_workspace();
    let out = lackpy_in(
        ws.path(),
        &["run", "-", "--tools", "slow", "--timeout", "300", "--json"],
        "slow()\n",
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    let result: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
    assert_eq!(result["error_type"], "TimeoutError");
    assert_eq!(
        result["error"],
        "tool 'slow' did not finish before the run's timeout (300 ms)"
    );
    let pid: u32 = std::fs::read_to_string(ws.path().join("child.pid"))
        .expect("the tool ran")
        .trim()
        .parse()
        .expect("a pid");
    assert_gone(pid, "timeout");
}

/// The JSON of a result with its timing zeroed, pretty, for a snapshot.
fn stable_json(text: &str) -> String {
    let mut v: serde_json::Value = serde_json::from_str(text).expect("one JSON object");
    if v.get("duration_ms").is_some() {
        v["duration_ms"] = serde_json::json!(0);
    }
    serde_json::to_string_pretty(&v).expect("JSON")
}

#[test]
fn a_program_that_is_not_utf8_gets_a_json_result() {
    let ws = tempfile::tempdir().expect("temp dir");
    let file = ws.path().join("bad.lpy");
    std::fs::write(&file, b"x = 1\ny = '\xff'\n").expect("program");
    let file = file.display().to_string();
    let ws_arg = ws.path().display().to_string();
    let out = lackpy_in(
        ws.path(),
        &[
            "run",
            &file,
            "--json",
            "--tools",
            "read_file",
            "--workspace",
            &ws_arg,
        ],
        "",
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    insta::assert_snapshot!("not_utf8_run_json", stable_json(&out.stdout));
    // Without --json: the same error as any invalid program.
    let out = lackpy_in(ws.path(), &["run", &file, "--tools", "read_file"], "");
    assert_eq!(out.code, 1);
    insta::assert_snapshot!("not_utf8_run_text", out.stderr);
    // From stdin too, and for validate.
    let out = lackpy_in(ws.path(), &["validate", "-", "--json"], "");
    assert_eq!(out.code, 0, "an empty program is valid: {}", out.stderr);
    let mut child = Command::new(env!("CARGO_BIN_EXE_lackpy"))
        .args(["validate", "-", "--json", "--workspace", &ws_arg])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("lackpy starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"\xc3(")
        .expect("program");
    let out = child.wait_with_output().expect("lackpy exits");
    assert_eq!(out.status.code(), Some(1));
    insta::assert_snapshot!(
        "not_utf8_validate_json",
        stable_json(&String::from_utf8_lossy(&out.stdout))
    );
}

#[test]
fn a_command_tool_with_a_missing_absolute_program_is_unavailable() {
    let ws = tempfile::tempdir().expect("temp dir");
    write_config(
        ws.path(),
        "[[tools]]\nname = \"gone\"\nprovider = \"command\"\ncommand = [\"/no/such/program\"]\n\n\
         [[tools]]\nname = \"nopath\"\nprovider = \"command\"\ncommand = [\"sh\"]\nenv = { PATH = \"/no/such/dir\" }\n",
    );
    let out = lackpy_in(ws.path(), &["tools", "--json"], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let listing: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
    let candidate = |name: &str| {
        listing["tools"]
            .as_array()
            .and_then(|tools| tools.iter().find(|t| t["name"] == name))
            .map(|t| t["candidates"][0].clone())
            .unwrap_or_else(|| panic!("no tool {name}: {listing}"))
    };
    let gone = candidate("gone");
    assert_eq!(gone["available"], false);
    assert_eq!(
        gone["unavailable_reason"],
        "program '/no/such/program' does not exist"
    );
    let nopath = candidate("nopath");
    assert_eq!(nopath["available"], false);
    assert_eq!(
        nopath["unavailable_reason"],
        "program 'sh' was not found on the tool's PATH"
    );
    // A program cannot name it.
    let out = lackpy_in(ws.path(), &["run", "-", "--tools", "gone"], "gone()\n");
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("Unknown function: 'gone'"),
        "{}",
        out.stderr
    );
}
