//! The count of bytes held by live program values.
//!
//! Every value that owns heap memory (strings, lists, tuples, dicts, sets,
//! big ints) charges an estimate of its size when it is made and credits
//! it back when it is dropped, so the count tracks the bytes the program
//! holds; the budget compares it with the run's limit at every check and
//! before large allocations. It is reset for each run and restored after
//! ([`super::RunScope`]).

use super::state::RUN;

/// Adds `n` bytes to the live-value count.
#[inline]
pub(crate) fn charge(n: usize) {
    RUN.with(|r| r.used.set(r.used.get().saturating_add(n)));
}

/// Removes `n` bytes from the live-value count.
#[inline]
pub(crate) fn credit(n: usize) {
    RUN.with(|r| r.used.set(r.used.get().saturating_sub(n)));
}

/// Bytes currently held by live program values on this thread.
#[inline]
pub(crate) fn used() -> usize {
    RUN.with(|r| r.used.get())
}
