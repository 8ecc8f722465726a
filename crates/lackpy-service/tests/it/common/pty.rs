//! Running the real `lackpy` binary on a pseudo-terminal (stdin and stderr
//! a terminal, as for a person), driven by python3's `pty` module: it
//! answers each `[y/N/a] ` prompt with the next scripted answer.

use std::path::Path;
use std::process::Command;

/// The driver: `python3 -c DRIVER ARGV_JSON ANSWERS_JSON STDOUT_FILE`. The
/// child's stdout goes to STDOUT_FILE; the terminal shows the rest. Prints
/// `{"tty": what the terminal showed, "code": exit code}`.
const DRIVER: &str = r#"
import json, os, pty, select, sys, time
argv, answers, out_path = json.loads(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3]
pid, fd = pty.fork()
if pid == 0:
    out = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(out, 1)
    os.execv(argv[0], argv)
seen, asked = b"", 0
deadline = time.monotonic() + 60
while True:
    if time.monotonic() > deadline:
        os.kill(pid, 9)
        break
    ready, _, _ = select.select([fd], [], [], 0.1)
    if not ready:
        continue
    try:
        data = os.read(fd, 4096)
    except OSError:
        break
    if not data:
        break
    seen += data
    while asked < min(seen.count(b"[y/N/a] "), len(answers)):
        os.write(fd, answers[asked].encode())
        asked += 1
_, status = os.waitpid(pid, 0)
print(json.dumps({"tty": seen.decode("utf-8", "replace"), "code": os.waitstatus_to_exitcode(status)}))
"#;

/// What a run on a terminal showed.
pub struct TtyOut {
    /// What the terminal showed (stderr and the echoed answers), `\r\n`
    /// made `\n`.
    pub tty: String,
    /// What went to stdout.
    pub stdout: String,
    /// The exit code (`-9` when the driver had to kill it).
    pub code: i64,
}

/// Runs `lackpy ARGS` in `cwd` on a terminal, typing `answers` (each as
/// is: end one with `\n`) at the prompts, in order.
pub fn lackpy_tty(cwd: &Path, args: &[&str], answers: &[&str]) -> TtyOut {
    let mut argv = vec![env!("CARGO_BIN_EXE_lackpy")];
    argv.extend_from_slice(args);
    let stdout_file = tempfile::NamedTempFile::new().expect("temp file");
    let out = Command::new("python3")
        .arg("-c")
        .arg(DRIVER)
        .arg(serde_json::to_string(&argv).expect("json"))
        .arg(serde_json::to_string(answers).expect("json"))
        .arg(stdout_file.path())
        .current_dir(cwd)
        .env_remove("RUST_LOG")
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "the pty driver failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("the driver's JSON");
    TtyOut {
        tty: v["tty"].as_str().unwrap_or("").replace("\r\n", "\n"),
        stdout: std::fs::read_to_string(stdout_file.path()).expect("stdout file"),
        code: v["code"].as_i64().unwrap_or(i64::MIN),
    }
}
