//! `Validation::diagnostics`: one per error, in order, with the line the
//! message names and the 1-based column of the node it reports (CPython's
//! `col_offset` + 1; the parser's columns are held to CPython's by
//! `parser_diff`).

use lackpy_lang::{CallSignature, Diagnostic, ParamSig, Rule, Validation, validate, validate_with};

use crate::corpus;

/// The line a message names (`at line N`, `(line N`), as the service used to
/// read it from the text.
fn named_line(message: &str) -> Option<u32> {
    ["at line ", "(line "].iter().find_map(|marker| {
        let (_, rest) = message.split_once(marker)?;
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().ok()
    })
}

/// Diagnostics agree with `errors` and with the lines the messages name.
fn assert_consistent(v: &Validation, program: &str) {
    let messages: Vec<&str> = v.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(messages, v.errors, "{program:?}");
    for d in &v.diagnostics {
        let parse_error = d.message.starts_with("Parse error: ");
        // A parse error's message names `on line N` before its own line.
        let named = if parse_error {
            d.message
                .rsplit_once("(line ")
                .and_then(|(_, r)| r.trim_end_matches(')').parse().ok())
        } else {
            named_line(&d.message)
        };
        assert_eq!(d.line, named, "{program:?}: {d:?}");
        if parse_error {
            assert_eq!(d.column, None, "{program:?}: {d:?}");
        } else {
            assert_eq!(d.column.is_some(), d.line.is_some(), "{program:?}: {d:?}");
            assert_ne!(d.column, Some(0), "1-based: {program:?}: {d:?}");
        }
    }
}

fn at(message: &str, line: u32, column: u32) -> Diagnostic {
    Diagnostic {
        message: message.to_string(),
        line: Some(line),
        column: Some(column),
    }
}

#[test]
fn every_corpus_program_has_one_diagnostic_per_error() {
    let rules: Vec<Rule> = ["no_loops", "max_depth:1", "max_calls:2", "no_nested_calls"]
        .iter()
        .map(|r| r.parse().expect("known rule"))
        .collect();
    let mut errors = 0;
    for case in corpus::corpus() {
        let program = case["program"].as_str().unwrap_or_default();
        for rules in [&[][..], &rules[..]] {
            let v = validate_with(program, &["read_file"], rules, &[]);
            errors += v.errors.len();
            assert_consistent(&v, program);
        }
    }
    assert!(errors > 500, "the corpus has errors to check ({errors})");
}

#[test]
fn each_check_reports_its_node() {
    let v = validate(
        "x = 1\ny = (open)('f')\n  \nz = a._p + 2 ** 3\n",
        &[] as &[&str],
        &[],
    );
    assert_eq!(
        v.diagnostics,
        [
            at("Forbidden AST node: Pow at line 4", 4, 12),
            at("Forbidden name: 'open' at line 2", 2, 6),
            at(
                "Forbidden attribute access: '._p' at line 4 (private/dunder/internal attribute access is not permitted)",
                4,
                5
            ),
        ]
    );
    // A call starts at its callee, parentheses included; a lambda at
    // `lambda`; a string's `__` at the string (an f-string's parts at the
    // f-string); a `for` at `for`.
    let v = validate(
        "if a:\n    r = (nope)(1)\n    g = lambda: 0\n    s = 'x' + f'{a}__'\nfor i in [1]:\n    pass\n",
        &[] as &[&str],
        &[],
    );
    let places: Vec<(Option<u32>, Option<u32>)> =
        v.diagnostics.iter().map(|d| (d.line, d.column)).collect();
    assert_eq!(
        v.errors,
        [
            "Forbidden AST node: Pass at line 6",
            "Unknown function: 'nope' at line 2 (not a tool of this namespace or a builtin)",
            "For-loop at line 5 must iterate over a function call or variable",
            "Lambda at line 3 is only allowed as key= argument (e.g., key=lambda x: x['field'])",
            "String containing '__' at line 4: dunder access via string is forbidden",
        ]
    );
    assert_eq!(
        places,
        [
            (Some(6), Some(5)),
            (Some(2), Some(9)),
            (Some(5), Some(1)),
            (Some(3), Some(9)),
            (Some(4), Some(15)),
        ]
    );
}

#[test]
fn columns_count_utf8_bytes() {
    // `é` and `ü` are two bytes each: `open`, the tenth character, starts
    // at byte 11 of its line.
    let v = validate("é = 'ü'; open('f')\n", &[] as &[&str], &[]);
    assert_eq!(
        v.diagnostics,
        [at("Forbidden name: 'open' at line 1", 1, 12)]
    );
}

#[test]
fn rules_and_call_checks_report_the_call_or_statement() {
    let rules: Vec<Rule> = ["no_loops", "max_depth:0", "max_calls:0", "no_nested_calls"]
        .iter()
        .map(|r| r.parse().expect("known rule"))
        .collect();
    let sigs = [CallSignature::new(
        "read_file",
        vec![ParamSig::new("path", "str", true)],
    )];
    let v = validate_with(
        "  \nx = 1;  read_file(path=len([]))\nfor i in x: read_file(1)\n",
        &["read_file"],
        &rules,
        &sigs,
    );
    let by_message: Vec<(&str, Option<u32>, Option<u32>)> = v
        .diagnostics
        .iter()
        .map(|d| (d.message.as_str(), d.line, d.column))
        .collect();
    assert_eq!(
        by_message,
        [
            (
                "read_file() argument 'path' must be str, not int (line 3)",
                Some(3),
                Some(13)
            ),
            ("For-loop forbidden (line 3)", Some(3), Some(1)),
            ("Nesting depth 1 exceeds limit 0 (line 3)", Some(3), Some(1)),
            ("Too many calls: 3 exceeds limit 0", None, None),
            (
                "Nested call in keyword arg at line 2: assign inner call to a variable first",
                Some(2),
                Some(9)
            ),
        ]
    );
}

#[test]
fn a_parse_error_has_its_line_and_no_column() {
    let v = validate("x = 1\ny = (\n", &[] as &[&str], &[]);
    assert_eq!(
        v.diagnostics,
        [Diagnostic {
            message: "Parse error: '(' was never closed (line 2)".to_string(),
            line: Some(2),
            column: None,
        }]
    );
    assert_eq!(
        Validation::failed("not text").diagnostics,
        [Diagnostic::new("not text")]
    );
}
