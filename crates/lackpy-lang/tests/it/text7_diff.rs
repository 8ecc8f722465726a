//! Differential test of the seventh round of text fast paths against
//! CPython 3.11.
//!
//! `tests/it/difftest/gen_text7.py` generates programs per fast path: int
//! format specs of every form on ints around the i64 boundary and bools
//! (the machine-word digits); `e`/`g` float specs at every precision (the
//! 128-bit significant digits); `%` with a constant template and a tuple
//! of mixed operands, errors and their lines included (the template parsed
//! once, the tuple never built); str indexing and slicing with every step
//! on ASCII and non-ASCII text; the str predicates on ASCII and non-ASCII
//! text (the byte tests of ASCII text). Each is run with CPython; ours must give the
//! same repr or the same error on the same line. `python3` is required:
//! without it the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family.
const PER_FAMILY: usize = 400;

#[test]
fn text7_fast_paths_match_cpython() {
    assert_generated_cases_match("gen_text7.py", 5, PER_FAMILY);
}
