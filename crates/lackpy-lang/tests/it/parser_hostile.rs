//! Hostile input: the parser must always return (a tree or a clean
//! `ParseError`) on a 2 MiB stack, never panic or overflow.

use lackpy_lang::{ParseError, parse, parse_bytes};
use lackpy_test_support::rng::Rng;
use proptest::prelude::*;

/// Parses `src` on a fresh thread with a 2 MiB stack; panics (failing the
/// test) only if the parser panicked or overflowed.
fn run(src: Vec<u8>) -> Result<(), ParseError> {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || parse_bytes(&src).map(|_| ()))
        .expect("spawn")
        .join()
        .expect("the parser panicked")
}

fn run_str(src: String) -> Result<(), ParseError> {
    run(src.into_bytes())
}

#[test]
fn ten_thousand_nested_brackets() {
    for (open, close) in [("(", ")"), ("[", "]"), ("{", "}")] {
        let e = run_str(format!(
            "x = {}1{}",
            open.repeat(10_000),
            close.repeat(10_000)
        ))
        .expect_err("too deep");
        assert_eq!(e.message, "too many nested parentheses");
        assert_eq!(e.line, 1);
        assert!(run_str(open.repeat(10_000)).is_err());
        assert!(run_str(close.repeat(10_000)).is_err());
    }
    let mixed: String = "([{".repeat(4_000);
    assert!(run_str(mixed).is_err());
}

#[test]
fn nesting_at_the_limit_parses() {
    // CPython's tokenizer accepts 200 nested brackets; so do we.
    for (open, close) in [("(", ")"), ("[", "]"), ("{", "}"), ("f(", ")"), ("a[", "]")] {
        let src = format!("x = {}1{}", open.repeat(200), close.repeat(200));
        assert!(run_str(src).is_ok(), "{open}");
    }
    assert!(run_str(format!("x = {}1{}", "(".repeat(201), ")".repeat(201))).is_err());
    // Deep nesting inside deep blocks stays within the stack.
    let mut src = String::new();
    for i in 0..99 {
        src.push_str(&format!("{}if x:\n", " ".repeat(i)));
    }
    src.push_str(&format!(
        "{}y = {}1{}\n",
        " ".repeat(99),
        "f(".repeat(150),
        ")".repeat(150)
    ));
    let _ = run_str(src);
}

#[test]
fn long_unary_and_operator_chains() {
    assert!(run_str(format!("x = {}x", "-".repeat(1_000))).is_ok());
    assert!(run_str(format!("x = {}x", "not ".repeat(1_000))).is_ok());
    assert!(run_str(format!("x = {}x", "-".repeat(10_000))).is_err());
    assert!(run_str(format!("x = {}x", "not ".repeat(10_000))).is_err());
    assert!(run_str(format!("x = {}x", "~-+".repeat(10_000))).is_err());
    assert!(run_str(format!("x = 1{}", "+1".repeat(100_000))).is_err());
    assert!(run_str(format!("x = 1{}", "**1".repeat(100_000))).is_err());
    assert!(run_str(format!("x = a{}", ".b".repeat(100_000))).is_err());
    assert!(run_str(format!("x = f{}", "()".repeat(100_000))).is_err());
    assert!(run_str(format!("x = {}0", "a if b else ".repeat(10_000))).is_err());
    assert!(run_str(format!("x = {}0", "lambda: ".repeat(10_000))).is_err());
    // Wide is fine: siblings do not add up.
    let wide = format!("x = [{}]", "a.b.c + 1, ".repeat(20_000));
    assert!(run_str(wide).is_ok());
}

#[test]
fn deeply_nested_blocks() {
    let nest = |n: usize| {
        let mut s = String::new();
        for i in 0..n {
            s.push_str(&format!("{}if x:\n", " ".repeat(i)));
        }
        s.push_str(&format!("{}pass\n", " ".repeat(n)));
        s
    };
    assert!(run_str(nest(50)).is_ok());
    let e = run_str(nest(150)).expect_err("too deep");
    assert_eq!(e.message, "too many levels of indentation");
    let mut defs = String::new();
    for i in 0..5_000 {
        defs.push_str(&format!("{}def f():\n", "\t".repeat(i.min(300))));
    }
    assert!(run_str(defs).is_err());
}

#[test]
fn megabyte_lines() {
    let mb = 1 << 20;
    assert!(run_str(format!("x = '{}'", "a".repeat(mb))).is_ok());
    assert!(run_str(format!("x = {}", "a".repeat(mb))).is_ok());
    assert!(run_str(format!("# {}\nx = 1", "c".repeat(mb))).is_ok());
    assert!(run_str(format!("x = [{}]", "1, ".repeat(mb / 3))).is_ok());
    assert!(run_str(format!("x = f'{}'", "{x}".repeat(mb / 3))).is_ok());
    assert!(run_str(format!("x = {}", "1".repeat(mb))).is_err());
    assert!(run_str("(".repeat(mb)).is_err());
    assert!(run_str(" ".repeat(mb) + "x").is_err());
    assert!(run_str("\\\n".repeat(mb / 2)).is_err());
}

