//! One `run_program` or `delegate` call (and `resume_run`, through
//! [`supervise`]): admission, the run under a cancel token that the client,
//! the session and the server's shutdown can all trip, and a progress
//! notification per finished tool call; and `generate`, which only waits
//! for the tiers.

use std::sync::Arc;
use std::time::Duration;

use lackpy_bridge::{CancelToken, ExecutionResult};
use lackpy_lang::Grade;
use rmcp::model::{
    CallToolResult, ContentBlock, ErrorData, ProgressNotificationParam, ProgressToken,
};
use rmcp::service::{Peer, RequestContext, RoleServer};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::answer::{TOOLS_ARGUMENT, json_result, request_error};
use super::request_stream;
use super::shared::Shared;
use crate::delegate::DelegateResult;
use crate::metrics::HasExecution;
use crate::runs::RunError;
use crate::service::{
    Delegate, RunControl, RunProgram, ServiceError, ToolCallEvent, ToolCallObserver,
};

/// Runs one program for a client. A cancelled run answers an error that
/// rmcp does not send (the request is gone); a full queue answers `Busy`.
pub(super) async fn run_program(
    shared: &Shared,
    session: &CancellationToken,
    request: RunProgram,
    context: RequestContext<RoleServer>,
) -> Result<CallToolResult, ErrorData> {
    let service = &shared.live.current();
    supervise(
        shared,
        session,
        context,
        |control| service.run_program(RunProgram { control, ..request }),
        execution_result,
        busy,
    )
    .await
}

/// The answer to a run the queue (or a resume's lock) turned away.
pub(super) fn busy(message: String) -> CallToolResult {
    execution_result(&ExecutionResult::failed(
        "Busy",
        message,
        Grade::UNKNOWN,
        Duration::ZERO,
    ))
}

/// Generates a program for a client's intent and runs it, admitted and
/// stopped like `run_program` (a stop during generation drops the model's
/// request).
pub(super) async fn delegate(
    shared: &Shared,
    session: &CancellationToken,
    request: Delegate,
    context: RequestContext<RoleServer>,
) -> Result<CallToolResult, ErrorData> {
    let service = &shared.live.current();
    supervise(
        shared,
        session,
        context,
        |control| service.delegate(Delegate { control, ..request }),
        delegate_result,
        |message| delegate_result(&DelegateResult::refused(message)),
    )
    .await
}

/// Writes a program for a client's intent. A cancelled request, a client
/// gone or a shutdown stops waiting for the model.
pub(super) async fn generate(
    shared: &Shared,
    session: &CancellationToken,
    request: Delegate,
    context: RequestContext<RoleServer>,
) -> Result<CallToolResult, ErrorData> {
    // Registered like a run: its session is not idle (the session cap
    // evicts only idle ones), and deleting the session stops the wait.
    let cancel = CancelToken::new();
    let _registered = shared.http_sessions.enter(&context, &cancel);
    let service = shared.live.current();
    let answer = tokio::select! {
        r = service.generate(&request) => r,
        () = cancel.cancelled() => return Ok(request_error("the session was closed".into())),
        () = context.ct.cancelled() => return Ok(request_error("cancelled by the client".into())),
        () = session.cancelled() => return Ok(request_error("the client went away".into())),
        () = request_stream::closed(request_stream::of(&context)) => return Ok(request_error("the client's connection closed".into())),
        () = shared.stop_runs.cancelled() => return Ok(request_error("the server is shutting down".into())),
    };
    Ok(
        match answer
            .map_err(|e| e.message_for(TOOLS_ARGUMENT))
            .and_then(|r| serde_json::to_value(r).map_err(|e| e.to_string()))
        {
            Ok(v) => json_result(v),
            Err(message) => request_error(message),
        },
    )
}

