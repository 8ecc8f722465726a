//! How an operation on a server fails, and how that reads to a program.

use std::time::Duration;

use lackpy_sources::ToolError;
use rmcp::ServiceError;

use crate::linecap::{OVERSIZE_MARK, UNREADABLE_MARK};

/// A failed operation on one server.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum McpError {
    /// The operation's time ran out; `run` when it was the run's deadline.
    Timeout { after: Duration, run: bool },
    /// The run was cancelled.
    Cancelled,
    /// The session ended while the operation was queued or in flight.
    SessionEnded(String),
    /// The server is down (its reconnect failed).
    Down(String),
    /// The client was shut down.
    Closed,
    /// The server answered with a JSON-RPC error.
    Server { code: i32, message: String },
    /// The response was over the size cap.
    TooLarge(usize),
    /// The transport failed.
    Transport(String),
    /// The server answered with something we cannot use.
    Protocol(String),
}

impl McpError {
    /// Classifies an SDK error.
    pub(crate) fn from_service(e: ServiceError, cap: usize) -> McpError {
        match e {
            ServiceError::McpError(data) => {
                if data.message.starts_with(OVERSIZE_MARK) {
                    McpError::TooLarge(cap)
                } else if let Some(why) = data.message.strip_prefix(UNREADABLE_MARK) {
                    McpError::Protocol(format!(
                        "the server's response could not be read: {}",
                        why.trim_start()
                    ))
                } else {
                    McpError::Server {
                        code: data.code.0,
                        message: data.message.to_string(),
                    }
                }
            }
            ServiceError::TransportClosed => {
                McpError::SessionEnded("the connection closed".to_string())
            }
            ServiceError::TransportSend(err) => {
                let text = err.to_string();
                if text.contains("too large") || text.contains("exceeds") {
                    McpError::TooLarge(cap)
                } else {
                    McpError::Transport(text)
                }
            }
            ServiceError::Cancelled { .. } => McpError::Cancelled,
            ServiceError::Timeout { timeout } => McpError::Timeout {
                after: timeout,
                run: false,
            },
            ServiceError::UnexpectedResponse => {
                McpError::Protocol("unexpected response type".to_string())
            }
            other => McpError::Protocol(other.to_string()),
        }
    }

    /// One line for logs and status: what went wrong.
    pub(crate) fn describe(&self) -> String {
        match self {
            McpError::Timeout { after, run: false } => {
                format!("no answer within {} ms", after.as_millis())
            }
            McpError::Timeout { run: true, .. } => {
                "no answer before the run's deadline".to_string()
            }
            McpError::Cancelled => "cancelled".to_string(),
            McpError::SessionEnded(why) => format!("the session ended: {why}"),
            McpError::Down(why) => format!("the server is down: {why}"),
            McpError::Closed => "the MCP client is shut down".to_string(),
            McpError::Server { code, message } => format!("MCP error {code}: {message}"),
            McpError::TooLarge(cap) => format!("the response exceeds the size cap of {cap} bytes"),
            McpError::Transport(why) => format!("transport error: {why}"),
            McpError::Protocol(why) => format!("protocol error: {why}"),
        }
    }

    /// The error a program sees for a call to `tool` on `server`.
    pub(crate) fn into_tool_error(self, server: &str, tool: &str) -> ToolError {
        let what = format!("MCP tool '{tool}' on server '{server}'");
        match self {
            McpError::Timeout { after, run: false } => {
                ToolError::timeout(format!("{what} timed out after {} ms", after.as_millis()))
            }
            McpError::Timeout { run: true, .. } => {
                ToolError::timeout(format!("{what} did not answer before the run's deadline"))
            }
            McpError::Cancelled => ToolError::cancelled(),
            // A transport error can name the server's URL, credentials and
            // all: the program, its trace and the result only see it redacted.
            McpError::Down(_) | McpError::Closed => ToolError::unavailable(format!(
                "{what}: {}",
                lackpy_sources::redact_urls(&self.describe())
            )),
            other => ToolError::failed(format!(
                "{what}: {}",
                lackpy_sources::redact_urls(&other.describe())
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transport_errors_never_show_url_credentials() {
        for e in [
            McpError::Down("error sending request for url (http://u:pw@h:1/mcp?key=K)".into()),
            McpError::SessionEnded("POST https://u:pw@h/mcp?token=T failed".into()),
        ] {
            let m = e.into_tool_error("s", "t").message().to_string();
            assert!(
                !m.contains("pw") && !m.contains("=K") && !m.contains("=T"),
                "{m}"
            );
            assert!(m.contains("<redacted>"), "{m}");
        }
    }

    #[test]
    fn program_messages() {
        let t = McpError::Timeout {
            after: Duration::from_millis(250),
            run: false,
        };
        let e = t.into_tool_error("s", "slow");
        assert_eq!(e.error_type(), "TimeoutError");
        assert_eq!(
            e.message(),
            "MCP tool 'slow' on server 's' timed out after 250 ms"
        );
        let e = McpError::SessionEnded("the server process was killed by SIGKILL".into())
            .into_tool_error("s", "t");
        assert_eq!(
            e.message(),
            "MCP tool 't' on server 's': the session ended: the server process was killed by SIGKILL"
        );
        let e = McpError::Down("x".into()).into_tool_error("s", "t");
        assert_eq!(e.kind(), lackpy_sources::ToolErrorKind::Unavailable);
    }
}
