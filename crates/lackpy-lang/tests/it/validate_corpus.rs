//! Every validation expectation of the conformance corpus, through the
//! library: validity, errors (parse errors: same line), calls, variables.

use lackpy_lang::validate_with;
use serde_json::Value;

use crate::corpus;

use corpus::corpus;

fn parse_line(e: &str) -> Option<&str> {
    let rest = e.strip_prefix("Parse error: ")?;
    let open = rest.rfind(" (line ")?;
    rest[open + 7..].strip_suffix(')')
}

fn same_errors(want: &[String], got: &[String]) -> bool {
    want.len() == got.len()
        && want
            .iter()
            .zip(got)
            .all(|(w, g)| match (parse_line(w), parse_line(g)) {
                (Some(a), Some(b)) => a == b,
                _ => w == g,
            })
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn corpus_validation_matches_the_reference() {
    let cases = corpus();
    assert!(cases.len() > 500, "the whole corpus is there");
    // Where lackpy-rs words a message differently on purpose (the binary
    // conformance test holds every listed case to failing).
    let known = corpus::known_deviations();
    let mut failures = Vec::new();
    for case in &cases {
        if known
            .iter()
            .any(|(id, _)| case["id"].as_str() == Some(id.as_str()))
        {
            continue;
        }
        let mut allowed = strings(&case["tools"]);
        if let Some(params) = case["params"].as_object() {
            allowed.extend(params.keys().cloned());
        }
        let program = case["program"].as_str().unwrap_or_default();
        let want = &case["expected"]["validation"];
        let got = validate_with(program, &allowed, &[], &[]);
        let mut diffs = Vec::new();
        if Some(got.valid) != want["valid"].as_bool() {
            diffs.push(format!("valid: want {} got {}", want["valid"], got.valid));
        }
        if !same_errors(&strings(&want["errors"]), &got.errors) {
            diffs.push(format!(
                "errors: want {} got {:?}",
                want["errors"], got.errors
            ));
        }
        if strings(&want["calls"]) != got.calls {
            diffs.push(format!("calls: want {} got {:?}", want["calls"], got.calls));
        }
        if strings(&want["variables"]) != got.variables {
            diffs.push(format!(
                "variables: want {} got {:?}",
                want["variables"], got.variables
            ));
        }
        if !diffs.is_empty() {
            failures.push(format!(
                "{}: {}\n    {}",
                case["id"],
                program,
                diffs.join("\n    ")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
