//! One `python3` worker process and its JSON-lines conversation.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use lackpy_lang::{Data, JsonText};

use crate::error::{ToolError, ToolErrorKind};
use crate::process::{self, ProcessGroup};
use crate::python::tagged;
use crate::tool::CallContext;

/// The worker's program, run with `python3 -c`.
const WORKER_PY: &str = include_str!("worker.py");
/// How long a fresh worker may take to say it is ready.
const START_TIMEOUT: Duration = Duration::from_secs(20);
/// How often a waiting call looks at the cancel flag.
const POLL: Duration = Duration::from_millis(10);
/// Room for a response's envelope (id, ok, error text) over the result cap.
const ENVELOPE: u64 = 128 * 1024;

/// A line from the worker, or how long a line was that went over the cap
/// (read and dropped, never held).
enum Line {
    Text(String),
    TooLong(u64),
}

/// What to call.
#[derive(Clone, Copy)]
pub(crate) struct Call<'a> {
    pub(crate) module: &'a str,
    pub(crate) function: &'a str,
    pub(crate) args: &'a [Data],
    pub(crate) kwargs: &'a [(String, Data)],
}

/// A running worker.
pub(crate) struct Worker {
    child: Child,
    group: ProcessGroup,
    stdin: ChildStdin,
    lines: Receiver<Line>,
    /// The longest response line the reader keeps: the current call's cap.
    line_cap: Arc<AtomicU64>,
    pid: u32,
    next_id: u64,
}

impl Worker {
    /// Starts a worker for `workspace` (its cwd, and the last entry of `sys.path`).
    pub(crate) fn start(python: &Path, workspace: &Path) -> Result<Worker, String> {
        let mut cmd = process::command(python);
        cmd.arg("-c")
            .arg(WORKER_PY)
            .arg(workspace)
            .current_dir(workspace)
            // Tool modules must not litter the workspace with __pycache__.
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .env("PYTHONIOENCODING", "utf-8")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let (mut child, group) = process::spawn(cmd, "python")
            .map_err(|e| format!("cannot start {}: {e}", python.display()))?;
        let pid = child.id();
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            group.kill();
            let _ = child.wait();
            return Err("the worker's pipes are missing".to_string());
        };
        let (tx, lines) = mpsc::channel();
        let line_cap = Arc::new(AtomicU64::new(ENVELOPE));
        let cap = Arc::clone(&line_cap);
        std::thread::spawn(move || {
            let mut out = BufReader::new(stdout);
            while let Some(line) = read_line(&mut out, &cap) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        std::thread::spawn(move || {
            // Tool output and tracebacks: logged, and never left to fill the pipe.
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                tracing::debug!(target: "lackpy_sources::python", pid, "{line}");
            }
        });
        let mut worker = Worker {
            child,
            group,
            stdin,
            lines,
            line_cap,
            pid,
            next_id: 0,
        };
        match worker.lines.recv_timeout(START_TIMEOUT) {
            Ok(Line::Text(line)) if line.contains("\"ready\"") => {
                tracing::info!(pid, workspace = %workspace.display(), "python worker started");
                Ok(worker)
            }
            Ok(Line::Text(line)) => Err(format!("the worker did not start: {line}")),
            Ok(Line::TooLong(n)) => Err(format!("the worker did not start: a {n}-byte line")),
            Err(_) => {
                let status = worker.child.try_wait().ok().flatten();
                Err(match status {
                    Some(s) => format!("the worker exited at start ({s})"),
                    None => "the worker did not answer at start".to_string(),
                })
            }
        }
    }

    /// The worker's process id.
    pub(crate) fn pid(&self) -> u32 {
        self.pid
    }

