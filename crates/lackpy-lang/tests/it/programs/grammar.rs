//! Grammar mode: programs over the whole Python 3.11 grammar, and the
//! parser corpus (see the module above).

use super::{BINOPS, CMPOPS, FLOATS, FMT_SPECS, Gen, INTS, NAMES, Rng, STRS, Ty};

/// The builders a compound statement takes its parts from: the grammar's
/// own (anything Python parses, and some it refuses) or the runnable
/// mode's (always parses).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kit {
    Grammar,
    Runnable,
}

/// Compound statements [`Gen::compound`] builds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Compound {
    If,
    While,
    For,
    With,
    Try,
    Def,
    Class,
    Match,
}

impl Gen<'_> {
    fn name(&mut self) -> String {
        self.rng.pick(NAMES).to_string()
    }

    /// An augmented assignment operator.
    fn aug_op(&mut self) -> String {
        format!("{}=", self.rng.pick(BINOPS))
    }

    /// Space, or (inside brackets) sometimes a line break or a comment.
    fn sp(&mut self) -> &'static str {
        if self.nl && self.rng.chance(12) {
            return self.rng.pick(&["\n", "\n  ", "  # note\n", "\n\n    "]);
        }
        if self.rng.chance(3) {
            return " \\\n ";
        }
        " "
    }

    fn number(&mut self) -> String {
        let r = &mut *self.rng;
        match r.below(16) {
            0 => "0".into(),
            1 => format!("{}", r.below(1000)),
            2 => "1_000_000".into(),
            3 => "0x_FF".into(),
            4 => "0o17".into(),
            5 => "0b1010".into(),
            6 => "3.14".into(),
            7 => "1e10".into(),
            8 => ".5".into(),
            9 => "5.".into(),
            10 => "2j".into(),
            11 => "1.5E-3J".into(),
            12 => "123456789012345678901234567890".into(),
            13 => r.pick(INTS).to_string(),
            14 => r.pick(FLOATS).to_string(),
            _ => "00".into(),
        }
    }

    fn string(&mut self, depth: u32) -> String {
        let r = &mut *self.rng;
        match r.below(17) {
            0 => "'abc'".into(),
            1 => "\"q\\\"t\"".into(),
            2 => "'esc \\n\\t\\\\ \\x41\\u00e9\\U0001F600 \\101 \\N{BULLET} \\d'".into(),
            3 => "r'raw\\n'".into(),
            4 => "b'bytes\\x00\\xff'".into(),
            5 => "Rb'\\d'".into(),
            6 => "'''tri\nple'''".into(),
            7 => "\"\"\"doc\n\n  string\"\"\"".into(),
            8 => "u'uni'".into(),
            9 => "'a' 'b'".into(),
            10 => "'a' \"b\" '''c'''".into(),
            11 => "'cont\\\ninued'".into(),
            12 => r.pick(STRS).to_string(),
            _ => self.fstring(depth),
        }
    }

    fn fstring(&mut self, depth: u32) -> String {
        let q = self.rng.pick(&["'", "\"", "'''", "\"\"\""]);
        let triple = q.len() == 3;
        let inner = if q.starts_with('\'') { "\"" } else { "'" };
        let prefix = self.rng.pick(&["f", "F", "rf", "fR", "Rf"]);
        let mut s = format!("{prefix}{q}");
        for _ in 0..1 + self.rng.below(3) {
            match self.rng.below(12) {
                0 => s.push_str("lit {{braces}} "),
                1 => s.push_str(if prefix.contains(['r', 'R']) {
                    "\\n"
                } else {
                    "\\t text "
                }),
                2 if triple => s.push_str("line\nbreak "),
                _ => {}
            }
            let e = match self.rng.below(10) {
                0 => format!("{inner}s{inner}"),
                7 => format!("f{inner}{{x}}{inner}"),
                8 => "a != b".into(),
                9 => "x".into(),
                1 => "x + 1".into(),
                2 => "a[1:2]".into(),
                3 if triple => "\nx\n+ y".into(),
                4 => "foo(bar, *z)".into(),
                5 => "[i for i in y]".into(),
                _ => self.name(),
            };
            let e = if e.starts_with('{') {
                format!(" {e}")
            } else {
                e
            };
            let eq = if self.rng.chance(15) { " = " } else { "" };
            let conv = self.rng.pick(&["", "", "!r", "!s", "!a"]);
            let spec = match self.rng.below(9) {
                0 => ":>10".to_string(),
                6 => ":^{w}".to_string(),
                7 => ":{x:>{w}}".to_string(),
                8 => format!(":{}", self.rng.pick(FMT_SPECS)),
                1 => ":{w}.{p}".to_string(),
                2 => ":{w}{x!r:}d".to_string(),
                3 => ":".to_string(),
                _ => String::new(),
            };
            s.push_str(&format!("{{{e}{eq}{conv}{spec}}}"));
        }
        if depth > 0 && self.rng.chance(20) {
            s.push_str("tail");
        }
        s.push_str(q);
        if self.rng.chance(15) {
            s = format!("{s} 'plain' f'{{y}}'");
        }
        s
    }

    fn atom(&mut self, depth: u32) -> String {
        match self.rng.below(9) {
            0..=2 => self.name(),
            3 => self.number(),
            4 => self.string(depth),
            5 => self.rng.pick(&["True", "False", "None", "..."]).to_string(),
            _ => {
                let e = self.grammar_expr(depth.saturating_sub(1));
                format!("({e})")
            }
        }
    }

    fn params(&mut self, annotations: bool) -> String {
        let mut ps = Vec::new();
        let ann = |g: &mut Self| {
            if annotations && g.rng.chance(30) {
                format!(
                    ": {}",
                    g.rng.pick(&["int", "list[str]", "'T'", "a.b | None"])
                )
            } else {
                String::new()
            }
        };
        let n = self.rng.below(3);
        for i in 0..n {
            let a = ann(self);
            ps.push(format!("p{i}{a}"));
        }
        if n > 0 && self.rng.chance(20) {
            ps.push("/".into());
        }
        if self.rng.chance(40) {
            let a = ann(self);
            ps.push(format!("d{a}=1"));
        }
        match self.rng.below(4) {
            0 => ps.push("*args".into()),
            1 => {
                ps.push("*".into());
                ps.push("k".into());
                ps.push("k2=2".into());
            }
            2 => ps.push("*a, kw=3".into()),
            _ => {}
        }
        if self.rng.chance(30) {
            ps.push("**kw".into());
        }
        ps.join(", ")
    }

    fn comp_clauses(&mut self, depth: u32) -> String {
        let mut s = String::new();
        for _ in 0..1 + self.rng.below(2) {
            let asy = if self.rng.chance(10) { "async " } else { "" };
            let t = self
                .rng
                .pick(&["i", "i, j", "(a, b)", "[a, *b]", "x.y", "z[0]"]);
            let it = self.primary(depth);
            s.push_str(&format!(" {asy}for {t} in {it}"));
            if self.rng.chance(30) {
                let c = self.primary(depth);
                s.push_str(&format!(" if {c}"));
            }
        }
        s
    }

    fn primary(&mut self, depth: u32) -> String {
        let mut e = self.atom(depth);
        for _ in 0..self.rng.below(3) {
            match self.rng.below(6) {
                0 => e.push_str(".attr"),
                1 => e = format!("{e}()"),
                2 => {
                    let a = self.args(depth);
                    e = format!("{e}({a})");
                }
                3 => {
                    let s = self.subscript(depth);
                    e = format!("{e}[{s}]");
                }
                _ => e = format!("{e}[0]"),
            }
        }
        e
    }

    /// What goes between a subscript's brackets: slices, tuples, starred
    /// items, and now and then the runnable mode's index or slice.
    fn subscript(&mut self, depth: u32) -> String {
        let d = depth.saturating_sub(1);
        match self.rng.below(9) {
            0 => ":".into(),
            1 => "1:".into(),
            2 => "::2".into(),
            3 => format!("{}:{}:{}", self.atom(d), self.atom(d), self.atom(d)),
            4 => "1:2, 3".into(),
            5 => "a, *b".into(),
            6 => "i, j,".into(),
            7 => self.slice(),
            _ => self.grammar_expr(d),
        }
    }

    fn args(&mut self, depth: u32) -> String {
        let d = depth.saturating_sub(1);
        let saved = self.nl;
        self.nl = true;
        let s = match self.rng.below(7) {
            0 => {
                let c = self.comp_clauses(d);
                format!("x{c}")
            }
            1 => format!("*{}, **{}", self.atom(d), self.atom(d)),
            2 => format!("{}, key={}", self.grammar_expr(d), self.grammar_expr(d)),
            3 => format!("a,{}b=1, *c, **d,", self.sp()),
            _ => self.grammar_expr(d),
        };
        self.nl = saved;
        s
    }

    /// An expression (valid), with sub-expressions parenthesized as needed;
    /// now and then one of the runnable mode's.
    pub(super) fn grammar_expr(&mut self, depth: u32) -> String {
        if depth == 0 {
            return self.atom(0);
        }
        let d = depth - 1;
        match self.rng.below(23) {
            0 | 1 => self.primary(d),
            2 => {
                let op = self.rng.pick(BINOPS);
                let (a, b) = (self.atom(d), self.atom(d));
                let sp = self.sp();
                format!("{a} {op}{sp}{b}")
            }
            3 => {
                let op = self.rng.pick(&["-", "+", "~", "not ", "- -", "not not "]);
                format!("{op}{}", self.atom(d))
            }
            4 => format!(
                "{} {} {}",
                self.atom(d),
                self.rng.pick(&["and", "or"]),
                self.atom(d)
            ),
            5 => {
                let mut s = self.atom(d);
                for _ in 0..1 + self.rng.below(3) {
                    let op = self.rng.pick(CMPOPS);
                    let b = self.atom(d);
                    s = format!("{s} {op} {b}");
                }
                s
            }
            6 => format!("{} if {} else {}", self.atom(d), self.atom(d), self.atom(d)),
            7 => format!("lambda {}: {}", self.params(false), self.atom(d)),
            8 => {
                self.nl = true;
                let s = format!(
                    "[{},{}{}, *{}]",
                    self.grammar_expr(d),
                    self.sp(),
                    self.atom(d),
                    self.atom(d)
                );
                self.nl = false;
                s
            }
            9 => {
                self.nl = true;
                let s = format!(
                    "{{{}: {}, **{},{}}}",
                    self.atom(d),
                    self.grammar_expr(d),
                    self.atom(d),
                    self.sp()
                );
                self.nl = false;
                s
            }
            10 => format!("{{{}, *{}}}", self.atom(d), self.atom(d)),
            11 => format!("({}, {},)", self.atom(d), self.grammar_expr(d)),
            12 => {
                let c = self.comp_clauses(d);
                let e = self.atom(d);
                match self.rng.below(4) {
                    0 => format!("[{e}{c}]"),
                    1 => format!("{{{e}{c}}}"),
                    2 => format!("{{{e}: {}{c}}}", self.atom(d)),
                    _ => format!("({e}{c})"),
                }
            }
            13 => format!("({} := {})", self.name(), self.atom(d)),
            14 => format!("await {}", self.primary(d)),
            15 => format!("(yield {})", self.atom(d)),
            16 => format!("(yield from {})", self.atom(d)),
            17 => "()".into(),
            18 => {
                self.nl = true;
                let s = format!(
                    "(\n{}\n{} {}\n)",
                    self.atom(d),
                    self.rng.pick(BINOPS),
                    self.atom(d)
                );
                self.nl = false;
                s
            }
            19 => self.string(d),
            20 => self.expr_any(d.min(2)),
            _ => self.atom(d),
        }
    }

    fn target(&mut self) -> String {
        self.rng
            .pick(&[
                "x",
                "x.y",
                "x[0]",
                "a, b",
                "(a, b)",
                "[a, b]",
                "a, *b",
                "(a, [b, c])",
                "x[1:2]",
                "f().z",
            ])
            .to_string()
    }

    fn pattern(&mut self, depth: u32) -> String {
        let d = depth.saturating_sub(1);
        match self.rng.below(if depth == 0 { 6 } else { 14 }) {
            0 => "1".into(),
            1 => "-1".into(),
            2 => "'s'".into(),
            3 => self.rng.pick(&["None", "True", "False"]).to_string(),
            4 => "y".into(),
            5 => "_".into(),
            6 => "a.b.c".into(),
            7 => "1 + 2j".into(),
            8 => format!("{} | {}", self.pattern(d), self.pattern(d)),
            9 => format!("[{}, *rest]", self.pattern(d)),
            10 => format!("({}, {})", self.pattern(d), self.pattern(d)),
            11 => format!("{{'k': {}, 1: {}, **kw}}", self.pattern(d), self.pattern(d)),
            12 => format!("Point({}, y={})", self.pattern(d), self.pattern(d)),
            _ => format!("({} as v)", self.pattern(d)),
        }
    }

    /// A block after a compound statement's colon: one simple statement on
    /// the same line, or an indented run of statements.
    fn block(&mut self, ind: &str, depth: u32, kit: Kit) -> String {
        if self.rng.chance(15) {
            return format!(" {}\n", self.simple(kit));
        }
        let inner = format!("{ind}{}", if self.rng.chance(10) { "\t" } else { "    " });
        let mut s = String::from("\n");
        for _ in 0..1 + self.rng.below(2) {
            let d = depth.saturating_sub(1);
            let stmt = match kit {
                Kit::Grammar => self.grammar_stmt(&inner, d),
                Kit::Runnable => self.stmt(&inner, d),
            };
            s.push_str(&stmt);
        }
        s
    }

    /// One simple statement, without its line end.
    fn simple(&mut self, kit: Kit) -> String {
        if kit == Kit::Runnable {
            return self.assign("").trim_end().to_owned();
        }
        let e = self.grammar_expr(2);
        match self.rng.below(24) {
            0 => format!("{} = {}", self.target(), e),
            1 => format!("x = y = {e}"),
            2 => format!(
                "{} {} {}",
                self.rng.pick(&["x", "x.y", "x[0]", "(x)"]),
                self.aug_op(),
                e
            ),
            3 => format!(
                "{}: {} = {}",
                self.rng.pick(&["x", "(x)", "x.y", "x[0]"]),
                self.rng.pick(&["int", "list[int]"]),
                e
            ),
            4 => "x: int".into(),
            5..=13 => self.refused_simple(Kit::Grammar),
            14 => format!("{}; {}", e, self.grammar_expr(1)),
            15 => format!("*a, b = {e}"),
            16 => format!("print({e}, sep='')"),
            _ => e,
        }
    }

    /// A simple statement of a kind the whitelist refuses (del, pass,
    /// break, return, raise, global, assert, import, yield).
    fn refused_simple(&mut self, kit: Kit) -> String {
        let e = match kit {
            Kit::Grammar => self.grammar_expr(2),
            Kit::Runnable => self.expr_any(1),
        };
        let atom = match kit {
            Kit::Grammar => self.atom(0),
            Kit::Runnable => self.leaf(Ty::Str),
        };
        match self.rng.below(9) {
            0 => format!(
                "del {}",
                self.rng.pick(&["x", "x, y", "x[0], y.z", "(a, b)", "[a]"])
            ),
            1 => self
                .rng
                .pick(&["pass", "break", "continue", "return", "raise"])
                .to_string(),
            2 => format!("return {e}"),
            3 => format!("raise {atom} from {atom}"),
            4 => self.rng.pick(&["global x, y", "nonlocal z"]).to_string(),
            5 => format!("assert {e}, 'msg'"),
            6 => self
                .rng
                .pick(&[
                    "import os",
                    "import a.b.c as d, e",
                    "from . import x",
                    "from ..m import (a as b, c,)",
                    "from ...pkg.mod import *",
                    "from m import x as y",
                ])
                .to_string(),
            7 => format!("yield {e}"),
            _ => "x = yield from y".into(),
        }
    }

    /// A statement at indentation `ind`; now and then one of the runnable
    /// mode's.
    pub(super) fn grammar_stmt(&mut self, ind: &str, depth: u32) -> String {
        if self.rng.chance(8) {
            return self.stmt(ind, depth.min(2));
        }
        let kind = match if depth == 0 { 0 } else { self.rng.below(16) } {
            1 => Compound::If,
            2 => Compound::While,
            3 => Compound::For,
            4 => Compound::With,
            5 => Compound::Try,
            6 => Compound::Def,
            7 => Compound::Class,
            8 => Compound::Match,
            _ => {
                let c = if self.rng.chance(10) {
                    "  # trailing comment"
                } else {
                    ""
                };
                let blank = if self.rng.chance(8) { "\n" } else { "" };
                return format!("{ind}{}{c}\n{blank}", self.simple(Kit::Grammar));
            }
        };
        self.compound(ind, depth, kind, Kit::Grammar)
    }

    /// A statement the whitelist refuses by its kind (a loop other than
    /// `for`, a definition, `try`, `match`, or a refused simple
    /// statement), its parts from the runnable mode so that it parses.
    pub(super) fn refused_stmt(&mut self, ind: &str) -> String {
        let kind = match self.rng.below(7) {
            0 => Compound::While,
            1 => Compound::Try,
            2 => Compound::Def,
            3 => Compound::Class,
            4 => Compound::Match,
            _ => return format!("{ind}{}\n", self.refused_simple(Kit::Runnable)),
        };
        self.compound(ind, 2, kind, Kit::Runnable)
    }

    /// A compound statement of `kind` with its clauses, from `kit`'s
    /// expressions and statements.
    fn compound(&mut self, ind: &str, depth: u32, kind: Compound, kit: Kit) -> String {
        let e = match kit {
            Kit::Grammar => self.grammar_expr(2),
            Kit::Runnable => self.expr_any(2),
        };
        let head = match kind {
            Compound::If => format!("if {e}:"),
            Compound::While => format!("while {e}:"),
            Compound::For => format!(
                "{}for {} in {e}:",
                if self.rng.chance(10) { "async " } else { "" },
                self.target()
            ),
            Compound::With => {
                let items = self.rng.pick(&[
                    "a",
                    "a as b",
                    "a as b, c as (d, e)",
                    "(a as b, c)",
                    "(a, b,)",
                    "(a)",
                    "(yield)",
                ]);
                format!(
                    "{}with {items}:",
                    if self.rng.chance(10) { "async " } else { "" }
                )
            }
            Compound::Try => "try:".into(),
            Compound::Def => {
                let dec = if self.rng.chance(40) {
                    let d = match kit {
                        Kit::Grammar => self.primary(1),
                        Kit::Runnable => self.name(),
                    };
                    format!("@{d}\n{ind}")
                } else {
                    String::new()
                };
                let asy = if self.rng.chance(20) { "async " } else { "" };
                let ret = if self.rng.chance(30) { " -> int" } else { "" };
                format!("{dec}{asy}def fn({}){ret}:", self.params(true))
            }
            Compound::Class => {
                let dec = if self.rng.chance(30) {
                    format!("@dec\n{ind}")
                } else {
                    String::new()
                };
                let bases =
                    self.rng
                        .pick(&["", "()", "(Base)", "(A, B, metaclass=M)", "(*bs, **kw)"]);
                format!("{dec}class C{bases}:")
            }
            Compound::Match => {
                let mut s = format!("{ind}match {e}:\n");
                for _ in 0..1 + self.rng.below(3) {
                    let p = self.pattern(2);
                    let guard = if self.rng.chance(20) { " if x > 0" } else { "" };
                    let b = self.block(&format!("{ind}    "), depth.saturating_sub(1), kit);
                    s.push_str(&format!("{ind}    case {p}{guard}:{b}"));
                }
                return s;
            }
        };
        let mut s = format!("{ind}{head}{}", self.block(ind, depth, kit));
        match kind {
            Compound::If => {
                if self.rng.chance(40) {
                    let c = match kit {
                        Kit::Grammar => self.atom(0),
                        Kit::Runnable => self.cond(1),
                    };
                    s.push_str(&format!("{ind}elif {c}:{}", self.block(ind, depth, kit)));
                }
                if self.rng.chance(40) {
                    s.push_str(&format!("{ind}else:{}", self.block(ind, depth, kit)));
                }
            }
            Compound::While | Compound::For if self.rng.chance(20) => {
                s.push_str(&format!("{ind}else:{}", self.block(ind, depth, kit)))
            }
            Compound::Try => {
                let star = self.rng.chance(20);
                let n = self.rng.below(3);
                for i in 0..n {
                    let ty = match (star, i) {
                        (true, _) => "* ValueError",
                        (false, 0) if n == 1 => "",
                        (false, _) => " (A, B) as err",
                    };
                    s.push_str(&format!("{ind}except{ty}:{}", self.block(ind, depth, kit)));
                }
                if n > 0 && self.rng.chance(30) {
                    s.push_str(&format!("{ind}else:{}", self.block(ind, depth, kit)));
                }
                if n == 0 || self.rng.chance(30) {
                    s.push_str(&format!("{ind}finally:{}", self.block(ind, depth, kit)));
                }
            }
            _ => {}
        }
        s
    }

    /// A program over the whole grammar, in one of the layouts a file can
    /// have (CRLF, no final newline, a form feed, a header comment).
    pub(super) fn grammar_program(&mut self) -> String {
        let mut s = String::new();
        for _ in 0..1 + self.rng.below(4) {
            s.push_str(&self.grammar_stmt("", 3));
        }
        match self.rng.below(10) {
            0 => s = s.replace('\n', "\r\n"),
            1 => {
                s.pop();
            }
            2 => s = format!("\x0c{s}"),
            3 => s = format!("# header\n\n{s}"),
            _ => {}
        }
        s
    }

    /// Deep nesting within CPython's limits.
    pub fn deep(&mut self) -> String {
        let n = 1 + self.rng.below(90);
        match self.rng.below(8) {
            0 => format!("x = {}1{}", "(".repeat(n * 2), ")".repeat(n * 2)),
            1 => format!("x = {}1{}", "[".repeat(n), "]".repeat(n)),
            2 => format!("x = {}x", "-".repeat(n * 3)),
            3 => format!("x = {}x", "not ".repeat(n)),
            4 => {
                let mut s = String::new();
                for i in 0..n.min(60) {
                    s.push_str(&format!("{}if x:\n", " ".repeat(i)));
                }
                s.push_str(&format!("{}pass\n", " ".repeat(n.min(60))));
                s
            }
            5 => format!("x = {}0", "a if b else ".repeat(n)),
            6 => format!("x = {}0", "lambda: ".repeat(n)),
            _ => format!("x = a{}", ".b[0](c)".repeat(n)),
        }
    }

    /// Known error shapes.
    pub fn error_case(&mut self) -> String {
        const CASES: &[&str] = &[
            "x = = 1",
            "x = 1 +",
            "1 = x",
            "f() = 1",
            "a + 1 = 2",
            "(a, 1) = 2",
            "del f()",
            "for 1 in x: pass",
            "x = 1 if y",
            "a, b += 1",
            "[a] += 1",
            "f(a for a in b, c)",
            "f(**a, *b)",
            "f(a=1, b)",
            "print 'hello'",
            "exec 'x'",
            "f(a b)",
            "[1 2]",
            "{1: 2 3}",
            "(a\n b)",
            "x = (1,\n2\n",
            "for i in range(3):\ni",
            "if x:\npass",
            "if x:\n  pass\nelse:\nfoo",
            "def f():\n",
            "class A:\n",
            "while x:\n\n",
            "try:\n  x\nexcept:\n",
            "with a:\n",
            "x = 1\n  y = 2",
            "if x:\n    y\n  z",
            "if True:\n\tx = 1\n        y = 2\n",
            "s = 'abc",
            "s = '''abc\n",
            "x = (",
            "x = )",
            "x = (]",
            "x = [1,\n2,\n3\ny = 2",
            "f'{'",
            "f'{}'",
            "f'{x!z}'",
            "f'}'",
            "f'{a b}'",
            "f'{x:{y:{z}}}'",
            "b'\u{e9}'",
            "'a' b'c'",
            "'\\x4'",
            "'\\N{NO SUCH NAME}'",
            "1_",
            "0777",
            "0x",
            "1a",
            "1.e",
            "x $ y",
            "x ? y",
            "x = 1\n\\",
            "x \\ y",
            "\u{20ac} = 1",
            "x\u{1}",
            "def f(*): pass",
            "def f(a=1, b): pass",
            "lambda x=1, y: 0",
            "x := 1",
            "(a.b := 1)",
            "if x = 1: pass",
            "try:\n pass\nexcept* E:\n pass\nexcept F:\n pass",
            "try:\n pass\n",
            "match x\n",
            "match x:\ncase 1: pass",
            "match x:\n case 1:\n",
            "a, b: int",
            "[a]: int",
            "f(): int",
            "x = yield = 1",
            "f(x.y=1)",
            "f(True=1)",
            "from a import b,",
            "import",
            "def f(:\n  pass",
            "if x\n  pass",
            "while x\n  pass",
            "for x in y\n  pass",
            "with a\n  pass",
            "class A\n  pass",
            "else:\n  pass",
            "return return",
            "x = [i for i in]",
            "x = {**a for a in b}",
            "(*a)",
            "x = *a, *b = c",
            "del *a",
            "del a +",
            "async x",
            "await",
            "x = 1 2",
            "x = (1 2)",
            "f(\n a\n b\n)",
            "x = [\n 1\n 2\n]",
            "x = {\n 'a': 1\n 'b': 2\n}",
            "if x:\n    pass\n  elif y:\n    pass",
            "x = 'a'\ny = \"b",
            "def f(a, a): pass",
            "nonlocal",
            "global",
            "x = 1;;",
            "; x",
            "x = (1, 2",
            "print(f'{x!r=}')",
            "f'{x=!}'",
            "f'''{\nx +}'''",
            "x = f'{a}' b'c'",
            "x.1",
            "x = 1.real",
            "0b12",
            "0o78",
            "1__0",
            "1e",
            "1jx",
            "x = 09",
            "if 1:\n\tif 2:\n\t  x\n        y",
        ];
        let base = CASES[self.rng.below(CASES.len())].to_string();
        if self.rng.chance(30) {
            // Put a valid statement before it so the error line moves.
            let pre = self.grammar_stmt("", 1);
            return format!("{pre}{base}");
        }
        base
    }

    /// A random mutation of a program: a deleted, inserted, duplicated or
    /// swapped token.
    pub fn mutate(&mut self, src: &str) -> String {
        let toks = crude_tokens(src);
        if toks.is_empty() {
            return src.to_string();
        }
        let mut toks: Vec<String> = toks.into_iter().map(str::to_string).collect();
        const INSERT: &[&str] = &[
            "(", ")", "[", "]", "{", "}", ":", ",", "=", "if", "else", "for", "in", "lambda", "*",
            "**", "\n", "\n    ", "'", "\"", "\\", "#", "1", "x", ".", "not", "def", "return", ";",
            "f'{", "async", "await",
        ];
        for _ in 0..1 + self.rng.below(2) {
            let i = self.rng.below(toks.len());
            match self.rng.below(4) {
                0 => {
                    toks.remove(i);
                }
                1 => {
                    let t = self.rng.pick(INSERT).to_string();
                    toks.insert(i, t);
                }
                2 => {
                    let t = toks[i].clone();
                    toks.insert(i, t);
                }
                _ => {
                    let j = self.rng.below(toks.len());
                    toks.swap(i, j);
                }
            }
            if toks.is_empty() {
                break;
            }
        }
        toks.concat()
    }
}

