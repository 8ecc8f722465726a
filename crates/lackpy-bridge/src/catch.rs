//! Turning a panicking tool into an error for its run only.

use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::task::{Context, Poll};

use lackpy_sources::{ToolError, ToolFuture, ToolResult};

/// The message of a tool panic, for the program's error.
pub(crate) fn panic_error(tool: &str, payload: &(dyn std::any::Any + Send)) -> ToolError {
    let detail = payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string());
    ToolError::failed(format!("tool '{tool}' panicked: {detail}"))
}

/// A tool future whose panics become errors.
pub(crate) struct CatchPanic {
    pub(crate) tool: String,
    pub(crate) fut: ToolFuture,
}

impl Future for CatchPanic {
    type Output = ToolResult;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<ToolResult> {
        let this = &mut *self;
        match catch_unwind(AssertUnwindSafe(|| this.fut.as_mut().poll(cx))) {
            Ok(p) => p,
            Err(payload) => Poll::Ready(Err(panic_error(&this.tool, payload.as_ref()))),
        }
    }
}
