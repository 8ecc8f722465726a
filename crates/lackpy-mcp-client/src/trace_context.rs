//! W3C trace context passed on to upstream servers: each `tools/call`
//! carries the `traceparent` of the span it runs in (`_meta.traceparent`),
//! so a server's own trace continues ours.
//!
//! This crate knows nothing of OpenTelemetry: the embedder that exports
//! traces installs the function that reads a span's context
//! ([`set_traceparent_source`]); without one, nothing is added.

use std::sync::OnceLock;

/// Reads the W3C `traceparent` of a span (`None`: it has no trace).
pub type TraceparentSource = fn(&tracing::Span) -> Option<String>;

static SOURCE: OnceLock<TraceparentSource> = OnceLock::new();

/// Installs how a span's `traceparent` is read, once per process (a second
/// call changes nothing). Every `tools/call` sent after it carries the
/// `traceparent` of the operation's span in its `_meta`.
pub fn set_traceparent_source(source: TraceparentSource) {
    let _ = SOURCE.set(source);
}

/// The `traceparent` of the current span, when a source is installed and
/// the span is traced.
pub(crate) fn current() -> Option<String> {
    let source = SOURCE.get()?;
    source(&tracing::Span::current())
}
