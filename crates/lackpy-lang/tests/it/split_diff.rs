//! Differential test of str.split, rsplit and splitlines against CPython 3.11.
//!
//! `tests/it/difftest/gen_split.py` generates programs from a fixed seed:
//! split/rsplit with every kind of separator (one byte, several, overlapping,
//! non-ASCII, whitespace) and maxsplit on short texts and past the short-search
//! limit, beside replace, count, strip and find of the same text; separators at
//! the ends and in runs; splits of many repeated words, whose equal parts share
//! one string (they must stay equal dict keys and set members, and a changed
//! part must not change another); splitlines with every line break and
//! keepends; and the call consumed directly by a loop, a comprehension, an
//! unpacking or an index (the pieces made one at a time, no list), with bad
//! arguments, wrong counts, starred targets and loops that rebind the text or
//! nest. Ours must give the same repr, or the same error on the same line.
//! Every program must pass validation. `python3` is required: without it the
//! test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (twelve families).
const PER_FAMILY: usize = 400;

#[test]
fn split_programs_match_cpython() {
    assert_generated_cases_match("gen_split.py", 12, PER_FAMILY);
}
