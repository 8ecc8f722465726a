//! The model tier's client: any OpenAI-compatible chat-completions
//! endpoint (Ollama, llama.cpp's `llama-server`, vLLM, LM Studio, hosted
//! APIs), behind the [`ChatModel`] trait so a harness (or a bench) can put
//! its own model in the same place.
//!
//! One request is bounded on connect and as a whole (`timeout_ms`, from
//! connecting to the answer's last byte); its body is read up to
//! `max_response_bytes` and no further. A 429, a 5xx or a connection reset
//! is tried once more after a short wait (`Retry-After` when the server
//! gives one, up to [`MAX_BACKOFF`]). The API key is read from the
//! environment variable `api_key_env` names, at each request, and never
//! logged; any text that reaches an error has it replaced.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use serde_json::{Value, json};

use super::prompt::Message;
use super::providers_config::ProviderSettings;

/// The wait before the one retry, when the server does not say.
pub const DEFAULT_BACKOFF: Duration = Duration::from_millis(250);
/// The longest wait honoured from a `Retry-After` header.
pub const MAX_BACKOFF: Duration = Duration::from_secs(5);
/// How long `lackpy status` waits for a provider to answer at all.
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(2);

/// Why a model gave no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    /// Nothing listens there, or the name does not resolve.
    #[error("cannot connect to {url}: {reason}")]
    Unreachable {
        /// The endpoint (no credentials).
        url: String,
        /// What the connection attempt said.
        reason: String,
    },
    /// No complete answer within the limit.
    #[error("no answer from {url} within {} ms", .limit.as_millis())]
    Timeout {
        /// The endpoint (no credentials).
        url: String,
        /// The limit.
        limit: Duration,
    },
    /// The server answered with an error status.
    #[error("{url} answered HTTP {status}: {message}")]
    Status {
        /// The endpoint (no credentials).
        url: String,
        /// The HTTP status.
        status: u16,
        /// The server's message, shortened, key removed.
        message: String,
    },
    /// The answer was longer than the cap.
    #[error("the answer from {url} is larger than {limit} bytes")]
    TooLarge {
        /// The endpoint (no credentials).
        url: String,
        /// The cap.
        limit: u64,
    },
    /// The answer is not a chat completion.
    #[error("the answer from {url} is not a chat completion: {reason}")]
    BadAnswer {
        /// The endpoint (no credentials).
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The request could not be made (a missing key, a broken connection).
    #[error("{0}")]
    Other(String),
}

/// A boxed model answer.
pub type ModelFuture<'a> = Pin<Box<dyn Future<Output = Result<String, ModelError>> + Send + 'a>>;

/// A chat model: messages in, the assistant's text out.
pub trait ChatModel: Send + Sync {
    /// The assistant's answer to `messages`, sampled at `temperature`.
    fn complete<'a>(&'a self, messages: &'a [Message], temperature: f64) -> ModelFuture<'a>;

    /// The model's name, for progress lines (`asking local (NAME) …`);
    /// empty when it has none to show.
    fn model_name(&self) -> &str {
        ""
    }
}

/// An OpenAI-compatible chat-completions endpoint.
pub struct OpenAiCompatible {
    settings: ProviderSettings,
    client: reqwest::Client,
    /// `<base_url>/chat/completions`.
    url: String,
    /// The base URL without credentials, for messages.
    shown_url: String,
}

/// Whether a provider answers at all (`lackpy status`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reachability {
    /// It answered `GET <base_url>/models` with this status.
    Reachable(u16),
    /// It did not answer.
    Unreachable(String),
}

/// A provider's HTTP client: its own connection pool and connect limit.
fn http_client(connect_timeout: Duration) -> Result<reqwest::Client, String> {
    reqwest::Client::builder()
        .user_agent(concat!("lackpy-rs/", env!("CARGO_PKG_VERSION")))
        .connect_timeout(connect_timeout)
        .build()
        .map_err(|e| format!("cannot build the HTTP client: {e}"))
}

