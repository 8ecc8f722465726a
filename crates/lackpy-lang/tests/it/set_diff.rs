//! Differential test of sets against CPython 3.11.
//!
//! `tests/it/difftest/gen_set.py` generates programs from a fixed seed that
//! apply every set operation (methods, `-` and `-=`, also
//! on aliases and on the set itself) to sets of sizes around the resize
//! thresholds holding equal keys of different types, ints at the i64 limits
//! and beyond, colliding hashes and NaN; churn sets with additions, removals
//! and pops (dummy slots left and reused); raise the set errors; and combine
//! sets with dict views; and build and empty sets of numbers key by key
//! (keys sharing a first slot, equal hashes) and combine them. Sets of numbers and tuples iterate in an order
//! CPython fixes, so the programs compare that order too. Ours must give the
//! same repr, or the same error on the same line. `python3` is required:
//! without it the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (seven families).
const PER_FAMILY: usize = 300;

#[test]
fn set_programs_match_cpython() {
    assert_generated_cases_match("gen_set.py", 7, PER_FAMILY);
}
