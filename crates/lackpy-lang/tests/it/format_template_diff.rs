//! Differential test of str.format templates and f-string specs against CPython 3.11.
//!
//! `tests/it/difftest/gen_format_template.py` generates programs from a fixed
//! seed: templates (auto and manual numbering, names, nested width fields,
//! stray braces) and specs over ints, bools, floats, text, None and lists, each
//! template reused with other arguments (the parsed template cached). Ours must
//! give the same repr, or the same error. Every program must pass validation.
//! `python3` is required: without it the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (one family).
const PER_FAMILY: usize = 400;

#[test]
fn format_templates_match_cpython() {
    assert_generated_cases_match("gen_format_template.py", 1, PER_FAMILY);
}
