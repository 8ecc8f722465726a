//! Interpreter benchmarks: the workloads lackpy programs are made of.
#![allow(missing_docs)] // criterion's macros generate undocumented items
//!
//! Each program is parsed once and run per iteration; compare with CPython
//! running the same text (`python3 -c`), which these are designed to match.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use lackpy_lang::Data;
use lackpy_lang::interp::{Host, RunOptions, ToolError, run};

/// A host whose one tool, `noop`, returns at once.
struct FastHost {
    args: Vec<String>,
}

impl Host for FastHost {
    fn tool_args(&self, name: &str) -> Option<&[String]> {
        (name == "noop").then_some(self.args.as_slice())
    }

    fn call(
        &mut self,
        _tool: &str,
        mut args: Vec<Data>,
        _kwargs: Vec<(String, Data)>,
    ) -> Result<Data, ToolError> {
        Ok(args.pop().unwrap_or(Data::None))
    }
}

/// The benchmark programs, by name.
pub const PROGRAMS: &[(&str, &str)] = &[
    (
        "arith_loop_1m",
        "total = 0\nfor i in range(1000000):\n    total = total + i * 2 % 7\ntotal",
    ),
    (
        "string_build_split",
        "parts = []\nfor i in range(100000):\n    parts.append(str(i))\ns = ','.join(parts)\nt = ''\nfor p in parts:\n    t += p\n[len(s.split(',')), len(t), s.count('9')]",
    ),
    (
        "dict_count_100k_words",
        "words = ('the quick brown fox jumps over the lazy dog ' * 11112).split()\ncounts = {}\nfor w in words:\n    counts[w] = counts.get(w, 0) + 1\nsorted(counts.items())",
    ),
    (
        "nested_comprehensions",
        "grid = [[i * j for j in range(300)] for i in range(300)]\nsum([sum(row) for row in grid if row[1] % 2 == 0])",
    ),
    (
        "sorted_key_100k_dicts",
        "rows = [{'id': i, 'score': (i * 7919) % 1000} for i in range(100000)]\nranked = sorted(rows, key=lambda r: r['score'])\n[ranked[0]['id'], ranked[-1]['id']]",
    ),
    (
        "fstring_loop",
        "out = []\nfor i in range(100000):\n    out.append(f'{i:>8}|{i / 3:.2f}|{i!r}')\nlen(out)",
    ),
    ("tool_calls_100k", "for i in range(100000):\n    noop(i)"),
];

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("interp");
    group.sample_size(10);
    for (name, src) in PROGRAMS {
        let module = lackpy_lang::parse::parse(src).expect("benchmark program parses");
        group.bench_function(*name, |b| {
            b.iter(|| {
                let mut host = FastHost {
                    args: vec!["x".to_owned()],
                };
                let out = run(&module, &mut host, &[], &RunOptions::default());
                assert!(out.success, "{name}: {:?}", out.error);
                black_box(out)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
