//! Differential test of slicing and slice assignment against CPython 3.11.
//!
//! `tests/it/difftest/gen_slice.py` generates programs from a fixed seed:
//! slices of lists, tuples, strs, bytes and ranges with every step sign and
//! bound (also at the i64 limits); slice assignment from every iterable kind,
//! with every step sign and bound and its length errors, and from a source that
//! aliases the target. Ours must give the same repr, or the same error. Every
//! program must pass validation. `python3` is required: without it the test
//! fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (four families).
const PER_FAMILY: usize = 250;

#[test]
fn slicing_programs_match_cpython() {
    assert_generated_cases_match("gen_slice.py", 4, PER_FAMILY);
}
