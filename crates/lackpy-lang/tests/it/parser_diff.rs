//! Differential test of the parser against CPython 3.11's `ast` module.
//!
//! Every corpus program plus a few thousand generated ones (valid programs
//! covering the whole grammar, and mutated ones exercising error lines) go
//! to `tests/it/difftest/cpython_walk.py` in one `python3` run. For each
//! program CPython gives either the breadth-first `ast.walk` list of
//! `[kind, lineno]` or its parse error line; ours must be identical.
//! `python3` is required: without it the test fails.

use crate::progs;

use lackpy_lang::parse;
use lackpy_lang::{NodeRef, walk};
use serde_json::Value;

use crate::corpus;
use crate::difftest;

/// Every corpus program's text.
fn corpus_programs() -> Vec<String> {
    corpus::corpus()
        .iter()
        .map(|c| c["program"].as_str().expect("program").to_string())
        .collect()
}

/// Our answer in the same shape as the Python helper's.
fn ours(src: &str) -> Value {
    match parse(src) {
        Ok(m) => {
            let nodes: Vec<Value> = walk(NodeRef::Module(&m))
                .map(|n| serde_json::json!([n.kind(), n.line()]))
                .collect();
            serde_json::json!({ "walk": nodes })
        }
        Err(e) => serde_json::json!({ "error": e.line, "msg": e.message }),
    }
}

fn cpython(programs: &[String]) -> Vec<Value> {
    let out = difftest::cpython("cpython_walk.py", &serde_json::json!(programs));
    serde_json::from_value(out).expect("a list from cpython_walk.py")
}

#[derive(Default)]
struct Tally {
    compared: usize,
    accepted: usize,
    rejected: usize,
    verdict: Vec<String>,
    tree: Vec<String>,
    line: Vec<String>,
    message: usize,
}

fn compare(programs: &[String], tally: &mut Tally) {
    let theirs = cpython(programs);
    assert_eq!(theirs.len(), programs.len());
    for (src, want) in programs.iter().zip(&theirs) {
        let got = ours(src);
        tally.compared += 1;
        let show = || {
            format!(
                "{src:?}\n  cpython: {}\n  ours:    {}",
                short(want),
                short(&got)
            )
        };
        match (want.get("walk"), got.get("walk")) {
            (Some(w), Some(g)) => {
                tally.accepted += 1;
                if w != g {
                    tally.tree.push(show());
                }
            }
            (None, None) => {
                tally.rejected += 1;
                // A null line is CPython refusing outside the parser
                // (null bytes, recursion limits): only the verdict counts.
                if !want["error"].is_null() && want["error"] != got["error"] {
                    tally.line.push(show());
                } else if want["msg"] != got["msg"] {
                    tally.message += 1;
                    if std::env::var_os("DIFF_MESSAGES").is_some() {
                        eprintln!("MESSAGE: {}", show());
                    }
                }
            }
            _ => tally.verdict.push(show()),
        }
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 600 {
        format!(
            "{}…",
            &s[..s.char_indices().nth(600).map_or(s.len(), |c| c.0)]
        )
    } else {
        s
    }
}

#[test]
fn parser_matches_cpython() {
    let mut programs = corpus_programs();
    let n_corpus = programs.len();
    let seed = std::env::var("DIFF_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_1a2b);
    let count = std::env::var("DIFF_COUNT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6000);
    programs.extend(progs::programs(seed, count));
    let mut tally = Tally::default();
    compare(&programs, &mut tally);
    eprintln!(
        "differential: {} programs ({} corpus), {} accepted, {} rejected; \
         verdict mismatches {}, tree mismatches {}, line mismatches {}, message differences {}",
        tally.compared,
        n_corpus,
        tally.accepted,
        tally.rejected,
        tally.verdict.len(),
        tally.tree.len(),
        tally.line.len(),
        tally.message
    );
    let mut report = String::new();
    for (what, list) in [
        ("VERDICT", &tally.verdict),
        ("TREE", &tally.tree),
        ("LINE", &tally.line),
    ] {
        for m in list.iter().take(15) {
            report.push_str(&format!("{what}: {m}\n"));
        }
    }
    assert!(
        tally.verdict.is_empty() && tally.tree.is_empty() && tally.line.is_empty(),
        "{report}"
    );
}
