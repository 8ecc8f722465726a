//! Runnable mode: loosely typed lackpy programs (see the module above).

use super::{ARITH_OPS, FLOATS, FMT_SPECS, Gen, INT_OPS, INTS, ORDER_OPS, STRS};

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

impl Gen<'_> {
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
        self.rng.pick(TYS)
    }

    /// An expression of (usually) type `ty`, nested at most `depth` deep.
    pub fn expr(&mut self, ty: Ty, depth: u32) -> String {
        // Now and then a wrong-typed operand, for the error paths.
        if depth > 0 && self.rng.chance(3) {
            let other = self.any_ty();
            return format!("({})", self.expr_inner(other, depth - 1));
        }
        self.expr_inner(ty, depth)
    }

    fn expr_inner(&mut self, ty: Ty, depth: u32) -> String {
        if self.rng.chance(30)
            && let Some(v) = self.var_of(ty)
        {
            return v;
        }
        if depth == 0 || self.rng.chance(20) {
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

    /// A literal of type `ty`.
    pub(super) fn leaf(&mut self, ty: Ty) -> String {
        match ty {
            Ty::Int => self.rng.pick(INTS).to_owned(),
            Ty::Float => self.rng.pick(FLOATS).to_owned(),
            Ty::Str => self.rng.pick(STRS).to_owned(),
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
                let op = self.rng.pick(INT_OPS);
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
        self.rng.pick(&[Ty::Str, Ty::List, Ty::Dict, Ty::Set])
    }

    fn float_expr(&mut self, d: u32) -> String {
        match self.rng.below(6) {
            0 => format!("({} / {})", self.expr(Ty::Int, d), self.expr(Ty::Int, d)),
            1 => format!(
                "({} {} {})",
                self.expr(Ty::Float, d),
                self.rng.pick(ARITH_OPS),
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
                let spec = self.rng.pick(FMT_SPECS);
                let ty = self.rng.pick(&[Ty::Int, Ty::Float, Ty::Str]);
                let conv = self.rng.pick(&["", "", "", "!r", "!s", "!a"]);
                let e = self.fstring_expr(ty, d);
                format!("f'<{{{e}{conv}:{spec}}}>'")
            }
            7 => {
                let (fmt, ty) = self.rng.pick(&[
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

    /// An expression of any type.
    pub(super) fn expr_any(&mut self, d: u32) -> String {
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

    /// What goes between a sequence's brackets: an index or a slice.
    pub(super) fn slice(&mut self) -> String {
        let part = |g: &mut Self| -> String {
            match g.rng.below(5) {
                0 => String::new(),
                1 => g.small_int(),
                2 => g
                    .rng
                    .pick(&["-1", "-2", "100", "-100", "9223372036854775807"])
                    .to_owned(),
                _ => format!("{}", g.rng.below(4)),
            }
        };
        let a = part(self);
        let b = part(self);
        if self.rng.chance(40) {
            let step = self
                .rng
                .pick(&["-1", "2", "-2", "3", "-9223372036854775808", "0"]);
            format!("{a}:{b}:{step}")
        } else if self.rng.chance(30) {
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
                let cond = if self.rng.chance(50) {
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
                let key = self.rng.pick(&[
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
                        let kt = self.rng.pick(&[Ty::Int, Ty::Str, Ty::Float]);
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

    /// A condition (a comparison, a membership test, a bool operation, …).
    pub(super) fn cond(&mut self, d: u32) -> String {
        match self.rng.below(7) {
            0 => format!(
                "{} {} {}",
                self.expr(Ty::Int, d),
                self.rng.pick(ORDER_OPS),
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

    /// An assignment of a new value to a new or bound name (one line).
    pub(super) fn assign(&mut self, indent: &str) -> String {
        let ty = self.any_ty();
        let e = self.expr(ty, 3);
        let name = if self.rng.chance(40)
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
        if self.forbidden && self.rng.chance(15) {
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
                if self.rng.chance(50) {
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
                let ty = self.rng.pick(&[Ty::Int, Ty::Str, Ty::List, Ty::Float]);
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
        let n = self
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
        let init = self.rng.pick(&["'ab'", "[1]", "3", "{'k': 1}"]);
        self.vars.push((v.clone(), Ty::List));
        format!("{indent}{v} = {init}\n{indent}for _ in range({n}):\n{indent}    {body}\n")
    }

    /// A statement the whitelist refuses: a statement kind the grammar
    /// mode builds (compound or simple), or one of the expressions and
    /// names the validator refuses inside an allowed statement.
    fn forbidden_stmt(&mut self, indent: &str) -> String {
        self.forbidden_emitted += 1;
        if self.rng.chance(40) {
            // Its body holds runnable statements only: one refused
            // statement is enough.
            let saved = std::mem::replace(&mut self.forbidden, false);
            let s = self.refused_stmt(indent);
            self.forbidden = saved;
            return s;
        }
        let e = self.expr(Ty::Int, 1);
        let s = match self.rng.below(19) {
            0 => format!("y = ({} := {e})", "z"),
            1 => format!("y = {e} ** 2"),
            2 => format!("y = {e} | 1 & 2 ^ 3 << 1 >> 1"),
            3 => format!("y = ~{e}"),
            4 => format!("y = list(x for x in range({e}))"),
            5 => "y = lambda q: q".to_owned(),
            6 => "y = sorted([1], key=lambda q: q.__class__)".to_owned(),
            7 => "y = '__import__'".to_owned(),
            8 => "y = f'{x}__'".to_owned(),
            9 => "y = open('f')".to_owned(),
            10 => "y = getattr(x, 'a')".to_owned(),
            11 => "y = x._private".to_owned(),
            12 => "y = x.f_globals".to_owned(),
            13 => format!(
                "match {e}:\n{indent}    case 1:\n{indent}        pass\n{indent}    case [a, *b] if a:\n{indent}        pass"
            ),
            14 => "async def g():\n        await h()".replace("        ", &format!("{indent}    ")),
            15 => format!("for i in {e} + 1:\n{indent}    pass"),
            16 => "y = (yield)".to_owned(),
            17 => "y = a @ b".to_owned(),
            _ => "y = unknown_tool(1)".to_owned(),
        };
        format!("{indent}{s}\n")
    }

    /// A whole runnable program: a few statements and a final expression.
    pub(super) fn runnable_program(&mut self) -> String {
        let mut src = String::new();
        let n = 1 + self.rng.below(7);
        for _ in 0..n {
            let s = self.stmt("", 2);
            src.push_str(&s);
        }
        let last = if self.rng.chance(30) && !self.vars.is_empty() {
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
