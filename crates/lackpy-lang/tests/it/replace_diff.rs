//! Differential test of str.replace against CPython 3.11.
//!
//! `tests/it/difftest/gen_replace.py` generates programs from a fixed seed:
//! every kind of old and new (one byte, several, overlapping, non-ASCII, empty)
//! with counts around the matches a replace keeps on the stack, on short and
//! long texts and on results empty, one character long and around the inline
//! length (its length computed from the match count), each compared, hashed and
//! looked up as a key next to the same text made another way; one-byte replaces
//! with non-ASCII text at every position. Ours must give the same repr, or the
//! same error. Every program must pass validation. `python3` is required:
//! without it the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (four families).
const PER_FAMILY: usize = 400;

#[test]
fn replace_programs_match_cpython() {
    assert_generated_cases_match("gen_replace.py", 4, PER_FAMILY);
}
