//! Runs whose interpreter runs on the thread that polls them.
//!
//! A caller that blocks its own thread on a run (not a runtime worker) can
//! have the interpreter run right there, start to end, instead of on an
//! interpreter thread: no thread hand-off, and every tool call happens on
//! the caller's thread, with whatever that thread holds (the Python
//! package: its thread state, which a tool call on another thread would
//! have to create and tear down per call). Pending tool answers are still
//! driven by the runtime; the thread parks while it waits for them.

use std::cell::Cell;
use std::marker::PhantomData;

thread_local! {
    static HERE: Cell<bool> = const { Cell::new(false) };
}

/// While it lives, a run polled on this thread interprets here. Only for
/// a thread that is not a runtime worker (blocking one would stall the
/// runtime that drives pending tool answers), such as a thread inside
/// `Runtime::block_on`.
pub struct CallerThreadRuns {
    /// Tied to the thread that made it.
    _not_send: PhantomData<*const ()>,
}

impl CallerThreadRuns {
    /// Runs polled on this thread interpret on it until the guard drops.
    pub fn enter() -> CallerThreadRuns {
        HERE.with(|h| h.set(true));
        CallerThreadRuns {
            _not_send: PhantomData,
        }
    }
}

impl Drop for CallerThreadRuns {
    fn drop(&mut self) {
        HERE.with(|h| h.set(false));
    }
}

/// Whether a run polled now should interpret on this thread.
pub(crate) fn here() -> bool {
    HERE.with(Cell::get)
}
