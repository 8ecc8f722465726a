//! The callable side of a tool: [`Tool`], its [`CallContext`] and its
//! [`ToolAnswer`].
//!
//! A tool answers either at once ([`ToolAnswer::Ready`]) or with a future
//! ([`ToolAnswer::Pending`]). Local tools (builtin, command, python) answer at
//! once, so they pay nothing for async; MCP tools answer with a future that
//! the bridge drives on its runtime. The future type uses only `std`, so this
//! crate needs no async runtime.
//!
//! A `Ready` answer may have blocked the calling thread for the length of the
//! call (a command or Python tool waits for its process), bounded by the
//! context's deadline and cancellation. Callers run tools on the
//! interpreter's thread, never on an async executor's worker.

use std::collections::HashSet;
use std::future::Future;
use std::path::Path;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, Wake, Waker};
use std::time::{Duration, Instant};

use lackpy_lang::Data;

use crate::error::ToolError;

/// What a call yields.
pub type ToolResult = Result<Data, ToolError>;

/// A call's answer still to come.
pub type ToolFuture = Pin<Box<dyn Future<Output = ToolResult> + Send + 'static>>;

/// A tool's answer to one call.
pub enum ToolAnswer {
    /// The call is done.
    Ready(ToolResult),
    /// The call completes later.
    Pending(ToolFuture),
}

impl ToolAnswer {
    /// Waits for the answer on this thread.
    ///
    /// For futures that need no particular executor (everything this crate
    /// makes); futures that need a runtime's reactor must be driven by it.
    pub fn wait(self) -> ToolResult {
        match self {
            ToolAnswer::Ready(r) => r,
            ToolAnswer::Pending(fut) => block_on(fut),
        }
    }
}

impl std::fmt::Debug for ToolAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ToolAnswer::Ready(r) => f.debug_tuple("Ready").field(r).finish(),
            ToolAnswer::Pending(_) => f.write_str("Pending(..)"),
        }
    }
}

impl From<ToolResult> for ToolAnswer {
    fn from(r: ToolResult) -> ToolAnswer {
        ToolAnswer::Ready(r)
    }
}

/// A callable tool.
pub trait Tool: Send + Sync {
    /// Calls the tool with positional and keyword arguments.
    fn call(&self, args: Vec<Data>, kwargs: Vec<(String, Data)>, ctx: &CallContext) -> ToolAnswer;
}

/// A tool made from a closure, for tools registered directly by an embedder
/// and for tests.
pub struct FnTool<F>(pub F);

impl<F> Tool for FnTool<F>
where
    F: Fn(Vec<Data>, Vec<(String, Data)>, &CallContext) -> ToolResult + Send + Sync,
{
    fn call(&self, args: Vec<Data>, kwargs: Vec<(String, Data)>, ctx: &CallContext) -> ToolAnswer {
        ToolAnswer::Ready((self.0)(args, kwargs, ctx))
    }
}

/// A shared tool from a closure.
pub fn tool_fn<F>(f: F) -> Arc<dyn Tool>
where
    F: Fn(Vec<Data>, Vec<(String, Data)>, &CallContext) -> ToolResult + Send + Sync + 'static,
{
    Arc::new(FnTool(f))
}

/// The paths the builtin file tools touched during a run, in first-touch
/// order, each once: `files_read` and `files_modified` in results.
#[derive(Debug, Default)]
pub struct FileLog {
    inner: Mutex<FileLogInner>,
}

#[derive(Debug, Default)]
struct FileLogInner {
    read: Vec<String>,
    read_seen: HashSet<String>,
    modified: Vec<String>,
    modified_seen: HashSet<String>,
    /// Notes on the call in progress, taken for its trace entry.
    notes: Vec<String>,
}

impl FileLog {
    /// An empty log.
    pub fn new() -> FileLog {
        FileLog::default()
    }

    /// Records that `path` (workspace-relative) was read.
    pub fn record_read(&self, path: &str) {
        let mut g = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        if g.read_seen.insert(path.to_string()) {
            g.read.push(path.to_string());
        }
    }

    /// Records that `path` (workspace-relative) was written.
    pub fn record_modified(&self, path: &str) {
        let mut g = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        if g.modified_seen.insert(path.to_string()) {
            g.modified.push(path.to_string());
        }
    }

