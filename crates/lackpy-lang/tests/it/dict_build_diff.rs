//! Differential test of dicts built from iterables against CPython 3.11.
//!
//! `tests/it/difftest/gen_dict_build.py` generates programs from a fixed
//! seed: `dict(...)`, `dict.fromkeys` and `update` from pairs, zip,
//! enumerate, dict items, lists of tuples and lists, two-character strings
//! and keywords, at sizes around the table thresholds (the dict gets room
//! ahead of time), with equal, NaN and unhashable keys, repeated keys and
//! elements of the wrong length. Ours must give the same repr, or the same
//! error on the same line. Every program must pass validation. `python3`
//! is required: without it the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (two families).
const PER_FAMILY: usize = 400;

#[test]
fn dict_build_programs_match_cpython() {
    assert_generated_cases_match("gen_dict_build.py", 2, PER_FAMILY);
}
