//! The conformance corpus, as the repository carries it
//! (`tests/conformance/visible.jsonl` at the workspace root).

#![allow(dead_code)]

/// The corpus file's text; a missing corpus fails the test, never skips it.
pub fn corpus_text() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/conformance/visible.jsonl"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("corpus at {path}: {e}"));
    assert!(!text.trim().is_empty(), "corpus at {path} is empty");
    text
}

/// The corpus's non-blank lines, one case each.
pub fn corpus_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter(|l| !l.trim().is_empty())
}

/// Every case, parsed.
pub fn corpus() -> Vec<serde_json::Value> {
    corpus_lines(&corpus_text())
        .map(|l| serde_json::from_str(l).expect("corpus line is JSON"))
        .collect()
}

/// `tests/conformance/known_deviations.txt`: (id, reason) of each case we
/// fail on purpose.
pub fn known_deviations() -> Vec<(String, String)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/conformance/known_deviations.txt"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| match l.split_once('\t') {
            Some((id, why)) => (id.to_string(), why.to_string()),
            None => panic!("{path}: no tab in {l:?}"),
        })
        .collect()
}
