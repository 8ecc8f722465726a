//! Differential test of the conversions between text and numbers against CPython 3.11.
//!
//! `tests/it/difftest/gen_conversion.py` generates programs from a fixed seed:
//! str(), int() and float() of ints at and past the i64 edges, bools, floats
//! and text of every form (signs, spaces, underscores, non-ASCII digits,
//! control characters, exponents, inf and nan, malformed text). Ours must give
//! the same repr, or the same error. Every program must pass validation.
//! `python3` is required: without it the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (two families).
const PER_FAMILY: usize = 400;

#[test]
fn conversion_programs_match_cpython() {
    assert_generated_cases_match("gen_conversion.py", 2, PER_FAMILY);
}
