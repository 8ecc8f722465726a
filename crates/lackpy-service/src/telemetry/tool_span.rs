//! The `lackpy.tool_call` spans: every tool of a traced run is wrapped so
//! that each call gets a child span of the run's, entered while the tool
//! works (an MCP tool's operation, submitted then, takes it as its parent).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};

use lackpy_bridge::NamespaceTool;
use lackpy_lang::{Data, Grade};
use lackpy_sources::{CallContext, Tool, ToolAnswer, ToolFuture, ToolResult};
use tracing::field::Empty;

/// `tools`, each wrapped to trace its calls under `run`. `source_of` names
/// the source of a tool the program calls by that name; steps are counted
/// from `first_step` (a resumed run's replayed calls reach no tool).
pub(crate) fn traced(
    tools: Vec<NamespaceTool>,
    run: &tracing::Span,
    source_of: impl Fn(&str) -> Option<String>,
    first_step: usize,
) -> Vec<NamespaceTool> {
    let counter = Arc::new(AtomicUsize::new(first_step));
    tools
        .into_iter()
        .map(|mut t| {
            let source = source_of(&t.name).unwrap_or_default();
            t.tool = Arc::new(Traced {
                name: t.name.clone(),
                source,
                provenance: t.provenance.clone(),
                grade: t.grade,
                inner: t.tool,
                counter: Arc::clone(&counter),
                run: run.clone(),
            });
            t
        })
        .collect()
}

struct Traced {
    name: String,
    source: String,
    provenance: String,
    grade: Grade,
    inner: Arc<dyn Tool>,
    counter: Arc<AtomicUsize>,
    run: tracing::Span,
}

impl Tool for Traced {
    fn call(&self, args: Vec<Data>, kwargs: Vec<(String, Data)>, ctx: &CallContext) -> ToolAnswer {
        let step = self.counter.fetch_add(1, Ordering::SeqCst);
        let span = tracing::trace_span!(
            target: "lackpy::telemetry",
            parent: &self.run,
            "lackpy.tool_call",
            lackpy.tool = %self.name,
            lackpy.source = %self.source,
            lackpy.provenance = %self.provenance,
            lackpy.grade.w = self.grade.w,
            lackpy.grade.d = self.grade.d,
            lackpy.step = step,
            lackpy.outcome = Empty,
            lackpy.error_type = Empty,
            otel.status_code = Empty,
        );
        match span.in_scope(|| self.inner.call(args, kwargs, ctx)) {
            ToolAnswer::Ready(r) => {
                finish(&span, &r);
                ToolAnswer::Ready(r)
            }
            ToolAnswer::Pending(fut) => ToolAnswer::Pending(Box::pin(TracedCall {
                fut,
                span: Some(span),
            })),
        }
    }
}

/// Records a call's outcome on its span.
fn finish(span: &tracing::Span, result: &ToolResult) {
    match result {
        Ok(_) => {
            span.record("lackpy.outcome", "ok");
        }
        Err(e) => {
            span.record("lackpy.outcome", "error");
            span.record("lackpy.error_type", e.error_type());
            span.record("otel.status_code", "ERROR");
        }
    }
}

/// A pending answer polled inside its call's span; the span ends when the
/// answer is in, or when the call is dropped (cancelled).
struct TracedCall {
    fut: ToolFuture,
    span: Option<tracing::Span>,
}

impl Future for TracedCall {
    type Output = ToolResult;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<ToolResult> {
        let this = &mut *self;
        let Some(span) = &this.span else {
            return this.fut.as_mut().poll(cx);
        };
        let polled = span.in_scope(|| this.fut.as_mut().poll(cx));
        if let Poll::Ready(r) = &polled {
            finish(span, r);
            this.span = None;
        }
        polled
    }
}

impl Drop for TracedCall {
    fn drop(&mut self) {
        if let Some(span) = &self.span {
            span.record("lackpy.outcome", "cancelled");
        }
    }
}
