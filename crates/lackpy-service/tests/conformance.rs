//! The conformance bar: the real `lackpy` binary over the recorded
//! reference corpus, compared by the corpus's own checker (`check.py`, copied
//! into the repository with the corpus), so the comparison rules are exactly
//! the reference's.

use std::process::Command;

const MIN_RATE: f64 = 0.97;

#[test]
fn conformance_corpus_passes_at_least_97_percent() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/conformance");
    let out = Command::new("python3")
        .arg(format!("{root}/check.py"))
        .args(["--binary", env!("CARGO_BIN_EXE_lackpy")])
        .args(["--cases", &format!("{root}/visible.jsonl")])
        .args(["--show", "40"])
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
        .and_then(|(p, n)| Some((p.parse::<f64>().ok()?, n.parse::<f64>().ok()?)));
    let Some((passed, total)) = counts else {
        panic!("unreadable summary line: {line}");
    };
    assert!(total >= 500.0, "the whole corpus ran: {line}");
    let rate = passed / total;
    eprintln!("{stdout}");
    assert!(
        rate >= MIN_RATE,
        "{line} is under {:.0}%\n{stdout}",
        MIN_RATE * 100.0
    );
}
