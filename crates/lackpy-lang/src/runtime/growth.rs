//! The growth guard shared by every producer of output.
//!
//! Values share structure (a list may hold the same list twice, forty
//! levels deep), so what a value *writes* (its `repr`, its JSON, the owned
//! [`crate::Data`] a tool receives) can be exponentially larger than what it
//! *holds*. The memory budget and the clock are enforced where values are
//! built; [`Growth`] carries them to where values are written out: a writer
//! charges the units it produces (bytes of text, or the estimated bytes of
//! data it builds) and the guard fails with `MemoryError` before the total
//! passes the limit, and checks the run's clock and cancel flag every
//! [`POLL_EVERY`] units, so that a writer can neither outgrow the budget nor
//! outlast the deadline.
//!
//! The run's bounds (memory limit, deadline, cancel flag) are the ones the
//! interpreter installs per thread for a run ([`super::RunScope`],
//! shared with the builtins' meter), so that every writer reaches them
//! without each caller passing the budget down. Outside a run a guard is
//! unbounded.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::{memory, meter};
use crate::runtime::error::{Exc, ExceptionKind, R};

/// Units between two reads of the clock and the cancel flag.
const POLL_EVERY: usize = 64 * 1024;

/// Units a guard made by [`Growth::in_run`] lets pass before it first reads
/// the run's bounds: small texts (most of them) never read them.
const FIRST_CHECK: usize = 4096;

/// A bound on what one writer (or several, charged together) produces.
pub(crate) struct Growth {
    used: usize,
    limit: usize,
    /// The total at which the next slow check is due.
    next: usize,
    deadline: Option<Instant>,
    cancel: Option<Arc<AtomicBool>>,
    capped: bool,
    /// Units already held elsewhere (the text a writer appends to), taken
    /// off the memory left when the run's bounds are read.
    held: usize,
    /// Whether the run's bounds have been read.
    loaded: bool,
}

impl Growth {
    /// A guard for a writer inside the current run: it may produce what
    /// the run's memory has left, before the run's deadline. Unbounded
    /// outside a run. The bounds are read when the output first grows
    /// past a few kilobytes.
    #[inline]
    pub(crate) fn in_run() -> Growth {
        Growth {
            used: 0,
            limit: usize::MAX,
            next: FIRST_CHECK,
            deadline: None,
            cancel: None,
            capped: false,
            held: 0,
            loaded: false,
        }
    }

    /// A guard for appending to a text of `held` bytes, which the run
    /// holds too.
    #[inline]
    pub(crate) fn in_run_holding(held: usize) -> Growth {
        let mut g = Growth::in_run();
        g.held = held;
        g
    }

    /// A guard of `limit` units in all, read against the current run's
    /// clock and cancel flag (the run's result has a limit of its own).
    pub(crate) fn with_limit(limit: usize) -> Growth {
        let mut g = Growth::in_run();
        g.load_clock();
        g.limit = limit;
        g.schedule();
        g
    }

    fn load_clock(&mut self) {
        let (deadline, cancel) = meter::clock();
        self.deadline = deadline;
        self.cancel = cancel;
        self.loaded = true;
    }

    /// Reads the run's bounds (once).
    fn load(&mut self) {
        if self.loaded {
            return;
        }
        self.load_clock();
        let left = meter::max_memory()
            .saturating_sub(memory::used())
            .saturating_sub(self.held);
        self.limit = self.limit.min(left);
        self.schedule();
    }

    fn schedule(&mut self) {
        let poll = if self.deadline.is_some() || self.cancel.is_some() {
            self.used.saturating_add(POLL_EVERY)
        } else {
            usize::MAX
        };
        self.next = poll.min(self.limit.saturating_add(1));
    }

    /// Charges `n` units; fails once the total passes the limit, and every
    /// so often checks the clock and the cancel flag.
    #[inline]
    pub(crate) fn add(&mut self, n: usize) -> R<()> {
        self.used = self.used.saturating_add(n);
        if self.used >= self.next {
            self.slow()
        } else {
            Ok(())
        }
    }

    /// Fails unless `n` more units fit (charging nothing): the check a
    /// writer makes before one large piece, so that it never allocates it.
    #[inline]
    pub(crate) fn fits(&mut self, n: usize) -> R<()> {
        self.load();
        if self.used.saturating_add(n) > self.limit {
            self.capped = true;
            Err(Exc::memory())
        } else {
            Ok(())
        }
    }

    /// Whether `n` more units fit (charging nothing, failing nothing).
    #[inline]
    pub(crate) fn has_room(&mut self, n: usize) -> bool {
        self.load();
        self.used.saturating_add(n) <= self.limit
    }

    #[cold]
    fn slow(&mut self) -> R<()> {
        self.load();
        if self.used > self.limit {
            self.capped = true;
            return Err(Exc::memory());
        }
        if let Some(c) = &self.cancel
            && c.load(Ordering::Relaxed)
        {
            return Err(Exc::limit(ExceptionKind::Cancelled, "execution cancelled"));
        }
        if let Some(d) = self.deadline
            && Instant::now() >= d
        {
            return Err(Exc::limit(
                ExceptionKind::TimeoutError,
                "execution timed out",
            ));
        }
        self.schedule();
        Ok(())
    }

    /// Forgets what a writer that failed charged past `used` (its output
    /// was dropped), and that the limit stopped it.
    pub(crate) fn rewind(&mut self, used: usize) {
        self.used = used.min(self.used);
        self.capped = false;
        self.schedule();
    }

    /// Units charged so far.
    pub(crate) fn used(&self) -> usize {
        self.used
    }

    /// The limit in units.
    pub(crate) fn limit(&mut self) -> usize {
        self.load();
        self.limit
    }

    /// Whether the limit (not the clock) stopped a writer.
    pub(crate) fn capped(&self) -> bool {
        self.capped
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::{RunLimits, RunScope};
    use std::time::Duration;

    fn scope(max_memory: usize, deadline: Instant) -> RunScope {
        RunScope::enter(RunLimits {
            deadline,
            cancel: None,
            max_memory,
        })
    }

    #[test]
    fn the_limit_stops_growth_and_says_so() {
        let max = 100_000;
        let _scope = scope(max, Instant::now() + Duration::from_secs(60));
        let mut g = Growth::in_run();
        assert!(g.add(max - 100).is_ok());
        assert!(g.fits(100).is_ok());
        assert!(g.fits(101).is_err());
        assert!(g.capped());
        let mut g = Growth::in_run();
        assert!(g.add(max + 1).is_err());
        assert!(g.capped());
        // Text already held counts.
        let mut g = Growth::in_run_holding(max / 2);
        assert!(g.fits(max / 2).is_ok());
        assert!(g.add(max / 2 + 1).is_err());
    }

    #[test]
    fn the_clock_is_read_as_output_grows() {
        let _scope = scope(usize::MAX, Instant::now());
        let mut g = Growth::in_run();
        let e = g.add(POLL_EVERY).err().map(|e| e.kind);
        assert_eq!(e, Some(ExceptionKind::TimeoutError));
        assert!(!g.capped());
    }

    #[test]
    fn outside_a_run_nothing_is_bounded() {
        let mut g = Growth::in_run();
        assert!(g.add(usize::MAX / 2).is_ok());
        assert!(meter::ensure(usize::MAX / 2).is_ok());
    }
}
