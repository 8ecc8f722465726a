//! `lackpy validate` and `lackpy spec`, through the real binary.

use crate::common;

use common::lackpy;

#[test]
fn valid_program_json() {
    let out = lackpy(
        &[
            "validate",
            "-",
            "--json",
            "--tools",
            "read_file",
            "--params-json",
            r#"{"n": 2}"#,
        ],
        "text = read_file('a.txt')\nwords = text.split()\nlen(words) * n",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    insta::assert_snapshot!(out.stdout, @r#"{"valid":true,"errors":[],"diagnostics":[],"calls":["read_file","len"],"variables":["text","words"],"grade":{"w":1,"d":1},"needs_approval":[]}"#);
}

#[test]
fn invalid_program_human_output_and_exit_1() {
    let out = lackpy(
        &["validate", "-"],
        "import os\nwhile x:\n    y = open('f')\n",
    );
    assert_eq!(out.code, 1);
    insta::assert_snapshot!(out.stdout, @r"
    Forbidden AST node: Import at line 1
    Forbidden AST node: While at line 2
    Forbidden name: 'open' at line 3
    ");
}

#[test]
fn parse_error_json() {
    let out = lackpy(&["validate", "-", "--json"], "x = (1,\n");
    assert_eq!(out.code, 1);
    insta::assert_snapshot!(out.stdout, @r#"{"valid":false,"errors":["Parse error: '(' was never closed (line 1)"],"diagnostics":[{"message":"Parse error: '(' was never closed (line 1)","line":1,"column":null}],"calls":[],"variables":[],"grade":{"w":3,"d":3},"needs_approval":[]}"#);
}

#[test]
fn rules_apply_and_unknown_rule_is_a_usage_error() {
    let out = lackpy(
        &["validate", "-", "--rule", "no_loops"],
        "for i in range(3):\n    i\n",
    );
    assert_eq!(out.code, 1);
    assert_eq!(out.stdout, "For-loop forbidden (line 1)\n");
    let out = lackpy(&["validate", "-", "--rule", "no_such_rule"], "1");
    assert_eq!(out.code, 2);
    insta::assert_snapshot!(out.stderr, @"error: unknown rule 'no_such_rule': known rules are max_calls:N, max_depth:N, no_loops, no_nested_calls");
}

#[test]
fn bad_params_json_is_a_usage_error() {
    let out = lackpy(&["validate", "-", "--params-json", "[1]"], "1");
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stderr,
        "error: --params-json: params must be a JSON object: got [1]\n"
    );
}

#[test]
fn spec_json_and_markdown() {
    let out = lackpy(&["spec", "--json"], "");
    assert_eq!(out.code, 0);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
    assert!(
        v["forbidden_nodes"]
            .as_array()
            .is_some_and(|a| a.len() > 40)
    );
    let out = lackpy(&["spec"], "");
    assert!(out.stdout.starts_with("# lackpy language specification"));
    assert!(
        out.stdout
            .contains("- `sort_by(items: list[dict], key: str | int, reverse: bool = False)")
    );
    assert!(out.stdout.contains("## Limits"));
    let out = lackpy(&["spec", "--markdown"], "");
    assert!(out.stdout.contains("## Forbidden AST nodes"));
}

#[test]
fn calls_are_checked_against_the_tools_signatures() {
    let out = lackpy(
        &["validate", "-", "--json", "--tools", "read_file,find_files"],
        "files = find_files('*.md')\ntext = read_file(pth=files[0])\nread_file(3)\nfind_file('x')",
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
    insta::assert_json_snapshot!(v["errors"], @r#"
    [
      "Unknown function: 'find_file' at line 4 (not a tool of this namespace or a builtin). Did you mean 'find_files'?",
      "read_file() got an unexpected keyword argument 'pth'. Did you mean 'path'? (line 2)",
      "read_file() argument 'path' must be str, not int (line 3)"
    ]
    "#);
    // The same errors with where they are: the call's line and 1-based
    // column.
    let places: Vec<(serde_json::Value, serde_json::Value)> = v["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| (d["line"].clone(), d["column"].clone()))
        .collect();
    assert_eq!(
        places,
        [
            (4.into(), 1.into()),
            (2.into(), 8.into()),
            (3.into(), 1.into())
        ]
    );
    assert_eq!(v["diagnostics"][2]["message"], v["errors"][2]);
}

#[test]
fn a_refused_run_names_its_line() {
    let out = lackpy(&["run", "-", "--json"], "x = 1\ny = (2,\n");
    let v: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
    assert_eq!(v["error_type"], "ValidationError");
    assert_eq!(v["error_line"], 2);
    // A parse error's column is not CPython's offset: none is given.
    assert_eq!(v["error_column"], serde_json::Value::Null);
    let out = lackpy(
        &["run", "-", "--json", "--tools", "read_file"],
        "x = 1\nread_file()\n",
    );
    let v: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
    assert_eq!(
        v["error"],
        "Validation failed: read_file() missing 1 required positional argument: 'path' (line 2)"
    );
    assert_eq!(v["error_line"], 2);
    assert_eq!(v["error_column"], 1);
    let out = lackpy(
        &["run", "-", "--json", "--tools", "read_file"],
        "x = 1
if x:
    y = [open('f')]
",
    );
    let v: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
    assert_eq!(
        (&v["error_line"], &v["error_column"]),
        (&3.into(), &10.into())
    );
}
