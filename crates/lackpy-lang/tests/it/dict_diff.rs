//! Differential test of dicts against CPython 3.11.
//!
//! `tests/it/difftest/gen_dicts.py` generates programs from a fixed seed
//! that build dicts from displays (duplicate keys, equal keys of different
//! types, keys of every hashable kind, ints at the i64 limits, spreads),
//! from `dict(...)` (pairs, zip, enumerate, keywords; repeated keys and
//! wrong elements after the dict got room ahead of time), call every dict
//! method on small and large dicts, churn them (pops then reinsertion at
//! the end, copies of dicts with holes), read rows of small dicts by
//! constant and computed string keys, and raise the dict errors (including
//! mutation during iteration). Ours must give the same repr, or the same
//! error on the same line. `python3` is required: without it the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (six families).
const PER_FAMILY: usize = 150;

#[test]
fn dict_programs_match_cpython() {
    assert_generated_cases_match("gen_dicts.py", 6, PER_FAMILY);
}
