//! Differential test of the parser against CPython 3.11's `ast` module.
//!
//! Every corpus program, the column cases below and a few thousand
//! generated ones ([`programs::parser_corpus`]: programs over the whole
//! grammar, runnable ones with refused statements, deep nesting, known
//! errors and token mutations exercising error lines) go to
//! `tests/it/difftest/cpython_walk.py` in one `python3` run. For each
//! program CPython gives either the breadth-first `ast.walk` list of
//! `[kind, lineno, col_offset]` or its parse error line; ours must be
//! identical, so every node that has a position (statements, expressions,
//! `except` clauses, parameters, keywords, import names, patterns; f-string
//! parts and fields included) must have CPython's line and column.
//! `python3` is required: without it the test fails. `LACKPY_FUZZ_CASES`
//! sets how many programs are generated (6000), `LACKPY_FUZZ_SEED` which;
//! `DIFF_MESSAGES=1` prints the error messages that differ (not a failure).

use lackpy_lang::parse;
use lackpy_lang::{NodeRef, walk};
use serde_json::Value;

use crate::corpus;
use crate::difftest;
use crate::programs;

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
                .map(|n| serde_json::json!([n.kind(), n.line(), n.col()]))
                .collect();
            serde_json::json!({ "walk": nodes })
        }
        Err(e) => serde_json::json!({ "error": e.line, "msg": e.message }),
    }
}

/// Programs aimed at columns: parentheses around leading operands,
/// multi-byte characters, tabs, continuation lines, `\r\n`, f-string
/// fields on later lines of triple-quoted strings and in concatenations,
/// and every kind of node that carries a position.
const COLUMN_CASES: &[&str] = &[
    "(a) + b * (c)\n((a)) . b(c)[d]\n",
    "x = ((a + b)) * c - -(d) ** 2\n",
    "(a)(b)(c).d\nnot (a) and (b) or c\n",
    "(a) < b <= (c) if (d) else (e)\n",
    "é = 'ü' + ñ\nx = (é, '☃', f'{é}')\n",
    "\tx = 1\nif x:\n\ty = (\n\t\t1,\n\t2)\n",
    "x = 1 + \\\n    2 + \\\n  3\n",
    "x = [\n  a\n    for b in c if (d)\n]\n",
    "f(x for x in y)\nf((x for x in y), z)\nf(*a, **b, c=(d))\n",
    "x = a[1:2, ::3, (4):, *b]\ny = a[:]\n",
    "a = b = (c) = d\na += (1)\na: (int) = (2)\n(a): int\n",
    "x = 1; y = 2 ;  z = (3)\n",
    "@dec\n@(dec2)(x)\ndef f(a, /, b: int = 1, *c, d, e=2, **g) -> (int):\n    return (a)\n",
    "class C(B, metaclass=M, **kw):\n    x: int\n",
    "async def f():\n    async with a as (b), c:\n        await (x)\n    async for (i) in y:\n        pass\n",
    "if a:\n    pass\nelif (b):\n    pass\nelif c:\n    pass\nelse:\n    pass\n",
    "try:\n    pass\nexcept (E) as e:\n    pass\nexcept F:\n    pass\nelse:\n    pass\nfinally:\n    pass\n",
    "try:\n    pass\nexcept* E:\n    pass\n",
    "with (open(a) as b, c):\n    pass\nwith (a, b):\n    pass\n",
    "import a.b as c, d\nfrom .. e import (f as g, h)\nfrom i import *\n",
    "global a, b\ndel (a), b[0], c.d\nassert (a), 'm'\nraise (E) from (F)\n",
    "lambda a, *b, c=1, **d: (a)\nx = lambda: 0\n",
    "x = (y := 1)\n[(z := 2) for q in r]\n",
    "x = {**a, 'b': (c), **{d: e}}\ny = {a, *b}\nz = {k: v for k, v in w}\n",
    "x = yield\ny = (yield a)\nz = yield from (b)\n",
    "match (p):\n    case [1, *r] if (r):\n        pass\n    case {'k': (v), **rest}:\n        pass\n    case C(a, b=(2)) | None | (-1 + 2j):\n        pass\n    case (a as b) | [c, (d)]:\n        pass\n    case x.y.z | 'q' 'r':\n        pass\n",
    "x = f'a{b}c{d!r:>{w}}e'\ny = 'q' f'a{b}c' f'{zz}'\n",
    "x = (f'{a}'\n    f'{b:>{c}}'\n  'c')\n",
    "x = f'''ab\ncd{e}f\n  {g+h}'''\ny = f'''{\n  a\n}'''\n",
    "x = f'''{a\n+b}''' f'''\n{c}'''\n",
    "x = f'{ {a: b}[c] }' f'{f\"{d}\"}' f'{ e = }'\n",
    "é = f'{é}{ü!a}' + f'''\n  {ñ:{é}}'''\n",
    "x = 1\r\ny = (2,\r\n     3)\r\n",
    "x = '''a\nb''' + c\ny = 'd' \\\n  'e' + f\n",
    "x = \\\n  f'{a}' + g(\n  b)\n",
    "if a:\n    x = [i for i in (j) if (i)]\n    y = {i for i in j}\n",
    "print(*a, sep='', **b)\nf(a)(b)[c](d)\n",
    "x = a if b else (c if d else e)\n",
    "x = -a ** -b\ny = ~a\nz = not not a\n",
    "for (a), b in c:\n    pass\nfor [a, *b] in c:\n    pass\n",
    "x = a.b.c.d\n(a).b\na.b(c).d[e].f\n",
    "while (a):\n    break\nelse:\n    continue\n",
    "x = [*a, *(b)]\n*a, b = c\n(*a, b) = c\n[a, (b)] = c\n",
    "def f(a, b=(1, 2), *, c=[3]):\n    nonlocal x\n",
    "x = ...\ny = None, True, False\nz = 1_000 + 0x1f + 1e3j + 'a' b'b'[0]\n",
    "x = f'{a}' f'{b}' 'c' f'''{d\n}'''\n",
    "x = (\n  f'{a:{b}{c}}' 'd'\n)\n",
];

fn cpython(programs: &[String]) -> Vec<Value> {
    let out = difftest::cpython("cpython_walk.py", &serde_json::json!(programs));
    serde_json::from_value(out).expect("a list from cpython_walk.py")
}

#[derive(Default)]
struct Tally {
    compared: usize,
    /// Nodes with a position (line and column) compared in accepted
    /// programs.
    positioned: usize,
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
                tally.positioned += w
                    .as_array()
                    .map_or(0, |ns| ns.iter().filter(|n| !n[2].is_null()).count());
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
    let mut sources = corpus_programs();
    let n_corpus = sources.len();
    sources.extend(COLUMN_CASES.iter().map(|s| s.to_string()));
    let seed = programs::seed(0x5eed_1a2b);
    let count = programs::cases(6000) as usize;
    sources.extend(programs::parser_corpus(seed, count));
    let mut tally = Tally::default();
    compare(&sources, &mut tally);
    eprintln!(
        "differential: {} programs ({} corpus, {} column cases), {} accepted ({} positioned \
         nodes), {} rejected; verdict mismatches {}, tree mismatches {}, line mismatches {}, \
         message differences {}",
        tally.compared,
        n_corpus,
        COLUMN_CASES.len(),
        tally.accepted,
        tally.positioned,
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
