//! Every conformance-corpus program parses exactly when CPython's verdict
//! says so, and parse errors come with CPython's line.

use lackpy_lang::parse;
use serde_json::Value;

use crate::corpus;

use corpus::corpus;

/// The line of a `Parse error: ... (line N)` message.
fn error_line(msg: &str) -> Option<u32> {
    let rest = msg.strip_suffix(')')?;
    let (_, n) = rest.rsplit_once("(line ")?;
    n.parse().ok()
}

#[test]
fn corpus_parse_verdicts_and_lines() {
    let cases = corpus();
    assert!(cases.len() >= 500, "corpus too small: {}", cases.len());
    let mut failures = Vec::new();
    let mut parse_errors = 0;
    for case in &cases {
        let id = case["id"].as_str().unwrap_or("?");
        let program = case["program"].as_str().expect("program");
        let errors = case["expected"]["validation"]["errors"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let expected = errors
            .iter()
            .filter_map(Value::as_str)
            .find(|e| e.starts_with("Parse error: "));
        match (parse(program), expected) {
            (Ok(_), None) => {}
            (Err(e), Some(want)) => {
                parse_errors += 1;
                if Some(e.line) != error_line(want) {
                    failures.push(format!("{id}: got `{e}`, want `{want}`"));
                }
            }
            (Ok(_), Some(want)) => failures.push(format!("{id}: parsed, want `{want}`")),
            (Err(e), None) => failures.push(format!("{id}: `{e}`, want a successful parse")),
        }
    }
    assert!(parse_errors > 0, "the corpus should contain parse errors");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