    /// Whether the process is still running.
    pub(crate) fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Calls `module.function(*args, **kwargs)`; a result over `max_bytes`
    /// (as JSON) is an error and the worker lives on. On timeout or
    /// cancellation the worker is killed (the caller drops it); worker death
    /// is reported as a `ToolError` too.
    pub(crate) fn call(
        &mut self,
        call: &Call<'_>,
        ctx: &CallContext,
        deadline: Instant,
        max_bytes: u64,
    ) -> Result<Data, CallFailure> {
        let Call {
            module,
            function,
            args,
            kwargs,
        } = *call;
        self.next_id += 1;
        let id = self.next_id;
        // The worker checks the cap before it writes; the reader's bound is
        // for a worker that does not.
        self.line_cap
            .store(max_bytes.saturating_add(ENVELOPE), Ordering::Relaxed);
        let request = format!(
            "{{\"id\":{id},\"module\":{},\"function\":{},\"args\":{},\"kwargs\":{},\"max_bytes\":{max_bytes}}}\n",
            JsonText::string(module),
            JsonText::string(function),
            tagged::to_tagged(Data::List(args.to_vec())),
            tagged::to_tagged(Data::Dict(
                kwargs
                    .iter()
                    .map(|(k, v)| (Data::Str(k.clone()), v.clone()))
                    .collect()
            )),
        );
        if let Err(e) = self
            .stdin
            .write_all(request.as_bytes())
            .and_then(|()| self.stdin.flush())
        {
            return Err(CallFailure::Died(format!(
                "cannot write to the worker: {e}"
            )));
        }
        loop {
            let now = Instant::now();
            if now >= deadline {
                self.kill();
                return Err(CallFailure::Stopped(ToolError::timeout(format!(
                    "python tool '{module}.{function}' timed out"
                ))));
            }
            let wait = deadline.saturating_duration_since(now).min(POLL);
            match self.lines.recv_timeout(wait) {
                Ok(Line::Text(line)) => {
                    if let Some(result) = self.answer(id, &line) {
                        return result.map_err(CallFailure::Raised);
                    }
                }
                Ok(Line::TooLong(n)) => {
                    // Only this call's answer can be that long; the worker lives on.
                    return Err(CallFailure::Raised(ToolError::failed(format!(
                        "python tool '{module}.{function}': result exceeds {max_bytes} bytes as JSON (max_output_bytes; {n} bytes were sent)"
                    ))));
                }
                Err(RecvTimeoutError::Timeout) => {
                    if ctx.is_cancelled() {
                        self.kill();
                        return Err(CallFailure::Stopped(ToolError::cancelled()));
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self.child.wait().map(|s| s.to_string()).unwrap_or_default();
                    return Err(CallFailure::Died(format!(
                        "the python worker died during the call ({status})"
                    )));
                }
            }
        }
    }

    /// Reads one response line; `None` when it answers another request.
    fn answer(&self, id: u64, line: &str) -> Option<Result<Data, ToolError>> {
        let Ok(Data::Dict(fields)) = tagged::parse_tagged(line) else {
            tracing::warn!(
                pid = self.pid,
                "python worker wrote a line that is not a response"
            );
            return None;
        };
        let get = |k: &str| {
            fields
                .iter()
                .find(|(key, _)| matches!(key, Data::Str(s) if s == k))
                .map(|(_, v)| v)
        };
        if get("id") != Some(&Data::Int(id.into())) {
            return None;
        }
        Some(match get("ok") {
            Some(Data::Bool(true)) => Ok(get("result").cloned().unwrap_or(Data::None)),
            _ => {
                let text = |k: &str| match get(k) {
                    Some(Data::Str(s)) => s.clone(),
                    _ => String::new(),
                };
                let class = text("type");
                let class = if class.is_empty() {
                    "Exception".to_string()
                } else {
                    class
                };
                Err(ToolError::new(kind_of(&class), text("message")).with_type(class))
            }
        })
    }

    /// Kills the worker's process group and reaps it.
    pub(crate) fn kill(&mut self) {
        self.group.kill();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Reads one line of at most `cap` bytes; a longer one is read to its end
/// and dropped. `None` at the end of the stream. The cap is read once the
/// line starts to arrive, so it is the cap of the request it answers.
fn read_line(r: &mut impl BufRead, cap: &AtomicU64) -> Option<Line> {
    if r.fill_buf().ok()?.is_empty() {
        return None;
    }
    let cap = cap.load(Ordering::Relaxed).max(1);
    let mut buf = Vec::new();
    let n = r.by_ref().take(cap).read_until(b'\n', &mut buf).ok()?;
    if n == 0 {
        return None;
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        return Some(Line::Text(String::from_utf8_lossy(&buf).into_owned()));
    }
    if (n as u64) < cap {
        // The stream ended in the middle of a line.
        return Some(Line::Text(String::from_utf8_lossy(&buf).into_owned()));
    }
    drop(buf);
    let mut total = n as u64;
    loop {
        let chunk = r.fill_buf().ok()?;
        if chunk.is_empty() {
            return Some(Line::TooLong(total));
        }
        match chunk.iter().position(|b| *b == b'\n') {
            Some(i) => {
                r.consume(i + 1);
                return Some(Line::TooLong(total + i as u64));
            }
            None => {
                let len = chunk.len();
                r.consume(len);
                total += len as u64;
            }
        }
    }
}

/// The broad kind of a Python exception class.
fn kind_of(class: &str) -> ToolErrorKind {
    match class {
        "TypeError" => ToolErrorKind::Type,
        "ValueError" | "UnicodeDecodeError" | "UnicodeEncodeError" | "UnicodeError" => {
            ToolErrorKind::Value
        }
        "TimeoutError" => ToolErrorKind::Timeout,
        "OSError" | "FileNotFoundError" | "FileExistsError" | "IsADirectoryError"
        | "NotADirectoryError" | "PermissionError" => ToolErrorKind::Os,
        _ => ToolErrorKind::Failed,
    }
}

/// Why a call through the worker failed.
pub(crate) enum CallFailure {
    /// The function raised: the call's answer.
    Raised(ToolError),
    /// Timeout or cancellation; the worker was killed.
    Stopped(ToolError),
    /// The worker died or its pipe broke.
    Died(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], cap: u64) -> Vec<String> {
        let cap = AtomicU64::new(cap);
        let mut r = BufReader::with_capacity(4, input);
        let mut out = Vec::new();
        while let Some(line) = read_line(&mut r, &cap) {
            out.push(match line {
                Line::Text(t) => t,
                Line::TooLong(n) => format!("<{n} bytes>"),
            });
        }
        out
    }

    #[test]
    fn lines_over_the_cap_are_dropped_and_the_next_line_still_reads() {
        assert_eq!(
            lines(b"short\n0123456789abcdef\nok\n", 8),
            vec!["short", "<16 bytes>", "ok"]
        );
        assert_eq!(lines(b"12345678\nend", 8), vec!["<8 bytes>", "end"]);
        assert_eq!(lines(b"1234567\n", 8), vec!["1234567"]);
    }
}
