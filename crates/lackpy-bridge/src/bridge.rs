//! [`Bridge`]: runs programs as futures on the caller's runtime.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use lackpy_lang::ExceptionKind;
use lackpy_lang::compute_grade;
use lackpy_lang::{RunOptions, run as interpret};
use lackpy_sources::{CallContext, FileLog};
use tokio::runtime::Handle;
use tokio::sync::Semaphore;

use crate::cancel::CancelToken;
use crate::host::{BridgeHost, HostSetup, InterpreterThread};
use crate::inline::{Slice, first_slice};
use crate::request::RunRequest;
use crate::result::ExecutionResult;

/// How a [`Bridge`] uses threads.
#[derive(Debug, Clone)]
pub struct BridgeConfig {
    /// At most this many interpreters run at once; further runs wait.
    pub max_interpreters: usize,
    /// A run first goes this long on the thread that awaits it, and moves
    /// to an interpreter thread only when it reaches a tool call or takes
    /// longer (zero: always on an interpreter thread). A short program then
    /// costs no thread hand-off. The awaiting thread (a runtime worker)
    /// needs room on its stack for the interpreter's stack budget (1 MiB)
    /// beyond what it already uses.
    pub inline_slice: Duration,
}

impl Default for BridgeConfig {
    fn default() -> BridgeConfig {
        BridgeConfig {
            max_interpreters: 64,
            inline_slice: Duration::ZERO,
        }
    }
}

/// Runs validated programs against their tools, as futures.
///
/// Cheap to clone; clones share the interpreter-thread bound.
#[derive(Debug, Clone)]
pub struct Bridge {
    permits: Arc<Semaphore>,
    active: Arc<AtomicUsize>,
    inline_slice: Duration,
}

impl Default for Bridge {
    fn default() -> Bridge {
        Bridge::new(BridgeConfig::default())
    }
}

/// Cancels the run if its future is dropped before it completes.
struct CancelOnDrop(Option<CancelToken>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if let Some(t) = self.0.take() {
            t.cancel();
        }
    }
}

/// Counts a running interpreter for as long as it lives.
struct Active(Arc<AtomicUsize>);

impl Active {
    fn enter(counter: &Arc<AtomicUsize>) -> Active {
        counter.fetch_add(1, Ordering::SeqCst);
        Active(Arc::clone(counter))
    }
}

impl Drop for Active {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Bridge {
    /// A bridge with its own bound on interpreter threads (at least one).
    pub fn new(config: BridgeConfig) -> Bridge {
        Bridge {
            permits: Arc::new(Semaphore::new(config.max_interpreters.max(1))),
            active: Arc::new(AtomicUsize::new(0)),
            inline_slice: config.inline_slice,
        }
    }

    /// How many interpreter threads are running programs right now.
    pub fn active_interpreters(&self) -> usize {
        self.active.load(Ordering::SeqCst)
    }

    /// Runs a program. Dropping the future cancels the run.
    ///
    /// Must be awaited inside a tokio runtime (any flavour): pending tool
    /// answers are driven on it.
    /// The future owns what it needs (`'static`), so it can be spawned.
    pub fn run(
        &self,
        request: RunRequest,
    ) -> impl Future<Output = ExecutionResult> + Send + 'static {
        self.run_with_cancel(request, CancelToken::new())
    }