/// `url` without a user name or password.
pub fn without_credentials(url: &str) -> String {
    let bare = match reqwest::Url::parse(url) {
        Ok(mut u) => {
            let _ = u.set_username("");
            let _ = u.set_password(None);
            u.as_str().trim_end_matches('/').to_string()
        }
        Err(_) => url.to_string(),
    };
    // Query values (`?key=…`) are secrets too.
    lackpy_sources::redact_urls(&bare).into_owned()
}

/// `path` under `base_url`: appended to the URL's path, its query and
/// fragment kept (`http://h/v1?key=Q` + `chat/completions` is
/// `http://h/v1/chat/completions?key=Q`).
pub fn endpoint(base_url: &str, path: &str) -> String {
    match reqwest::Url::parse(base_url) {
        Ok(mut u) => {
            let joined = format!("{}/{path}", u.path().trim_end_matches('/'));
            u.set_path(&joined);
            u.to_string()
        }
        Err(_) => format!("{}/{path}", base_url.trim_end_matches('/')),
    }
}

/// One HTTP attempt's failure: the error, and whether trying again may help.
struct Failed {
    error: ModelError,
    retry: Option<Duration>,
}

impl OpenAiCompatible {
    /// A client for `settings`.
    pub fn new(settings: ProviderSettings) -> Result<OpenAiCompatible, String> {
        let client = http_client(settings.connect_timeout)?;
        let url = endpoint(&settings.base_url, "chat/completions");
        let shown_url = without_credentials(&url);
        Ok(OpenAiCompatible {
            settings,
            client,
            url,
            shown_url,
        })
    }

    /// The settings it was made from.
    pub fn settings(&self) -> &ProviderSettings {
        &self.settings
    }

    /// The API key, when the settings name a variable for it.
    fn api_key(&self) -> Result<Option<String>, ModelError> {
        let Some(var) = &self.settings.api_key_env else {
            return Ok(None);
        };
        match std::env::var(var) {
            Ok(v) if !v.is_empty() => Ok(Some(v)),
            _ => Err(ModelError::Other(format!(
                "the environment variable {var} (api_key_env) is not set"
            ))),
        }
    }

    /// The request body.
    fn body(&self, messages: &[Message], temperature: f64) -> Vec<u8> {
        let mut body = self.settings.extra.clone();
        body.insert("model".into(), json!(self.settings.model));
        body.insert("messages".into(), json!(messages));
        body.insert("temperature".into(), json!(temperature));
        body.insert("stream".into(), json!(false));
        if let Some(n) = self.settings.max_tokens {
            body.insert("max_tokens".into(), json!(n));
        }
        Value::Object(body).to_string().into_bytes()
    }

    async fn answer(&self, messages: &[Message], temperature: f64) -> Result<String, ModelError> {
        let key = self.api_key()?;
        let body = self.body(messages, temperature);
        let redact = |e: ModelError| redact(e, key.as_deref());
        match self.attempt(&body, key.as_deref()).await {
            Ok(text) => Ok(text),
            Err(Failed {
                error,
                retry: Some(wait),
            }) => {
                tracing::info!(
                    "{}; trying once more in {} ms",
                    redact(error),
                    wait.as_millis()
                );
                tokio::time::sleep(wait).await;
                self.attempt(&body, key.as_deref())
                    .await
                    .map_err(|f| redact(f.error))
            }
            Err(f) => Err(redact(f.error)),
        }
    }

    /// One POST, bounded as a whole by the timeout.
    async fn attempt(&self, body: &[u8], key: Option<&str>) -> Result<String, Failed> {
        let limit = self.settings.timeout;
        match tokio::time::timeout(limit, self.post(body, key)).await {
            Ok(r) => r,
            Err(_) => Err(Failed {
                error: ModelError::Timeout {
                    url: self.shown_url.clone(),
                    limit,
                },
                retry: None,
            }),
        }
    }

