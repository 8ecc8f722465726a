//! Differential test of arithmetic and comparison of numbers against CPython 3.11.
//!
//! `tests/it/difftest/gen_arith.py` generates programs from a fixed seed: `a op
//! b` and single comparisons over names and number constants (what the resolver
//! lowers to numeric trees) with every kind of value in each operand position:
//! ints at the i64 and u64 limits, big ints of either sign, bools, NaN and
//! infinities, division and modulo by zero; big ints through chains of
//! temporaries beside names that alias them; loops that update a big int with
//! small ones (a temporary is updated in place, a shared value never); ints too
//! large for a float mixed with floats; chains of mixed operators; and
//! augmented assignment on every target kind. Ours must give the same repr, or
//! the same error on the same line. Every program must pass validation.
//! `python3` is required: without it the test fails.

use crate::difftest::assert_generated_cases_match;

/// Programs per family (fourteen families).
const PER_FAMILY: usize = 300;

#[test]
fn arithmetic_programs_match_cpython() {
    assert_generated_cases_match("gen_arith.py", 14, PER_FAMILY);
}

/// Runs `src` with ours: the error type, message and line, or the repr.
fn outcome(src: &str) -> String {
    outcome_within(src, lackpy_lang::Limits::default().timeout)
}

/// [`outcome`] under a deadline of `timeout`.
fn outcome_within(src: &str, timeout: std::time::Duration) -> String {
    use lackpy_lang::{Limits, NoTools, RunOptions, run};
    let module = lackpy_lang::parse(src).expect("the program parses");
    let opts = RunOptions {
        limits: Limits {
            timeout,
            ..Limits::default()
        },
        ..RunOptions::default()
    };
    let got = run(&module, &mut NoTools, &[], &opts);
    match &got.error {
        None => got.output_repr.clone().unwrap_or_default(),
        Some(msg) => format!(
            "{}: {msg} (line {})",
            got.error_type.clone().unwrap_or_default(),
            got.error_line.unwrap_or(0)
        ),
    }
}

/// An int past the size limit (8 Mi bits; CPython has none, so this is not
/// differential) is a MemoryError on the line that makes it, whichever path
/// computes it: the numeric tree, the general operator, augmented
/// assignment updating a big int in place, or an accumulator; the name
/// keeps no half-updated value that a later line could see.
#[test]
fn huge_int_results_are_a_memory_error_on_every_path() {
    let cases = [
        ("x = 3\nfor i in range(40):\n    x = x * x\nx", 3),
        ("x = 3\nfor i in range(40):\n    x *= x\nx", 3),
        (
            "x = 3\ny = [0]\nfor i in range(40):\n    x = (x * x + 1) * 1\nx",
            4,
        ),
        ("x = 3\nfor i in range(40):\n    x = x * x + i // 1\nx", 3),
        ("x = 3\nfor i in range(40):\n    y = x\n    x *= y\nx", 4),
        ("x = 7\nfor i in range(40):\n    x = x * x - 1\nx", 3),
    ];
    for (src, line) in cases {
        // The last squaring below the limit takes seconds in a debug build;
        // on a loaded machine six of them pass the default 30 s deadline,
        // which is not what this test is about (a run stopped by its
        // deadline would end with TimeoutError and fail it all the same).
        let got = outcome_within(src, std::time::Duration::from_secs(600));
        assert!(
            got.starts_with("MemoryError") && got.ends_with(&format!("(line {line})")),
            "{src}\n  got {got}"
        );
    }
    // Below the limit the paths agree (3 ** 4096, small enough for the
    // variables to be shown in decimal).
    let near = "x = 3\nfor i in range(12):\n    x = x * x\ny = 3\nfor i in range(12):\n    y *= y\n[x == y, x % 1000003, y % 1000003]";
    let got = outcome(near);
    assert!(got.starts_with("[True, "), "{got}");
}
