//! Operations: explicit closures over a small client facade, submitted to a
//! server's supervisor.
//!
//! Each operation carries metadata (label, server id, sequence number,
//! submit time) for tracing only; the supervisor never dispatches on it. The
//! facade offers what the public surface needs and nothing more: a page of
//! `tools/list` and `tools/call`.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Instant;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, JsonObject, ListToolsResult, PaginatedRequestParams,
    RequestMetaObject,
};
use rmcp::service::{Peer, RoleClient};
use tokio::sync::oneshot;
use tracing::Instrument;

use crate::error::McpError;

/// A boxed, sendable future.
pub(crate) type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// What operations run against: one session's peer, cheap to clone; the
/// SDK lets any number of requests share it.
#[derive(Clone)]
pub(crate) struct Client {
    peer: Peer<RoleClient>,
    cap: usize,
}

impl Client {
    pub(crate) fn new(peer: Peer<RoleClient>, cap: usize) -> Client {
        Client { peer, cap }
    }

    /// Whether the session's connection is gone.
    pub(crate) fn is_closed(&self) -> bool {
        self.peer.is_transport_closed()
    }

    /// One page of `tools/list`.
    pub(crate) async fn list_tools_page(
        &self,
        cursor: Option<String>,
    ) -> Result<ListToolsResult, McpError> {
        let params = PaginatedRequestParams::default().with_cursor(cursor);
        self.peer
            .list_tools(Some(params))
            .await
            .map_err(|e| McpError::from_service(e, self.cap))
    }

    /// `tools/call`. Dropping the future sends `notifications/cancelled`.
    pub(crate) async fn call_tool(
        &self,
        name: Arc<str>,
        arguments: JsonObject,
    ) -> Result<CallToolResult, McpError> {
        let mut params = CallToolRequestParams::new(name.to_string()).with_arguments(arguments);
        if let Some(traceparent) = crate::trace_context::current() {
            let mut meta = RequestMetaObject::default();
            meta.set_traceparent(traceparent);
            params.meta = Some(meta);
        }
        self.peer
            .call_tool(params)
            .await
            .map_err(|e| McpError::from_service(e, self.cap))
    }
}

/// Tracing metadata of one operation; never used for dispatch.
#[derive(Debug, Clone)]
pub(crate) struct OpMeta {
    /// What the operation does (`tools/call get_sum`); shared, so that
    /// submitting a call formats nothing.
    pub label: Arc<str>,
    /// The server it runs on.
    pub server: Arc<str>,
    /// Its place in the server's submission order.
    pub seq: u64,
    /// When it was submitted.
    pub submitted: Instant,
    /// The span it was submitted in (a tool call's, when traces are
    /// exported): the parent of its `lackpy.mcp.operation` span.
    pub parent: tracing::Span,
}

/// One submitted operation, type-erased for the queue.
pub(crate) struct Operation {
    pub meta: OpMeta,
    /// How many sessions had ended when it was submitted: a session's end
    /// fails the operations submitted before it was seen. (Not metadata:
    /// the supervisor's failure rule reads it.)
    pub epoch: u64,
    run: Box<dyn FnOnce(Client) -> BoxFuture<()> + Send>,
}

impl Operation {
    /// An operation running `work`, and where its answer arrives. If the
    /// receiver is dropped (the caller gave up: a timeout, a cancelled run),
    /// the work is dropped too, which cancels its request.
    pub(crate) fn new<T, F, Fut>(
        meta: OpMeta,
        epoch: u64,
        work: F,
    ) -> (Operation, oneshot::Receiver<Result<T, McpError>>)
    where
        T: Send + 'static,
        F: FnOnce(Client) -> Fut + Send + 'static,
        Fut: Future<Output = Result<T, McpError>> + Send + 'static,
    {
        let (tx, rx) = oneshot::channel();
        let run = Box::new(move |client: Client| -> BoxFuture<()> {
            Box::pin(async move {
                let mut tx = tx;
                let work = work(client);
                tokio::select! {
                    biased;
                    r = work => { let _ = tx.send(r); }
                    () = tx.closed() => {}
                }
            })
        });
        (Operation { meta, epoch, run }, rx)
    }

    /// The operation's future against `client`, inside a span carrying its
    /// metadata (and, innermost, the span traces export, whose context a
    /// `tools/call` passes on).
    pub(crate) fn start(self, client: Client) -> BoxFuture<()> {
        let span = self.meta.span();
        let traced = self.meta.traced_span(self.epoch);
        Box::pin((self.run)(client).instrument(traced).instrument(span))
    }
}

impl OpMeta {
    /// The span an operation runs in (disabled, and so free, unless DEBUG
    /// is on for this crate).
    pub(crate) fn span(&self) -> tracing::Span {
        tracing::debug_span!(
            "mcp_op",
            server = %self.server,
            op = %self.label,
            seq = self.seq,
            queued_us = u64::try_from(self.submitted.elapsed().as_micros()).unwrap_or(u64::MAX),
        )
    }

    /// The `lackpy.mcp.operation` span traces export (docs/spec/runtime.md,
    /// "Telemetry"): TRACE in the `lackpy::telemetry` target, so disabled
    /// (its fields never computed) unless an exporter listens. `connection`
    /// numbers the server's sessions (0 until its first reconnect).
    pub(crate) fn traced_span(&self, connection: u64) -> tracing::Span {
        tracing::trace_span!(
            target: "lackpy::telemetry",
            parent: &self.parent,
            "lackpy.mcp.operation",
            otel.kind = "client",
            mcp.operation = %self.label,
            mcp.server = %self.server,
            mcp.connection = connection,
            mcp.sequence = self.seq,
            mcp.queued_us = u64::try_from(self.submitted.elapsed().as_micros()).unwrap_or(u64::MAX),
        )
    }
}
