//! `[telemetry]` (ours): what the traces exported over OTLP carry (the
//! exporter itself is configured by the standard `OTEL_*` variables).

use serde::Deserialize;

/// `[telemetry]`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct TelemetrySection {
    /// Put the program's text on each `lackpy.run` span (off: only its
    /// hash; a program may hold what a trace store should not).
    pub include_program: bool,
}
