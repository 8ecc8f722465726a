//! Prometheus metrics of a `lackpy mcp serve` process (`GET /metrics`, on
//! the MCP port or the admin port), in the text exposition format.
//!
//! One [`Metrics`] per server holds the registry (`registry.rs`). Counters and histograms
//! are fed where the facts arise: a finished run's result (its outcome,
//! duration, trace of tool calls and approvals: `run.rs`), and admission
//! (`Busy` answers). Gauges of the present (runs in flight and queued,
//! sessions, upstream servers) are read when scraped ([`Live`]), so they
//! cost nothing between scrapes.
//!
//! Label values come from closed sets or from the tool inventory (a tool
//! outside it, such as a profile's alias, is `tool="other"`), so the
//! number of series stays bounded whatever programs do.

mod labels;
mod live;
mod registry;
mod run;

pub use live::{CONTENT_TYPE, Live};
pub use registry::Metrics;
pub use run::HasExecution;

#[cfg(test)]
mod tests;
