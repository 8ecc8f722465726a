//! Shared support for the `fuzz_*` targets: a deterministic random source,
//! the case count and seed (from the environment for longer runs), and a
//! grammar-based generator of lackpy programs.
//!
//! The generator is typed loosely: it tracks which names hold ints, strs,
//! lists, dicts and sets so that most programs get past the first line,
//! and now and then picks a value of the wrong type to reach the error
//! paths too. `forbidden` mode mixes in every construct the validator
//! refuses.
#![allow(dead_code)]

use std::time::Duration;

/// SplitMix64: tiny, fast, and the same on every platform.
pub struct Rng(u64);

impl Rng {
    /// A generator for one case: the run's seed mixed with the case index,
    /// so a failing case can be replayed alone.
    pub fn for_case(seed: u64, case: u64) -> Rng {
        Rng(seed ^ case.wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }

    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// `true` with probability `pct` percent.
    pub fn pct(&mut self, pct: u64) -> bool {
        self.next() % 100 < pct
    }

    /// One element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// How many cases a target runs: `LACKPY_FUZZ_CASES` when set (for long
/// runs, e.g. `LACKPY_FUZZ_CASES=100000`), else `default`.
pub fn cases(default: u64) -> u64 {
    std::env::var("LACKPY_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The seed: `LACKPY_FUZZ_SEED` when set, else `default` (fixed, so CI
/// runs the same cases every time).
pub fn seed(default: u64) -> u64 {
    std::env::var("LACKPY_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// `LACKPY_FUZZ_VERBOSE=1` prints every case before it runs, to find the
/// one that aborted the process (a stack overflow cannot be caught).
pub fn verbose() -> bool {
    std::env::var_os("LACKPY_FUZZ_VERBOSE").is_some()
}

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

/// Kinds of values the generator keeps track of.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ty {
    /// int (small, near the i64 edges, or big).
    Int,
    /// float.
    Float,
    /// str.
    Str,
    /// list.
    List,
    /// dict.
    Dict,
    /// set.
    Set,
}

const TYS: &[Ty] = &[Ty::Int, Ty::Float, Ty::Str, Ty::List, Ty::Dict, Ty::Set];

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

const STR_METHODS0: &[&str] = &[
    "upper",
    "lower",
    "strip",
    "lstrip",
    "rstrip",
    "title",
    "capitalize",
    "swapcase",
    "splitlines",
    "split",
];

const FMT_SPECS: &[&str] = &[
    "", ">10", "<5", "^9", "*^12", "+", " ", "010", ",", "_", "x", "#x", "o", "b", ".3", ".2f",
    "e", ".1e", "g", "%", ">8.3", "#b", "n",
];

/// A program generator.
pub struct Gen<'r> {
    rng: &'r mut Rng,
    vars: Vec<(String, Ty)>,
    counter: usize,
    /// Mix in forbidden constructs.
    pub forbidden: bool,
    /// Allow loops that can run long (doubling, big ranges): the budget
    /// has to stop them.
    pub bombs: bool,
    /// How many forbidden statements the program holds so far.
    pub forbidden_emitted: usize,
}

impl<'r> Gen<'r> {
    /// A generator of valid programs.
    pub fn new(rng: &'r mut Rng) -> Self {
        Gen {
            rng,
            vars: Vec::new(),
            counter: 0,
            forbidden: false,
            bombs: false,
            forbidden_emitted: 0,
        }
    }

    fn fresh(&mut self) -> String {
        self.counter += 1;
        format!("v{}", self.counter)
    }

    fn var_of(&mut self, ty: Ty) -> Option<String> {
        let names: Vec<&String> = self
            .vars
            .iter()
            .filter(|(_, t)| *t == ty)
            .map(|(n, _)| n)
            .collect();
        if names.is_empty() {
            None
        } else {
            Some(names[self.rng.below(names.len())].clone())
        }
    }

    fn any_ty(&mut self) -> Ty {
        *self.rng.pick(TYS)
    }

    /// An expression of (usually) type `ty`, nested at most `depth` deep.
    pub fn expr(&mut self, ty: Ty, depth: u32) -> String {
        // Now and then a wrong-typed operand, for the error paths.
        if depth > 0 && self.rng.pct(3) {
            let other = self.any_ty();
            return format!("({})", self.expr_inner(other, depth - 1));
        }
        self.expr_inner(ty, depth)
    }

    fn expr_inner(&mut self, ty: Ty, depth: u32) -> String {
        if self.rng.pct(30)
            && let Some(v) = self.var_of(ty)
        {
            return v;
        }
        if depth == 0 || self.rng.pct(20) {
            return self.leaf(ty);
        }
        let d = depth - 1;
        match ty {
            Ty::Int => self.int_expr(d),
            Ty::Float => self.float_expr(d),
            Ty::Str => self.str_expr(d),
            Ty::List => self.list_expr(d),
            Ty::Dict => self.dict_expr(d),
            Ty::Set => self.set_expr(d),
        }
    }

    fn leaf(&mut self, ty: Ty) -> String {
        match ty {
            Ty::Int => (*self.rng.pick(INTS)).to_owned(),
            Ty::Float => (*self.rng.pick(FLOATS)).to_owned(),
            Ty::Str => (*self.rng.pick(STRS)).to_owned(),
            Ty::List => {
                let n = self.rng.below(4);
                let items: Vec<String> = (0..n).map(|_| self.leaf(Ty::Int)).collect();
                format!("[{}]", items.join(", "))
            }
            Ty::Dict => "{'a': 1, 'b': 2}".to_owned(),
            Ty::Set => "{1, 2, 3}".to_owned(),
        }
    }

    fn small_int(&mut self) -> String {
        format!("{}", self.rng.below(12) as i64 - 3)
    }

    fn int_expr(&mut self, d: u32) -> String {
        match self.rng.below(16) {
            0..=2 => {
                let op = *self.rng.pick(&["+", "-", "*", "//", "%"]);
                format!("({} {op} {})", self.expr(Ty::Int, d), self.expr(Ty::Int, d))
            }
            3 => format!("len({})", self.expr_seq(d)),
            4 => format!("sum({})", self.expr(Ty::List, d)),
            5 => format!(
                "{}({}, {})",
                self.rng.pick(&["min", "max"]),
                self.expr(Ty::Int, d),
                self.expr(Ty::Int, d)
            ),
            6 => format!("abs({})", self.expr(Ty::Int, d)),
            7 => format!("-{}", self.expr(Ty::Int, d)),
            8 => format!("int({})", self.expr(Ty::Str, d)),
            9 => format!("round({})", self.expr(Ty::Float, d)),
            10 => format!("{}.count({})", self.expr(Ty::Str, d), self.expr(Ty::Str, d)),
            11 => format!("{}.find({})", self.expr(Ty::Str, d), self.expr(Ty::Str, d)),
            12 => format!(
                "({} if {} else {})",
                self.expr(Ty::Int, d),
                self.cond(d),
                self.expr(Ty::Int, d)
            ),
            13 => format!("{}[{}]", self.expr(Ty::List, d), self.small_int()),
            14 => format!(
                "max({}, default={})",
                self.expr(Ty::List, d),
                self.expr(Ty::Int, d)
            ),
            _ => format!("int({})", self.expr(Ty::Float, d)),
        }
    }

    fn seq_ty(&mut self) -> Ty {
        *self.rng.pick(&[Ty::Str, Ty::List, Ty::Dict, Ty::Set])
    }

    fn float_expr(&mut self, d: u32) -> String {
        match self.rng.below(6) {
            0 => format!("({} / {})", self.expr(Ty::Int, d), self.expr(Ty::Int, d)),
            1 => format!(
                "({} {} {})",
                self.expr(Ty::Float, d),
                self.rng.pick(&["+", "-", "*", "/", "//", "%"]),
                self.expr(Ty::Float, d)
            ),
            2 => format!("float({})", self.expr(Ty::Int, d)),
            3 => format!("round({}, {})", self.expr(Ty::Float, d), self.small_int()),
            4 => format!(
                "float({})",
                self.rng.pick(&["'inf'", "'-inf'", "'nan'", "'1e5'"])
            ),
            _ => format!("abs({})", self.expr(Ty::Float, d)),
        }
    }

    fn str_expr(&mut self, d: u32) -> String {
        match self.rng.below(16) {
            0 => format!("str({})", self.expr_any(d)),
            1 => format!(
                "{}.{}()",
                self.expr(Ty::Str, d),
                self.rng.pick(STR_METHODS0)
            )
            .replace(".splitlines()", ".strip()")
            .replace(".split()", ".lower()"),
            2 => format!("({} + {})", self.expr(Ty::Str, d), self.expr(Ty::Str, d)),
            3 => format!("({} * {})", self.expr(Ty::Str, d), self.small_int()),
            4 => format!("{}[{}]", self.expr(Ty::Str, d), self.slice()),
            5 => format!("{}.join({})", self.expr(Ty::Str, d), self.str_list(d)),
            6 => {
                let spec = *self.rng.pick(FMT_SPECS);
                let ty = *self.rng.pick(&[Ty::Int, Ty::Float, Ty::Str]);
                let conv = *self.rng.pick(&["", "", "", "!r", "!s", "!a"]);
                let e = self.fstring_expr(ty, d);
                format!("f'<{{{e}{conv}:{spec}}}>'")
            }
            7 => {
                let (fmt, ty) = *self.rng.pick(&[
                    ("'%d'", Ty::Int),
                    ("'%5.2f'", Ty::Float),
                    ("'%s!'", Ty::Str),
                    ("'%r'", Ty::List),
                    ("'%x'", Ty::Int),
                    ("'%-6s|'", Ty::Str),
                    ("'%e'", Ty::Float),
                ]);
                format!("({fmt} % {})", self.expr(ty, d))
            }
            8 => format!(
                "'{{}}-{{:>4}}'.format({}, {})",
                self.expr(Ty::Int, d),
                self.expr(Ty::Str, d)
            ),
            9 => format!(
                "{}.replace({}, {})",
                self.expr(Ty::Str, d),
                self.expr(Ty::Str, d),
                self.expr(Ty::Str, d)
            ),
            10 => format!(
                "{}.{}({}, {})",
                self.expr(Ty::Str, d),
                self.rng.pick(&["center", "ljust", "rjust"]),
                self.small_int(),
                self.rng.pick(&["'*'", "' '", "'ab'"])
            ),
            11 => format!("{}.zfill({})", self.expr(Ty::Str, d), self.small_int()),
            12 => format!(
                "{}.partition({})[{}]",
                self.expr(Ty::Str, d),
                self.expr(Ty::Str, d),
                self.rng.below(3)
            ),
            13 => format!(
                "({} if {} else {})",
                self.expr(Ty::Str, d),
                self.cond(d),
                self.expr(Ty::Str, d)
            ),
            14 => format!("f'{{{}=}}'", self.fstring_expr(Ty::Int, d)),
            _ => format!("str({})", self.expr(Ty::List, d)),
        }
    }

    /// An expression that may stand inside a 3.11 f-string field: no
    /// quotes or backslashes (retried a few times, else a plain leaf).
    fn fstring_expr(&mut self, ty: Ty, d: u32) -> String {
        for _ in 0..4 {
            let e = self.expr(ty, d);
            if !e.contains(['\'', '"', '\\']) {
                return e;
            }
        }
        match ty {
            Ty::Float => "2.5".to_owned(),
            _ => "42".to_owned(),
        }
    }

    fn expr_any(&mut self, d: u32) -> String {
        let ty = self.any_ty();
        self.expr(ty, d)
    }

    fn expr_seq(&mut self, d: u32) -> String {
        let ty = self.seq_ty();
        self.expr(ty, d)
    }

    fn str_list(&mut self, d: u32) -> String {
        match self.rng.below(3) {
            0 => format!(
                "{}.split({})",
                self.expr(Ty::Str, d),
                self.rng.pick(&["", "','", "' '"])
            ),
            1 => format!("[str(x) for x in {}]", self.expr(Ty::List, d)),
            _ => format!("sorted({})", self.expr(Ty::Str, d)),
        }
    }

    fn slice(&mut self) -> String {
        let part = |g: &mut Self| -> String {
            match g.rng.below(5) {
                0 => String::new(),
                1 => g.small_int(),
                2 => (*g
                    .rng
                    .pick(&["-1", "-2", "100", "-100", "9223372036854775807"]))
                .to_owned(),
                _ => format!("{}", g.rng.below(4)),
            }
        };
        let a = part(self);
        let b = part(self);
        if self.rng.pct(40) {
            let step = *self
                .rng
                .pick(&["-1", "2", "-2", "3", "-9223372036854775808", "0"]);
            format!("{a}:{b}:{step}")
        } else if self.rng.pct(30) {
            a.chars()
                .next()
                .map_or_else(|| "0".to_owned(), |_| a.clone())
        } else {
            format!("{a}:{b}")
        }
    }

    fn iterable(&mut self, d: u32) -> String {
        match self.rng.below(7) {
            0 => format!("range({})", self.rng.below(8)),
            1 => format!(
                "range({}, {}, {})",
                self.small_int(),
                self.small_int(),
                self.rng.pick(&["1", "2", "-1", "3"])
            ),
            2 => self.expr(Ty::List, d),
            3 => self.expr(Ty::Str, d),
            4 => self.expr(Ty::Set, d),
            5 => self.expr(Ty::Dict, d),
            _ => format!("reversed({})", self.expr(Ty::List, d)),
        }
    }

    fn list_expr(&mut self, d: u32) -> String {
        match self.rng.below(14) {
            0 => {
                let n = self.rng.below(4);
                let ty = self.any_ty();
                let items: Vec<String> = (0..n).map(|_| self.expr(ty, d)).collect();
                format!("[{}]", items.join(", "))
            }
            1 => {
                let cond = if self.rng.pct(50) {
                    format!(
                        " if x {} {}",
                        self.rng.pick(&["!=", "<", ">=", "=="]),
                        self.leaf(Ty::Int)
                    )
                } else {
                    String::new()
                };
                format!("[x for x in {}{cond}]", self.iterable(d))
            }
            2 => {
                let key = *self.rng.pick(&[
                    "",
                    ", key=len",
                    ", key=str",
                    ", key=lambda x: -x",
                    ", reverse=True",
                    ", key=abs, reverse=True",
                ]);
                format!("sorted({}{key})", self.expr(Ty::List, d))
            }
            3 => format!("list(range({}))", self.small_int()),
            4 => format!("({} + {})", self.expr(Ty::List, d), self.expr(Ty::List, d)),
            5 => format!("({} * {})", self.expr(Ty::List, d), self.small_int()),
            6 => format!("{}[{}]", self.expr(Ty::List, d), self.slice()),
            7 => format!(
                "{}.split({})",
                self.expr(Ty::Str, d),
                self.rng.pick(&["", "','", "'a'", "None, 1"])
            ),
            8 => format!(
                "list({}.{}())",
                self.expr(Ty::Dict, d),
                self.rng.pick(&["keys", "values", "items"])
            ),
            9 => format!(
                "list(zip({}, {}))",
                self.expr(Ty::List, d),
                self.expr(Ty::Str, d)
            ),
            10 => format!(
                "list(enumerate({}, {}))",
                self.expr(Ty::List, d),
                self.small_int()
            ),
            11 => format!("[[y, y] for y in {}]", self.iterable(d)),
            12 => format!(
                "[a + b for a, b in zip({}, {})]",
                self.expr(Ty::List, d),
                self.expr(Ty::List, d)
            ),
            _ => format!(
                "sort_by([{{'k': 2}}, {{'k': 1}}, {{'k': {}}}], 'k')",
                self.expr(Ty::Int, d)
            ),
        }
    }

    fn dict_expr(&mut self, d: u32) -> String {
        match self.rng.below(6) {
            0 => {
                let n = self.rng.below(4);
                let items: Vec<String> = (0..n)
                    .map(|_| {
                        let kt = *self.rng.pick(&[Ty::Int, Ty::Str, Ty::Float]);
                        let k = self.leaf(kt);
                        format!("{k}: {}", self.expr(Ty::Int, d))
                    })
                    .collect();
                format!("{{{}}}", items.join(", "))
            }
            1 => format!("{{k: v for k, v in enumerate({})}}", self.expr(Ty::List, d)),
            2 => format!(
                "dict(zip({}, {}))",
                self.expr(Ty::Str, d),
                self.expr(Ty::List, d)
            ),
            3 => format!("{{str(x): x for x in {} if x}}", self.iterable(d)),
            4 => format!("dict({})", self.expr(Ty::Dict, d)),
            _ => format!("{{x: len(str(x)) for x in {}}}", self.iterable(d)),
        }
    }

    fn set_expr(&mut self, d: u32) -> String {
        match self.rng.below(5) {
            0 => format!("set({})", self.expr(Ty::List, d)),
            1 => format!("{{x % 5 for x in {}}}", self.iterable(d)),
            2 => format!(
                "{}.{}({})",
                self.expr(Ty::Set, d),
                self.rng.pick(&[
                    "union",
                    "intersection",
                    "difference",
                    "symmetric_difference"
                ]),
                self.expr(Ty::Set, d)
            ),
            3 => format!("set({})", self.expr(Ty::Str, d)),
            _ => format!("{{{}, {}}}", self.expr(Ty::Int, d), self.expr(Ty::Int, d)),
        }
    }

    fn cond(&mut self, d: u32) -> String {
        match self.rng.below(7) {
            0 => format!(
                "{} {} {}",
                self.expr(Ty::Int, d),
                self.rng.pick(&["<", "<=", "==", "!=", ">", ">="]),
                self.expr(Ty::Int, d)
            ),
            1 => format!("{} in {}", self.expr(Ty::Int, d), self.expr_seq(d)),
            2 => format!("{} not in {}", self.expr(Ty::Str, d), self.expr(Ty::Str, d)),
            3 => format!("{} and {}", self.expr(Ty::Int, d), self.expr(Ty::Str, d)),
            4 => format!("not {}", self.expr(Ty::List, d)),
            5 => format!(
                "isinstance({}, {})",
                self.expr_any(d),
                self.rng.pick(&["int", "str", "list", "(int, float)"])
            ),
            _ => format!("{} is None", self.expr(Ty::Int, d)),
        }
    }

    fn assign(&mut self, indent: &str) -> String {
        let ty = self.any_ty();
        let e = self.expr(ty, 3);
        let name = if self.rng.pct(40)
            && let Some(v) = self.var_of(ty)
        {
            v
        } else {
            self.fresh()
        };
        self.vars.push((name.clone(), ty));
        format!("{indent}{name} = {e}\n")
    }

    /// One statement (with any block it opens), indented by `indent`.
    pub fn stmt(&mut self, indent: &str, depth: u32) -> String {
        if self.forbidden && self.rng.pct(15) {
            return self.forbidden_stmt(indent);
        }
        let inner = format!("{indent}    ");
        match self.rng.below(14) {
            0..=3 => self.assign(indent),
            4 if depth > 0 => {
                let v = self.fresh();
                let it = match self.rng.below(4) {
                    0 => format!("range({})", self.rng.below(6)),
                    1 => self
                        .var_of(Ty::List)
                        .unwrap_or_else(|| "list([1, 2])".to_owned()),
                    2 => format!(
                        "enumerate({})",
                        self.var_of(Ty::Str).unwrap_or_else(|| "'ab'".to_owned())
                    ),
                    _ => format!(
                        "sorted({})",
                        self.var_of(Ty::Set).unwrap_or_else(|| "{3, 1}".to_owned())
                    ),
                };
                self.vars.push((v.clone(), Ty::Int));
                let mut s = format!("{indent}for {v} in {it}:\n");
                for _ in 0..=self.rng.below(2) {
                    s.push_str(&self.stmt(&inner, depth - 1));
                }
                s
            }
            5 if depth > 0 => {
                let mut s = format!("{indent}if {}:\n", self.cond(2));
                s.push_str(&self.stmt(&inner, depth - 1));
                if self.rng.pct(50) {
                    s.push_str(&format!("{indent}else:\n"));
                    s.push_str(&self.stmt(&inner, depth - 1));
                }
                s
            }
            6 => {
                let l = self.var_of(Ty::List).unwrap_or_else(|| "[]".to_owned());
                let call = match self.rng.below(6) {
                    0 => format!("append({})", self.expr(Ty::Int, 2)),
                    1 => format!("extend({})", self.expr(Ty::List, 2)),
                    2 => "sort()".to_owned(),
                    3 => "reverse()".to_owned(),
                    4 => format!("insert({}, {})", self.small_int(), self.expr(Ty::Str, 1)),
                    _ => "pop()".to_owned(),
                };
                format!("{indent}{l}.{call}\n")
            }
            7 => {
                let dname = self.var_of(Ty::Dict).unwrap_or_else(|| "{}".to_owned());
                match self.rng.below(3) {
                    0 => format!(
                        "{indent}{dname}[{}] = {}\n",
                        self.expr(Ty::Str, 1),
                        self.expr(Ty::Int, 2)
                    ),
                    1 => format!("{indent}{dname}.update({})\n", self.expr(Ty::Dict, 2)),
                    _ => format!(
                        "{indent}{dname}.setdefault({}, [])\n",
                        self.expr(Ty::Str, 1)
                    ),
                }
            }
            8 => {
                let s = self.var_of(Ty::Set).unwrap_or_else(|| "set()".to_owned());
                format!(
                    "{indent}{s}.{}({})\n",
                    self.rng.pick(&["add", "discard"]),
                    self.expr(Ty::Int, 1)
                )
            }
            9 => format!(
                "{indent}print({}, sep={})\n",
                self.expr_any(2),
                self.rng.pick(&["' '", "'-'", "''"])
            ),
            10 => {
                let ty = *self.rng.pick(&[Ty::Int, Ty::Str, Ty::List, Ty::Float]);
                match self.var_of(ty) {
                    Some(v) => format!("{indent}{v} += {}\n", self.expr(ty, 2)),
                    None => self.assign(indent),
                }
            }
            11 if self.bombs => self.bomb(indent),
            12 => format!("{indent}{}\n", self.expr_any(3)),
            _ => self.assign(indent),
        }
    }

    /// A loop that grows something fast: the budget must end it.
    fn bomb(&mut self, indent: &str) -> String {
        let v = self.fresh();
        let n = *self
            .rng
            .pick(&["20", "40", "64", "100000000", "1000000000000"]);
        let shape = self.rng.below(9);
        let body = match shape {
            0 => format!("{v} = {v} + {v}"),
            1 => format!("{v} = [{v}, {v}]"),
            2 => format!("{v} = {v} * 2"),
            3 => format!("{v} = {{'a': {v}, 'b': {v}}}"),
            4 => format!("{v} = str({v}) + str({v})"),
            5 => format!("{v} = ({v}, {v})"),
            6 => format!("{v} = {v} * {v} + 1"),
            7 => format!("{v} = f'{{{v}}}{{{v}!r}}'"),
            // A chain as deep as the budget allows (no recursion builds it).
            _ => format!("{v} = [{v}]"),
        };
        let init = *self.rng.pick(&["'ab'", "[1]", "3", "{'k': 1}"]);
        self.vars.push((v.clone(), Ty::List));
        format!("{indent}{v} = {init}\n{indent}for _ in range({n}):\n{indent}    {body}\n")
    }

    fn forbidden_stmt(&mut self, indent: &str) -> String {
        self.forbidden_emitted += 1;
        let e = self.expr(Ty::Int, 1);
        let s = match self.rng.below(30) {
            0 => format!("def f(x):\n{indent}    return {e}"),
            1 => format!("class A:\n{indent}    pass"),
            2 => format!("while {e}:\n{indent}    break"),
            3 => format!("try:\n{indent}    x = {e}\n{indent}except Exception:\n{indent}    pass"),
            4 => "import os".to_owned(),
            5 => "from sys import path as p".to_owned(),
            6 => format!("y = ({} := {e})", "z"),
            7 => format!("y = {e} ** 2"),
            8 => format!("y = {e} | 1 & 2 ^ 3 << 1 >> 1"),
            9 => format!("y = ~{e}"),
            10 => format!("y = list(x for x in range({e}))"),
            11 => "y = lambda q: q".to_owned(),
            12 => "y = sorted([1], key=lambda q: q.__class__)".to_owned(),
            13 => "y = '__import__'".to_owned(),
            14 => "y = f'{x}__'".to_owned(),
            15 => "y = open('f')".to_owned(),
            16 => "y = getattr(x, 'a')".to_owned(),
            17 => "y = x._private".to_owned(),
            18 => "y = x.f_globals".to_owned(),
            19 => "global g".to_owned(),
            20 => "del y".to_owned(),
            21 => format!("assert {e}"),
            22 => "raise ValueError('x')".to_owned(),
            23 => format!(
                "match {e}:\n{indent}    case 1:\n{indent}        pass\n{indent}    case [a, *b] if a:\n{indent}        pass"
            ),
            24 => "async def g():\n        await h()".replace("        ", &format!("{indent}    ")),
            25 => format!("for i in {e} + 1:\n{indent}    pass"),
            26 => "y = (yield)".to_owned(),
            27 => "y = a @ b".to_owned(),
            28 => "y = unknown_tool(1)".to_owned(),
            _ => "y = (lambda: 1)()".to_owned(),
        };
        format!("{indent}{s}\n")
    }

    /// A whole program: a few statements and a final expression.
    pub fn program(&mut self) -> String {
        let mut src = String::new();
        let n = 1 + self.rng.below(7);
        for _ in 0..n {
            let s = self.stmt("", 2);
            src.push_str(&s);
        }
        let last = if self.rng.pct(30) && !self.vars.is_empty() {
            let names: Vec<String> = self.vars.iter().map(|(n, _)| n.clone()).collect();
            format!("[{}]", names.join(", "))
        } else {
            let ty = self.any_ty();
            self.expr(ty, 3)
        };
        src.push_str(&last);
        src.push('\n');
        src
    }
}
