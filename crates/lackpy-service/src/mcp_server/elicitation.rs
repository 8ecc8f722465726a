//! Approving gated calls through the client: an `elicitation/create` on
//! the session of the `tools/call` that started the run, tied to that
//! request (over streamable HTTP it travels on the request's own stream).
//!
//! Accept with `approve: true` approves; decline, cancel or anything else
//! denies; a request that fails (transport, client error) pauses the run.
//! The bridge bounds the wait (`[policy] approval_timeout_ms`, then the run
//! pauses) and drops the answer future on timeout or cancel: the pending
//! elicitation is then cancelled with `notifications/cancelled`.

use lackpy_bridge::{Answer, AnswerFuture, ApprovalRequest, Approver, Decision};
use rmcp::model::{
    CancelledNotificationParam, ClientResult, ElicitRequest, ElicitRequestParams, ElicitResult,
    ElicitationAction, ElicitationSchema, ProtocolVersion, RequestId, ServerRequest,
};
use rmcp::service::{OriginatingRequestId, Peer, PeerRequestOptions, RequestContext, RoleServer};
use serde_json::Value;

use crate::service::ApproverHandle;

/// Who the trace names as the decider.
const BY: &str = "elicitation";

/// The one property of the form: a yes or a no.
const APPROVE: &str = "approve";

/// The longest preview of a call in the message, in characters (each
/// argument is already bounded; this bounds how many there are).
const MAX_CALL_CHARS: usize = 400;

/// The approver for a run started by `context`'s request: elicitation when
/// the client declared form elicitation and its protocol still lets a
/// server send requests; `None` otherwise (a gated call pauses the run).
pub(super) fn approver_for(context: &RequestContext<RoleServer>) -> Option<ApproverHandle> {
    let capability = context.client_capabilities()?.elicitation?;
    // An empty `elicitation: {}` means form (the 2025-06-18 shape).
    let form = capability.form.is_some() || capability.url.is_none();
    // 2026-07-28 forbids server-to-client requests (input_required
    // results replace them; not offered here).
    let allowed = context
        .protocol_version()
        .is_none_or(|v| v < ProtocolVersion::V_2026_07_28);
    (form && allowed).then(|| {
        ApproverHandle::new(ElicitationApprover {
            peer: context.peer.clone(),
            origin: context.id.clone(),
        })
    })
}

/// Asks the client's user about each gated call of one run.
struct ElicitationApprover {
    peer: Peer<RoleServer>,
    /// The `tools/call` the run answers: the elicitation is sent on its
    /// stream.
    origin: RequestId,
}

impl Approver for ElicitationApprover {
    fn decide(&self, request: ApprovalRequest) -> AnswerFuture {
        let peer = self.peer.clone();
        let origin = self.origin.clone();
        Box::pin(async move {
            let Some(schema) = schema() else {
                return Answer::new(Decision::Pause, BY);
            };
            let params = ElicitRequestParams::FormElicitationParams {
                meta: None,
                message: message(&request),
                requested_schema: schema,
            };
            let mut elicit = ElicitRequest::new(params);
            // The answer future runs on a task of its own, where rmcp's
            // task-local link to the handler's request is gone: name it.
            elicit.extensions.insert(OriginatingRequestId(origin));
            let handle = match peer
                .send_request_with_option(
                    ServerRequest::ElicitRequest(elicit),
                    PeerRequestOptions::no_options(),
                )
                .await
            {
                Ok(h) => h,
                Err(e) => {
                    tracing::debug!("elicitation not sent: {e}");
                    return Answer::new(Decision::Pause, BY);
                }
            };
            let mut pending = Pending {
                peer: peer.clone(),
                id: Some(handle.id.clone()),
            };
            let response = handle.await_response().await;
            pending.id = None;
            match response {
                Ok(ClientResult::ElicitResult(result)) => Answer::new(decision(&result), BY),
                Ok(_) => {
                    tracing::debug!("elicitation answered with another result");
                    Answer::new(Decision::Pause, BY)
                }
                Err(e) => {
                    tracing::debug!("elicitation failed: {e}");
                    Answer::new(Decision::Pause, BY)
                }
            }
        })
    }
}

/// An elicitation sent and not yet answered. Dropped so (the bridge gave
/// up waiting, or the run was cancelled), it tells the client to stop
/// asking.
struct Pending {
    peer: Peer<RoleServer>,
    id: Option<RequestId>,
}

