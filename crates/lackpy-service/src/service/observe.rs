//! Hearing of each tool call as it finishes, without touching the bridge:
//! every tool of the run is wrapped, and the wrapper tells the observer
//! when the answer is in (inline for a ready answer, from the future for a
//! pending one).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};

use lackpy_bridge::NamespaceTool;
use lackpy_lang::Data;
use lackpy_sources::{CallContext, Tool, ToolAnswer, ToolResult};

/// One finished tool call of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCallEvent {
    /// The call's 0-based index in the run (the trace entry's `step`).
    pub step: usize,
    /// The name the program called.
    pub tool: String,
    /// Whether the call succeeded.
    pub success: bool,
}

/// Told of each tool call as it finishes. Called on the interpreter's
/// thread or on the runtime, so it must be quick and must not block.
pub type ToolCallObserver = Arc<dyn Fn(ToolCallEvent) + Send + Sync>;

/// How a caller steers a run while it goes, the same for every kind of
/// request ([`RunProgram`](super::RunProgram), [`Delegate`](super::Delegate),
/// [`Resume`](super::Resume)): a token that stops it and a hook that hears
/// of each tool call as it finishes.
#[derive(Clone, Default)]
pub struct RunControl {
    /// Cancelling it stops the run within one step, dropping its tool call
    /// in flight (and a delegation's model request). `None`: only the
    /// run's limits stop it.
    pub cancel: Option<lackpy_bridge::CancelToken>,
    /// Hears of each tool call as it finishes (the MCP server's progress
    /// notifications).
    pub observer: Option<ToolCallObserver>,
    /// The caller's W3C `traceparent` (an MCP request's
    /// `_meta.traceparent` or HTTP header): the run's trace continues the
    /// caller's when traces are exported. A malformed value is ignored.
    pub traceparent: Option<String>,
}

impl RunControl {
    /// The token that stops the run (a fresh one when none was given).
    pub(super) fn token(&self) -> lackpy_bridge::CancelToken {
        self.cancel.clone().unwrap_or_default()
    }
}

impl std::fmt::Debug for RunControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunControl")
            .field("cancel", &self.cancel.is_some())
            .field("observer", &self.observer.is_some())
            .field("traceparent", &self.traceparent)
            .finish()
    }
}

/// The run's tools, each wrapped to tell `observer` when a call finishes.
pub(super) fn observed(
    tools: Vec<NamespaceTool>,
    observer: &ToolCallObserver,
    first_step: usize,
) -> Vec<NamespaceTool> {
    // A run calls its tools one at a time, so a counter shared by the
    // run's tools numbers the calls as the trace does (a resumed run's
    // replayed calls reach no tool: its live calls start at `first_step`).
    let counter = Arc::new(AtomicUsize::new(first_step));
    tools
        .into_iter()
        .map(|mut t| {
            t.tool = Arc::new(Observed {
                name: t.name.clone(),
                inner: t.tool,
                counter: Arc::clone(&counter),
                observer: Arc::clone(observer),
            });
            t
        })
        .collect()
}

struct Observed {
    name: String,
    inner: Arc<dyn Tool>,
    counter: Arc<AtomicUsize>,
    observer: ToolCallObserver,
}

impl Tool for Observed {
    fn call(&self, args: Vec<Data>, kwargs: Vec<(String, Data)>, ctx: &CallContext) -> ToolAnswer {
        let step = self.counter.fetch_add(1, Ordering::SeqCst);
        let report = Report {
            step,
            tool: self.name.clone(),
            observer: Arc::clone(&self.observer),
        };
        match self.inner.call(args, kwargs, ctx) {
            ToolAnswer::Ready(r) => {
                report.finished(&r);
                ToolAnswer::Ready(r)
            }
            ToolAnswer::Pending(fut) => ToolAnswer::Pending(Box::pin(Reporting {
                fut,
                report: Some(report),
            })),
        }
    }
}

struct Report {
    step: usize,
    tool: String,
    observer: ToolCallObserver,
}

impl Report {
    fn finished(self, result: &ToolResult) {
        (self.observer)(ToolCallEvent {
            step: self.step,
            tool: self.tool,
            success: result.is_ok(),
        });
    }
}

/// A pending answer that reports when it completes (a dropped, cancelled
/// call reports nothing).
struct Reporting<F> {
    fut: F,
    report: Option<Report>,
}

impl<F: Future<Output = ToolResult> + Unpin> Future for Reporting<F> {
    type Output = ToolResult;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<ToolResult> {
        let this = &mut *self;
        match Pin::new(&mut this.fut).poll(cx) {
            Poll::Ready(r) => {
                if let Some(report) = this.report.take() {
                    report.finished(&r);
                }
                Poll::Ready(r)
            }
            Poll::Pending => Poll::Pending,
        }
    }
}
