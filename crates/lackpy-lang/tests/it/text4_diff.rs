//! Differential test of the fourth round of fast paths against CPython 3.11.
//!
//! `tests/it/difftest/gen_text4.py` generates programs per fast path:
//! unpacking a list into names (a list no one else holds gives up its
//! items; a shared one is copied), starred targets and wrong counts; and
//! `dict(...)` / `update` from iterables of pairs (zip, enumerate, dict
//! items, lists of tuples and lists, two-character strings) with equal,
//! NaN and unhashable keys and elements of the wrong length. Each is run
//! with CPython; ours must give the same repr or the same error. Every
//! program must pass validation. `python3` is required: without it the
//! test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family.
const PER_FAMILY: usize = 400;

#[test]
fn text4_fast_paths_match_cpython() {
    assert_generated_cases_match("gen_text4.py", 2, PER_FAMILY);
}
