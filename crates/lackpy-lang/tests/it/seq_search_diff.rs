//! Differential test of searches of lists and tuples against CPython 3.11.
//!
//! `tests/it/difftest/gen_seq_search.py` generates programs from a fixed seed:
//! `in`, `index`, `count` and `remove` on lists and tuples of mixed items
//! (bools and floats equal to ints, NaN, -0.0, ints at the i64 limits, big
//! ints, strs, nested sequences) with every bound form and the not-found
//! errors. Ours must give the same repr, or the same error on the same line.
//! Every program must pass validation. `python3` is required: without it the
//! test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (one family).
const PER_FAMILY: usize = 300;

#[test]
fn sequence_search_programs_match_cpython() {
    assert_generated_cases_match("gen_seq_search.py", 1, PER_FAMILY);
}
