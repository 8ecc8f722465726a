//! Differential test of unpacking assignment against CPython 3.11.
//!
//! `tests/it/difftest/gen_unpack.py` generates programs from a fixed seed: a
//! list unpacked into names (a list no one else holds gives up its items; a
//! shared one is copied), starred targets and wrong counts; unpacking of every
//! shape into names, items, slices and nested targets with every count and type
//! error. Ours must give the same repr, or the same error on the same line.
//! Every program must pass validation. `python3` is required: without it the
//! test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (two families).
const PER_FAMILY: usize = 400;

#[test]
fn unpacking_programs_match_cpython() {
    assert_generated_cases_match("gen_unpack.py", 2, PER_FAMILY);
}
