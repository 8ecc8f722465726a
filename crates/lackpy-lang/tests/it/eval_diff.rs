//! Differential test of the evaluator's numeric fast paths against
//! CPython 3.11.
//!
//! `tests/it/difftest/gen_eval.py` generates programs from a fixed seed
//! around what the resolver lowers to numeric trees (`a op b` and single
//! comparisons over names and number constants) and the number paths of
//! augmented assignment: every kind of value in each operand position, ints
//! at the i64 limits, bools as ints, NaN and infinities, big ints, division
//! and modulo by zero, big ints through chains of temporaries beside names
//! that alias them, big results from shared operands and unique
//! temporaries at the 2**63 and 2**64 edges. Ours must give the same repr, or the same error on
//! the same line. `python3` is required: without it the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (seven families).
const PER_FAMILY: usize = 300;

#[test]
fn eval_fast_paths_match_cpython() {
    assert_generated_cases_match("gen_eval.py", 7, PER_FAMILY);
}