/// A run (or delegate) for a client: admitted (or refused with
/// `refused(message)`), under a cancel token that the client, the session
/// and the server's shutdown can all trip, with a progress notification
/// per finished tool call; `answer` writes its result.
pub(super) async fn supervise<'a, T, Fut>(
    shared: &'a Shared,
    session: &CancellationToken,
    context: RequestContext<RoleServer>,
    start: impl FnOnce(RunControl) -> Fut,
    answer: fn(&T) -> CallToolResult,
    refused: impl FnOnce(String) -> CallToolResult,
) -> Result<CallToolResult, ErrorData>
where
    T: HasExecution,
    Fut: Future<Output = Result<T, ServiceError>> + 'a,
{
    if shared.draining.is_set() {
        return Ok(refused(
            "the server is shutting down: no new programs are started".to_string(),
        ));
    }
    let Some(_slot) = shared.admission.try_admit() else {
        shared.metrics.busy_rejection();
        return Ok(refused(shared.admission.busy_message()));
    };
    let cancel = CancelToken::new();
    let gone = request_stream::of(&context);
    let _registered = shared.http_sessions.enter(&context, &cancel);
    let progress = context.meta.get_progress_token();
    let (tx, mut events) = mpsc::unbounded_channel::<ToolCallEvent>();
    let observer: Option<ToolCallObserver> = progress.is_some().then(|| {
        Arc::new(move |e: ToolCallEvent| {
            let _ = tx.send(e);
        }) as ToolCallObserver
    });
    let run = start(RunControl {
        cancel: Some(cancel.clone()),
        observer,
        traceparent: traceparent(&context),
    });
    tokio::pin!(run);
    let outcome = loop {
        tokio::select! {
            outcome = &mut run => break outcome,
            Some(event) = events.recv() => {
                if let Some(token) = &progress {
                    notify(&context.peer, token, &event).await;
                }
            }
            () = context.ct.cancelled() => return stopped(shared, cancel, run, answer, "cancelled by the client").await,
            () = session.cancelled() => return stopped(shared, cancel, run, answer, "the client went away").await,
            () = request_stream::closed(gone.clone()) => return stopped(shared, cancel, run, answer, "the client's connection closed").await,
            () = shared.stop_runs.cancelled() => return stopped(shared, cancel, run, answer, "the server is shutting down").await,
        }
    };
    // Progress for calls that finished just before the run did.
    if let Some(token) = &progress {
        while let Ok(event) = events.try_recv() {
            notify(&context.peer, token, &event).await;
        }
    }
    match outcome {
        Ok(result) => {
            shared.metrics.record(&result);
            Ok(answer(&result))
        }
        // Misconfiguration named by the request (an unknown tool or
        // profile, a run that cannot be resumed): the caller can fix it.
        Err(e) => Ok(request_error(error_message(&e))),
    }
}

/// Stops a run and waits for its interpreter to let go (within one step),
/// so its place is only freed once the run is really over. The stopped
/// run's result is the answer: rmcp drops it when the client cancelled the
/// request (and logs nothing), and sends it otherwise (shutdown).
async fn stopped<T: HasExecution, F>(
    shared: &Shared,
    cancel: CancelToken,
    run: std::pin::Pin<&mut F>,
    answer: fn(&T) -> CallToolResult,
    why: &str,
) -> Result<CallToolResult, ErrorData>
where
    F: Future<Output = Result<T, ServiceError>>,
{
    tracing::debug!("run stopped: {why}");
    cancel.cancel();
    match run.await {
        Ok(result) => {
            shared.metrics.record(&result);
            Ok(answer(&result))
        }
        Err(e) => Ok(request_error(error_message(&e))),
    }
}

/// The caller's W3C trace context: the request's `_meta.traceparent`, else
/// the HTTP request's `traceparent` header.
fn traceparent(context: &RequestContext<RoleServer>) -> Option<String> {
    if let Some(t) = context.meta.get_traceparent() {
        return Some(t.to_string());
    }
    let parts = context.extensions.get::<http::request::Parts>()?;
    let header = parts.headers.get("traceparent")?.to_str().ok()?;
    Some(header.to_string())
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
    python_json_result(result.to_json(), result.to_strict_json())
}

/// The delegate result as `lackpy delegate --json` prints it, and strict.
fn delegate_result(result: &DelegateResult) -> CallToolResult {
    python_json_result(result.to_json(), result.to_strict_json())
}

/// Python's JSON `text` as the text content, the same object as strict
/// JSON (`strict`, written by the same serde structs) as
/// `structuredContent`.
fn python_json_result(text: String, strict: String) -> CallToolResult {
    let structured = structured(&strict);
    let mut r = CallToolResult::success(vec![ContentBlock::text(text)]);
    r.structured_content = Some(structured);
    r
}

/// `structuredContent` for a result whose strict JSON is `text`. Our
/// writers nest values up to 900 levels, past serde_json's default parse
/// limit (128): such a text is parsed without the limit on a thread whose
/// stack holds it.
fn structured(text: &str) -> serde_json::Value {
    match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) if e.to_string().starts_with("recursion limit exceeded") => {
            parse_deep(text).unwrap_or(serde_json::Value::Null)
        }
        Err(_) => serde_json::Value::Null,
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

/// A service error as an MCP caller reads it: run errors name this
/// server's tools where the command line's name its commands.
pub(super) fn error_message(e: &ServiceError) -> String {
    match e {
        ServiceError::Run(RunError::NotFound(id)) => {
            format!("no resumable run '{id}' (list_runs shows the runs that can be resumed)")
        }
        ServiceError::Run(RunError::NeedsDecision(id)) => format!(
            "run '{id}' waits for an approval: call resume_run with approve true (the call runs) or false (it is refused)"
        ),
        other => other.message_for(TOOLS_ARGUMENT),
    }
}
