//! Differential test of the per-character str methods against CPython 3.11.
//!
//! `tests/it/difftest/gen_str_chars.py` generates programs from a fixed seed:
//! the case methods on ASCII and non-ASCII text, short and long, their results
//! used as keys; the predicates (isdigit, isalpha, islower, ...) on ASCII text
//! with control characters and on non-ASCII digits, numerals and title-case
//! letters (the byte tests of ASCII text), with wrong arguments;
//! strip/lstrip/rstrip of whitespace (ASCII and not) and of ASCII and non-ASCII
//! character sets. Ours must give the same repr, or the same error on the same
//! line. Every program must pass validation. `python3` is required: without it
//! the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (four families).
const PER_FAMILY: usize = 400;

#[test]
fn str_char_methods_match_cpython() {
    assert_generated_cases_match("gen_str_chars.py", 4, PER_FAMILY);
}
