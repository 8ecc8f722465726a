//! The interpreter's host: hands each tool call to its tool, inline when the
//! answer is ready, through the runtime when it is a future.

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use lackpy_lang::Data;
use lackpy_lang::{Host, ToolException as ProgramError};
use lackpy_sources::{CallContext, ToolAnswer, ToolError, ToolErrorKind, ToolFuture, ToolResult};
use tokio::runtime::Handle;

use crate::cancel::CancelToken;
use crate::catch::{CatchPanic, panic_error};
use crate::request::NamespaceTool;

// Marks threads the bridge runs interpreters on: only there may a tool
// future be waited for by blocking.
thread_local! {
    static INTERPRETER_THREAD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Marks the current thread as an interpreter thread for the guard's life.
pub(crate) struct InterpreterThread;

impl InterpreterThread {
    pub(crate) fn enter() -> InterpreterThread {
        INTERPRETER_THREAD.with(|f| f.set(true));
        InterpreterThread
    }
}

impl Drop for InterpreterThread {
    fn drop(&mut self) {
        INTERPRETER_THREAD.with(|f| f.set(false));
    }
}

pub(crate) struct BridgeHost {
    tools: HashMap<String, NamespaceTool>,
    ctx: CallContext,
    runtime: Handle,
    cancel: CancelToken,
    run_deadline: Instant,
    run_timeout: Duration,
    default_call_timeout: Option<Duration>,
}

impl BridgeHost {
    pub(crate) fn new(
        tools: Vec<NamespaceTool>,
        ctx: CallContext,
        runtime: Handle,
        cancel: CancelToken,
        run_deadline: Instant,
        run_timeout: Duration,
        default_call_timeout: Option<Duration>,
    ) -> BridgeHost {
        BridgeHost {
            tools: tools.into_iter().map(|t| (t.name.clone(), t)).collect(),
            ctx,
            runtime,
            cancel,
            run_deadline,
            run_timeout,
            default_call_timeout,
        }
    }

    /// Waits on this (interpreter) thread for a pending answer, until it
    /// completes, the call's deadline passes or the run is cancelled; in
    /// the last two cases the tool future is dropped.
    fn wait_pending(
        &self,
        tool: &str,
        fut: ToolFuture,
        timeout: Option<Duration>,
        call_deadline: Instant,
    ) -> ToolResult {
        if !INTERPRETER_THREAD.with(|f| f.get()) && Handle::try_current().is_ok() {
            // Blocking here could starve the very runtime the future needs.
            return Err(ToolError::failed(format!(
                "tool '{tool}' returned a future on a runtime worker thread; run programs through the bridge"
            )));
        }
        let slot: Arc<Mutex<Option<ToolResult>>> = Arc::default();
        let task_slot = Arc::clone(&slot);
        let me = std::thread::current();
        let fut = CatchPanic {
            tool: tool.to_string(),
            fut,
        };
        let task = self.runtime.spawn(async move {
            let result = fut.await;
            *task_slot.lock().unwrap_or_else(PoisonError::into_inner) = Some(result);
            me.unpark();
        });
        loop {
            if let Some(result) = slot.lock().unwrap_or_else(PoisonError::into_inner).take() {
                return result;
            }
            if self.cancel.is_cancelled() {
                task.abort();
                return Err(ToolError::cancelled());
            }
            let now = Instant::now();
            if now >= call_deadline {
                task.abort();
                return Err(self.deadline_error(tool, timeout, call_deadline));
            }
            std::thread::park_timeout(call_deadline - now);
        }
    }
}

impl BridgeHost {
    /// The error of a call stopped by its deadline, naming the limit that
    /// set it: the call's own timeout, or the run's when that came first.
    fn deadline_error(
        &self,
        tool: &str,
        timeout: Option<Duration>,
        call_deadline: Instant,
    ) -> ToolError {
        match timeout {
            Some(t) if call_deadline < self.run_deadline => ToolError::timeout(format!(
                "tool '{tool}' timed out after {} ms",
                t.as_millis()
            )),
            _ => ToolError::timeout(format!(
                "tool '{tool}' did not finish before the run's timeout ({} ms)",
                self.run_timeout.as_millis()
            )),
        }
    }

    /// A tool's own timeout error is only right when its own limit fired;
    /// when the deadline this host gave it (the run's, or the call timeout
    /// set here) passed, the error names that limit instead.
    fn name_the_limit(
        &self,
        tool: &str,
        result: ToolResult,
        timeout: Option<Duration>,
        call_deadline: Instant,
    ) -> ToolResult {
        match result {
            Err(e) if e.kind() == ToolErrorKind::Timeout && Instant::now() >= call_deadline => {
                Err(self.deadline_error(tool, timeout, call_deadline))
            }
            other => other,
        }
    }
}

impl Host for BridgeHost {
    fn tool_args(&self, name: &str) -> Option<&[String]> {
        self.tools.get(name).map(|t| t.args.as_slice())
    }

    fn call(
        &mut self,
        tool: &str,
        args: Vec<Data>,
        kwargs: Vec<(String, Data)>,
    ) -> Result<Data, ProgramError> {
        let Some(resolved) = self.tools.get(tool) else {
            return Err(ProgramError::new(
                "NameError",
                format!("name '{tool}' is not defined"),
            ));
        };
        let timeout = resolved.call_timeout.or(self.default_call_timeout);
        let imp = Arc::clone(&resolved.tool);
        let call_deadline = match timeout {
            Some(t) => (Instant::now() + t).min(self.run_deadline),
            None => self.run_deadline,
        };
        let mut ctx = self.ctx.clone();
        ctx.deadline = Some(call_deadline);
        let answer = catch_unwind(AssertUnwindSafe(|| imp.call(args, kwargs, &ctx)))
            .unwrap_or_else(|payload| ToolAnswer::Ready(Err(panic_error(tool, payload.as_ref()))));
        let result = match answer {
            ToolAnswer::Ready(r) => r,
            ToolAnswer::Pending(fut) => self.wait_pending(tool, fut, timeout, call_deadline),
        };
        let result = self.name_the_limit(tool, result, timeout, call_deadline);
        result.map_err(|e| ProgramError::new(e.error_type().to_string(), e.message().to_string()))
    }

    fn call_note(&mut self) -> Option<String> {
        self.ctx.files.take_notes()
    }
}
