//! Python tools (`provider = "python"`, lackpy's `module` + `function`).
//!
//! Calls go to one long-lived `python3` worker per workspace that imports
//! the module (the workspace last on `sys.path`, so no file written there
//! can stand in for a standard or installed module) and calls the function
//! with the call's positional and keyword arguments, so Python binds them
//! and words any `TypeError` itself. A worker found dead before a call is
//! restarted; a worker that dies during a call fails that call and is
//! restarted on the next. Calls to one workspace's worker take turns.
//! Without `python3` the tools are unavailable, with a logged reason.

mod tagged;
mod worker;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use lackpy_lang::Data;

use crate::error::ToolError;
use crate::process::find_program;
use crate::tool::{CallContext, Tool, ToolAnswer, ToolResult};
use worker::{CallFailure, Worker};

/// A call's time limit when the config gives none.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// The largest result (as JSON) a call may return when the config gives
/// no `max_output_bytes`: 64 MiB.
pub const DEFAULT_MAX_OUTPUT: usize = 64 * 1024 * 1024;

type Slot = Arc<Mutex<Option<Worker>>>;

/// What one call may take: time, and the size of its result as JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallLimits {
    /// The call's time limit (the run's deadline may end it sooner).
    pub timeout: Duration,
    /// The largest result, as JSON, in bytes.
    pub max_output: usize,
}

impl Default for CallLimits {
    fn default() -> CallLimits {
        CallLimits {
            timeout: DEFAULT_TIMEOUT,
            max_output: DEFAULT_MAX_OUTPUT,
        }
    }
}

/// The Python interpreter and its workers, shared by every Python tool.
pub struct PythonRuntime {
    python: Result<PathBuf, String>,
    workers: Mutex<HashMap<PathBuf, Slot>>,
}

impl std::fmt::Debug for PythonRuntime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PythonRuntime")
            .field("python", &self.python)
            .finish_non_exhaustive()
    }
}

impl PythonRuntime {
    /// Uses `python3` from `PATH`.
    pub fn new() -> Arc<PythonRuntime> {
        let python = find_program("python3", None)
            .ok_or_else(|| "python3 was not found on PATH".to_string());
        PythonRuntime::with(python)
    }

    /// Uses the interpreter at `path` (a name is looked up on `PATH`).
    pub fn with_interpreter(path: impl AsRef<Path>) -> Arc<PythonRuntime> {
        let text = path.as_ref().to_string_lossy().into_owned();
        let python = find_program(&text, None)
            .ok_or_else(|| format!("{text} is not an executable python interpreter"));
        PythonRuntime::with(python)
    }

    fn with(python: Result<PathBuf, String>) -> Arc<PythonRuntime> {
        if let Err(reason) = &python {
            tracing::debug!(%reason, "no python interpreter");
        }
        Arc::new(PythonRuntime {
            python,
            workers: Mutex::new(HashMap::new()),
        })
    }

    /// Whether Python tools can run.
    pub fn available(&self) -> bool {
        self.python.is_ok()
    }

    /// Why Python tools cannot run.
    pub fn unavailable_reason(&self) -> Option<String> {
        self.python.as_ref().err().cloned()
    }

    fn slot(&self, workspace: &Path) -> Slot {
        let mut map = self.workers.lock().unwrap_or_else(PoisonError::into_inner);
        Arc::clone(map.entry(workspace.to_path_buf()).or_default())
    }

    /// The process id of `workspace`'s worker, if one is running.
    pub fn worker_pid(&self, workspace: &Path) -> Option<u32> {
        let key = workspace.canonicalize().ok()?;
        let slot = self.slot(&key);
        let guard = slot.lock().unwrap_or_else(PoisonError::into_inner);
        guard.as_ref().map(Worker::pid)
    }

    /// Stops every worker.
    pub fn shutdown(&self) {
        let slots: Vec<Slot> = self
            .workers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .drain()
            .map(|(_, s)| s)
            .collect();
        for slot in slots {
            slot.lock().unwrap_or_else(PoisonError::into_inner).take();
        }
    }

    /// Calls `module.function(*args, **kwargs)` in the workspace's worker.
    pub fn call(
        &self,
        module: &str,
        function: &str,
        args: &[Data],
        kwargs: &[(String, Data)],
        ctx: &CallContext,
        limits: CallLimits,
    ) -> ToolResult {
        let CallLimits {
            timeout,
            max_output,
        } = limits;
        ctx.check()?;
        let python = match &self.python {
            Ok(p) => p,
            Err(reason) => {
                return Err(ToolError::unavailable(format!(
                    "python tool '{module}.{function}' is unavailable: {reason}"
                )));
            }
        };
        let workspace = ctx.workspace.canonicalize().map_err(|e| {
            ToolError::failed(format!(
                "the workspace {} is not usable: {e}",
                ctx.workspace.display()
            ))
        })?;
        let deadline = ctx.call_deadline(timeout);
        let slot = self.slot(&workspace);
        let mut guard = slot.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(w) = guard.as_mut()
            && !w.alive()
        {
            tracing::info!(pid = w.pid(), "python worker is gone; restarting it");
            *guard = None;
        }
        let worker = match guard.as_mut() {
            Some(w) => w,
            None => {
                let w = Worker::start(python, &workspace)
                    .map_err(|reason| ToolError::failed(format!("python worker: {reason}")))?;
                guard.insert(w)
            }
        };
        let max_bytes = u64::try_from(max_output).unwrap_or(u64::MAX);
        let call = worker::Call {
            module,
            function,
            args,
            kwargs,
        };
        match worker.call(&call, ctx, deadline, max_bytes) {
            Ok(v) => Ok(v),
            Err(CallFailure::Raised(e)) => Err(e),
            Err(CallFailure::Stopped(e)) => {
                *guard = None;
                Err(e)
            }
            Err(CallFailure::Died(reason)) => {
                *guard = None;
                Err(ToolError::failed(reason))
            }
        }
    }
}

impl Drop for PythonRuntime {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// A Python tool: `module.function` in the workspace's worker.
#[derive(Debug, Clone)]
pub struct PythonTool {
    runtime: Arc<PythonRuntime>,
    module: String,
    function: String,
    timeout: Duration,
    max_output: usize,
}

impl PythonTool {
    /// A tool calling `module.function` through `runtime`.
    pub fn new(
        runtime: Arc<PythonRuntime>,
        module: impl Into<String>,
        function: impl Into<String>,
    ) -> PythonTool {
        PythonTool {
            runtime,
            module: module.into(),
            function: function.into(),
            timeout: DEFAULT_TIMEOUT,
            max_output: DEFAULT_MAX_OUTPUT,
        }
    }

    /// The same tool with a cap on its result's size (as JSON, in bytes).
    pub fn with_max_output(mut self, bytes: usize) -> PythonTool {
        self.max_output = bytes;
        self
    }

    /// The same tool with a per-call time limit.
    pub fn with_timeout(mut self, timeout: Duration) -> PythonTool {
        self.timeout = timeout;
        self
    }
}

impl Tool for PythonTool {
    fn call(&self, args: Vec<Data>, kwargs: Vec<(String, Data)>, ctx: &CallContext) -> ToolAnswer {
        ToolAnswer::Ready(self.runtime.call(
            &self.module,
            &self.function,
            &args,
            &kwargs,
            ctx,
            CallLimits {
                timeout: self.timeout,
                max_output: self.max_output,
            },
        ))
    }
}
