//! Ranges beyond 64 bits, and the slices, searches and int conversions
//! reworked with them,
//! behave as in CPython 3.11: each expression runs in CPython (`python3`
//! is required) and here, and the reprs or errors must agree.

use std::io::Write;
use std::process::{Command, Stdio};

use lackpy_lang::{NoTools, RunOptions, run};

const B: &str = "1000000000000000000000000000000"; // 10**30
const MIN: &str = "9223372036854775808"; // 2**63

fn cases() -> Vec<String> {
    [
        "range(B)[::-1]",
        "list(range(B, B + 3))",
        "B - 1 in range(B)",
        "B in range(B)",
        "-1 in range(B)",
        "range(0, 10)[::-MIN]",
        "list(range(0, 10)[::-MIN])",
        "range(0, 10)[::MIN - 1]",
        "range(0, 10)[MIN:-MIN:-1]",
        "range(-MIN, MIN - 1)[::-1]",
        "len(range(B))",
        "len(range(-MIN, MIN - 1))",
        "len(range(B, B + 3))",
        "range(B)[5]",
        "range(B)[-1]",
        "range(B)[B]",
        "range(B)[-B - 1]",
        "range(B).index(B - 1)",
        "range(B).index(B)",
        "range(3, B, 7).count(10)",
        "range(3, B, 7).count(11)",
        "list(reversed(range(B, B + 3)))",
        "list(reversed(range(5, -MIN, -MIN)))",
        "list(reversed(range(-MIN, -MIN + 3)))",
        "range(B, B + 3) == range(B, B + 3)",
        "range(B, B + 1) == range(B, B + 5, 7)",
        "range(0) == range(B, 0)",
        "{range(0): 1}[range(B, 0)]",
        "{range(B, B + 1): 1}[range(B, B + 2, 9)]",
        "range(B)[B:]",
        "range(B)[-5:]",
        "range(B)[::B // 3]",
        "list(range(-B, B, B // 3))",
        "(range(B).start, range(B).stop, range(B).step)",
        "range(1, B, -B)",
        "[x for x in range(B, B + 2)]",
        "sum(range(B, B + 3))",
        "sorted(range(B, B + 3), reverse=True)",
        "list(enumerate(range(B, B + 2)))",
        "bool(range(B, B))",
        "bool(range(B))",
        "(2.0 in range(5), 2.5 in range(5), 4.0 in range(0, 10, 2))",
        "range(B).count(B - 1)",
        "range(-B, 0)[::-1][:3]",
        "min(range(B, B + 3))",
        "range(5)[1:4:2]",
        "range(10)[::-2]",
        "range(10)[MIN:]",
        "range(10)[-MIN::-1]",
    ]
    .iter()
    .map(|c| c.replace("MIN", MIN).replace('B', B))
    .collect()
}

const CPYTHON: &str = r#"
import json, sys
out = []
for src in json.load(sys.stdin):
    try:
        out.append(repr(eval(src)))
    except Exception as e:
        out.append(f"{type(e).__name__}: {e}")
print(json.dumps(out))
"#;

fn cpython(cases: &[String]) -> Vec<String> {
    let mut child = Command::new("python3")
        .args(["-c", CPYTHON])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 is required for this test");
    let input = serde_json::to_vec(cases).expect("cases as JSON");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(&input)
        .expect("cases written");
    let out = child.wait_with_output().expect("python3 ran");
    serde_json::from_slice(&out.stdout).expect("JSON from python3")
}

fn ours(src: &str) -> String {
    let module = lackpy_lang::parse(src).expect("case parses");
    let got = run(&module, &mut NoTools, &[], &RunOptions::default());
    match got.error {
        None => got.output_repr.unwrap_or_default(),
        Some(msg) => format!("{}: {msg}", got.error_type.unwrap_or_default()),
    }
}

#[test]
fn big_ranges_match_cpython() {
    let cases = cases();
    let want = cpython(&cases);
    assert_eq!(want.len(), cases.len(), "one answer per case from python3");
    let mut diffs = Vec::new();
    for (src, want) in cases.iter().zip(&want) {
        let got = ours(src);
        if &got != want {
            diffs.push(format!("{src}\n  cpython: {want}\n  ours:    {got}"));
        }
    }
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
}

#[test]
fn slices_and_searches_match_cpython() {
    let cases: Vec<String> = [
        r"'a\u03a3b\u03b3\u03b4e'[::-2]",
        r"'a\u03a3b\u03b3\u03b4e'[3::-1]",
        r"'a\u03a3b\u03b3\u03b4e'[1:5:2]",
        r"'a\u03a3b\u03b3\u03b4e'[::3]",
        r"'a\u03a3b\u03b3\u03b4e'[-2:0:-2]",
        r"'a\u03a3b\u03b3\u03b4e'[10:0:-1]",
        r"'a\u03a3b\u03b3\u03b4e'[::-9223372036854775808]",
        "[1, 2, 3, 2][::-2]",
        "[1, 2, 3, 2].index(2, 2)",
        "[1, 2, 3, 2].count(2)",
        "[1, [2], 3].index([2])",
        "[1, 2, 3].index(4)",
        "list(reversed(b'abc'))",
        "int('x' * 300)",
        r"int('\u00e9' * 300, 16)",
        "int('1' * 5000)",
        "int('1_' * 3000 + '1')",
        r"'ab\u03a3\u03a3 \u03a3x'.lower()",
        r"'ab\u03a3\u03a3 \u03a3x'.title()",
        r"'ab\u03a3\u03a3 \u03a3x'.swapcase()",
        r"'\u0390\u00df\ufb03'.upper()",
        r"'\u0390\u00df\ufb03'.casefold()",
        r"'a\tb\u03a3\tc'.expandtabs(4)",
        r"'\u03a3abc'.endswith(('x', 'c'))",
        r"'\u03a3abc'.startswith('\u03a3a', 0, 9)",
        r"'a\nb\r\nc'.splitlines(True)",
    ]
    .iter()
    .map(|c| c.to_string())
    .collect();
    let want = cpython(&cases);
    assert_eq!(want.len(), cases.len(), "one answer per case from python3");
    let mut diffs = Vec::new();
    for (src, want) in cases.iter().zip(&want) {
        let got = ours(src);
        if &got != want {
            diffs.push(format!("{src}\n  cpython: {want}\n  ours:    {got}"));
        }
    }
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
}
