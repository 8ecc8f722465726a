//! Differential test of text encodings against CPython 3.11.
//!
//! `tests/it/difftest/gen_codecs.py` generates programs per family:
//! `str.encode` with every supported codec under its aliases, every error
//! handler and the unknown ones; `bytes.decode` and `str(bytes, ...)` of
//! valid and broken byte strings; round trips; the common bytes methods on
//! tool-like output; `str.translate`, `str.maketrans`, `str.format_map`.
//! Each is run with CPython; ours must give the same repr or the same
//! error. `python3` is required: without it the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family.
const PER_FAMILY: usize = 400;

#[test]
fn codecs_match_cpython() {
    assert_generated_cases_match("gen_codecs.py", 8, PER_FAMILY);
}
