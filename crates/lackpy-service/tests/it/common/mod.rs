//! Running the real `lackpy` binary in tests.

#![allow(dead_code)]

pub mod approvals;
pub mod chat_server;
pub mod pg;
pub mod procs;
pub mod pty;
pub mod test_server;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// What a `lackpy` invocation printed and how it exited.
pub struct Out {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `lackpy ARGS` with `stdin`, in `cwd`.
pub fn lackpy_in(cwd: &Path, args: &[&str], stdin: &str) -> Out {
    lackpy_env(cwd, args, stdin, &[])
}

/// Runs `lackpy ARGS` with `stdin`, in `cwd`, with `env` set.
pub fn lackpy_env(cwd: &Path, args: &[&str], stdin: &str, env: &[(&str, &str)]) -> Out {
    let mut child = Command::new(env!("CARGO_BIN_EXE_lackpy"))
        .args(args)
        .current_dir(cwd)
        .env_remove("RUST_LOG")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the lackpy binary starts");
    // A command that does not read stdin may exit before we finish writing.
    if let Err(e) = child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(stdin.as_bytes())
    {
        assert_eq!(
            e.kind(),
            std::io::ErrorKind::BrokenPipe,
            "write the program: {e}"
        );
    }
    let out = child.wait_with_output().expect("lackpy exits");
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs `lackpy ARGS` with `stdin` in a fresh empty directory.
pub fn lackpy(args: &[&str], stdin: &str) -> Out {
    let dir = tempfile::tempdir().expect("temp dir");
    lackpy_in(dir.path(), args, stdin)
}

/// The examples workspace of the repository.
pub fn examples() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/quickstart")
}
