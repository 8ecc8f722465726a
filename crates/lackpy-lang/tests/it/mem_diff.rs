//! Differential test of the memory-saving paths of sorts and list
//! concatenation against CPython 3.11.
//!
//! `tests/it/difftest/gen_mem.py` generates programs from a fixed seed:
//! `sorted()` of a list the program still holds (ordered where it lies,
//! the result built from the order) with no key or a key that runs no
//! Python code, `reverse=` in every spelling, on items whose keys tie but
//! whose reprs differ (`1`, `1.0`, `True`; `0.0`, `-0.0`), strings sharing
//! long prefixes, non-ASCII text and NUL, ints at the i64 edges, NaN in
//! tuples, mixed types that raise and lists holding themselves; and
//! `list + list` with temporaries on either side (extended in place) or
//! names used again, chains, a list added to itself, temporaries of a
//! megabyte and more (moved a quarter at a time), and the errors. Ours
//! must give the same repr or the same error. `python3` is required.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (four families).
const PER_FAMILY: usize = 250;

#[test]
fn sort_and_concat_memory_paths_match_cpython() {
    assert_generated_cases_match("gen_mem.py", 4, PER_FAMILY);
}
