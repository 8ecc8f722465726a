//! Differential test of dicts against CPython 3.11.
//!
//! `tests/it/difftest/gen_dict.py` generates programs from a fixed seed
//! that build dicts from displays (duplicate keys, equal keys of different
//! types, keys of every hashable kind, ints at the i64 limits, spreads),
//! call every dict method on small and large dicts, churn them (pops then
//! reinsertion at the end, copies of dicts with holes), read rows of small
//! dicts by constant and computed string keys, raise the dict errors
//! (including mutation during iteration), hand dicts, keys, values and
//! items views to every consumer (len, list, sum, sorted, min, max, any,
//! all, `in`, set operations and equality) over values that mix ints,
//! bools, floats and ints at the i64 limits, copy and update between small
//! and large dicts with holes, and copy dicts around the table thresholds
//! and grow them. Ours must give the same repr, or the same error on the
//! same line. `python3` is required: without it the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (eleven families).
const PER_FAMILY: usize = 200;

#[test]
fn dict_programs_match_cpython() {
    assert_generated_cases_match("gen_dict.py", 11, PER_FAMILY);
}
