//! Differential test of str results built with a known length against
//! CPython 3.11.
//!
//! `tests/it/difftest/gen_str2.py` generates programs for stepped slices
//! (stack and heap gathering, huge steps), `replace` with multi-byte and
//! non-ASCII patterns and counts (the result's length computed from the
//! match count), `partition`/`rpartition` pieces (shared empty and
//! one-character results) and `splitlines` over every line break, and runs
//! each with CPython; ours must give the same repr or the same error.
//! `python3` is required: without it the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family.
const PER_FAMILY: usize = 400;

#[test]
fn str_known_length_results_match_cpython() {
    assert_generated_cases_match("gen_str2.py", 4, PER_FAMILY);
}
