//! Differential test of float repr and float formatting against CPython 3.11.
//!
//! `tests/it/difftest/gen_format_float.py` generates programs from a fixed
//! seed: repr and fixed-precision formatting through str, f-strings, `%` and
//! str.format over random bit patterns and edge cases (the one-pass repr and
//! fixed digits); `e`/`g`/`%`/no-type specs at every precision up to past 19
//! digits (the 128-bit significant digits) with every fill, alignment, sign,
//! width, grouping and `z`. Ours must give the same repr, or the same error on
//! the same line. Every program must pass validation. `python3` is required:
//! without it the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (two families).
const PER_FAMILY: usize = 400;

#[test]
fn float_formatting_matches_cpython() {
    assert_generated_cases_match("gen_format_float.py", 2, PER_FAMILY);
}
