//! Differential test of ordering and numbers against CPython 3.11.
//!
//! `tests/it/difftest/gen_order.py` generates programs from a fixed seed
//! aimed at the fast paths of sorting (typed comparators for ints, floats,
//! strs, tuples and lists of numbers and strs; the general sort for NaN
//! keys, mixed types and errors; key=, reverse=, equal keys such as 1, 1.0
//! and True keeping their order), tuple and list comparison in place,
//! min/max/sum/any/all read in place, float arithmetic with ints at the
//! 2**53 and i64 edges, round with digits, and containment. Ours must give
//! the same repr or the same error. `python3` is required.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (five families).
const PER_FAMILY: usize = 300;

#[test]
fn ordering_and_number_programs_match_cpython() {
    assert_generated_cases_match("gen_order.py", 5, PER_FAMILY);
}
