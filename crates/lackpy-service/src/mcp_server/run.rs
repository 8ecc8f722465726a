//! One `run_program` call: admission, the run under a cancel token that
//! the client, the session and the server's shutdown can all trip, and a
//! progress notification per finished tool call.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use lackpy_bridge::{CancelToken, ExecutionResult};
use lackpy_lang::Grade;
use rmcp::model::{
    CallToolResult, ContentBlock, ErrorData, ProgressNotificationParam, ProgressToken,
};
use rmcp::service::{Peer, RequestContext, RoleServer};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::{Shared, request_error};
use crate::service::{RunProgram, ServiceError, ToolCallEvent, ToolCallObserver};

/// Runs one program for a client. A cancelled run answers an error that
/// rmcp does not send (the request is gone); a full queue answers `Busy`.
pub(super) async fn run_program(
    shared: &Shared,
    session: &CancellationToken,
    request: RunProgram,
    context: RequestContext<RoleServer>,
) -> Result<CallToolResult, ErrorData> {
    let refused = |message: String| {
        let busy = ExecutionResult::failed("Busy", message, Grade::UNKNOWN, Duration::ZERO);
        Ok(execution_result(&busy))
    };
    if shared.draining.load(Ordering::SeqCst) {
        return refused("the server is shutting down: no new programs are started".to_string());
    }
    let Some(_slot) = shared.admission.try_admit() else {
        return refused(shared.admission.busy_message());
    };
    let cancel = CancelToken::new();
    let _registered = shared.http_sessions.enter(&context, &cancel);
    let progress = context.meta.get_progress_token();
    let (tx, mut events) = mpsc::unbounded_channel::<ToolCallEvent>();
    let observer: Option<ToolCallObserver> = progress.is_some().then(|| {
        Arc::new(move |e: ToolCallEvent| {
            let _ = tx.send(e);
        }) as ToolCallObserver
    });
    let run = shared
        .service
        .run_program_observed(request, cancel.clone(), observer);
    tokio::pin!(run);
    let outcome = loop {
        tokio::select! {
            outcome = &mut run => break outcome,
            Some(event) = events.recv() => {
                if let Some(token) = &progress {
                    notify(&context.peer, token, &event).await;
                }
            }
            () = context.ct.cancelled() => return stopped(cancel, run, "cancelled by the client").await,
            () = session.cancelled() => return stopped(cancel, run, "the client went away").await,
            () = shared.stop_runs.cancelled() => return stopped(cancel, run, "the server is shutting down").await,
        }
    };
    // Progress for calls that finished just before the run did.
    if let Some(token) = &progress {
        while let Ok(event) = events.try_recv() {
            notify(&context.peer, token, &event).await;
        }
    }
    match outcome {
        Ok(result) => Ok(execution_result(&result)),
        // Misconfiguration named by the request (an unknown tool or
        // profile): the caller can fix it.
        Err(e) => Ok(request_error(e.to_string())),
    }
}

/// Stops a run and waits for its interpreter to let go (within one step),
/// so its place is only freed once the run is really over. The stopped
/// run's result is the answer: rmcp drops it when the client cancelled the
/// request (and logs nothing), and sends it otherwise (shutdown).
async fn stopped<F>(
    cancel: CancelToken,
    run: std::pin::Pin<&mut F>,
    why: &str,
) -> Result<CallToolResult, ErrorData>
where
    F: Future<Output = Result<ExecutionResult, ServiceError>>,
{
    tracing::debug!("run stopped: {why}");
    cancel.cancel();
    match run.await {
        Ok(result) => Ok(execution_result(&result)),
        Err(e) => Ok(request_error(e.to_string())),
    }
}

async fn notify(peer: &Peer<RoleServer>, token: &ProgressToken, event: &ToolCallEvent) {
    let param = ProgressNotificationParam::new(token.clone(), (event.step + 1) as f64)
        .with_message(format!("step {}: {}", event.step, event.tool));
    if let Err(e) = peer.notify_progress(param).await {
        tracing::debug!("progress notification not sent: {e}");
    }
}

/// The `ExecutionResult` as `lackpy run --json` prints it (the text) and
/// as a strict JSON object (`structuredContent`): one writer for both.
pub(super) fn execution_result(result: &ExecutionResult) -> CallToolResult {
    let text = result.to_json();
    let structured = structured(result, &text);
    let mut r = CallToolResult::success(vec![ContentBlock::text(text)]);
    r.structured_content = Some(structured);
    r
}

/// `structuredContent` for a result whose JSON is `text`. Python's JSON may
/// hold NaN/Infinity, which strict JSON lacks: the serde form writes those
/// as null. Our writers nest values up to 900 levels, past serde_json's
/// default parse limit (128): such a text is parsed without the limit on a
/// thread whose stack holds it.
fn structured(result: &ExecutionResult, text: &str) -> serde_json::Value {
    match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) if e.to_string().starts_with("recursion limit exceeded") => {
            parse_deep(text).unwrap_or(serde_json::Value::Null)
        }
        Err(_) => serde_json::to_value(result).unwrap_or(serde_json::Value::Null),
    }
}

/// Parses JSON nested deeper than serde_json's default limit.
fn parse_deep(text: &str) -> Option<serde_json::Value> {
    use serde::Deserialize;
    let text = text.to_owned();
    std::thread::Builder::new()
        .name("lackpy-deep-json".into())
        .stack_size(64 << 20)
        .spawn(move || {
            let mut de = serde_json::Deserializer::from_str(&text);
            de.disable_recursion_limit();
            serde_json::Value::deserialize(&mut de).ok()
        })
        .ok()?
        .join()
        .ok()
        .flatten()
}
