//! Differential test of padding, slicing and word counting against CPython 3.11.
//!
//! `tests/it/difftest/gen_rows.py` generates programs from a fixed seed:
//! `zfill`, `ljust`, `rjust` and `center` of ASCII and non-ASCII text and of
//! `str(int)` at the i64 edges, with widths below, at and above the length,
//! fill characters of one to four UTF-8 bytes and bad fill or width
//! arguments (error type, message and line); slices with every step sign
//! and bounds past either end of lists whose items change kind part way,
//! of tuples, strs and bytes, copied then mutated; and word counting with
//! other cleanup methods, dict counting, a tuple-key sort and formatted
//! rows. Ours must give the same repr, or the same error on the same line.
//! `python3` is required: without it the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (three families).
const PER_FAMILY: usize = 300;

#[test]
fn padding_slicing_and_word_counting_match_cpython() {
    assert_generated_cases_match("gen_rows.py", 3, PER_FAMILY);
}
