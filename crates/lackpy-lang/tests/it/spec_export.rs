//! The spec export: JSON and Markdown, snapshotted.

use lackpy_lang::spec;

#[test]
fn spec_json_snapshot() {
    insta::assert_json_snapshot!(spec().to_json());
}

#[test]
fn spec_markdown_snapshot() {
    insta::assert_snapshot!(spec().to_markdown());
}

#[test]
fn every_list_is_sorted_and_forbidden_nodes_complete() {
    let s = spec();
    for list in [
        &s.allowed_nodes,
        &s.forbidden_nodes,
        &s.forbidden_names,
        &s.allowed_builtins,
        &s.denied_attributes,
        &s.rules,
    ] {
        let mut sorted = list.clone();
        sorted.sort_unstable();
        assert_eq!(&sorted, list);
    }
    // Forbidden = every CPython node kind that is not allowed; none overlap.
    assert!(
        s.forbidden_nodes
            .iter()
            .all(|k| !s.allowed_nodes.contains(k))
    );
    assert_eq!(s.allowed_nodes.len() + s.forbidden_nodes.len(), 107);
    for k in [
        "Pass",
        "Break",
        "Continue",
        "Return",
        "GeneratorExp",
        "NamedExpr",
        "Pow",
        "alias",
        "match_case",
        "TryStar",
    ] {
        assert!(s.forbidden_nodes.contains(&k), "{k}");
    }
}

#[test]
fn spec_prose_snapshot() {
    insta::assert_snapshot!(spec().to_prose());
}
