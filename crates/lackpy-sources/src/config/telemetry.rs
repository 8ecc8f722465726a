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

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::config::parse_config;

    #[test]
    fn include_program_is_read_and_checked() {
        let file = Path::new("config.toml");
        let on = parse_config("[telemetry]\ninclude_program = true\n", file);
        assert!(on.is_ok_and(|c| c.config.telemetry.include_program));
        let off = parse_config("", file);
        assert!(off.is_ok_and(|c| !c.config.telemetry.include_program));
        let bad = parse_config("[telemetry]\ninclude_program = \"yes\"\n", file);
        let message = bad.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(
            message.contains("key 'telemetry.include_program'"),
            "{message}"
        );
    }
}