    /// Runs a program that `cancel` can stop from outside.
    pub fn run_with_cancel(
        &self,
        request: RunRequest,
        cancel: CancelToken,
    ) -> impl Future<Output = ExecutionResult> + Send + 'static {
        let bridge = self.clone();
        async move { bridge.run_owned(request, cancel).await }
    }

    async fn run_owned(self, request: RunRequest, cancel: CancelToken) -> ExecutionResult {
        let started = Instant::now();
        let grade = compute_grade(request.tools.iter().map(|t| t.grade));
        let mut on_drop = CancelOnDrop(Some(cancel.clone()));
        // The semaphore is never closed, so acquiring only waits.
        let permit = match Arc::clone(&self.permits).acquire_owned().await {
            Ok(p) => p,
            Err(_) => {
                return ExecutionResult::failed(
                    ExceptionKind::InternalError.name(),
                    "the bridge is shut down".to_string(),
                    grade,
                    started.elapsed(),
                );
            }
        };
        // A caller blocking its own thread on the run has it interpret
        // there (see `CallerThreadRuns`) after the slice: no hand-off.
        let here = crate::caller_thread::here();
        if !self.inline_slice.is_zero() {
            let slice = {
                let _active = Active::enter(&self.active);
                first_slice(&request, &cancel, self.inline_slice)
            };
            match slice {
                Slice::Done(outcome) => {
                    on_drop.0 = None;
                    return ExecutionResult::from_outcome(
                        *outcome,
                        grade,
                        Vec::new(),
                        Vec::new(),
                        started.elapsed(),
                    );
                }
                Slice::Panicked => {
                    on_drop.0 = None;
                    return ExecutionResult::failed(
                        ExceptionKind::InternalError.name(),
                        "the interpreter stopped unexpectedly: it panicked".to_string(),
                        grade,
                        started.elapsed(),
                    );
                }
                Slice::Again => {}
            }
        }
        let runtime = Handle::current();
        let files = Arc::new(FileLog::new());
        let active = Arc::clone(&self.active);
        let task_files = Arc::clone(&files);
        let task_cancel = cancel.clone();
        let interpret_run = move || {
            let _permit = permit;
            let _active = Active::enter(&active);
            let _mark = InterpreterThread::enter();
            task_cancel.attach_current_thread();
            // The deadline counts from the interpreter's start, not from
            // the wait for a thread.
            let deadline = Instant::now() + request.limits.timeout;
            let ctx = CallContext {
                workspace: Arc::from(request.workspace.as_path()),
                deadline: Some(deadline),
                cancel: task_cancel.flag(),
                files: task_files,
            };
            let mut host = BridgeHost::new(
                request.tools,
                ctx,
                HostSetup {
                    runtime,
                    cancel: task_cancel.clone(),
                    run_deadline: deadline,
                    run_timeout: request.limits.timeout,
                    default_call_timeout: request.default_call_timeout,
                    approvals: request.approvals,
                    journal: request.journal,
                    run_id: request.run_id,
                },
            );
            let opts = RunOptions {
                limits: request.limits.clone(),
                cancel: Some(task_cancel.flag()),
                deadline: Some(deadline),
                variables: request.variables,
                teardown: request.teardown,
                output_value: request.output_value,
            };
            let outcome = interpret(&request.module, &mut host, &request.params, &opts);
            task_cancel.detach_thread();
            (outcome, host.paused.take(), host.replay_left())
        };
        let interpreter = if here {
            Ok(interpret_run())
        } else {
            tokio::task::spawn_blocking(interpret_run).await
        };
        on_drop.0 = None;
        match interpreter {
            Ok((outcome, paused, replay_left)) => {
                let mut result = ExecutionResult::from_outcome(
                    outcome,
                    grade,
                    files.files_read(),
                    files.files_modified(),
                    started.elapsed(),
                );
                if result.error_type.as_deref() == Some("ApprovalRequired") {
                    result.paused = paused;
                } else if result.success && replay_left > 0 {
                    result = ExecutionResult::failed(
                        "ReplayDivergenceError",
                        format!(
                            "the program ended before {replay_left} calls its journal recorded; the program, its namespace or the tools changed since the run was journaled"
                        ),
                        grade,
                        started.elapsed(),
                    );
                }
                result
            }
            Err(e) => ExecutionResult::failed(
                ExceptionKind::InternalError.name(),
                format!("the interpreter stopped unexpectedly: {e}"),
                grade,
                started.elapsed(),
            ),
        }
    }
}
