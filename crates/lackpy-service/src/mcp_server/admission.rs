//! Run admission: at most `running + queued` programs are admitted at
//! once; past that a call is answered `Busy` at once instead of waiting.
//!
//! The bridge bounds how many of the admitted programs run at a time (its
//! interpreter semaphore, sized from the same `max_concurrent_runs`); the
//! rest wait there, so this bound is what keeps the queue finite.

use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The default `[server] max_concurrent_runs`.
pub const DEFAULT_MAX_CONCURRENT_RUNS: usize = 64;
/// The default `[server] max_queued_runs`.
pub const DEFAULT_MAX_QUEUED_RUNS: usize = 256;

/// Admits runs up to a fixed number in flight (running or waiting).
#[derive(Debug, Clone)]
pub(crate) struct Admission {
    slots: Arc<Semaphore>,
    capacity: usize,
    running: usize,
}

/// A run's place; dropping it frees the place.
pub(crate) type Slot = OwnedSemaphorePermit;

impl Admission {
    /// Room for `running` at once and `queued` more waiting.
    pub(crate) fn new(running: usize, queued: usize) -> Admission {
        let running = running.max(1);
        let capacity = running.saturating_add(queued).min(Semaphore::MAX_PERMITS);
        Admission {
            slots: Arc::new(Semaphore::new(capacity)),
            capacity,
            running,
        }
    }

    /// A place for one run, or `None` when every place is taken.
    pub(crate) fn try_admit(&self) -> Option<Slot> {
        Arc::clone(&self.slots).try_acquire_owned().ok()
    }

    /// How many runs hold a place now.
    pub(crate) fn in_flight(&self) -> usize {
        self.capacity - self.slots.available_permits()
    }

    /// How many admitted runs execute at once (the rest wait).
    pub(crate) fn running(&self) -> usize {
        self.running
    }

    /// The message of a `Busy` answer.
    pub(crate) fn busy_message(&self) -> String {
        format!(
            "the server is busy: every place for a program is taken ({} running at once, {} more waiting); try again shortly",
            self.running,
            self.capacity - self.running
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_queue_refuses_and_a_freed_place_admits_again() {
        let a = Admission::new(1, 1);
        let first = a.try_admit();
        let second = a.try_admit();
        assert!(first.is_some() && second.is_some());
        assert!(a.try_admit().is_none());
        assert_eq!(a.in_flight(), 2);
        drop(first);
        assert!(a.try_admit().is_some());
    }
}
