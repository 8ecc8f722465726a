//! The parse error texts for the common error kinds, message and line,
//! exactly as CPython 3.11's `ast.parse` gives them (asked through
//! `tests/it/difftest/cpython_walk.py` on every run; `python3` is required).
//! The differential parser test compares lines for thousands of programs;
//! this one holds the messages of these to CPython's word for word.

use crate::difftest;

use lackpy_lang::parse;
use serde_json::json;

const CASES: &[&str] = &[
    "x = = 1",
    "x = 1 +",
    "a b",
    "x = 1\n  y = 2",
    "for i in range(3):\ni",
    "if x:\npass",
    "while x:\n\n",
    "if x:\n  pass\nelse:\nfoo",
    "if x:\n  a\nelif y:\n",
    "def f():\n",
    "class A:\n",
    "with a:\n",
    "try:\n  x\nexcept:\n",
    "try:\n pass\nfinally:\n",
    "match x:\n case 1:\n",
    "s = 'abc",
    "s = '''abc\nde",
    "x = (1,\n2\n",
    "x = [1,\n2,\n3\ny = 2",
    "x = )",
    "x = (]",
    "x = (\n1]",
    "if x:\n  y\n z",
    "if True:\n\tx = 1\n        y = 2\n",
    "\u{20ac} = 1",
    "x\u{1}",
    "1_",
    "0777",
    "0b2",
    "0o8",
    "0x",
    "1 = x",
    "f() = 1",
    "(a, 1) = 2",
    "del f()",
    "for 1 in x: pass",
    "with a as 1: pass",
    "a, b += 1",
    "a, b: int",
    "if x\n  pass",
    "def f()\n  pass",
    "f(a b)",
    "[1 2]",
    "print 'hello'",
    "x = 1 if True",
    "f(a for a in b, c)",
    "f(a=1, b)",
    "def f(a=1, b): pass",
    "f'{'",
    "f'{}'",
    "f'{x!z}'",
    "f'}'",
    "f'{a b}'",
    "'a' b'c'",
    "b'\u{e9}'",
    "x = 1 \\ y",
    "x = (1 +\n",
    // Identifiers (some valid): XID_Start / XID_Continue decide which
    // character is refused, `str.isprintable()` how it is shown.
    "\u{378} = 1",
    "a\u{378} = 1",
    "\u{2118} = 1",
    "\u{212e}x = 1",
    "a\u{b7}b = 1",
    "x\u{300} = 1",
    "\u{300}x = 1",
    "\u{2160} = 1",
    "a\u{30fb} = 1",
    "\u{1f600} = 1",
    "a\u{a0}b = 1",
    "a\u{ad}b = 1",
    "\u{e000} = 1",
    "a\u{200b} = 1",
    "\u{ff3f} = 1",
    "\u{1d7ce} = 1",
    "x\u{1d7ce} = 1",
    "\u{2e2f} = 1",
    "\u{10ffff} = 1",
    // Found by the parser differential test's generated programs: CPython's
    // error rules parse the next expression with full backtracking (a call,
    // an operator or a conditional that fails leaves the shorter one).
    "f(x y(a=1, 'k'))",
    "v1 ( {1: 2}\nv1.update({})\n(sort_by=[1], 'k'))",
    "f(x\ny\n(a=1, 'k'))",
    "if (\nabc\n0 &\n): pass",
    "[x y +\n]",
    "[x y if\n]",
    // `invalid_kvpair`: whatever follows a key that parses.
    "{1: 2, x def}",
    "{(data): -print, **print,\nfn\ndef }",
    "{1: 2, x +\n}",
    // `invalid_comprehension`: a tuple left unparenthesized.
    "[1, 2 for a in y]",
    "{1, *_\nfor a, b in data & y:\n    print(1)}",
    "[1, for a in y]",
    // `match` followed by a colon and no block is not a match statement.
    "match[y]: int",
    "match(y): 1",
    "match (\ny\n):1\n    case y: pass",
];

#[test]
fn common_error_messages_are_cpythons() {
    let theirs = difftest::cpython("cpython_walk.py", &json!(CASES));
    let theirs = theirs.as_array().expect("a list");
    assert_eq!(theirs.len(), CASES.len());
    let mut diffs = Vec::new();
    for (src, want) in CASES.iter().zip(theirs) {
        let ours = match parse(src) {
            Ok(_) => json!("accepted"),
            Err(e) => json!({"error": e.line, "msg": e.message}),
        };
        let want = if want.get("walk").is_some() {
            json!("accepted")
        } else {
            json!({"error": want["error"], "msg": want["msg"]})
        };
        if ours != want {
            diffs.push(format!("{src:?}\n  CPython: {want}\n  ours:    {ours}"));
        }
    }
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
}
