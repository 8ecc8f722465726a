//! Differential test of the evaluator's statement and chain paths against
//! CPython 3.11.
//!
//! `tests/it/difftest/gen_eval2.py` generates programs from a fixed seed:
//! chains of `+` over every kind of operand (strings collected and joined
//! once, then the rest added one by one), with operands that raise after a
//! type error, chains over several lines, long and non-ASCII chains;
//! unpacking of every shape into every target kind with every count error;
//! augmented assignment on every target kind; lambda calls with keyword,
//! default, `*` and `**` arguments; bools, ints at the i64 and 2**64 edges
//! and floats mixed. Ours must give the same repr, or the same error on the
//! same line. `python3` is required: without it the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (five families).
const PER_FAMILY: usize = 300;

#[test]
fn eval_statement_and_chain_paths_match_cpython() {
    assert_generated_cases_match("gen_eval2.py", 5, PER_FAMILY);
}
