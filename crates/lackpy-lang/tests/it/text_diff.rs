//! Differential test of the text fast paths against CPython 3.11.
//!
//! `tests/it/difftest/gen_text.py` generates programs per fast path (ASCII
//! and non-ASCII case mapping, one-pass split/replace/count, strip sets,
//! join with its known length, one-pass float repr and fixed formatting
//! over random bit patterns and edge cases, cached `%` templates with mixed
//! arguments, cached `str.format` templates and f-string specs,
//! str()/int()/float() conversions, str slicing and padding on ASCII and
//! non-ASCII text) and runs each with CPython;
//! ours must give the same repr or the same error. Every program must pass
//! validation. `python3` is required: without it the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family.
const PER_FAMILY: usize = 400;

#[test]
fn text_fast_paths_match_cpython() {
    assert_generated_cases_match("gen_text.py", 8, PER_FAMILY);
}
