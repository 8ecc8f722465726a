//! The `lackpy.run` span: one per run, its attributes filled in as the run
//! is planned and when it ends.

use lackpy_bridge::ExecutionResult;
use tracing::field::Empty;

/// A new `lackpy.run` span (disabled, and so free, unless traces are
/// exported), continuing `parent` (a host's `traceparent`) when given.
/// `program` is an attribute only with `[telemetry] include_program`.
pub(crate) fn start(program: &str, include_program: bool, parent: Option<&str>) -> tracing::Span {
    let span = tracing::trace_span!(
        target: "lackpy::telemetry",
        "lackpy.run",
        lackpy.program.sha256 = Empty,
        lackpy.program = Empty,
        lackpy.profile = Empty,
        lackpy.grade.w = Empty,
        lackpy.grade.d = Empty,
        lackpy.outcome = Empty,
        lackpy.steps = Empty,
        lackpy.error_type = Empty,
        otel.status_code = Empty,
    );
    if span.is_disabled() {
        return span;
    }
    if let Some(parent) = parent {
        super::context::set_parent(&span, parent);
    }
    span.record("lackpy.program.sha256", program_hash(program).as_str());
    if include_program {
        span.record("lackpy.program", program);
    }
    span
}

/// Records the run's profile (the default one when the request named
/// none; nothing when there is none).
pub(crate) fn record_profile(span: &tracing::Span, profile: Option<&str>) {
    if let Some(p) = profile {
        span.record("lackpy.profile", p);
    }
}

/// Records how the run ended: `ok`, `paused` or `error`, with its error
/// type and the number of tool calls it made.
pub(crate) fn finish(span: &tracing::Span, result: &ExecutionResult) {
    if span.is_disabled() {
        return;
    }
    let outcome = if result.success {
        "ok"
    } else if result.paused.is_some() {
        "paused"
    } else {
        "error"
    };
    let steps = result
        .trace_dropped
        .as_ref()
        .map_or(result.trace.len(), |d| d.total_calls);
    span.record("lackpy.grade.w", result.grade.w);
    span.record("lackpy.grade.d", result.grade.d);
    span.record("lackpy.outcome", outcome);
    span.record("lackpy.steps", steps);
    if let Some(t) = &result.error_type {
        span.record("lackpy.error_type", t.as_str());
    }
    if outcome == "error" {
        span.record("otel.status_code", "ERROR");
    }
}

/// Records a run refused before it was planned (an unknown tool or
/// profile: a `ServiceError`, not a result).
pub(crate) fn refused(span: &tracing::Span) {
    span.record("lackpy.outcome", "error");
    span.record("lackpy.error_type", "ServiceError");
    span.record("otel.status_code", "ERROR");
}

/// The program's SHA-256, in hex (the same text always gives the same
/// hash, so runs of one program can be grouped without exporting it).
fn program_hash(program: &str) -> String {
    use sha2::Digest;
    use std::fmt::Write;
    let digest = sha2::Sha256::digest(program.as_bytes());
    let mut hex = String::with_capacity(64);
    for b in digest {
        let _ = write!(hex, "{b:02x}");
    }
    hex
}

#[cfg(test)]
mod tests {
    #[test]
    fn hashes_as_sha256() {
        assert_eq!(
            super::program_hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
