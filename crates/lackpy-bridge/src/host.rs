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
use crate::journal::Journal;
use crate::request::{Approvals, NamespaceTool};
use crate::result::Paused;

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
    pub(crate) runtime: Handle,
    pub(crate) cancel: CancelToken,
    run_deadline: Instant,
    run_timeout: Duration,
    default_call_timeout: Option<Duration>,
    /// Who decides gated calls.
    pub(crate) approvals: Approvals,
    /// The run's journal, if it keeps one.
    pub(crate) journal: Option<Journal>,
    /// The run's id, for a pause.
    pub(crate) run_id: Option<String>,
    /// Calls made so far (the next call's step).
    pub(crate) calls: usize,
    /// Where the run paused, once it has.
    pub(crate) paused: Option<Paused>,
    /// Whether a replayed call did not match its record.
    pub(crate) diverged: bool,
    /// What the last call's trace entry records (taken after each call).
    pub(crate) last_approval: Option<String>,
    pub(crate) last_replayed: bool,
    pub(crate) last_waited: Duration,
}

/// What a [`BridgeHost`] is built from besides its tools and context.
pub(crate) struct HostSetup {
    pub runtime: Handle,
    pub cancel: CancelToken,
    pub run_deadline: Instant,
    pub run_timeout: Duration,
    pub default_call_timeout: Option<Duration>,
    pub approvals: Approvals,
    pub journal: Option<Journal>,
    pub run_id: Option<String>,
}

impl BridgeHost {
    pub(crate) fn new(tools: Vec<NamespaceTool>, ctx: CallContext, setup: HostSetup) -> BridgeHost {
        BridgeHost {
            tools: tools.into_iter().map(|t| (t.name.clone(), t)).collect(),
            ctx,
            runtime: setup.runtime,
            cancel: setup.cancel,
            run_deadline: setup.run_deadline,
            run_timeout: setup.run_timeout,
            default_call_timeout: setup.default_call_timeout,
            approvals: setup.approvals,
            journal: setup.journal,
            run_id: setup.run_id,
            calls: 0,
            paused: None,
            diverged: false,
            last_approval: None,
            last_replayed: false,
            last_waited: Duration::ZERO,
        }
    }

    /// The namespace tool a program calls `name`.
    pub(crate) fn tool(&self, name: &str) -> Option<&NamespaceTool> {
        self.tools.get(name)
    }

    /// Moves the run's deadline `by` later (time spent waiting for a
    /// person); the interpreter hears of it through [`Host::take_waited`].
    pub(crate) fn shift_deadline(&mut self, by: Duration) {
        self.run_deadline += by;
        self.last_waited = by;
    }

    /// Whether calls must wait here by parking (only interpreter threads).
    pub(crate) fn may_block(&self) -> bool {
        INTERPRETER_THREAD.with(|f| f.get()) || Handle::try_current().is_err()
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
        if !self.may_block() {
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
        let step = self.calls;
        self.calls += 1;
        if !self.tools.contains_key(tool) {
            return Err(ProgramError::new(
                "NameError",
                format!("name '{tool}' is not defined"),
            ));
        }
        let journaled = match &self.journal {
            Some(_) => Some(crate::journal::encode_args(&args, &kwargs).map_err(|e| {
                ProgramError::new(
                    "JournalError",
                    format!("cannot journal the call to {tool}: {e}"),
                )
            })?),
            None => None,
        };
        if let Some(answer) = self.replay(step, tool, journaled.as_ref())? {
            self.last_replayed = true;
            return answer;
        }
        let approval = self.pass_gate(step, tool, &args, &kwargs)?;
        self.last_approval.clone_from(&approval);
        if let Some(args_json) = &journaled {
            self.journal_begin(step, tool, args_json, approval.as_deref())?;
        }
        let result = self.call_tool(tool, args, kwargs);
        if let (Ok(data), Some(args_json)) = (&result, journaled) {
            self.journal_complete(step, tool, args_json, data, approval)?;
        }
        result
    }

    fn call_note(&mut self) -> Option<String> {
        self.ctx.files.take_notes()
    }

    fn call_approval(&mut self) -> Option<String> {
        self.last_approval.take()
    }

    fn call_replayed(&mut self) -> bool {
        std::mem::take(&mut self.last_replayed)
    }

    fn take_waited(&mut self) -> Duration {
        std::mem::take(&mut self.last_waited)
    }
}

impl BridgeHost {
    /// Calls a tool for real, under its call timeout and the run's deadline.
    fn call_tool(
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
}
