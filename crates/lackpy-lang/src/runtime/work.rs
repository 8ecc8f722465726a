//! Work charged before it runs: operations that cannot tick while they
//! run (one big-int multiplication or division is a single library call,
//! and can take seconds) state their estimated cost first.
//!
//! An estimate is in nominal nanoseconds (this machine, an optimised
//! build); the thread learns how real time compares ([`Scale`]) from every
//! operation long enough to time, so a slower machine or build corrects
//! its estimates after its first large operation. Small estimates add up
//! and read the clock once per [`CHECK_EVERY_NS`]; a large one reads it at
//! once, and when it would end past the run's deadline the run times out
//! before the operation starts, so a run ends close to its timeout
//! whatever it computes. Cancellation is read at the same points.
//!
//! An operation too long to wait for once started (a product or a division
//! of megabit ints) runs in pieces (`types::int::big_mul`, `big_div`) and
//! [`poll`]s between them, so a cancel or the deadline ends it within one
//! piece ([`PIECE_NS`]).

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::error::{Exc, ExceptionKind, R};
use super::meter;
use super::state::RUN;

/// Estimated nanoseconds between two reads of the clock.
const CHECK_EVERY_NS: u64 = 1_000_000;

/// Estimates from which an operation is timed to correct the scale (two
/// clock reads cost well under a percent of it).
const TIME_FROM_NS: u64 = 20_000;

/// Estimates from which the clock is read before the operation starts.
const CHECK_FROM_NS: u64 = 200_000;

/// Real nanoseconds that one uninterrupted piece of a split operation may
/// take: what a cancel waits for at most, beside the linear work around it.
pub(crate) const PIECE_NS: u64 = 4_000_000;

/// The kinds of operation whose estimates are corrected apart (one
/// algorithm each, so one factor between estimate and time each).
#[derive(Clone, Copy)]
pub(crate) enum Kind {
    /// A product.
    Mul = 0,
    /// A division or remainder.
    Div = 1,
    /// A linear pass (sum, difference, scalar operation, copy).
    Linear = 2,
}

fn scale(kind: Kind) -> u64 {
    RUN.with(|r| r.scale[kind as usize].get())
}

/// An operation about to run, timed when it is long enough to teach the
/// scale; finish it with [`Costly::done`].
#[must_use]
pub(crate) struct Costly {
    timed: Option<(Instant, u64, Kind)>,
}

impl Costly {
    /// Records how long the operation took against its estimate.
    pub(crate) fn done(self) {
        if let Some((start, est, kind)) = self.timed {
            let real = start.elapsed().as_nanos().min(u128::from(u64::MAX)) as u64;
            // Real per estimated, averaged with what was known: one odd
            // measurement (a page fault, a preempted thread) moves it half.
            let seen = real.saturating_mul(1024) / est.max(1);
            let seen = seen.clamp(16, 1 << 20);
            RUN.with(|r| {
                let s = &r.scale[kind as usize];
                s.set((s.get() + seen) / 2);
            });
        }
    }
}

/// An estimate in real nanoseconds, as this thread has learned them.
pub(crate) fn real_ns(kind: Kind, est_ns: u64) -> u64 {
    est_ns.saturating_mul(scale(kind)) / 1024
}

/// Whether an operation of `est_ns` nominal nanoseconds runs whole (it
/// fits in one piece) rather than split with [`poll`]s between pieces.
pub(crate) fn whole(kind: Kind, est_ns: u64) -> bool {
    real_ns(kind, est_ns) <= PIECE_NS
}

/// Between two pieces of a split operation: `Cancelled` once the run's
/// cancel flag is set, `TimeoutError` once its deadline has passed.
pub(crate) fn poll() -> R<()> {
    let (deadline, cancel) = meter::clock();
    if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
        return Err(stopped(ExceptionKind::Cancelled));
    }
    if deadline.is_some_and(|d| Instant::now() >= d) {
        return Err(stopped(ExceptionKind::TimeoutError));
    }
    Ok(())
}

/// The error that ends a cancelled (`Cancelled`) or timed-out (any other
/// kind) run, as [`poll`] raises it.
pub(crate) fn stopped(kind: ExceptionKind) -> Box<Exc> {
    match kind {
        ExceptionKind::Cancelled => Exc::limit(kind, "execution cancelled"),
        _ => Exc::limit(ExceptionKind::TimeoutError, "execution timed out"),
    }
}

/// Charges an operation of `est_ns` nominal nanoseconds before it runs:
/// TimeoutError (or Cancelled) when the run's limits say it must not.
pub(crate) fn charge(kind: Kind, est_ns: u64) -> R<Costly> {
    let scaled = est_ns.saturating_mul(scale(kind)) / 1024;
    let timed = (est_ns >= TIME_FROM_NS).then(|| (Instant::now(), est_ns, kind));
    let pending = RUN.with(|r| r.pending_ns.get()).saturating_add(scaled);
    if pending < CHECK_EVERY_NS && scaled < CHECK_FROM_NS {
        RUN.with(|r| r.pending_ns.set(pending));
        return Ok(Costly { timed });
    }
    RUN.with(|r| r.pending_ns.set(0));
    let (deadline, cancel) = meter::clock();
    if let Some(c) = cancel
        && c.load(Ordering::Relaxed)
    {
        return Err(Exc::limit(ExceptionKind::Cancelled, "execution cancelled"));
    }
    let now = Instant::now();
    if let Some(d) = deadline
        && now + Duration::from_nanos(scaled) >= d
    {
        return Err(Exc::limit(
            ExceptionKind::TimeoutError,
            "execution timed out",
        ));
    }
    Ok(Costly {
        timed: timed.map(|(_, est, kind)| (now, est, kind)),
    })
}

/// Whether an operation of `est_ns` may start now (no side effect): for
/// callers that must not fail once they have begun, and take another path
/// (which charges) when it may not.
pub(crate) fn affordable(kind: Kind, est_ns: u64) -> bool {
    let scaled = est_ns.saturating_mul(scale(kind)) / 1024;
    if scaled < CHECK_FROM_NS {
        return true;
    }
    let (deadline, cancel) = meter::clock();
    if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
        return false;
    }
    deadline.is_none_or(|d| Instant::now() + Duration::from_nanos(scaled) < d)
}

/// Sets what this thread has learned of real time per estimated
/// nanosecond (tests: a slower machine, or pieces made small).
#[cfg(test)]
pub(crate) fn set_scale(kind: Kind, per_1024: u64) {
    RUN.with(|r| r.scale[kind as usize].set(per_1024));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::{RunLimits, RunScope};

    #[test]
    fn an_operation_past_the_deadline_fails_before_it_runs() {
        let _scope = RunScope::enter(RunLimits {
            deadline: Instant::now() + Duration::from_millis(100),
            cancel: None,
            max_memory: usize::MAX,
        });
        // Ten seconds of estimated work with a tenth of a second left.
        let e = charge(Kind::Mul, 10_000_000_000).err().map(|e| e.kind);
        assert_eq!(e, Some(ExceptionKind::TimeoutError));
        // A short one runs.
        assert!(charge(Kind::Mul, 1_000).is_ok());
    }

    #[test]
    fn cancellation_is_read_before_a_large_operation() {
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let _scope = RunScope::enter(RunLimits {
            deadline: Instant::now() + Duration::from_secs(100),
            cancel: Some(flag),
            max_memory: usize::MAX,
        });
        let e = charge(Kind::Div, CHECK_FROM_NS * 4).err().map(|e| e.kind);
        assert_eq!(e, Some(ExceptionKind::Cancelled));
    }
}
