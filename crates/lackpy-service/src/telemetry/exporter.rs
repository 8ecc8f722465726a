//! The OTLP exporter (the `otel` feature), configured by the standard
//! variables: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (used as it is) or
//! `OTEL_EXPORTER_OTLP_ENDPOINT` (`/v1/traces` appended),
//! `OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL` (`http/protobuf`, the default,
//! or `http/json`), `OTEL_SERVICE_NAME` (default `lackpy`); off when
//! neither endpoint is set, when `OTEL_SDK_DISABLED=true` or when
//! `OTEL_TRACES_EXPORTER=none`. Spans leave in batches from the SDK's own
//! thread (`OTEL_BSP_*` tune it), so a run never waits for the collector.

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::{Protocol, WithExportConfig};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing::Subscriber;
use tracing_subscriber::Layer;
use tracing_subscriber::filter::Targets;
use tracing_subscriber::registry::LookupSpan;

/// Traces exported over OTLP/HTTP: the layer to add to the subscriber,
/// and [`Exporter::shutdown`] to send what is left before the process
/// exits.
pub struct Exporter {
    provider: SdkTracerProvider,
    endpoint: String,
    protocol: &'static str,
}

/// Why the `OTEL_*` variables do not make an exporter.
#[derive(Debug, thiserror::Error)]
pub enum ExporterError {
    /// A protocol this build does not speak (`grpc`, or a misspelling).
    #[error(
        "OTEL_EXPORTER_OTLP_PROTOCOL={0:?} is not supported (http/protobuf or http/json); traces are off"
    )]
    Protocol(String),
    /// The SDK refused the configuration.
    #[error("cannot start the OTLP exporter: {0}; traces are off")]
    Build(String),
}

impl Exporter {
    /// The exporter the process environment asks for: `Ok(None)` when it
    /// asks for none.
    pub fn from_env() -> Result<Option<Exporter>, ExporterError> {
        Exporter::from_vars(|name| std::env::var(name).ok().filter(|v| !v.trim().is_empty()))
    }

    /// The exporter `var` (the environment, or a test's map) asks for.
    pub fn from_vars(
        var: impl Fn(&str) -> Option<String>,
    ) -> Result<Option<Exporter>, ExporterError> {
        let off = var("OTEL_SDK_DISABLED").is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
            || var("OTEL_TRACES_EXPORTER").is_some_and(|v| v.trim() == "none");
        let endpoint = match (
            var("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"),
            var("OTEL_EXPORTER_OTLP_ENDPOINT"),
        ) {
            (Some(traces), _) => traces.trim().to_string(),
            (None, Some(base)) => format!("{}/v1/traces", base.trim().trim_end_matches('/')),
            (None, None) => return Ok(None),
        };
        if off {
            return Ok(None);
        }
        let protocol = var("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
            .or_else(|| var("OTEL_EXPORTER_OTLP_PROTOCOL"))
            .unwrap_or_else(|| "http/protobuf".to_string());
        let (protocol, name) = match protocol.trim() {
            "http/protobuf" => (Protocol::HttpBinary, "http/protobuf"),
            "http/json" => (Protocol::HttpJson, "http/json"),
            other => return Err(ExporterError::Protocol(other.to_string())),
        };
        let exporter = opentelemetry_otlp::SpanExporter::builder()
            .with_http()
            .with_protocol(protocol)
            .with_endpoint(endpoint.clone())
            .build()
            .map_err(|e| ExporterError::Build(e.to_string()))?;
        let mut resource = Resource::builder();
        let named = var("OTEL_SERVICE_NAME").is_some()
            || var("OTEL_RESOURCE_ATTRIBUTES").is_some_and(|a| a.contains("service.name"));
        if !named {
            resource = resource.with_service_name("lackpy");
        }
        let provider = SdkTracerProvider::builder()
            .with_batch_exporter(exporter)
            .with_resource(resource.build())
            .build();
        // Upstream MCP servers hear of our trace on every tools/call.
        lackpy_mcp_client::set_traceparent_source(super::traceparent_of);
        Ok(Some(Exporter {
            provider,
            endpoint,
            protocol: name,
        }))
    }

    /// Where spans are sent.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// `http/protobuf` or `http/json`.
    pub fn protocol(&self) -> &'static str {
        self.protocol
    }

    /// The layer that turns lackpy's spans (and only those: the
    /// [`TARGET`](super::TARGET) target) into exported ones.
    pub fn layer<S>(&self) -> impl Layer<S> + 'static
    where
        S: Subscriber + for<'a> LookupSpan<'a>,
    {
        let tracer = self.provider.tracer("lackpy");
        tracing_opentelemetry::layer()
            .with_tracer(tracer)
            .with_location(false)
            .with_threads(false)
            .with_target(false)
            .with_level(false)
            .with_tracked_inactivity(false)
            .with_filter(Targets::new().with_target(super::TARGET, tracing::Level::TRACE))
    }

    /// Sends the spans still queued and stops the exporter (waiting at
    /// most the export timeout, `OTEL_EXPORTER_OTLP_TIMEOUT`, 10 s by
    /// default). Spans still open are not sent.
    pub fn shutdown(&self) -> Result<(), String> {
        self.provider.shutdown().map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_string())
        }
    }

    #[test]
    fn off_without_an_endpoint() {
        assert!(matches!(Exporter::from_vars(vars(&[])), Ok(None)));
        let disabled = vars(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318"),
            ("OTEL_SDK_DISABLED", "true"),
        ]);
        assert!(matches!(Exporter::from_vars(disabled), Ok(None)));
    }

    #[test]
    fn endpoints_and_protocols() {
        let e = Exporter::from_vars(vars(&[("OTEL_EXPORTER_OTLP_ENDPOINT", "http://h:4318/")]));
        let e = e.ok().flatten();
        assert_eq!(
            e.as_ref().map(|e| e.endpoint()),
            Some("http://h:4318/v1/traces")
        );
        assert_eq!(e.as_ref().map(|e| e.protocol()), Some("http/protobuf"));
        let e = Exporter::from_vars(vars(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://h:4318"),
            ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://t:1/x"),
            ("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json"),
        ]));
        let e = e.ok().flatten();
        assert_eq!(e.as_ref().map(|e| e.endpoint()), Some("http://t:1/x"));
        assert_eq!(e.as_ref().map(|e| e.protocol()), Some("http/json"));
    }

    #[test]
    fn grpc_is_refused() {
        let e = Exporter::from_vars(vars(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://h:4317"),
            ("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"),
        ]));
        let message = e.err().map(|e| e.to_string()).unwrap_or_default();
        assert_eq!(
            message,
            "OTEL_EXPORTER_OTLP_PROTOCOL=\"grpc\" is not supported (http/protobuf or http/json); traces are off"
        );
    }
}
