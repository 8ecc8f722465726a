//! What command tools and the Python worker share about child processes:
//! the minimal environment, program lookup and killing a process group.

use std::path::{Path, PathBuf};

/// Variables passed from the parent to command tools when set; everything
/// else (tokens, keys) stays out unless the tool's config names it.
const PASSED_VARS: &[&str] = &[
    "PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR",
];

/// `PATH` when the parent has none.
const DEFAULT_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// The minimal base environment of a child process.
pub(crate) fn minimal_env() -> Vec<(String, String)> {
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

/// Kills a process group (the child was started as its leader). Errors —
/// usually "no such process" because it is already gone — are ignored.
pub(crate) fn kill_group(pgid: u32) {
    use nix::sys::signal::{Signal, killpg};
    use nix::unistd::Pid;
    if let Ok(raw) = i32::try_from(pgid)
        && raw > 1
    {
        let _ = killpg(Pid::from_raw(raw), Signal::SIGKILL);
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
