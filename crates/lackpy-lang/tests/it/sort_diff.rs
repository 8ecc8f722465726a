//! Differential test of sorting and key functions against CPython 3.11.
//!
//! `tests/it/difftest/gen_sort.py` generates programs from a fixed seed: key
//! functions called directly (`len`, `abs`, unbound `str` methods, `int`,
//! `str`, `float`) and lambdas on items whose keys tie, so the order of equal
//! keys shows; lists built in the program for the counting sort, the packed and
//! paired int words (the i64 edges), floats with zeros of both signs, bools
//! among ints and strings sharing long prefixes, with `reverse=`; sorts by
//! tuple keys led by ints (ties keep their order); min/max with `key=`,
//! `default=` and several arguments; and the errors (a key raising, a str
//! method or `len` on the wrong type, the list changed during `list.sort`).
//! Ours must give the same repr, or the same error on the same line. Every
//! program must pass validation. `python3` is required: without it the test
//! fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (five families).
const PER_FAMILY: usize = 300;

#[test]
fn sort_programs_match_cpython() {
    assert_generated_cases_match("gen_sort.py", 5, PER_FAMILY);
}