#[test]
fn nul_bytes_and_invalid_utf8() {
    let e = run(b"x = 1\0\n".to_vec()).expect_err("nul");
    assert_eq!(e.line, 1);
    assert!(run(b"\0".to_vec()).is_err());
    assert!(run(b"x = '\0'".to_vec()).is_err());
    let e = run(b"x = 1\ny = '\xff\xfe'\n".to_vec()).expect_err("utf-8");
    assert_eq!(e.line, 2);
    assert!(run(vec![0xC3]).is_err());
    assert!(run(vec![0xED, 0xA0, 0x80]).is_err());
    assert!(parse("x = 1").is_ok());
}

#[test]
fn unterminated_everything() {
    for src in [
        "'abc",
        "\"abc",
        "'''abc",
        "\"\"\"abc\n\n",
        "b'abc",
        "f'{x",
        "f'{x'",
        "f'{",
        "f'{'",
        "rf'''{x",
        "f'{x:{y'",
        "f'{x!'",
        "f'{x='",
        "(",
        "[1, 2",
        "{1: 2",
        "f(",
        "x = (\n1 +\n",
        "if x:",
        "def f(",
        "class A(",
        "lambda",
        "x = 1 +",
        "'\\",
        "\\",
        "x = \\",
        "@",
        "@d\n",
        "try:\n  pass\n",
        "match x:",
        "f'{x!r:{y!r:{z}}}'",
        "f'''{\n",
        "'\\N{",
        "'\\N{BULLET",
        "'\\x",
        "'\\u12",
        "b'\\x",
        "0x",
        "1e",
    ] {
        assert!(
            run_str(src.to_string()).is_err(),
            "{src:?} should not parse"
        );
    }
}

/// Byte soups from the seeded test RNG: `n` of them.
fn soup(seed: u64, n: usize) -> Vec<Vec<u8>> {
    let mut rng = Rng::new(seed);
    let mut next = move || rng.next();
    const PIECES: &[&[u8]] = &[
        b"(",
        b")",
        b"[",
        b"]",
        b"{",
        b"}",
        b"'",
        b"\"",
        b"'''",
        b"f'",
        b"{x",
        b"}",
        b"\\",
        b"\n",
        b"    ",
        b"\t",
        b"if",
        b"else",
        b"lambda",
        b":",
        b"=",
        b"*",
        b"**",
        b"not",
        b"x",
        b"1",
        b"0x",
        b"#",
        b";",
        b",",
        b".",
        b"@",
        b"\0",
        b"\xff",
        b"\xe2\x82",
        b"\r",
        b"\x0c",
        b"match",
        b"case",
    ];
    (0..n)
        .map(|_| {
            let len = (next() % 200) as usize;
            let mut v = Vec::new();
            for _ in 0..len {
                if next() % 3 == 0 {
                    v.push((next() % 256) as u8);
                } else {
                    v.extend_from_slice(PIECES[(next() % PIECES.len() as u64) as usize]);
                }
            }
            v
        })
        .collect()
}

#[test]
fn random_byte_soup() {
    let soups = soup(0x9e37_79b9_7f4a_7c15, 1000);
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            for s in soups {
                let _ = parse_bytes(&s);
            }
        })
        .expect("spawn")
        .join()
        .expect("the parser panicked on byte soup");
}

const TOKENS: &[&str] = &[
    "x", "y", "1", "2.5", "'s'", "f'{x}'", "b'b'", "(", ")", "[", "]", "{", "}", ",", ":", ";",
    ".", "=", "==", "+", "-", "*", "**", "/", "//", "%", "@", "|", "&", "^", "~", "<", ">", "<=",
    ">=", "!=", ":=", "->", "...", "if", "else", "elif", "for", "in", "while", "def", "class",
    "return", "lambda", "not", "and", "or", "is", "yield", "await", "async", "with", "as", "try",
    "except", "finally", "raise", "from", "import", "del", "pass", "global", "match", "case", "_",
    "\n", "\n    ", "\n\t", "\\\n", "#c\n",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Random token sequences never panic the parser.
    #[test]
    fn never_panics_on_token_soup(idx in proptest::collection::vec(0..TOKENS.len(), 0..120)) {
        let src: String = idx.iter().map(|&i| TOKENS[i]).collect::<Vec<_>>().join(" ");
        let _ = parse(&src);
    }

    /// Arbitrary strings never panic the parser either.
    #[test]
    fn never_panics_on_any_string(src in ".{0,200}") {
        let _ = parse(&src);
    }
}
