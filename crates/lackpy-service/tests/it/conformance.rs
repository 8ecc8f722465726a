//! The conformance bar: the real `lackpy` binary over the recorded
//! reference corpus, compared by the corpus's own checker (`check.py`, copied
//! into the repository with the corpus), so the comparison rules are exactly
//! the reference's. Every case must pass except those in
//! the known deviations (`tests/conformance/known_deviations.txt`), which must still fail.

use std::process::Command;

#[test]
fn conformance_corpus_passes_but_for_known_deviations() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/conformance");
    let out = Command::new("python3")
        .arg(format!("{root}/check.py"))
        .args(["--binary", env!("CARGO_BIN_EXE_lackpy")])
        .args(["--cases", &format!("{root}/visible.jsonl")])
        // Every failure is shown, so every failing id is known.
        .args(["--show", "1000000"])
        .output()
        .expect("python3 runs check.py (python3 is required for this test)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let line = stdout
        .lines()
        .find(|l| l.starts_with("conformance: "))
        .unwrap_or_else(|| panic!("check.py printed no summary:\n{stdout}\n{stderr}"));
    // "conformance: P/N passed (X%)"
    let counts = line
        .trim_start_matches("conformance: ")
        .split_whitespace()
        .next()
        .and_then(|pn| pn.split_once('/'))
        .and_then(|(p, n)| Some((p.parse::<usize>().ok()?, n.parse::<usize>().ok()?)));
    let Some((passed, total)) = counts else {
        panic!("unreadable summary line: {line}");
    };
    assert!(total >= 500, "the whole corpus ran: {line}");
    eprintln!("{stdout}");
    // check.py prints each failing case as "--- <id>" then its differences.
    let failed: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("--- "))
        .map(str::trim)
        .collect();
    assert_eq!(
        failed.len(),
        total - passed,
        "every failure is listed by id: {line}"
    );
    // One list for this test and lackpy-lang's interpreter corpus test.
    let list = std::fs::read_to_string(format!("{root}/known_deviations.txt"))
        .expect("tests/conformance/known_deviations.txt");
    let known: Vec<(&str, &str)> = list
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once('\t'))
        .collect();
    let unlisted: Vec<&str> = failed
        .iter()
        .copied()
        .filter(|id| !known.iter().any(|(k, _)| k == id))
        .collect();
    let stale: Vec<String> = known
        .iter()
        .filter(|(id, _)| !failed.contains(id))
        .map(|(id, why)| format!("{id} ({why})"))
        .collect();
    assert!(
        unlisted.is_empty(),
        "cases fail that are not known deviations: {unlisted:?} (their differences are above)"
    );
    assert!(
        stale.is_empty(),
        "known deviations that now pass (remove them from known_deviations.txt): {}",
        stale.join("; ")
    );
}
