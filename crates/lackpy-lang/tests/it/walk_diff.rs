//! Differential test of the loops the evaluator walks in place, against
//! CPython 3.11.
//!
//! `tests/it/difftest/gen_walk.py` generates programs from a fixed seed that
//! loop over dicts, their views, `enumerate` of a list and `zip` of two lists (statements and
//! comprehensions, every target shape, equal keys of different types, NaN
//! and -0.0 keys, counts at the i64 limits, mutation and rebinding while
//! the loop runs), call lambdas per item, subscript names by constants and
//! names and call str methods on names. Ours must give the same repr,
//! or the same error on the same line. `python3` is required: without it
//! the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (seven families).
const PER_FAMILY: usize = 250;

#[test]
fn walked_loops_match_cpython() {
    assert_generated_cases_match("gen_walk.py", 7, PER_FAMILY);
}
