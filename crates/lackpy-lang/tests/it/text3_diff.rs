//! Differential test of the third round of text fast paths against CPython
//! 3.11.
//!
//! `tests/it/difftest/gen_text3.py` generates programs per fast path: join
//! over mixed and non-str items, non-ASCII pieces and separators, results
//! around 24 bytes (the exact-length builder; its inline limit was 24 bytes
//! when this family was written, 30 since); substring
//! search on short texts (a first-byte scan) and long ones (a prebuilt
//! searcher) with overlaps and bounds; replace with counts; partition and
//! rpartition edge cases; split/rsplit/splitlines edge cases; concatenation
//! and padding. Each is run with CPython; ours must give the same repr or
//! the same error. Every program must pass validation. `python3` is
//! required: without it the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family.
const PER_FAMILY: usize = 400;

#[test]
fn text3_fast_paths_match_cpython() {
    assert_generated_cases_match("gen_text3.py", 6, PER_FAMILY);
}
