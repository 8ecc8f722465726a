//! Differential test of iterators drained, zipped and mutated against CPython 3.11.
//!
//! `tests/it/difftest/gen_iter.py` generates programs from a fixed seed: each
//! iterator kind drained at once (`list()`, `tuple()`, `sorted()`, ...) and
//! into every constructor, shared iterator objects, reversed lists changed
//! after the iterator was made, enumerate/zip/reversed of lists fresh or half
//! used, zip unpacked in loops (strict or of unequal lengths), zip over
//! temporary iterators and iterator objects held by a name with lists the loop
//! mutates, and lists, dicts and sets mutated while iterating them. Ours must
//! give the same repr, or the same error on the same line. Every program must
//! pass validation. `python3` is required: without it the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (eight families).
const PER_FAMILY: usize = 300;

#[test]
fn iterator_programs_match_cpython() {
    assert_generated_cases_match("gen_iter.py", 8, PER_FAMILY);
}
