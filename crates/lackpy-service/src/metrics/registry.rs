//! The registry of one server: [`Metrics`], its metric families and how
//! each tool's calls are labelled. What feeds the families is beside it:
//! a finished run in `run.rs`, the gauges of the present in `live.rs`.

use std::collections::HashMap;
use std::sync::{Arc, PoisonError, RwLock};

use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

use super::labels::{
    DECISIONS, Decision, OUTCOMES, Outcome, ServerLabel, SourceLabel, ToolCallLabels, ToolLabel,
};

/// Histogram buckets, in seconds: 100 µs to a minute.
const BUCKETS: [f64; 18] = [
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
    5.0, 10.0, 30.0, 60.0,
];

/// The tools of `service`'s inventory with their sources.
fn inventory(service: &crate::service::LackpyService) -> Vec<(String, String)> {
    service
        .tools()
        .into_iter()
        .filter_map(|listing| {
            let source = listing.winner()?.source.clone();
            Some((listing.name, source))
        })
        .collect()
}

fn tool_label((tool, source): (String, String)) -> (String, ToolLabel) {
    let label = ToolLabel {
        tool: Arc::from(tool.as_str()),
        source: Arc::from(source),
    };
    (tool, label)
}

fn histogram() -> Histogram {
    Histogram::new(BUCKETS)
}

/// The metrics of one server process.
pub struct Metrics {
    pub(super) registry: Registry,
    pub(super) runs: Family<Outcome, Counter>,
    pub(super) run_duration: Histogram,
    pub(super) runs_in_flight: Gauge,
    pub(super) runs_queued: Gauge,
    pub(super) busy_rejections: Counter,
    pub(super) tool_calls: Family<ToolCallLabels, Counter>,
    pub(super) tool_call_duration: Family<SourceLabel, Histogram, fn() -> Histogram>,
    pub(super) upstream_up: Family<ServerLabel, Gauge>,
    pub(super) upstream_reconnects: Family<ServerLabel, Counter>,
    pub(super) sessions: Gauge,
    pub(super) approvals: Family<Decision, Counter>,
    /// The labels of each tool of the inventory, by the name programs call.
    tools: RwLock<HashMap<String, ToolLabel>>,
    /// The labels of a tool outside it.
    other: ToolLabel,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics")
            .field(
                "tools",
                &self
                    .tools
                    .read()
                    .unwrap_or_else(PoisonError::into_inner)
                    .len(),
            )
            .finish_non_exhaustive()
    }
}

impl Metrics {
    /// Metrics for a server whose inventory is `tools`: each tool's name
    /// and the source it comes from (`config`, `mcp:time`, …).
    pub fn new(tools: impl IntoIterator<Item = (String, String)>) -> Metrics {
        let m = Metrics {
            registry: Registry::default(),
            runs: Family::default(),
            run_duration: histogram(),
            runs_in_flight: Gauge::default(),
            runs_queued: Gauge::default(),
            busy_rejections: Counter::default(),
            tool_calls: Family::default(),
            tool_call_duration: Family::new_with_constructor(histogram),
            upstream_up: Family::default(),
            upstream_reconnects: Family::default(),
            sessions: Gauge::default(),
            approvals: Family::default(),
            tools: RwLock::new(tools.into_iter().map(tool_label).collect()),
            other: ToolLabel::other(),
        };
        m.registered()
    }

    /// Metrics for `service`'s tool inventory.
    pub fn for_service(service: &crate::service::LackpyService) -> Metrics {
        Metrics::new(inventory(service))
    }

    /// Labels the calls of the tools a new inventory version added (the
    /// series of tools it dropped stay: a counter never goes away).
    pub fn learn(&self, service: &crate::service::LackpyService) {
        let mut tools = self.tools.write().unwrap_or_else(PoisonError::into_inner);
        for (tool, source) in inventory(service) {
            if !tools.contains_key(&tool) {
                let (tool, label) = tool_label((tool, source));
                tools.insert(tool, label);
            }
        }
    }

    /// How calls to `tool` are labelled: its own name and source when it is
    /// in the inventory, else `other`.
    pub(super) fn label(&self, tool: &str) -> ToolLabel {
        let tools = self.tools.read().unwrap_or_else(PoisonError::into_inner);
        tools.get(tool).unwrap_or(&self.other).clone()
    }

    fn registered(mut self) -> Metrics {
        // Series of closed sets exist from the start: a rate over a
        // counter that appears only at its first increment misses it.
        for outcome in OUTCOMES {
            drop(self.runs.get_or_create(&[("outcome", outcome)]));
        }
        for decision in DECISIONS {
            drop(self.approvals.get_or_create(&[("decision", decision)]));
        }
        let r = &mut self.registry;
        r.register(
            "lackpy_runs",
            "Runs finished, by outcome (success, error, invalid, timeout, cancelled, paused)",
            self.runs.clone(),
        );
        r.register(
            "lackpy_run_duration_seconds",
            "Wall-clock time of finished runs",
            self.run_duration.clone(),
        );
        r.register(
            "lackpy_runs_in_flight",
            "Runs executing now",
            self.runs_in_flight.clone(),
        );
        r.register(
            "lackpy_runs_queued",
            "Runs admitted and waiting for an interpreter",
            self.runs_queued.clone(),
        );
        r.register(
            "lackpy_busy_rejections",
            "Calls answered Busy: every place for a run was taken, or another resume held the run",
            self.busy_rejections.clone(),
        );
        r.register(
            "lackpy_tool_calls",
            "Tool calls made by runs, by tool (other: outside the inventory), source and outcome (ok, error, denied, paused)",
            self.tool_calls.clone(),
        );
        r.register(
            "lackpy_tool_call_duration_seconds",
            "Time of tool calls by source (calls left out of a capped trace are not timed)",
            self.tool_call_duration.clone(),
        );
        r.register(
            "lackpy_upstream_up",
            "Whether an upstream MCP server is connected (1) or not (0)",
            self.upstream_up.clone(),
        );
        r.register(
            "lackpy_upstream_reconnects",
            "Sessions an upstream MCP server was reconnected with after the first",
            self.upstream_reconnects.clone(),
        );
        r.register(
            "lackpy_sessions",
            "Open MCP sessions",
            self.sessions.clone(),
        );
        r.register(
            "lackpy_approvals",
            "Decisions on calls that needed approval (approved, denied, paused)",
            self.approvals.clone(),
        );
        self
    }

    /// One call answered `Busy` because every place for a run was taken.
    pub fn busy_rejection(&self) {
        self.busy_rejections.inc();
    }
}
