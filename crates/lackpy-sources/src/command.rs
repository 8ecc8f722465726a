//! Command tools (`provider = "command"`): a program run without a shell.
//!
//! The call's arguments go to stdin as one JSON object keyed by argument
//! name; stdout is the result, parsed as JSON when it is JSON, else the text
//! with one trailing newline removed. The child runs in the workspace with a
//! minimal environment plus the tool's `env`, in its own process group, so a
//! timeout or a cancellation kills it and everything it started. Output over
//! the cap is an error, not a memory blow-up; a non-zero exit is an error
//! carrying the tail of stderr.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use lackpy_lang::Data;

use crate::binding::bind_args;
use crate::error::ToolError;
use crate::model::ArgSpec;
use crate::process::{self, minimal_env, tail_text};
use crate::tool::{CallContext, Tool, ToolAnswer, ToolResult};

/// A call's time limit when the config gives none.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
/// The stdout cap when the config gives none.
pub const DEFAULT_MAX_OUTPUT: usize = 8 * 1024 * 1024;
/// How much of stderr an error quotes.
const STDERR_TAIL: usize = 2000;
/// How often a waiting call looks at the cancel flag.
const POLL: Duration = Duration::from_millis(10);
/// How long output may keep flowing after the process ended.
const DRAIN_GRACE: Duration = Duration::from_secs(2);

/// A command tool ready to be called.
#[derive(Debug, Clone)]
pub struct CommandTool {
    name: String,
    params: Vec<ArgSpec>,
    argv: Vec<String>,
    env: Vec<(String, String)>,
    timeout: Duration,
    max_output: usize,
}

enum Event {
    Exited(std::io::Result<ExitStatus>),
    Overflow,
}

impl CommandTool {
    /// A tool `name` declaring `params` that runs `argv`.
    pub fn new(name: impl Into<String>, params: Vec<ArgSpec>, argv: Vec<String>) -> CommandTool {
        CommandTool {
            name: name.into(),
            params,
            argv,
            env: Vec::new(),
            timeout: DEFAULT_TIMEOUT,
            max_output: DEFAULT_MAX_OUTPUT,
        }
    }

    /// The same tool with variables added to its environment.
    pub fn with_env(mut self, env: Vec<(String, String)>) -> CommandTool {
        self.env = env;
        self
    }

    /// The same tool with a per-call time limit.
    pub fn with_timeout(mut self, timeout: Duration) -> CommandTool {
        self.timeout = timeout;
        self
    }

    /// The same tool with a stdout cap in bytes.
    pub fn with_max_output(mut self, bytes: usize) -> CommandTool {
        self.max_output = bytes;
        self
    }

    /// `argv[0]`, relative to the workspace when it is a relative path.
    fn program(&self, ctx: &CallContext) -> Option<PathBuf> {
        let p = self.argv.first()?;
        Some(if p.contains('/') && !p.starts_with('/') {
            ctx.workspace.join(p)
        } else {
            PathBuf::from(p)
        })
    }

