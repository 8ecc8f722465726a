//! The `server/discover` probe's answer, checked before the SDK sees it.
//!
//! The SDK falls back to the `initialize` handshake only when the probe is
//! answered with a JSON-RPC error; any other answer that is not a usable
//! discover result (hand-written servers often answer unknown methods with
//! `{}`) ends the handshake, so such a server could never be reached. Here,
//! for stdio and HTTP alike, that answer becomes the "method not found"
//! error an older server would have sent, and the SDK goes on with
//! `initialize` on the same connection. A server that fails `initialize`
//! too is still down, with both reasons.

use std::future::Future;
use std::sync::Arc;

use rmcp::RoleClient;
use rmcp::model::{
    ClientJsonRpcMessage, ClientRequest, ErrorCode, ErrorData, ProtocolVersion, RequestId,
    ServerJsonRpcMessage, ServerResult,
};
use rmcp::transport::Transport;

/// How the error standing for an unusable answer begins.
pub(crate) const DISCOVER_ANSWERED: &str = "server/discover answered with";

/// Longest part of an unusable answer quoted in the log and error.
const MAX_QUOTE: usize = 200;

/// A transport whose answer to the `server/discover` probe is checked.
pub(crate) struct DiscoverCheck<T> {
    inner: T,
    server: Arc<str>,
    /// The versions the probe offers; a result naming none of them is no
    /// use, and `initialize` negotiates instead.
    preferred: Vec<ProtocolVersion>,
    /// The id of the probe awaiting its answer.
    probe: Option<RequestId>,
}

impl<T> DiscoverCheck<T> {
    /// Wraps `inner` for the server named `server`.
    pub(crate) fn new(inner: T, server: Arc<str>, preferred: Vec<ProtocolVersion>) -> Self {
        DiscoverCheck {
            inner,
            server,
            preferred,
            probe: None,
        }
    }

    /// The probe's answer, or the error an older server would have sent
    /// when the answer cannot be used.
    fn check(&mut self, message: ServerJsonRpcMessage) -> ServerJsonRpcMessage {
        let ServerJsonRpcMessage::Response(response) = &message else {
            return message;
        };
        let Some(probe) = self.probe.as_ref() else {
            return message;
        };
        if !same_id(probe, &response.id) {
            return message;
        }
        self.probe = None;
        let Some(why) = unusable(&response.result, &self.preferred) else {
            return message;
        };
        tracing::info!(
            "MCP server '{}': server/discover answered with {why}; connecting with initialize",
            self.server
        );
        let error = ErrorData::new(
            ErrorCode::METHOD_NOT_FOUND,
            format!("{DISCOVER_ANSWERED} {why}"),
            None,
        );
        ServerJsonRpcMessage::error(error, Some(response.id.clone()))
    }
}

/// Whether `answer` is the id of `request` (a server may echo a numeric id
/// as a string, which the SDK accepts too).
fn same_id(request: &RequestId, answer: &RequestId) -> bool {
    request == answer
        || matches!((request, answer), (
            RequestId::Number(n), RequestId::String(s)) if s.parse::<i64>().ok() == Some(*n))
}

/// Why a probe's result cannot be used, or `None` when it can.
fn unusable(result: &ServerResult, preferred: &[ProtocolVersion]) -> Option<String> {
    match result {
        ServerResult::DiscoverResult(found) => {
            if found
                .supported_versions
                .iter()
                .any(|v| preferred.contains(v))
            {
                return None;
            }
            let theirs: Vec<&str> = found
                .supported_versions
                .iter()
                .map(ProtocolVersion::as_str)
                .collect();
            Some(format!(
                "no protocol version we speak (it offers [{}])",
                theirs.join(", ")
            ))
        }
        ServerResult::EmptyResult(_) => Some("an empty result, not a discover result".to_string()),
        other => {
            let text = serde_json::to_string(other).unwrap_or_default();
            let mut quote: String = text.chars().take(MAX_QUOTE).collect();
            if quote.len() < text.len() {
                quote.push('…');
            }
            Some(format!("{quote}, not a discover result"))
        }
    }
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for DiscoverCheck<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: ClientJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        // Only the latest request matters: the probe comes first, and any
        // other request means the handshake moved on.
        if let ClientJsonRpcMessage::Request(request) = &item {
            self.probe = matches!(request.request, ClientRequest::DiscoverRequest(_))
                .then(|| request.id.clone());
        }
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<ServerJsonRpcMessage> {
        let message = self.inner.receive().await?;
        Some(self.check(message))
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    fn parse(text: &str) -> ServerResult {
        let message: ServerJsonRpcMessage = serde_json::from_str(&format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{text}}}"
        ))
        .unwrap();
        message.into_response().unwrap().0
    }

    #[test]
    fn an_empty_object_is_not_a_discover_result() {
        let why = unusable(&parse("{}"), &[ProtocolVersion::LATEST]).unwrap();
        assert_eq!(why, "an empty result, not a discover result");
    }

    const ANSWER: &str = r#"{"resultType":"complete","capabilities":{},"ttlMs":0,"cacheScope":"private","supportedVersions":"#;

    #[test]
    fn a_discover_result_with_our_version_is_used() {
        let result = parse(&format!("{ANSWER}[\"2025-11-25\",\"2026-07-28\"]}}"));
        assert!(
            matches!(result, ServerResult::DiscoverResult(_)),
            "{result:?}"
        );
        assert_eq!(unusable(&result, &[ProtocolVersion::LATEST]), None);
    }

    #[test]
    fn a_discover_result_without_our_version_is_not_used() {
        let result = parse(&format!("{ANSWER}[\"2099-01-01\"]}}"));
        assert!(
            matches!(result, ServerResult::DiscoverResult(_)),
            "{result:?}"
        );
        assert_eq!(
            unusable(&result, &[ProtocolVersion::LATEST]).as_deref(),
            Some("no protocol version we speak (it offers [2099-01-01])")
        );
    }

    #[test]
    fn numeric_ids_match_their_string_echo() {
        assert!(same_id(&RequestId::Number(3), &RequestId::Number(3)));
        assert!(same_id(
            &RequestId::Number(3),
            &RequestId::String("3".into())
        ));
        assert!(!same_id(&RequestId::Number(3), &RequestId::Number(4)));
        assert!(!same_id(
            &RequestId::String("3".into()),
            &RequestId::Number(3)
        ));
    }

    #[test]
    fn a_wrong_shape_is_quoted() {
        let why = unusable(
            &parse(r#"{"supportedVersions":"all of them"}"#),
            &[ProtocolVersion::LATEST],
        )
        .unwrap();
        assert!(why.contains("all of them"), "{why}");
        assert!(why.ends_with("not a discover result"), "{why}");
    }
}
