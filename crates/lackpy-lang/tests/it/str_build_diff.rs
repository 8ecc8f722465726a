//! Differential test of str results built to a known length against CPython 3.11.
//!
//! `tests/it/difftest/gen_str_build.py` generates programs from a fixed seed:
//! join over lists, tuples, iterators and mixed or non-str items (the TypeError
//! names the first bad one) with non-ASCII pieces and separators;
//! concatenation, repetition and padding (center, ljust, rjust, zfill) around
//! the inline length, used as keys next to the same text made another way; and
//! chains of `+` over every kind of operand (strings collected and joined once,
//! then the rest added one by one), with operands that raise after a type
//! error, chains over several lines and chains that grow a name. Ours must give
//! the same repr, or the same error on the same line. Every program must pass
//! validation. `python3` is required: without it the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (five families).
const PER_FAMILY: usize = 400;

#[test]
fn str_build_programs_match_cpython() {
    assert_generated_cases_match("gen_str_build.py", 5, PER_FAMILY);
}