impl Drop for Pending {
    fn drop(&mut self) {
        let Some(id) = self.id.take() else {
            return;
        };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let peer = self.peer.clone();
        runtime.spawn(async move {
            let param = CancelledNotificationParam::new(
                Some(id),
                Some("lackpy stopped waiting for this approval".to_string()),
            );
            if let Err(e) = peer.notify_cancelled(param).await {
                tracing::debug!("elicitation cancel not sent: {e}");
            }
        });
    }
}

/// Approve only on an accepted form whose `approve` is `true`.
fn decision(result: &ElicitResult) -> Decision {
    let approved = matches!(result.action, ElicitationAction::Accept)
        && result
            .content
            .as_ref()
            .and_then(|c| c.get(APPROVE))
            .and_then(Value::as_bool)
            == Some(true);
    if approved {
        Decision::Approve
    } else {
        Decision::Deny
    }
}

/// `lackpy wants to call write_file(path='out.txt', content=<42 chars>) —
/// grade (3, 3), [policy] approve_above (2, 1). Allow this call?`
fn message(request: &ApprovalRequest) -> String {
    format!(
        "lackpy wants to call {} — grade ({}, {}), {}. Allow this call?",
        bounded(&request.call_text(), MAX_CALL_CHARS),
        request.grade.w,
        request.grade.d,
        request.rule
    )
}

/// `text` cut to `max` characters, marked with `…)` when cut.
fn bounded(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(max.saturating_sub(2)).collect();
    cut.push_str("…)");
    cut
}

/// `{approve: boolean}`, required.
fn schema() -> Option<ElicitationSchema> {
    ElicitationSchema::builder()
        .required_bool_with(APPROVE, |b| {
            b.title("Approve").description(
                "true lets the call run; false refuses it (the program gets a PermissionError)",
            )
        })
        .build()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use lackpy_lang::{Data, Grade};

    fn request(args: Vec<(String, Data)>) -> ApprovalRequest {
        ApprovalRequest {
            run_id: Some("r1".into()),
            step: 1,
            tool: "write_file".into(),
            args,
            grade: Grade::new(3, 3),
            provenance: "builtin".into(),
            rule: "[policy] approve_above (2, 1)".into(),
        }
    }

    #[test]
    fn the_message_names_the_call_its_grade_and_the_rule() {
        let r = request(vec![
            ("path".into(), Data::Str("out.txt".into())),
            ("content".into(), Data::Str("x".repeat(42))),
        ]);
        assert_eq!(
            message(&r),
            "lackpy wants to call write_file(path='out.txt', content=<42 chars>) — grade (3, 3), \
             [policy] approve_above (2, 1). Allow this call?"
        );
    }

    #[test]
    fn a_long_call_is_cut() {
        let args = (0..200)
            .map(|i| (format!("a{i}"), Data::Int(i.into())))
            .collect();
        let m = message(&request(args));
        assert!(m.chars().count() < MAX_CALL_CHARS + 100, "{m}");
        assert!(m.contains("…) — grade (3, 3)"), "{m}");
    }

    #[test]
    fn only_an_accepted_true_approves() {
        let answer = |action, content: Option<Value>| {
            let mut r = ElicitResult::new(action);
            r.content = content;
            decision(&r)
        };
        let yes = Some(serde_json::json!({"approve": true}));
        let no = Some(serde_json::json!({"approve": false}));
        assert_eq!(
            answer(ElicitationAction::Accept, yes.clone()),
            Decision::Approve
        );
        assert_eq!(answer(ElicitationAction::Accept, no), Decision::Deny);
        assert_eq!(answer(ElicitationAction::Accept, None), Decision::Deny);
        assert_eq!(
            answer(
                ElicitationAction::Accept,
                Some(serde_json::json!({"approve": "yes"}))
            ),
            Decision::Deny
        );
        assert_eq!(
            answer(ElicitationAction::Decline, yes.clone()),
            Decision::Deny
        );
        assert_eq!(answer(ElicitationAction::Cancel, yes), Decision::Deny);
    }

    #[test]
    fn the_form_asks_one_required_boolean() {
        let schema = serde_json::to_value(schema().expect("schema")).expect("json");
        assert_eq!(schema["type"], "object");
        assert_eq!(schema["required"], serde_json::json!(["approve"]));
        assert_eq!(schema["properties"]["approve"]["type"], "boolean");
    }
}
