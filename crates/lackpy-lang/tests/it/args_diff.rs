//! Differential test of argument handling and conversion limits against
//! CPython 3.11.
//!
//! `tests/it/difftest/gen_args.py` generates programs per family: `print`
//! with every mix of `sep`/`end`/`file`/`flush` and unknown keywords (what
//! it printed is compared too); `int()` of strings around the 4300-digit
//! limit in every base and the str/repr/format of ints around it;
//! `%`-templates with `%` after flags, width, precision and keys; every
//! builtin and method with too many positional arguments, unknown or
//! repeated keywords, none at all, and `*` of a non-iterable; builtins
//! and methods called with keyword, default, `*` and `**` arguments (the
//! bindings and every argument error). Each is run with CPython; ours must
//! give the same repr or the same error on the same line.
//! `python3` is required: without it the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family.
const PER_FAMILY: usize = 400;

#[test]
fn argument_handling_matches_cpython() {
    assert_generated_cases_match("gen_args.py", 6, PER_FAMILY);
}
