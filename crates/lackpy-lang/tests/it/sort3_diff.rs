//! Differential test of the sort's typed paths and key functions against
//! CPython 3.11.
//!
//! `tests/it/difftest/gen_sort3.py` generates programs from a fixed seed:
//! key functions called directly (`len`, `abs`, unbound `str` methods,
//! `int`, `str`, `float`) and lambdas on items whose keys tie, so the order
//! of equal keys shows; lists built in the program for the counting sort,
//! the packed and paired int words (the i64 edges), floats with zeros of
//! both signs, bools among ints and strings sharing long prefixes, with
//! `reverse=`; min/max with `key=`, `default=` and several arguments; and
//! the errors (a key raising, a str method or `len` on the wrong type, the
//! list changed during `list.sort`). Ours must give the same repr or the
//! same error. `python3` is required.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (four families).
const PER_FAMILY: usize = 250;

#[test]
fn sort_and_key_function_programs_match_cpython() {
    assert_generated_cases_match("gen_sort3.py", 4, PER_FAMILY);
}