    async fn post(&self, body: &[u8], key: Option<&str>) -> Result<String, Failed> {
        let mut request = self
            .client
            .post(&self.url)
            .timeout(self.settings.timeout)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .header(reqwest::header::ACCEPT, "application/json")
            .body(body.to_vec());
        if let Some(key) = key {
            let mut value = reqwest::header::HeaderValue::from_str(&format!("Bearer {key}"))
                .map_err(|_| Failed {
                    error: ModelError::Other(
                        "the API key holds characters an HTTP header cannot".to_string(),
                    ),
                    retry: None,
                })?;
            value.set_sensitive(true);
            request = request.header(reqwest::header::AUTHORIZATION, value);
        }
        let response = request.send().await.map_err(|e| self.transport_error(&e))?;
        let status = response.status();
        let retry_after = retry_after(&response);
        let bytes = self.read_capped(response).await?;
        if !status.is_success() {
            let retry = (status.as_u16() == 429 || status.is_server_error())
                .then(|| retry_after.unwrap_or(DEFAULT_BACKOFF));
            return Err(Failed {
                error: ModelError::Status {
                    url: self.shown_url.clone(),
                    status: status.as_u16(),
                    message: error_message(&bytes),
                },
                retry,
            });
        }
        content(&bytes).map_err(|reason| Failed {
            error: ModelError::BadAnswer {
                url: self.shown_url.clone(),
                reason,
            },
            retry: None,
        })
    }

    /// The body, refused past `max_response_bytes` without reading more.
    async fn read_capped(&self, mut response: reqwest::Response) -> Result<Vec<u8>, Failed> {
        let limit = self.settings.max_response_bytes;
        let too_large = || Failed {
            error: ModelError::TooLarge {
                url: self.shown_url.clone(),
                limit,
            },
            retry: None,
        };
        if response.content_length().is_some_and(|n| n > limit) {
            return Err(too_large());
        }
        let mut bytes = Vec::new();
        while let Some(chunk) = response
            .chunk()
            .await
            .map_err(|e| self.transport_error(&e))?
        {
            if (bytes.len() + chunk.len()) as u64 > limit {
                return Err(too_large());
            }
            bytes.extend_from_slice(&chunk);
        }
        Ok(bytes)
    }

    /// A failed send or read, classified.
    fn transport_error(&self, e: &reqwest::Error) -> Failed {
        let url = self.shown_url.clone();
        let reason = root_cause(e);
        // A connect timeout is a connect error too: the host is unreachable.
        if e.is_connect() {
            return Failed {
                error: ModelError::Unreachable { url, reason },
                retry: None,
            };
        }
        if e.is_timeout() {
            return Failed {
                error: ModelError::Timeout {
                    url,
                    limit: self.settings.timeout,
                },
                retry: None,
            };
        }
        let reset = is_reset(e);
        Failed {
            error: ModelError::Other(format!("the request to {url} failed: {reason}")),
            retry: reset.then_some(DEFAULT_BACKOFF),
        }
    }

    /// Whether a chat request would get through: `GET <base_url>/models`
    /// (with the key, when one is configured) answers with a success
    /// status. Anything else is unreachable, with what it answered — a
    /// 404 from a base URL without `/v1` suggests adding it.
    pub async fn probe(&self) -> Reachability {
        let url = endpoint(&self.settings.base_url, "models");
        let limit = PROBE_TIMEOUT.min(self.settings.timeout);
        let mut request = self.client.get(&url).timeout(limit);
        match self.api_key() {
            Ok(Some(key)) => request = request.bearer_auth(key),
            Ok(None) => {}
            Err(e) => return Reachability::Unreachable(e.to_string()),
        }
        match tokio::time::timeout(limit, request.send()).await {
            Ok(Ok(r)) if r.status().is_success() => Reachability::Reachable(r.status().as_u16()),
            Ok(Ok(r)) => Reachability::Unreachable(refusal(&self.settings.base_url, r.status())),
            Ok(Err(e)) if e.is_timeout() => {
                Reachability::Unreachable(format!("no answer within {} ms", limit.as_millis()))
            }
            Ok(Err(e)) => Reachability::Unreachable(root_cause(&e)),
            Err(_) => {
                Reachability::Unreachable(format!("no answer within {} ms", limit.as_millis()))
            }
        }
    }
}

