//! Differential test of the str searches against CPython 3.11.
//!
//! `tests/it/difftest/gen_str_search.py` generates programs from a fixed seed:
//! find/rfind/index/rindex/count and `in` on short texts (a first-byte scan)
//! and long ones (a prebuilt searcher) with overlaps and bounds;
//! startswith/endswith with one affix or a tuple; count/find of one-byte and
//! longer needles with many matches; partition/rpartition edge cases and their
//! pieces (shared empty and one-character results). Ours must give the same
//! repr, or the same error. Every program must pass validation. `python3` is
//! required: without it the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (five families).
const PER_FAMILY: usize = 400;

#[test]
fn str_search_programs_match_cpython() {
    assert_generated_cases_match("gen_str_search.py", 5, PER_FAMILY);
}
