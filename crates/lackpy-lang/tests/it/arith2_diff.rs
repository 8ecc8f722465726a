//! Differential test of the exact int arithmetic against CPython 3.11.
//!
//! `tests/it/difftest/gen_arith2.py` generates programs from a fixed seed:
//! trees of `+ - * // %` over ints on both sides of the i64 and u64 edges,
//! big ints of either sign, bools and floats (NaN, infinities, -0.0);
//! loops that update a big int with small ones, the name shared and
//! rebound (a temporary is updated in place, a shared value never); floor
//! division and modulo of every sign and size with zero divisors; ints too
//! large for a float mixed with floats; augmented assignment on every
//! target kind. Ours must give the same repr, or the same error on the same
//! line. `python3` is required: without it the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (five families).
const PER_FAMILY: usize = 300;

#[test]
fn exact_int_arithmetic_matches_cpython() {
    assert_generated_cases_match("gen_arith2.py", 5, PER_FAMILY);
}