impl ChatModel for OpenAiCompatible {
    fn complete<'a>(&'a self, messages: &'a [Message], temperature: f64) -> ModelFuture<'a> {
        Box::pin(self.answer(messages, temperature))
    }

    fn model_name(&self) -> &str {
        &self.settings.model
    }
}

/// Why a `GET <base_url>/models` answered with `status` means the
/// endpoint is not usable, with the likely fix for a 404.
pub fn refusal(base_url: &str, status: reqwest::StatusCode) -> String {
    let shown = without_credentials(&endpoint(base_url, "models"));
    let mut why = format!("GET {shown} answered {status}");
    let path = reqwest::Url::parse(base_url)
        .map(|u| u.path().trim_end_matches('/').to_string())
        .unwrap_or_default();
    if status == reqwest::StatusCode::NOT_FOUND && !path.ends_with("/v1") {
        let fixed = without_credentials(&endpoint(base_url, "v1"));
        why.push_str(&format!(
            " (OpenAI-compatible servers listen under /v1: base_url = \"{fixed}\"?)"
        ));
    } else if matches!(status.as_u16(), 401 | 403) {
        why.push_str(" (check the key: api_key_env)");
    }
    why
}

/// The innermost cause of an error, without the URL (ours is shown apart).
fn root_cause(e: &reqwest::Error) -> String {
    let mut cause: &dyn std::error::Error = e;
    while let Some(next) = cause.source() {
        cause = next;
    }
    let text = cause.to_string();
    let text = if text.is_empty() { e.to_string() } else { text };
    lackpy_sources::redact_urls(&text).into_owned()
}

/// Whether the connection broke under the request (worth one more try).
fn is_reset(e: &reqwest::Error) -> bool {
    let mut cause: Option<&dyn std::error::Error> = Some(e);
    while let Some(c) = cause {
        if let Some(io) = c.downcast_ref::<std::io::Error>()
            && matches!(
                io.kind(),
                std::io::ErrorKind::ConnectionReset
                    | std::io::ErrorKind::ConnectionAborted
                    | std::io::ErrorKind::BrokenPipe
                    | std::io::ErrorKind::UnexpectedEof
            )
        {
            return true;
        }
        if let Some(h) = c.downcast_ref::<hyper::Error>()
            && (h.is_incomplete_message() || h.is_closed() || h.is_canceled())
        {
            return true;
        }
        cause = c.source();
    }
    false
}

/// `Retry-After: <seconds>`, capped.
fn retry_after(r: &reqwest::Response) -> Option<Duration> {
    let secs: u64 = r
        .headers()
        .get(reqwest::header::RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()?;
    Some(Duration::from_secs(secs).min(MAX_BACKOFF))
}

/// The assistant's text of a chat completion.
fn content(bytes: &[u8]) -> Result<String, String> {
    let v: Value = serde_json::from_slice(bytes).map_err(|e| format!("not JSON ({e})"))?;
    if let Some(err) = v.get("error") {
        return Err(format!("it holds an error: {}", short(&message_of(err))));
    }
    match v.pointer("/choices/0/message/content") {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(Value::Null) | None => Err("it has no choices[0].message.content".to_string()),
        Some(_) => Err("choices[0].message.content is not a string".to_string()),
    }
}

/// The message of an error answer: `error.message`, `error`, `message`, or
/// the start of the body.
fn error_message(bytes: &[u8]) -> String {
    match serde_json::from_slice::<Value>(bytes) {
        Ok(v) => match v.get("error").or_else(|| v.get("message")) {
            Some(e) => short(&message_of(e)),
            None => short(&v.to_string()),
        },
        Err(_) => short(&String::from_utf8_lossy(bytes)),
    }
}

fn message_of(e: &Value) -> String {
    match e {
        Value::String(s) => s.clone(),
        Value::Object(m) => match m.get("message") {
            Some(Value::String(s)) => s.clone(),
            _ => e.to_string(),
        },
        other => other.to_string(),
    }
}

/// At most 300 characters, on one line.
fn short(text: &str) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= 300 {
        one_line
    } else {
        format!("{}…", one_line.chars().take(300).collect::<String>())
    }
}

