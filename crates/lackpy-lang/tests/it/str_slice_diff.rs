//! Differential test of str indexing and slicing against CPython 3.11.
//!
//! `tests/it/difftest/gen_str_slice.py` generates programs from a fixed seed:
//! slices of every step and bound (stack and heap gathering, huge steps) of
//! ASCII and non-ASCII text around the inline length, compared, hashed and used
//! as keys; indexing and slicing by constants, names and expressions,
//! IndexError included; slices beside padding and partition of the same text.
//! Ours must give the same repr, or the same error on the same line. Every
//! program must pass validation. `python3` is required: without it the test
//! fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (four families).
const PER_FAMILY: usize = 400;

#[test]
fn str_slice_programs_match_cpython() {
    assert_generated_cases_match("gen_str_slice.py", 4, PER_FAMILY);
}
