//! The HTTP client under the streamable HTTP transport: the SDK's reqwest
//! client, with replies it cannot decode turned into errors for their call.
//!
//! The SDK drops an SSE message it cannot decode (`NaN`, nesting past the
//! JSON parser's depth limit, a shape that is no message) and ends the
//! whole session on a JSON body it cannot decode, so a call either waits
//! out its timeout or takes the session down with it. Here, as in the
//! stdio reader ([`crate::linecap`]), such a response becomes a JSON-RPC
//! error for its request's id that names the reason.

use std::collections::HashMap;
use std::sync::Arc;

use futures::StreamExt;
use futures::stream::BoxStream;
use http::{HeaderName, HeaderValue};
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_client::{
    SseError, StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
    StreamableHttpResponseLimits,
};
use sse_stream::Sse;

use crate::linecap::{UNREADABLE_MARK, unreadable_response};

/// What the SDK says when it cannot decode a JSON response body.
const SDK_PARSE_FAILURE: &str = "could not parse JSON response as ServerJsonRpcMessage:";

/// Longest part of the SDK's parse failure quoted in the error.
const MAX_REASON: usize = 300;

type Events = BoxStream<'static, Result<Sse, SseError>>;
type Posted = Result<StreamableHttpPostResponse, StreamableHttpError<reqwest::Error>>;

/// The SDK's reqwest client, checking what the server sends back.
#[derive(Clone)]
pub(crate) struct CheckedHttp(reqwest::Client);

impl CheckedHttp {
    /// A client set up as the SDK's default one: no idle connection pool
    /// (avoids delayed-ACK stalls), and only same-origin 307/308 redirects,
    /// which keep the POST body and never hand headers to another host.
    pub(crate) fn new() -> Result<CheckedHttp, String> {
        reqwest::Client::builder()
            .pool_max_idle_per_host(0)
            .redirect(reqwest::redirect::Policy::custom(|attempt| {
                let status = attempt.status().as_u16();
                let same_origin = attempt.previous().first().is_some_and(|first| {
                    first.scheme() == attempt.url().scheme()
                        && first.host_str() == attempt.url().host_str()
                        && first.port_or_known_default() == attempt.url().port_or_known_default()
                });
                if matches!(status, 307 | 308) && same_origin && attempt.previous().len() <= 10 {
                    attempt.follow()
                } else {
                    attempt.stop()
                }
            }))
            .build()
            .map(CheckedHttp)
            .map_err(|e| format!("cannot set up the HTTP client: {e}"))
    }
}

/// The id of a request we sent (a reply is awaited for it).
fn request_id(message: &ClientJsonRpcMessage) -> Option<String> {
    match message {
        ClientJsonRpcMessage::Request(r) => serde_json::to_string(&r.id).ok(),
        _ => None,
    }
}

/// A JSON-RPC error for `id` saying why its response could not be read.
fn error_for(id: &str, reason: &str) -> Option<ServerJsonRpcMessage> {
    let message = serde_json::Value::String(format!("{UNREADABLE_MARK} {reason}"));
    let text = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"error\":{{\"code\":-32700,\"message\":{message}}}}}"
    );
    serde_json::from_str(&text).ok()
}

/// A POST's answer, checked: an undecodable JSON body answers the request
/// with an error; an SSE stream is checked event by event.
fn check_post(id: Option<String>, posted: Posted) -> Posted {
    match posted {
        Ok(StreamableHttpPostResponse::Sse(events, session)) => Ok(
            StreamableHttpPostResponse::Sse(check_events(events), session),
        ),
        Err(StreamableHttpError::UnexpectedServerResponse(why)) => {
            let reason = why.strip_prefix(SDK_PARSE_FAILURE).map(str::trim);
            match (reason, id.as_deref()) {
                (Some(reason), Some(id)) => {
                    let reason: String = reason.chars().take(MAX_REASON).collect();
                    tracing::warn!(
                        "MCP response that cannot be read replaced by an error: {reason}"
                    );
                    match error_for(id, &reason) {
                        Some(error) => Ok(StreamableHttpPostResponse::Json(error, None)),
                        None => Err(StreamableHttpError::UnexpectedServerResponse(why)),
                    }
                }
                _ => Err(StreamableHttpError::UnexpectedServerResponse(why)),
            }
        }
        other => other,
    }
}

/// Replaces each message event the SDK could not decode, when it is a
/// response, with an error for its id.
fn check_events(events: Events) -> Events {
    events
        .map(|event| {
            event.map(|mut sse| {
                let is_message = matches!(sse.event.as_deref(), None | Some("") | Some("message"));
                if is_message
                    && let Some(data) = &sse.data
                    && let Some(error) = unreadable_response(data.as_bytes())
                {
                    sse.data = Some(error.trim_end().to_string());
                }
                sse
            })
        })
        .boxed()
}

impl StreamableHttpClient for CheckedHttp {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Posted {
        let id = request_id(&message);
        let posted = self
            .0
            .post_message(uri, message, session_id, auth_header, custom_headers)
            .await;
        check_post(id, posted)
    }

    async fn post_message_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Posted {
        let id = request_id(&message);
        let posted = self
            .0
            .post_message_with_max_sse_event_size(
                uri,
                message,
                session_id,
                auth_header,
                custom_headers,
                max_sse_event_size,
            )
            .await;
        check_post(id, posted)
    }

    async fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> Posted {
        let id = request_id(&message);
        let posted = self
            .0
            .post_message_with_response_limits(
                uri,
                message,
                session_id,
                auth_header,
                custom_headers,
                limits,
            )
            .await;
        check_post(id, posted)
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), StreamableHttpError<reqwest::Error>> {
        self.0
            .delete_session(uri, session_id, auth_header, custom_headers)
            .await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<Events, StreamableHttpError<reqwest::Error>> {
        self.0
            .get_stream(uri, session_id, last_event_id, auth_header, custom_headers)
            .await
            .map(check_events)
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<Events, StreamableHttpError<reqwest::Error>> {
        self.0
            .get_stream_with_max_sse_event_size(
                uri,
                session_id,
                last_event_id,
                auth_header,
                custom_headers,
                max_sse_event_size,
            )
            .await
            .map(check_events)
    }
}
