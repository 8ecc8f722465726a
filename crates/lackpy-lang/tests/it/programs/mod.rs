//! The program generator of the generated tests, and what those tests
//! share: the seeded RNG and its environment knobs (`LACKPY_FUZZ_CASES`,
//! `LACKPY_FUZZ_SEED`, `LACKPY_FUZZ_VERBOSE`), a small stack to run on, the
//! wall time a case may take.
//!
//! One [`Gen`], two modes over the same tables and builders:
//!
//! * runnable ([`Gen::runnable`], `runnable.rs`): loosely typed lackpy
//!   programs. It tracks which names hold ints, strs, lists, dicts and sets
//!   so that most programs get past the first line, and now and then picks
//!   a value of the wrong type to reach the error paths too; `forbidden`
//!   mixes in statements the validator refuses (built by the grammar
//!   mode's builders where the construct allows), `bombs` loops that grow
//!   without end. For `fuzz_run`, `fuzz_validate` and `fuzz_parse`.
//! * grammar ([`Gen::grammar`], `grammar.rs`): the whole Python 3.11
//!   grammar, forbidden constructs included, with layout variations (line
//!   continuations, comments, tabs, CRLF), and now and then the runnable
//!   mode's expressions and statements; beside it deep nesting within
//!   CPython's limits, known error shapes and token mutations
//!   ([`parser_corpus`]). For `parser_diff`, which requires CPython's
//!   verdict, tree and error line on every one.
#![allow(dead_code)]

mod grammar;
mod runnable;

use std::time::Duration;

pub use grammar::parser_corpus;
pub use lackpy_test_support::rng::{Rng, cases, seed, verbose};
pub use runnable::Ty;

/// What [`Gen::program`] writes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// Loosely typed lackpy programs (`runnable.rs`).
    Runnable,
    /// Anything the Python 3.11 grammar accepts (`grammar.rs`).
    Grammar,
}

/// A program generator over a borrowed RNG (a target may draw its own
/// choices from the same stream between programs).
pub struct Gen<'r> {
    rng: &'r mut Rng,
    mode: Mode,
    /// Names bound so far with the type they hold (runnable mode).
    vars: Vec<(String, Ty)>,
    /// The last fresh name's number (`v1`, `v2`, …).
    counter: usize,
    /// Newlines allowed inside the expression being built (inside
    /// brackets; grammar mode).
    nl: bool,
    /// Mix in statements the validator refuses (runnable mode).
    pub forbidden: bool,
    /// Allow loops that can run long (doubling, big ranges): the budget
    /// has to stop them (runnable mode).
    pub bombs: bool,
    /// How many forbidden statements the program holds so far.
    pub forbidden_emitted: usize,
}

impl<'r> Gen<'r> {
    /// A generator of runnable lackpy programs.
    pub fn runnable(rng: &'r mut Rng) -> Self {
        Gen::new(rng, Mode::Runnable)
    }

    /// A generator of programs over the whole grammar.
    pub fn grammar(rng: &'r mut Rng) -> Self {
        Gen::new(rng, Mode::Grammar)
    }

    fn new(rng: &'r mut Rng, mode: Mode) -> Self {
        Gen {
            rng,
            mode,
            vars: Vec::new(),
            counter: 0,
            nl: false,
            forbidden: false,
            bombs: false,
            forbidden_emitted: 0,
        }
    }

    /// A whole program in this generator's mode.
    pub fn program(&mut self) -> String {
        match self.mode {
            Mode::Runnable => self.runnable_program(),
            Mode::Grammar => self.grammar_program(),
        }
    }
}

/// Python's binary operators, the language's first, so that the integer
/// and arithmetic ones are prefixes.
const BINOPS: &[&str] = &[
    "+", "-", "*", "//", "%", "/", "**", "@", "<<", ">>", "&", "|", "^",
];
/// The binary operators that keep ints ints.
const INT_OPS: &[&str] = BINOPS.split_at(5).0;
/// The language's arithmetic operators.
const ARITH_OPS: &[&str] = BINOPS.split_at(6).0;
/// Python's comparison operators, the orderings first.
const CMPOPS: &[&str] = &[
    "<", "<=", "==", "!=", ">", ">=", "in", "not in", "is", "is not",
];
/// The comparisons that order two values.
const ORDER_OPS: &[&str] = CMPOPS.split_at(6).0;

/// Names a grammar-mode program binds and reads (soft keywords and a
/// builtin among them).
const NAMES: &[&str] = &[
    "x", "y", "z", "foo", "bar", "data", "item", "n", "i", "_", "match", "case", "print", "tool",
];

/// Int literals: small, at and past the i64 edges, big.
const INTS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "3",
    "7",
    "10",
    "255",
    "-17",
    "9223372036854775807",
    "-9223372036854775808",
    "9223372036854775806",
    "4611686018427387904",
    "18446744073709551616",
    "100000000000000000000000000000",
    "-340282366920938463463374607431768211456",
];

/// Float literals.
const FLOATS: &[&str] = &[
    "0.0",
    "-0.0",
    "0.1",
    "2.5",
    "1e16",
    "1e-05",
    "3.14159",
    "1e308",
    "-1.5",
    "123456789.125",
];

/// Str literals a program can use as values (quotes, escapes, non-ASCII).
const STRS: &[&str] = &[
    "''",
    "'a'",
    "'abc'",
    "'Hello World'",
    "'a,b,,c'",
    "'  pad  '",
    "'x y z'",
    "'123'",
    "'-4'",
    "'é😀'",
    "'line1\\nline2'",
    "\"it's\"",
    "'\\t\\x00\\\\'",
    "'ABCabc'",
];

/// Format specs for f-string fields (valid for some values, not others).
const FMT_SPECS: &[&str] = &[
    "", ">10", "<5", "^9", "*^12", "+", " ", "010", ",", "_", "x", "#x", "o", "b", ".3", ".2f",
    "e", ".1e", "g", "%", ">8.3", "#b", "n",
];

/// Runs `f` on a thread with a 2 MiB stack (what a host's blocking pool
/// gives), returning its panic message if it panicked.
pub fn on_small_stack<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, String> {
    let handle = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .map_err(|e| format!("spawn: {e}"))?;
    handle.join().map_err(|p| {
        p.downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_else(|| "panic".to_owned())
    })
}

/// Peak resident memory of this process (Linux `VmHWM`), if known.
pub fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The wall time one generated case may take before the target fails:
/// generous against a loaded CI machine, far below "never ends".
pub const CASE_WALL: Duration = Duration::from_secs(2);