    /// Notes something the current call did that the trace should show
    /// (a file read through one of several hard links).
    pub fn note(&self, text: impl Into<String>) {
        let mut g = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        g.notes.push(text.into());
    }

    /// The notes made since the last take, joined by `"; "`; `None` when
    /// there are none. The host takes them after each call.
    pub fn take_notes(&self) -> Option<String> {
        let mut g = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        if g.notes.is_empty() {
            return None;
        }
        let notes = std::mem::take(&mut g.notes);
        Some(notes.join("; "))
    }

    /// The paths read so far.
    pub fn files_read(&self) -> Vec<String> {
        self.inner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .read
            .clone()
    }

    /// The paths written so far.
    pub fn files_modified(&self) -> Vec<String> {
        self.inner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .modified
            .clone()
    }
}

/// What a call knows about the run it belongs to.
#[derive(Debug, Clone)]
pub struct CallContext {
    /// The workspace root: every relative path and every process's working
    /// directory is this. Never the process's current directory.
    pub workspace: Arc<Path>,
    /// When the run must end; a call must not outlive it.
    pub deadline: Option<Instant>,
    /// Set when the run is cancelled; long calls poll it.
    pub cancel: Arc<AtomicBool>,
    /// Where file tools record what they read and wrote.
    pub files: Arc<FileLog>,
}

impl CallContext {
    /// A context for `workspace` with no deadline, not cancelled, and a fresh
    /// file log.
    pub fn new(workspace: impl AsRef<Path>) -> CallContext {
        CallContext {
            workspace: Arc::from(workspace.as_ref()),
            deadline: None,
            cancel: Arc::new(AtomicBool::new(false)),
            files: Arc::new(FileLog::new()),
        }
    }

    /// The same context with a deadline.
    pub fn with_deadline(mut self, deadline: Instant) -> CallContext {
        self.deadline = Some(deadline);
        self
    }

    /// Whether the run was cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// When a call that may take `timeout` must end: the earlier of the run's
    /// deadline and `now + timeout`.
    pub fn call_deadline(&self, timeout: Duration) -> Instant {
        let own = Instant::now() + timeout;
        match self.deadline {
            Some(d) if d < own => d,
            _ => own,
        }
    }

    /// `Err` when the run is cancelled or its deadline has passed.
    pub fn check(&self) -> Result<(), ToolError> {
        if self.is_cancelled() {
            return Err(ToolError::cancelled());
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(ToolError::timeout("the run's deadline passed"));
        }
        Ok(())
    }
}

/// Wakes a parked thread.
struct ThreadWaker(std::thread::Thread);

impl Wake for ThreadWaker {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.unpark();
    }
}

/// Drives a future to completion on the current thread.
fn block_on(mut fut: ToolFuture) -> ToolResult {
    let waker = Waker::from(Arc::new(ThreadWaker(std::thread::current())));
    let mut cx = Context::from_waker(&waker);
    loop {
        match fut.as_mut().poll(&mut cx) {
            Poll::Ready(r) => return r,
            Poll::Pending => std::thread::park(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_log_keeps_first_touch_order_once() {
        let log = FileLog::new();
        log.record_read("b.txt");
        log.record_read("a.txt");
        log.record_read("b.txt");
        log.record_modified("c.txt");
        assert_eq!(log.files_read(), vec!["b.txt", "a.txt"]);
        assert_eq!(log.files_modified(), vec!["c.txt"]);
    }

    #[test]
    fn pending_answers_can_be_waited_for() {
        let answer = ToolAnswer::Pending(Box::pin(async { Ok(Data::Bool(true)) }));
        assert_eq!(answer.wait(), Ok(Data::Bool(true)));
    }

    #[test]
    fn context_reports_cancellation_and_deadline() {
        let ctx = CallContext::new("/tmp");
        assert!(ctx.check().is_ok());
        ctx.cancel.store(true, Ordering::Relaxed);
        assert_eq!(
            ctx.check().map_err(|e| e.error_type().to_string()),
            Err("Cancelled".into())
        );
        let late = CallContext::new("/tmp").with_deadline(Instant::now());
        assert_eq!(
            late.check().map_err(|e| e.error_type().to_string()),
            Err("TimeoutError".into())
        );
    }
}
