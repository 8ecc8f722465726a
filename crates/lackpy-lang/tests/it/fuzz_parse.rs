//! Fuzz target: the parser on hostile input.
//!
//! Four families of input, each from a fixed seed: raw bytes, grammar-shaped
//! token soups (brackets, indentation, strings, f-strings, keywords),
//! generated programs (`programs`: runnable ones with refused statements,
//! or ones over the whole grammar) mutated at the byte level, and nesting
//! near the depth limits. The parser must return a tree or a clean
//! `ParseError` (prefix, line within the source) on a 2 MiB stack, within
//! a bounded wall time, never panic or overflow; a tree must then survive
//! validation.
//!
//! CI runs a fixed number of cases. For a longer run:
//! `LACKPY_FUZZ_CASES=100000 cargo test -p lackpy-lang --test it fuzz_parse::`
//! (`LACKPY_FUZZ_SEED=N` for other cases, `LACKPY_FUZZ_VERBOSE=1` to print
//! each input before it is parsed).

use crate::programs;

use std::time::Instant;

use lackpy_lang::parse_bytes;
use programs::{CASE_WALL, Gen, Rng};

/// Parses one input and checks the answer's shape; `Err` says what is wrong.
fn check(src: &[u8]) -> Result<(), String> {
    let start = Instant::now();
    let res = parse_bytes(src);
    let took = start.elapsed();
    if took > CASE_WALL {
        return Err(format!("parse took {took:?}"));
    }
    match res {
        Ok(module) => {
            let v = lackpy_lang::validate_module::<&str>(&module, &["tool"], &[]);
            if v.valid != v.errors.is_empty() {
                return Err(format!("valid={} with errors {:?}", v.valid, v.errors));
            }
            Ok(())
        }
        Err(e) => {
            let lines = src.iter().filter(|&&b| b == b'\n' || b == b'\r').count() as u32;
            if e.line == 0 || e.line > lines + 2 {
                return Err(format!("error line {} in {} lines: {e}", e.line, lines + 1));
            }
            if e.message.is_empty() || !e.to_string().starts_with("Parse error: ") {
                return Err(format!("bad message {e:?}"));
            }
            Ok(())
        }
    }
}

const PIECES: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "'",
    "\"",
    "'''",
    "\"\"\"",
    "f'",
    "f\"",
    "rb'",
    "{x",
    "{x!r:>{w}}",
    "}",
    "\\",
    "\\N{",
    "\\x4",
    "\n",
    "\r\n",
    "\r",
    "    ",
    "\t",
    "  ",
    "if ",
    "elif ",
    "else",
    "for ",
    " in ",
    "while ",
    "def ",
    "class ",
    "lambda ",
    "return",
    "yield ",
    "await ",
    "async ",
    "with ",
    " as ",
    "try",
    "except ",
    "finally",
    "import ",
    "from ",
    "match ",
    "case ",
    "_",
    ":",
    "=",
    ":=",
    "==",
    "->",
    "*",
    "**",
    "@",
    "not ",
    " and ",
    " or ",
    " is ",
    "x",
    "y1",
    "é",
    "1",
    "0x",
    "1_000",
    "1e",
    "1.5j",
    ".",
    "...",
    ",",
    ";",
    "#c",
    "\0",
    "\x0c",
    "$",
    "?",
    "!",
    "9223372036854775808",
    "\u{2028}",
    "\u{feff}",
    "global ",
    "del ",
    "pass",
    "break",
];

/// Grammar-shaped soup: mostly tokens, some indentation-led lines.
fn soup(rng: &mut Rng) -> Vec<u8> {
    let mut s = String::new();
    for _ in 0..rng.below(150) {
        if rng.chance(10) {
            s.push('\n');
            s.push_str(&" ".repeat(rng.below(4) * 4));
        }
        let piece: &str = rng.pick(PIECES);
        s.push_str(piece);
    }
    s.into_bytes()
}

fn raw_bytes(rng: &mut Rng) -> Vec<u8> {
    (0..rng.below(300)).map(|_| rng.next() as u8).collect()
}

/// A generated program (a runnable one with refused statements, or one
/// over the whole grammar), mutated a few times.
fn mutated(rng: &mut Rng) -> Vec<u8> {
    let mut seed = Rng::new(rng.next());
    let mut src = if rng.chance(50) {
        let mut g = Gen::runnable(&mut seed);
        g.forbidden = true;
        g.program()
    } else {
        Gen::grammar(&mut seed).program()
    }
    .into_bytes();
    for _ in 0..rng.below(4) {
        if src.is_empty() {
            break;
        }
        let at = rng.below(src.len());
        match rng.below(5) {
            0 => {
                let end = (at + rng.below(8)).min(src.len());
                src.drain(at..end);
            }
            1 => {
                let end = (at + rng.below(20)).min(src.len());
                let copy = src[at..end].to_vec();
                src.splice(at..at, copy);
            }
            2 => src.splice(at..at, rng.pick(PIECES).bytes()).for_each(drop),
            3 => src[at] = rng.next() as u8,
            _ => src.truncate(at),
        }
    }
    src
}

/// Nesting around the parser's bounds (200 brackets, 100 indents).
fn deep(rng: &mut Rng) -> Vec<u8> {
    let n = 150 + rng.below(120);
    match rng.below(6) {
        0 => format!("x = {}1{}", "(".repeat(n), ")".repeat(n)),
        1 => format!("x = {}1{}", "[f(".repeat(n / 2), ")]".repeat(n / 2)),
        2 => {
            let mut s = String::new();
            for i in 0..n / 2 {
                s.push_str(&format!("{}if x:\n", " ".repeat(i)));
            }
            s.push_str(&format!("{}y = 1\n", " ".repeat(n / 2)));
            s
        }
        3 => format!("x = {}0", "-".repeat(n * 8)),
        4 => format!("x = f'{}'", "{f'".repeat(n / 20) + &"'}".repeat(n / 20)),
        _ => format!("x = {}", "a if b else ".repeat(n)),
    }
    .into_bytes()
}

#[test]
fn hostile_input_gives_a_tree_or_a_clean_error() {
    let seed = programs::seed(0x5eed_0001);
    let cases = programs::cases(4000);
    let verbose = programs::verbose();
    let failures = programs::on_small_stack(move || {
        let mut failures = Vec::new();
        for case in 0..cases {
            let mut rng = Rng::for_case(seed, case);
            let src = match case % 4 {
                0 => raw_bytes(&mut rng),
                1 => soup(&mut rng),
                2 => mutated(&mut rng),
                _ if case % 16 == 3 => deep(&mut rng),
                _ => soup(&mut rng),
            };
            if verbose {
                eprintln!("--- case {case}\n{}", String::from_utf8_lossy(&src));
            }
            let res = std::panic::catch_unwind(|| check(&src))
                .unwrap_or_else(|_| Err("panicked".to_owned()));
            if let Err(why) = res {
                failures.push(format!(
                    "case {case} (seed {seed}): {why}\n{:?}",
                    String::from_utf8_lossy(&src)
                ));
            }
        }
        failures
    })
    .expect("the fuzz thread ended cleanly");
    assert!(
        failures.is_empty(),
        "{} of {cases} failed:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
}
