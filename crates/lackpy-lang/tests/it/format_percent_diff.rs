//! Differential test of `%` formatting against CPython 3.11.
//!
//! `tests/it/difftest/gen_format_percent.py` generates programs from a fixed
//! seed: one conversion over mixed arguments (bools, ints at the i64 boundary,
//! big ints, non-ASCII text under a width; the cached template reused);
//! constant templates with a tuple of mixed operands (the template parsed once,
//! the tuple never built), every error with its line. Ours must give the same
//! repr, or the same error on the same line. Every program must pass
//! validation. `python3` is required: without it the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (two families).
const PER_FAMILY: usize = 400;

#[test]
fn percent_formatting_matches_cpython() {
    assert_generated_cases_match("gen_format_percent.py", 2, PER_FAMILY);
}
