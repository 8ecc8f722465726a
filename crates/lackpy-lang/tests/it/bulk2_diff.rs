//! Differential test of bulk copies and drops of mixed lists against CPython 3.11.
//!
//! `tests/it/difftest/gen_bulk2.py` generates programs from a fixed seed that
//! copy mixed lists (ints at the i64 limits, bools, NaN and -0.0, strs, big
//! ints, nested containers) by every copying form and strided slice, assign
//! to slices whose source aliases the target, assign with every step sign
//! (and the length errors), and rebind or clear lists whose items live on
//! elsewhere, and drain enumerate, zip and reversed of lists. Ours must give the same repr or the same error. `python3` is
//! required: without it the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (five families).
const PER_FAMILY: usize = 250;

#[test]
fn bulk_copy_and_drop_programs_match_cpython() {
    assert_generated_cases_match("gen_bulk2.py", 5, PER_FAMILY);
}
