//! Differential test of the str representation against CPython 3.11.
//!
//! A string keeps text up to 30 bytes inline with a one-byte length and
//! longer text on the heap followed by a trailer holding its code point
//! count; it caches no hash (text up to 24 bytes hashes word-wise).
//! `tests/it/difftest/gen_str_repr.py` generates programs over strings of
//! 0, 1, 23-32 and many bytes (ASCII, 2-, 3- and 4-byte characters placed
//! at the 24- and 30-byte edges, NUL bytes): indexing, slicing and len;
//! `+=` growth across the edges, shared and unshared; equal texts built
//! different ways (literal, concat, slice, join, format, split piece,
//! partition, replace, strip, str(), f-string) as dict keys and set
//! members, in small and indexed dicts, with non-ASCII text at every
//! position around the inline length; ordering;
//! find/count/replace/split on long non-ASCII text; errors with their
//! line; and every method that builds its result in place (case maps,
//! padding, replace, strip then case, join, formatting, slices) making
//! results of 23-32 bytes. Ours must give the same repr, or the same error
//! on the same line. `python3` is required: without it the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (eight families).
const PER_FAMILY: usize = 300;

#[test]
fn str_representation_matches_cpython() {
    assert_generated_cases_match("gen_str_repr.py", 8, PER_FAMILY);
}
