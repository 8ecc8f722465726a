//! What bounds a run: its limits, its one budget and the exceptions that
//! stop it.
//!
//! Every run is bounded (language.md §5): a wall-clock deadline, a step
//! budget (loop iterations, comprehension items and calls), a budget for
//! the bytes held by live program values, an evaluation depth (and the
//! native stack under it), a cap on captured stdout and on the result, and
//! cancellation from the host. One [`RunScope`] installs a run's bounds on
//! its thread ([`state`]) and restores the enclosing run's after it; what
//! reads them:
//!
//! * the evaluation loop counts steps and polls through [`Budget`];
//! * builtins and methods whose work grows with their input tick the
//!   [`meter`] and hold temporary buffers through it;
//! * every value charges and credits its bytes to [`memory`];
//! * writers of output (repr, JSON, data for a tool) charge what they
//!   write to a [`growth`] guard;
//! * a big-int operation is charged by its estimated time before it runs
//!   and split into pieces between polls ([`work`]);
//! * recursive code asks [`stack`] whether the native stack is used up;
//! * large emptied buffers ([`pool`]) and emptied string and tuple blocks
//!   ([`free_list`]) are kept for reuse while a run is in progress on the
//!   thread.
//!
//! This layer names no value: the exceptions that quote a value are made
//! in `value/errors.rs`.

pub(crate) mod budget;
pub(crate) mod error;
pub(crate) mod free_list;
pub(crate) mod growth;
pub(crate) mod limits;
pub(crate) mod memory;
pub(crate) mod meter;
pub(crate) mod pool;
pub(crate) mod stack;
mod state;
pub(crate) mod work;

use std::mem::ManuallyDrop;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

pub(crate) use budget::Budget;
pub use limits::Limits;
use state::{Clock, RUN};

/// The bounds a run installs on its thread.
#[derive(Clone)]
pub(crate) struct RunLimits {
    /// When the run times out.
    pub deadline: Instant,
    /// Set from outside to cancel the run.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Bytes the program's live values may hold.
    pub max_memory: usize,
}

/// A run's bounds installed on this thread until dropped: the memory count
/// from zero, the run's limits and clock, its stack base. The enclosing
/// run's (a program run by a tool call on the same thread) are restored
/// when it drops.
pub(crate) struct RunScope {
    used: usize,
    max_memory: usize,
    clock: Option<Clock>,
    stack_base: usize,
}

impl RunScope {
    /// Installs a run's bounds.
    pub(crate) fn enter(limits: RunLimits) -> Self {
        let clock = Clock {
            deadline: limits.deadline,
            cancel: limits.cancel,
        };
        RunScope::install(Some(clock), limits.max_memory, stack::here())
    }

    /// Counts memory from zero with no limit and no clock (a test of what
    /// values charge).
    #[cfg(test)]
    pub(crate) fn counting() -> Self {
        let base = RUN.with(|r| r.stack_base.get());
        RunScope::install(None, usize::MAX, base)
    }

    fn install(clock: Option<Clock>, max_memory: usize, stack_base: usize) -> Self {
        RUN.with(|r| RunScope {
            used: r.used.replace(0),
            max_memory: r.max_memory.replace(max_memory),
            clock: ManuallyDrop::into_inner(r.clock.replace(ManuallyDrop::new(clock))),
            stack_base: r.stack_base.replace(stack_base),
        })
    }
}

impl Drop for RunScope {
    fn drop(&mut self) {
        let clock = self.clock.take();
        // `try_with`: a scope may drop while the thread's locals are torn down.
        let _ = RUN.try_with(|r| {
            r.used.set(self.used);
            r.max_memory.set(self.max_memory);
            drop(ManuallyDrop::into_inner(
                r.clock.replace(ManuallyDrop::new(clock)),
            ));
            r.stack_base.set(self.stack_base);
        });
    }
}
