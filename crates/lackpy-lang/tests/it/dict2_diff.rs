//! Differential test of what consumes dicts and their views, against
//! CPython 3.11.
//!
//! `tests/it/difftest/gen_dict2.py` generates programs from a fixed seed
//! that hand dicts, keys, values and items views to every consumer (len,
//! list, tuple, set, sum with and without a start, sorted, min, max, any,
//! all, `in`, iteration, set operations and equality) over values that mix
//! ints, bools, floats (NaN, -0.0) and ints at the i64 limits; copy and
//! update between small and large dicts with holes and reinsertions; use
//! keys of every hashable kind (1, 1.0, True; 0, False, -0.0; equal strings
//! that are different objects); and mutate dicts while iterating them.
//! Ours must give the same repr, or the same error on the same line.
//! `python3` is required: without it the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (four families).
const PER_FAMILY: usize = 200;

#[test]
fn dict_consumer_programs_match_cpython() {
    assert_generated_cases_match("gen_dict2.py", 4, PER_FAMILY);
}
