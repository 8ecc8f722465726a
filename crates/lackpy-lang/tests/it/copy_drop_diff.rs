//! Differential test of copies and drops of containers against CPython 3.11.
//!
//! `tests/it/difftest/gen_copy_drop.py` generates programs from a fixed seed:
//! mixed lists copied by every copying form and strided slice (what is shared
//! shown by `is`); lists rebound or cleared while their items live on
//! elsewhere; small and long tuples of mixed items dropped (and chains of
//! nested tuples tens of thousands deep); long runs of plain values with one
//! owning item at a block edge dropped, copied, reversed and sliced. Ours must
//! give the same repr, or the same error on the same line. Every program must
//! pass validation. `python3` is required: without it the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (four families).
const PER_FAMILY: usize = 300;

#[test]
fn copy_and_drop_programs_match_cpython() {
    assert_generated_cases_match("gen_copy_drop.py", 4, PER_FAMILY);
}
