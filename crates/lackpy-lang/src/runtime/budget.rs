//! The interpreter's counters against the run's limits: steps, counted
//! in the evaluation loop, and the checks of the clock, the cancel flag
//! and the memory count that every step and every poll make (the
//! deadline, the flag and the count themselves are the run's state,
//! [`super::state`], which the builtins' meter reads too).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::error::{Exc, ExceptionKind, R};
use super::{Limits, memory, meter};

/// How often (in steps) the clock and the memory count are read.
const CHECK_EVERY: u64 = 256;

/// The live counters of a run against its limits.
pub(crate) struct Budget {
    pub steps: u64,
    pub max_steps: u64,
    /// The step at which the next full check (clock, memory, step limit) is due.
    next_check: u64,
    /// The run's cancel flag, also in the run's state: read here at every
    /// step without the state's borrow.
    cancel: Option<Arc<AtomicBool>>,
    pub max_depth: u32,
    pub max_stdout: usize,
    pub max_result: usize,
    polls: u32,
}

impl Budget {
    /// The counters of a run of `limits` whose clock and memory limit a
    /// [`RunScope`](super::RunScope) has installed.
    pub(crate) fn new(limits: &Limits, cancel: Option<Arc<AtomicBool>>) -> Self {
        Budget {
            steps: 0,
            max_steps: limits.max_steps,
            next_check: CHECK_EVERY.min(limits.max_steps.saturating_add(1)),
            cancel,
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
        meter::check_now()
    }

    /// Moves the deadline `by` later (time the run spent waiting for a
    /// person).
    pub(crate) fn extend_deadline(&mut self, by: Duration) {
        meter::extend_deadline(by);
    }

    /// MemoryError unless `extra` more bytes fit in the budget.
    #[inline]
    pub(crate) fn check_memory(&self, extra: usize) -> R<()> {
        meter::ensure(extra)
    }

    /// Characters of text a result may still have: what the memory budget
    /// leaves, at four bytes a character.
    pub(crate) fn text_room(&self) -> usize {
        meter::max_memory().saturating_sub(memory::used()) / 4
    }
}

fn cancelled() -> Box<Exc> {
    Exc::limit(ExceptionKind::Cancelled, "execution cancelled")
}
