//! W3C trace context (`traceparent`): read from a host's request so its
//! trace continues into ours, and written for the upstream MCP servers we
//! call so theirs continues ours.

/// A `traceparent` value's parts, checked as W3C Trace Context says
/// (version `00`, a 32-hex-digit trace id and a 16-hex-digit parent id,
/// neither all zeros, and two hex digits of flags).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Traceparent {
    /// The trace id.
    pub trace_id: u128,
    /// The id of the caller's span.
    pub span_id: u64,
    /// The trace flags (bit 0: sampled).
    pub flags: u8,
}

/// Parses a `traceparent` value; `None` when it is not one (a malformed
/// value is ignored, as the W3C specification asks: the run starts a new
/// trace).
pub fn parse_traceparent(value: &str) -> Option<Traceparent> {
    let mut parts = value.trim().split('-');
    let version = parts.next()?;
    let trace = parts.next()?;
    let span = parts.next()?;
    let flags = parts.next()?;
    // A later version may add fields after the flags; version 00 may not.
    if version.len() != 2 || version == "ff" || (version == "00" && parts.next().is_some()) {
        return None;
    }
    let hex = |s: &str, n: usize| {
        s.len() == n && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    };
    if !hex(version, 2) || !hex(trace, 32) || !hex(span, 16) || !hex(flags, 2) {
        return None;
    }
    let trace_id = u128::from_str_radix(trace, 16).ok()?;
    let span_id = u64::from_str_radix(span, 16).ok()?;
    let flags = u8::from_str_radix(flags, 16).ok()?;
    (trace_id != 0 && span_id != 0).then_some(Traceparent {
        trace_id,
        span_id,
        flags,
    })
}

/// The `traceparent` of `span` as exported (`None` when traces are not
/// exported or the span is not traced).
pub fn traceparent_of(span: &tracing::Span) -> Option<String> {
    #[cfg(feature = "otel")]
    {
        use opentelemetry::trace::TraceContextExt;
        use tracing_opentelemetry::OpenTelemetrySpanExt;
        if span.is_disabled() {
            return None;
        }
        let cx = span.context();
        let sc = cx.span().span_context().clone();
        sc.is_valid().then(|| {
            format!(
                "00-{}-{}-{:02x}",
                sc.trace_id(),
                sc.span_id(),
                sc.trace_flags().to_u8()
            )
        })
    }
    #[cfg(not(feature = "otel"))]
    {
        let _ = span;
        None
    }
}

/// Makes `parent` (a host's `traceparent`) the parent of `span`, which
/// must not have been entered yet. A malformed value is ignored.
pub(crate) fn set_parent(span: &tracing::Span, parent: &str) {
    #[cfg(feature = "otel")]
    {
        use opentelemetry::trace::{
            SpanContext, SpanId, TraceContextExt, TraceFlags, TraceId, TraceState,
        };
        use tracing_opentelemetry::OpenTelemetrySpanExt;
        let Some(p) = parse_traceparent(parent) else {
            return;
        };
        let remote = SpanContext::new(
            TraceId::from_bytes(p.trace_id.to_be_bytes()),
            SpanId::from_bytes(p.span_id.to_be_bytes()),
            TraceFlags::new(p.flags),
            true,
            TraceState::default(),
        );
        let cx = opentelemetry::Context::new().with_remote_span_context(remote);
        // Fails only when the span is not traced: nothing to continue.
        let _ = span.set_parent(cx);
    }
    #[cfg(not(feature = "otel"))]
    {
        let _ = (span, parent);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_w3c_examples() {
        let p = parse_traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
        assert_eq!(
            p,
            Some(Traceparent {
                trace_id: 0x4bf9_2f35_77b3_4da6_a3ce_929d_0e0e_4736,
                span_id: 0x00f0_67aa_0ba9_02b7,
                flags: 1,
            })
        );
        // A later version may carry more fields.
        assert!(
            parse_traceparent("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-x")
                .is_some()
        );
    }

    #[test]
    fn refuses_malformed_values() {
        for bad in [
            "",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
            "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",
        ] {
            assert_eq!(parse_traceparent(bad), None, "{bad}");
        }
    }
}
