//! Differential test of the bulk container paths against CPython 3.11.
//!
//! `tests/it/difftest/gen_bulk.py` generates programs from a fixed seed that
//! drain each iterator kind at once (`list()`, `tuple()`, `sorted()`, ...),
//! slice lists, tuples, strs and bytes with every step sign and bound
//! (also at the i64 limits), assign to slices, build lists, tuples, sets and
//! dicts from every iterator kind, unpack `zip` (strict or of unequal
//! lengths) in loops and comprehensions, use dict views and set operations,
//! mutate containers while iterating them, and copy dicts around the table
//! thresholds and grow them. Ours must give the same repr
//! or the same error. `python3` is required: without it the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (ten families).
const PER_FAMILY: usize = 200;

#[test]
fn bulk_container_programs_match_cpython() {
    assert_generated_cases_match("gen_bulk.py", 10, PER_FAMILY);
}
