//! Traces of runs, exported over OTLP when `OTEL_EXPORTER_OTLP_*` says
//! where (docs/spec/runtime.md, "Telemetry"; docs/deploy.md, "Traces").
//!
//! The spans are plain `tracing` spans at TRACE level in the
//! [`TARGET`] target: `lackpy.run` (`run_span`), a child
//! `lackpy.tool_call` per call (`tool_span`) and, from
//! `lackpy-mcp-client`, `lackpy.mcp.operation` under an MCP tool's call.
//! The log filters of `-v` and `-vv` do not let them through, so without
//! an exporter they are disabled where they are made and none of their
//! fields is computed; the `Exporter` (the `otel` feature) is the one
//! layer that listens.

mod context;
#[cfg(feature = "otel")]
mod exporter;
pub(crate) mod run_span;
pub(crate) mod tool_span;

pub use context::{Traceparent, parse_traceparent, traceparent_of};
#[cfg(feature = "otel")]
pub use exporter::{Exporter, ExporterError};

/// The target of every span traces export (and of nothing else).
pub const TARGET: &str = "lackpy::telemetry";
