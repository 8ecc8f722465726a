//! Differential test of loops, comprehensions and unpackings that consume a
//! split-family call directly (the pieces made one at a time, no list)
//! against CPython 3.11.
//!
//! `tests/it/difftest/gen_split2.py` generates programs over every form of
//! `split`, `rsplit` and `splitlines` (separators of one and several bytes,
//! whitespace, every maxsplit, keywords, keepends, non-ASCII text, empty
//! pieces), bad arguments and their lines, unpacking with matching and
//! mismatching counts and starred targets, a call indexed, and loops that rebind the text
//! or nest; ours must give the same repr or the same error
//! on the same line. `python3` is required: without it the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (six families).
const PER_FAMILY: usize = 400;

#[test]
fn split_consumers_match_cpython() {
    assert_generated_cases_match("gen_split2.py", 6, PER_FAMILY);
}
