//! Differential test of the fifth round of text fast paths against CPython
//! 3.11.
//!
//! `tests/it/difftest/gen_text5.py` generates programs per fast path:
//! split/rsplit with every kind of separator (one byte, several, overlapping,
//! non-ASCII) on short texts and past the short-search limit; splits of many
//! repeated words, whose equal parts share one string (they must stay equal
//! dict keys and set members, and a changed part must not change another);
//! splitlines with every line break and keepends; and strings made by every
//! road (split, slice, +, join, replace, partition, str(), f-string, strip)
//! compared, hashed and used as keys, with non-ASCII text at every position
//! around the inline length; and strip/lstrip/rstrip of whitespace (ASCII
//! and not) and of ASCII and non-ASCII sets; slices of every step; affix and
//! substring searches with and without bounds; float() of every text form;
//! the case methods.
//! Each is run with CPython; ours must give the
//! same repr or the same error. `python3` is required: without it the test
//! fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family.
const PER_FAMILY: usize = 300;

#[test]
fn text5_fast_paths_match_cpython() {
    assert_generated_cases_match("gen_text5.py", 9, PER_FAMILY);
}
