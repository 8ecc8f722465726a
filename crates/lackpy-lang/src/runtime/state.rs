//! The run's state on its thread: one record, one thread-local.
//!
//! Values charge their bytes when they are made and credit them when they
//! are dropped, and deep helpers (`Dict::get`, `py_eq`, a big-int product)
//! read the clock and the cancel flag, all without a budget argument: a
//! value may be dropped anywhere. So what the whole run shares lives here,
//! per thread (values never leave the interpreter thread), and
//! [`RunScope`](super::RunScope) installs a run's part of it and restores
//! the enclosing run's (a program run by a tool call on the same thread).

use std::cell::{Cell, RefCell};
use std::mem::ManuallyDrop;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The clock and the cancel flag of a run.
#[derive(Clone)]
pub(crate) struct Clock {
    /// When the run times out.
    pub deadline: Instant,
    /// Set from outside to cancel the run.
    pub cancel: Option<Arc<AtomicBool>>,
}

/// What a thread knows of the run in progress on it.
pub(super) struct RunState {
    /// Units of builtin work since the clock was last read ([`super::meter`]).
    pub ticks: Cell<u32>,
    /// Bytes held by live program values ([`super::memory`]).
    pub used: Cell<usize>,
    /// The run's memory limit (`usize::MAX` outside a run).
    pub max_memory: Cell<usize>,
    /// The run's clock (none outside a run). Never dropped with the
    /// record, so that the record needs no destructor, whose registration
    /// check every access would pay (a value is charged on every
    /// allocation); [`RunScope`](super::RunScope) drops each clock it
    /// replaces.
    pub clock: RefCell<ManuallyDrop<Option<Clock>>>,
    /// The stack address at the run's entry (0 outside a run;
    /// [`super::stack`]).
    pub stack_base: Cell<usize>,
    /// Estimated (scaled) nanoseconds of big operations since the clock was
    /// last read ([`super::work`]).
    pub pending_ns: Cell<u64>,
    /// Real time per estimated nanosecond, in 1/1024ths, by operation kind:
    /// learned by the thread across runs ([`super::work`]).
    pub scale: [Cell<u64>; 3],
}

thread_local! {
    pub(super) static RUN: RunState = const {
        RunState {
            ticks: Cell::new(0),
            used: Cell::new(0),
            max_memory: Cell::new(usize::MAX),
            clock: RefCell::new(ManuallyDrop::new(None)),
            stack_base: Cell::new(0),
            pending_ns: Cell::new(0),
            scale: [Cell::new(1024), Cell::new(1024), Cell::new(1024)],
        }
    };
}
