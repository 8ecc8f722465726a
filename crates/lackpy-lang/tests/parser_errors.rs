//! Snapshots of the parse error texts for the common error kinds. Each
//! entry was checked against CPython 3.11's `ast.parse` (message and line).

use lackpy_lang::parse::parse;

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
];

#[test]
fn common_error_messages() {
    let mut out = String::new();
    for src in CASES {
        let text = match parse(src) {
            Ok(_) => "parsed".to_string(),
            Err(e) => e.to_string(),
        };
        out.push_str(&format!("{src:?}\n    {text}\n"));
    }
    insta::assert_snapshot!("common_errors", out);
}
