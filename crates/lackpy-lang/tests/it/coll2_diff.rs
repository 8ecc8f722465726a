//! Differential test of container drops, plain-value runs and `zip` over
//! temporary iterators against CPython 3.11.
//!
//! `tests/it/difftest/gen_coll2.py` generates programs from a fixed seed that
//! drop small and long tuples of mixed items (and chains of nested tuples
//! tens of thousands deep) while their items live on elsewhere, drop, copy,
//! reverse and slice long runs of plain values with one owning item at a
//! block edge, and zip temporary iterators (`reversed`, `enumerate`, `zip`)
//! with lists that the loop mutates, strictly or not, or an iterator object
//! held by a name (and zipped with itself), and search lists and tuples of
//! mixed items with `in`, `index`, `count` and `remove`, and sort by tuple
//! keys led by ints (ties keep their order), and build and combine sets of
//! numbers key by key (in CPython's order). Ours must give the same repr, or
//! the same error on the same line. `python3` is required: without it the
//! test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (six families).
const PER_FAMILY: usize = 300;

#[test]
fn container_drop_and_zip_programs_match_cpython() {
    assert_generated_cases_match("gen_coll2.py", 6, PER_FAMILY);
}
