//! Run limits and the budget that enforces them.
//!
//! Every run is bounded (language.md §5): a wall-clock deadline, a step
//! budget (loop iterations, comprehension items and calls), a budget for the
//! bytes held by live program values, an evaluation depth and a cap on
//! captured stdout. Cancellation from the host is checked at every step.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::value::errors::{Exc, ExceptionKind, R};
use crate::value::mem;

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

/// How often (in steps) the clock and the memory count are read.
const CHECK_EVERY: u64 = 256;

/// The live counters of a run against its limits.
pub(crate) struct Budget {
    pub steps: u64,
    pub max_steps: u64,
    /// The step at which the next full check (clock, memory, step limit) is due.
    next_check: u64,
    pub deadline: Instant,
    pub cancel: Option<Arc<AtomicBool>>,
    pub max_memory: usize,
    pub max_depth: u32,
    pub max_stdout: usize,
    pub max_result: usize,
    polls: u32,
}

impl Budget {
    pub(crate) fn new(limits: &Limits, deadline: Instant, cancel: Option<Arc<AtomicBool>>) -> Self {
        Budget {
            steps: 0,
            max_steps: limits.max_steps,
            next_check: CHECK_EVERY.min(limits.max_steps.saturating_add(1)),
            deadline,
            cancel,
            max_memory: limits.max_memory,
            max_depth: limits.max_depth,
            max_stdout: limits.max_stdout,
            max_result: limits.max_result,
            polls: 0,
        }
    }

    /// Counts one step and enforces every limit: cancellation at every
    /// step, the rest every few hundred steps (large allocations check
    /// memory themselves before they happen).
    #[inline]
    pub(crate) fn step(&mut self) -> R<()> {
        self.steps += 1;
        if self.steps >= self.next_check {
            return self.slow_check();
        }
        if let Some(c) = &self.cancel
            && c.load(Ordering::Relaxed)
        {
            return Err(cancelled());
        }
        Ok(())
    }

    #[cold]
    fn slow_check(&mut self) -> R<()> {
        if self.steps > self.max_steps {
            return Err(Exc::limit(
                ExceptionKind::StepLimitError,
                format!("step limit exceeded ({} steps)", self.max_steps),
            ));
        }
        self.next_check = (self.steps + CHECK_EVERY).min(self.max_steps.saturating_add(1));
        self.poll_now()
    }

    /// Checks cancellation, memory and (every so often) the clock without
    /// counting a step; long-running builtins call this as they iterate.
    #[inline]
    pub(crate) fn poll(&mut self) -> R<()> {
        self.polls = self.polls.wrapping_add(1);
        if self.polls.is_multiple_of(256) {
            self.poll_now()
        } else {
            Ok(())
        }
    }

    /// Checks cancellation, memory and the clock now.
    pub(crate) fn poll_now(&mut self) -> R<()> {
        if let Some(c) = &self.cancel
            && c.load(Ordering::Relaxed)
        {
            return Err(cancelled());
        }
        self.check_memory(0)?;
        if Instant::now() >= self.deadline {
            return Err(Exc::limit(
                ExceptionKind::TimeoutError,
                "execution timed out",
            ));
        }
        Ok(())
    }

    /// Moves the deadline `by` later (time the run spent waiting for a
    /// person), here and in the meter the builtins poll.
    pub(crate) fn extend_deadline(&mut self, by: std::time::Duration) {
        self.deadline += by;
        crate::value::meter::extend_deadline(by);
    }

    /// MemoryError unless `extra` more bytes fit in the budget.
    #[inline]
    pub(crate) fn check_memory(&self, extra: usize) -> R<()> {
        if mem::used().saturating_add(extra) > self.max_memory {
            Err(Exc::memory())
        } else {
            Ok(())
        }
    }
}

fn cancelled() -> Box<Exc> {
    Exc::limit(ExceptionKind::Cancelled, "execution cancelled")
}
