//! Differential test of int format specs against CPython 3.11.
//!
//! `tests/it/difftest/gen_format_int.py` generates programs from a fixed seed:
//! specs of every form (fill, alignment, sign, `#`, `0`, width, grouping, every
//! type code, precision and `z` errors) on ints around the i64 boundary (the
//! machine-word digits), bools and negatives, through f-strings and str.format.
//! Ours must give the same repr, or the same error on the same line. Every
//! program must pass validation. `python3` is required: without it the test
//! fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (one family).
const PER_FAMILY: usize = 400;

#[test]
fn int_format_specs_match_cpython() {
    assert_generated_cases_match("gen_format_int.py", 1, PER_FAMILY);
}
