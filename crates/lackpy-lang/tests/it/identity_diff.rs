//! Differential test of identity and the value model against CPython 3.11.
//!
//! `tests/it/difftest/gen_identity.py` generates programs from a fixed seed
//! that compare NaN and infinite floats with `is` through every kind of
//! copy, use one NaN object against another in every container comparison
//! (CPython's identity shortcut), apply the set operators and comparisons
//! to dict key and item views, evaluate generic aliases, pass ints past
//! `ssize_t` to every index-taking method, name the builtin classes and
//! constants, nest `isinstance` class tuples past the recursion limit, and
//! compare ints and finite floats made every way (literals, folded
//! constants, arithmetic, conversions, copies) with `is`.
//! Ours must give the same repr, or the same error on the same line.
//! `python3` is required: without it the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (eight families).
const PER_FAMILY: usize = 200;

#[test]
fn identity_and_value_model_programs_match_cpython() {
    assert_generated_cases_match("gen_identity.py", 8, PER_FAMILY);
}
