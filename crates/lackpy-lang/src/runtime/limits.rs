//! The bounds of a run, as the host sets them.

use std::time::Duration;

/// The bounds of one run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock time for the whole run (`TimeoutError`).
    pub timeout: Duration,
    /// Loop iterations, comprehension items and calls (`StepLimitError`).
    pub max_steps: u64,
    /// Estimated bytes held by live program values (`MemoryError`).
    pub max_memory: usize,
    /// Evaluation depth (`RecursionError`).
    pub max_depth: u32,
    /// Bytes of captured stdout kept; the rest is dropped behind a marker.
    pub max_stdout: usize,
    /// Bytes of the run's result: the output (its data and its JSON text),
    /// `output_repr`, the variables as JSON and the trace's previews
    /// (`ResultTooLargeError`).
    pub max_result: usize,
    /// Trace entries kept: the first half and the last half (the odd one
    /// to the last); the calls between are summarised per tool in
    /// [`RunOutcome::trace_dropped`](crate::RunOutcome::trace_dropped).
    pub max_trace_entries: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout: Duration::from_secs(30),
            max_steps: 10_000_000,
            max_memory: 256 * 1024 * 1024,
            max_depth: 200,
            max_stdout: 1024 * 1024,
            max_result: 256 * 1024 * 1024,
            max_trace_entries: 10_000,
        }
    }
}