/// Splits source into rough tokens (keeping whitespace as its own pieces)
/// so mutations stay token-shaped.
fn crude_tokens(src: &str) -> Vec<&str> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        let c = b[i];
        if c.is_ascii_alphanumeric() || c == b'_' || c >= 128 {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] >= 128) {
                i += 1;
            }
        } else if c == b' ' || c == b'\t' {
            while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
                i += 1;
            }
        } else {
            i += 1;
            while i < b.len() && !src.is_char_boundary(i) {
                i += 1;
            }
        }
        out.push(&src[start..i]);
    }
    out
}

/// The parser differential test's programs, `n` of them, case `i` from
/// `Rng::for_case(seed, i)`: programs over the whole grammar, runnable
/// programs with refused statements, deep nesting, known errors, and
/// token mutations of both kinds of program.
pub fn parser_corpus(seed: u64, n: usize) -> Vec<String> {
    (0..n as u64)
        .map(|case| {
            let mut rng = Rng::for_case(seed, case);
            let mut g = Gen::grammar(&mut rng);
            match g.rng.below(10) {
                0..=2 => g.grammar_program(),
                3 => {
                    g.forbidden = true;
                    g.runnable_program()
                }
                4 => g.deep(),
                5 | 6 => g.error_case(),
                7 | 8 => {
                    let p = g.grammar_program();
                    g.mutate(&p)
                }
                _ => {
                    g.forbidden = true;
                    let p = g.runnable_program();
                    g.mutate(&p)
                }
            }
        })
        .collect()
}
