//! Differential test of the loop fast paths against CPython 3.11.
//!
//! `tests/it/difftest/gen_loop.py` generates programs from a fixed seed for
//! what the interpreter binds or calls without the general machinery: loop
//! and comprehension targets bound part by part from `enumerate`, `zip`
//! and dict items (wrong lengths, nested and starred targets), mutation
//! during iteration, shared iterator objects, lambda key functions and the
//! container methods called per item. Ours must give the same repr or the
//! same error. `python3` is required: without it the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (five families).
const PER_FAMILY: usize = 200;

#[test]
fn loop_fast_paths_match_cpython() {
    assert_generated_cases_match("gen_loop.py", 5, PER_FAMILY);
}
