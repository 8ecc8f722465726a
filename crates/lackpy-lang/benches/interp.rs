//! Interpreter benchmarks: the workloads lackpy programs are made of.
#![allow(missing_docs)] // criterion's macros generate undocumented items
//!
//! Each program is parsed once and run per iteration. After criterion's
//! runs, every program is timed again beside CPython running the same text
//! (benches/compare/interp.py: compiled once, exec'd in a fresh namespace,
//! best of 7 on each side, alternating) and a table of ratios with their
//! geometric mean is printed. Set `LACKPY_BENCH_NO_CPYTHON=1` to skip it.

use std::hint::black_box;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group};
use lackpy_lang::Data;
use lackpy_lang::{Host, RunOptions, ToolException, run};

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
    ) -> Result<Data, ToolException> {
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
        let module = lackpy_lang::parse(src).expect("benchmark program parses");
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

/// Best of `n` runs of one program, through the same path as the benchmark.
fn best_of(src: &str, n: usize) -> Duration {
    let module = lackpy_lang::parse(src).expect("benchmark program parses");
    (0..n)
        .map(|_| {
            let mut host = FastHost {
                args: vec!["x".to_owned()],
            };
            let start = Instant::now();
            let out = run(&module, &mut host, &[], &RunOptions::default());
            drop(black_box(out));
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// CPython's best time for one program (seconds), or `None` without python3.
fn cpython_best(name: &str, src: &str) -> Option<f64> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/compare/interp.py");
    let mut child = Command::new("python3")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .ok()?;
    let input = serde_json::json!([[name, src]]).to_string();
    child.stdin.take()?.write_all(input.as_bytes()).ok()?;
    let out = child.wait_with_output().ok()?;
    let times: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
    times.get(name)?.as_f64()
}

/// Prints each program's time beside CPython's and the geometric mean of
/// the speed-ups of the CPU-bound suite (the tool-call program is shown
/// but not counted: CPython has no host boundary to cross).
fn compare_with_cpython() {
    if std::env::var_os("LACKPY_BENCH_NO_CPYTHON").is_some() {
        return;
    }
    eprintln!(
        "\n{:<24} {:>10} {:>10} {:>8}",
        "program", "lackpy", "CPython", "speed-up"
    );
    let mut logs = Vec::new();
    for (name, src) in PROGRAMS {
        let ours = best_of(src, 7).as_secs_f64();
        let Some(py) = cpython_best(name, src) else {
            eprintln!("python3 unavailable: no comparison");
            return;
        };
        let ratio = py / ours;
        eprintln!(
            "{name:<24} {:>8.2}ms {:>8.2}ms {ratio:>7.2}x",
            ours * 1e3,
            py * 1e3
        );
        if *name != "tool_calls_100k" {
            logs.push(ratio.ln());
        }
    }
    let geo = (logs.iter().sum::<f64>() / logs.len().max(1) as f64).exp();
    eprintln!("geometric mean speed-up (CPU-bound suite): {geo:.2}x");
}

criterion_group!(benches, bench);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    compare_with_cpython();
}
