//! A guard on the native stack used by recursive evaluation.
//!
//! Nesting limits count levels, but how much stack a level takes depends on
//! the build (debug frames are many times larger) and the host's thread may
//! have as little as 2 MiB. Recursive code also asks [`exhausted`], which
//! compares the address of a local with the one recorded when the run began:
//! past [`BUDGET`] bytes the caller raises RecursionError instead of
//! overflowing. (Stacks grow downwards on every platform Rust targets here;
//! were one to grow upwards the guard would never fire and the level limits
//! would still apply.)

use super::state::RUN;

/// Stack a run may use below its entry point.
const BUDGET: usize = 1 << 20;

#[inline(always)]
pub(super) fn here() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

/// Whether this thread has used up the run's stack budget.
#[inline]
pub(crate) fn exhausted() -> bool {
    let base = RUN.with(|r| r.stack_base.get());
    base != 0 && base.saturating_sub(here()) > BUDGET
}
