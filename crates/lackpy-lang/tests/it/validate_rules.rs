//! The validator's checks and named rules on small programs whose expected
//! answers were taken from the reference implementation.

use lackpy_lang::{Rule, validate};

fn errors(src: &str, names: &[&str], rules: &[&str]) -> Vec<String> {
    let rules: Vec<Rule> = rules
        .iter()
        .map(|r| r.parse().expect("known rule"))
        .collect();
    validate(src, names, &rules).errors
}

#[test]
fn max_depth_reports_each_too_deep_branch_once() {
    let src = "if a:\n  if b:\n    for x in y:\n      with c: z = 1\nelif d:\n  if e: z=1";
    assert_eq!(
        errors(src, &[], &["max_depth:1"]),
        [
            "Nesting depth 2 exceeds limit 1 (line 2)",
            "Nesting depth 2 exceeds limit 1 (line 5)"
        ]
    );
    assert_eq!(
        errors(src, &[], &["max_depth:2"]),
        [
            "Nesting depth 3 exceeds limit 2 (line 3)",
            "Nesting depth 3 exceeds limit 2 (line 6)"
        ]
    );
    assert_eq!(
        errors("for a in b:\n  x=1", &[], &["max_depth:0"]),
        ["Nesting depth 1 exceeds limit 0 (line 1)"]
    );
}

#[test]
fn no_nested_calls_is_breadth_first_and_names_keywords() {
    assert_eq!(
        errors(
            "x = [f(g(1)) for a in b]\ny = f(g(h(1)))",
            &["f", "g", "h"],
            &["no_nested_calls"]
        ),
        [
            "Nested call at line 2: assign inner call to a variable first",
            "Nested call at line 1: assign inner call to a variable first",
            "Nested call at line 2: assign inner call to a variable first",
        ]
    );
    assert_eq!(
        errors(
            "f(g(1), k=h(2), m=[h(3)])\nf(*g())\nf(**g())",
            &["f", "g", "h"],
            &["no_nested_calls"]
        ),
        [
            "Nested call at line 1: assign inner call to a variable first",
            "Nested call in keyword arg at line 1: assign inner call to a variable first",
            "Nested call in keyword arg at line 3: assign inner call to a variable first",
        ]
    );
}

#[test]
fn max_calls_counts_every_call() {
    assert_eq!(
        errors(
            "f(1); g(2); h(3); x.y(); [a() for a in b]",
            &["f", "g", "h", "a"],
            &["max_calls:2"]
        ),
        ["Too many calls: 5 exceeds limit 2"]
    );
    assert!(errors("f(1)", &["f"], &["max_calls:1"]).is_empty());
}

#[test]
fn no_loops_flags_statements_not_comprehensions() {
    assert_eq!(
        errors(
            "for a in b:\n  for c in d: x=1\n[x for x in y]",
            &[],
            &["no_loops"]
        ),
        ["For-loop forbidden (line 1)", "For-loop forbidden (line 2)"]
    );
}

#[test]
fn call_targets() {
    assert_eq!(
        errors("f()()\nx[0]()\n(lambda: 1)()", &["f"], &[]),
        [
            "Unsupported call target (Call) at line 1: only named functions and method calls are allowed",
            "Unsupported call target (Subscript) at line 2: only named functions and method calls are allowed",
            "Unsupported call target (Lambda) at line 3: only named functions and method calls are allowed",
            "Lambda at line 3 is only allowed as key= argument (e.g., key=lambda x: x['field'])",
        ]
    );
    let v = validate("type(x)\nprint(y)", &[] as &[&str], &[]);
    assert_eq!(v.errors, ["Forbidden name: 'type' at line 1"]);
    assert_eq!(v.calls, ["type", "print"]);
}

#[test]
fn variables_are_plain_assignment_names() {
    let v = validate(
        "[a, b] = 1, 2\n(c) = 3\nd.e = 4\nf[0] = 5\ng: int = 6\nh = i = 7",
        &[] as &[&str],
        &[],
    );
    assert!(v.valid);
    assert_eq!(v.variables, ["c", "h", "i"]);
}