    fn run(&self, args: Vec<Data>, kwargs: Vec<(String, Data)>, ctx: &CallContext) -> ToolResult {
        ctx.check()?;
        let Some(program) = self.program(ctx) else {
            return Err(ToolError::failed(format!(
                "command tool '{}' has an empty command",
                self.name
            )));
        };
        let bound = bind_args(&self.name, &self.params, args, kwargs)?;
        let input =
            Data::Dict(bound.into_iter().map(|(k, v)| (Data::Str(k), v)).collect()).to_json();
        let deadline = ctx.call_deadline(self.timeout);
        // When the run's deadline comes first, the tool's own limit is not
        // what stopped it.
        let own_limit = ctx.deadline.is_none_or(|d| d > deadline);

        let mut cmd = process::command(&program);
        cmd.args(self.argv.iter().skip(1))
            .current_dir(&*ctx.workspace)
            .env_clear()
            .envs(minimal_env())
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let (mut child, group) = process::spawn(cmd, "command").map_err(|e| {
            ToolError::failed(format!(
                "command tool '{}': cannot start '{}': {e}",
                self.name,
                program.display()
            ))
        })?;
        let (tx, rx) = mpsc::channel::<Event>();
        if let Some(mut stdin) = child.stdin.take() {
            std::thread::spawn(move || {
                // A child that exits without reading its input is not an error.
                let _ = stdin.write_all(input.as_bytes());
            });
        }
        let (out_tx, out_rx) = mpsc::channel::<Vec<u8>>();
        if let Some(stdout) = child.stdout.take() {
            let cap = self.max_output;
            let tx = tx.clone();
            std::thread::spawn(move || {
                let mut buf = Vec::new();
                let mut limited = stdout.take(cap as u64 + 1);
                let _ = limited.read_to_end(&mut buf);
                if buf.len() > cap {
                    let _ = tx.send(Event::Overflow);
                }
                let _ = out_tx.send(buf);
            });
        }
        let (err_tx, err_rx) = mpsc::channel::<Vec<u8>>();
        if let Some(mut stderr) = child.stderr.take() {
            std::thread::spawn(move || {
                // Keep reading to the end so the child never stalls on a full pipe.
                let mut tail: Vec<u8> = Vec::new();
                let mut chunk = [0u8; 8192];
                while let Ok(n) = stderr.read(&mut chunk) {
                    if n == 0 {
                        break;
                    }
                    tail.extend_from_slice(&chunk[..n]);
                    if tail.len() > 4 * STDERR_TAIL {
                        // One byte more than the quoted tail, so that
                        // `tail_text` still sees that the start was cut.
                        tail.drain(..tail.len() - STDERR_TAIL - 1);
                    }
                }
                let _ = err_tx.send(tail);
            });
        }
        std::thread::spawn(move || {
            let _ = tx.send(Event::Exited(child.wait()));
        });

        enum Stop {
            Timeout,
            Cancelled,
            Overflow,
        }
        let mut stop: Option<Stop> = None;
        let status = loop {
            let now = Instant::now();
            if stop.is_none() && now >= deadline {
                stop = Some(Stop::Timeout);
                group.kill();
            }
            let wait = deadline
                .saturating_duration_since(now)
                .clamp(Duration::from_millis(1), POLL);
            match rx.recv_timeout(wait) {
                Ok(Event::Exited(status)) => break status,
                Ok(Event::Overflow) => {
                    if stop.is_none() {
                        stop = Some(Stop::Overflow);
                        group.kill();
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if stop.is_none() && ctx.is_cancelled() {
                        stop = Some(Stop::Cancelled);
                        group.kill();
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    break Err(std::io::Error::other("the waiting thread ended"));
                }
            }
        };
        // Whatever the leader left running in its group goes with it.
        group.kill();

        match stop {
            Some(Stop::Timeout) if own_limit => {
                return Err(ToolError::timeout(format!(
                    "command tool '{}' timed out after {} ms",
                    self.name,
                    self.timeout.as_millis()
                )));
            }
            Some(Stop::Timeout) => {
                return Err(ToolError::timeout(format!(
                    "command tool '{}' did not finish before the run's deadline",
                    self.name
                )));
            }
            Some(Stop::Cancelled) => return Err(ToolError::cancelled()),
            Some(Stop::Overflow) => {
                return Err(ToolError::failed(format!(
                    "command tool '{}': output exceeds {} bytes",
                    self.name, self.max_output
                )));
            }
            None => {}
        }
        let status = status.map_err(|e| {
            ToolError::failed(format!("command tool '{}': cannot wait: {e}", self.name))
        })?;
        let stdout = out_rx.recv_timeout(DRAIN_GRACE).map_err(|_| {
            ToolError::failed(format!(
                "command tool '{}': its output stayed open after it exited",
                self.name
            ))
        })?;
        if !status.success() {
            let stderr = err_rx.recv_timeout(DRAIN_GRACE).unwrap_or_default();
            let tail = tail_text(&stderr, STDERR_TAIL);
            let how = process::describe_exit(status);
            let msg = if tail.is_empty() {
                format!("command tool '{}' {how}", self.name)
            } else {
                format!("command tool '{}' {how}: {tail}", self.name)
            };
            return Err(ToolError::failed(msg));
        }
        let text = String::from_utf8(stdout).map_err(|_| {
            ToolError::failed(format!(
                "command tool '{}': output is not valid UTF-8",
                self.name
            ))
        })?;
        Ok(output_value(text))
    }
}

/// Why a command tool running `argv` with `env` added to the minimal
/// environment cannot start, when that can be known before a call: no
/// command, an absolute program that is not an executable file, or a bare
/// name not found on the `PATH` the tool will run with (its own `env`'s
/// `PATH` when it sets one). A relative path (`./x`, `bin/x`) is resolved
/// against the workspace at each call, so it is not checked here.
pub fn missing_program(argv: &[String], env: &[(String, String)]) -> Option<String> {
    let Some(program) = argv.first().filter(|p| !p.is_empty()) else {
        return Some("the command is empty".to_string());
    };
    if program.starts_with('/') {
        let path = std::path::Path::new(program);
        return match path.metadata() {
            Err(_) => Some(format!("program '{program}' does not exist")),
            Ok(_) if process::find_program(program, None).is_none() => {
                Some(format!("program '{program}' is not an executable file"))
            }
            Ok(_) => None,
        };
    }
    if program.contains('/') {
        return None;
    }
    let path_var = env
        .iter()
        .rev()
        .find(|(k, _)| k == "PATH")
        .map(|(_, v)| v.as_str());
    if process::find_program(program, path_var).is_some() {
        return None;
    }
    Some(match path_var {
        Some(_) => format!("program '{program}' was not found on the tool's PATH"),
        None => format!("program '{program}' was not found on PATH"),
    })
}

/// JSON when the text is JSON, else the text minus one trailing newline.
fn output_value(text: String) -> Data {
    if let Ok(v) = Data::from_json(&text) {
        return v;
    }
    let mut text = text;
    if text.ends_with('\n') {
        text.pop();
    }
    Data::Str(text)
}

impl Tool for CommandTool {
    fn call(&self, args: Vec<Data>, kwargs: Vec<(String, Data)>, ctx: &CallContext) -> ToolAnswer {
        ToolAnswer::Ready(self.run(args, kwargs, ctx))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_is_json_or_text() {
        assert_eq!(output_value("3\n".into()), Data::Int(3.into()));
        assert_eq!(
            output_value("hello\n\n".into()),
            Data::Str("hello\n".into())
        );
        assert_eq!(
            output_value("{\"a\": [1]}".into()),
            Data::Dict(vec![(
                Data::Str("a".into()),
                Data::List(vec![Data::Int(1.into())])
            )])
        );
        assert_eq!(output_value(String::new()), Data::Str(String::new()));
    }

    #[test]
    fn programs_that_cannot_start_are_found_before_a_call() {
        let argv = |p: &str| vec![p.to_string()];
        assert_eq!(
            missing_program(&argv("/no/such/program"), &[]).as_deref(),
            Some("program '/no/such/program' does not exist")
        );
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"));
        let plain = dir.path().join("plain.txt");
        std::fs::write(&plain, "not a program").unwrap_or_else(|e| panic!("write: {e}"));
        let plain = plain.display().to_string();
        assert_eq!(
            missing_program(&argv(&plain), &[]),
            Some(format!("program '{plain}' is not an executable file"))
        );
        assert_eq!(
            missing_program(&argv("/"), &[]).as_deref(),
            Some("program '/' is not an executable file")
        );
        assert_eq!(missing_program(&argv("/bin/sh"), &[]), None);
        assert_eq!(missing_program(&argv("sh"), &[]), None);
        assert_eq!(missing_program(&argv("./later.sh"), &[]), None);
        assert_eq!(
            missing_program(&[], &[]).as_deref(),
            Some("the command is empty")
        );
        // The tool's own PATH is where a bare name is looked up.
        let env = vec![("PATH".to_string(), "/no/such/dir".to_string())];
        assert_eq!(
            missing_program(&argv("sh"), &env).as_deref(),
            Some("program 'sh' was not found on the tool's PATH")
        );
    }
}