/// `e` with every occurrence of the key replaced.
fn redact(e: ModelError, key: Option<&str>) -> ModelError {
    let Some(key) = key.filter(|k| !k.is_empty()) else {
        return e;
    };
    let clean = |s: String| s.replace(key, "<redacted>");
    match e {
        ModelError::Status {
            url,
            status,
            message,
        } => ModelError::Status {
            url: clean(url),
            status,
            message: clean(message),
        },
        ModelError::BadAnswer { url, reason } => ModelError::BadAnswer {
            url: clean(url),
            reason: clean(reason),
        },
        ModelError::Unreachable { url, reason } => ModelError::Unreachable {
            url: clean(url),
            reason: clean(reason),
        },
        ModelError::Other(m) => ModelError::Other(clean(m)),
        other @ (ModelError::Timeout { .. } | ModelError::TooLarge { .. }) => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chat_completion_content() {
        let ok = br#"{"choices":[{"index":0,"message":{"role":"assistant","content":"x = 1"}}]}"#;
        assert_eq!(content(ok).as_deref(), Ok("x = 1"));
        assert!(content(b"{}").is_err_and(|e| e.contains("no choices")));
        assert!(content(b"<html>").is_err_and(|e| e.contains("not JSON")));
        assert!(
            content(br#"{"error":{"message":"model not found"}}"#)
                .is_err_and(|e| e.contains("model not found"))
        );
    }

    #[test]
    fn error_messages_are_short_and_keyless() {
        assert_eq!(
            error_message(br#"{"error":{"message":"slow down"}}"#),
            "slow down"
        );
        assert_eq!(error_message(b"Bad\n gateway"), "Bad gateway");
        let e = redact(
            ModelError::Status {
                url: "u".into(),
                status: 401,
                message: "bad key sk-123".into(),
            },
            Some("sk-123"),
        );
        assert_eq!(e.to_string(), "u answered HTTP 401: bad key <redacted>");
    }

    #[test]
    fn credentials_never_show() {
        assert_eq!(
            without_credentials("http://user:pw@host:8080/v1"),
            "http://host:8080/v1"
        );
    }

    #[test]
    fn a_query_stays_a_query_and_never_shows() {
        assert_eq!(
            endpoint("http://h:1/v1?key=Q", "chat/completions"),
            "http://h:1/v1/chat/completions?key=Q"
        );
        assert_eq!(endpoint("http://h/v1/", "models"), "http://h/v1/models");
        assert_eq!(endpoint("http://h", "models"), "http://h/models");
        assert_eq!(
            refusal("http://h:11434", reqwest::StatusCode::NOT_FOUND),
            "GET http://h:11434/models answered 404 Not Found (OpenAI-compatible servers \
             listen under /v1: base_url = \"http://h:11434/v1\"?)"
        );
        assert_eq!(
            refusal("http://h/v1", reqwest::StatusCode::NOT_FOUND),
            "GET http://h/v1/models answered 404 Not Found"
        );
        assert_eq!(
            without_credentials(&endpoint("http://u:p@h/v1?key=Q", "models")),
            "http://h/v1/models?key=<redacted>"
        );
    }
}
