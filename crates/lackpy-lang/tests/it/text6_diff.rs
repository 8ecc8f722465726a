//! Differential test of the sixth round of text fast paths against CPython
//! 3.11.
//!
//! `tests/it/difftest/gen_text6.py` generates programs per fast path:
//! `str.replace` with every kind of old and new (one byte, several,
//! overlapping, non-ASCII, empty), with counts around the matches a replace
//! keeps on the stack, on results empty, one character long and around the
//! inline length, each compared, hashed and looked up as a key next to the
//! same text made another way; one-byte replaces with non-ASCII text at
//! every position; strings built to a known length (concatenation, join,
//! padding, zfill, strided and reversed slices) around the inline length;
//! count/find of one-byte and longer needles. Each is run with CPython; ours
//! must give the same repr or the same error. `python3` is required:
//! without it the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family.
const PER_FAMILY: usize = 300;

#[test]
fn text6_fast_paths_match_cpython() {
    assert_generated_cases_match("gen_text6.py", 4, PER_FAMILY);
}
