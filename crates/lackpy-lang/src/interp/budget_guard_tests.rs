//! The guard for the rule that builtin work is metered (language.md §5):
//! every builtin and every method of every type, walked from the real
//! tables, runs on a huge input under a short deadline and a small memory
//! budget, and must end (with a result, a Python error or a limit error)
//! within seconds. A builtin or method added without a case here fails
//! the table walk, so new ones are covered from the start.

use std::time::Duration;

use super::{Limits, NoTools, RunOptions, run};
use crate::syntax::catalog::{BUILTINS, MethodId, TypeId};
use crate::types::methods::methods_of;

/// An iterable of 10**18 items.
const HUGE: &str = "reversed(range(1000000000000000000))";

/// A program applying builtin `name` to a huge input (its output, when it
/// has one, is made small so only the builtin's own work counts).
fn builtin_case(name: &str) -> Option<String> {
    let h = HUGE;
    Some(match name {
        "len" => "len('ab' * 1000000) + len(range(1000000000000000000))".to_owned(),
        "sorted" => format!("sorted({h})"),
        "reversed" => format!("list({h})"),
        "enumerate" => format!("list(enumerate({h}))"),
        "zip" => format!("list(zip({h}, {h}))"),
        "range" => "list(range(1000000000000000000))".to_owned(),
        "min" => format!("min({h})"),
        "max" => format!("max({h}, key=lambda v: -v)"),
        "sum" => format!("sum({h})"),
        "any" => "any(reversed([0] * 300000 + [0] * 300000))".to_owned(),
        "all" => "all(range(1, 1000000000000000000))".to_owned(),
        "abs" => "abs(-int('9' * 4000))".to_owned(),
        "round" => "round(int('9' * 4000), -3000) + round(1.5, 1000000000000000000)".to_owned(),
        "str" => "str(list(range(300000)))".to_owned(),
        "int" => "int('9' * 4000) + int('1' * 500000)".to_owned(),
        "float" => "float('1' * 500000)".to_owned(),
        "bool" => format!("bool({h})"),
        "list" => format!("list({h})"),
        "dict" => format!("dict(zip({h}, {h}))"),
        "set" => format!("set({h})"),
        "tuple" => format!("tuple({h})"),
        "isinstance" => "isinstance('a', (int,) * 300000 + (str,))".to_owned(),
        "print" => format!("print(*{h})"),
        "sort_by" => "sort_by([{'k': 1}, {'k': 0}] * 150000, 'k')".to_owned(),
        _ => return None,
    })
}

/// An expression for a huge receiver of type `t`, or `None` if no value
/// of the type has methods. (Not bound to a name: the cases end with a
/// small output and no variables, so only the method's own work counts.)
fn receiver(t: TypeId) -> Option<&'static str> {
    Some(match t {
        TypeId::Str => "('a\\u03a3 b\\t\\n' * 150000)",
        TypeId::Bytes => "(b'ab' * 500000)",
        TypeId::List => "([0, 1] * 150000)",
        TypeId::Tuple => "((0, 1) * 150000)",
        TypeId::Dict => "(dict.fromkeys(range(40000)))",
        TypeId::Set => "(set(range(40000)))",
        TypeId::Int => "(int('9' * 4000))",
        TypeId::Bool => "(True)",
        TypeId::Float => "(1.5e300)",
        TypeId::Complex => "(2j)",
        TypeId::Range => "(range(1000000000000000000))",
        TypeId::DictKeys => "(dict.fromkeys(range(40000)).keys())",
        TypeId::DictItems => "(dict.fromkeys(range(40000)).items())",
        _ => return None,
    })
}

/// The arguments of `x.m(...)` that make method `m` of type `t` do the
/// most work.
fn method_args(t: TypeId, m: MethodId) -> Option<String> {
    use MethodId as M;
    let h = HUGE;
    let s = t == TypeId::Str;
    Some(match m {
        M::Capitalize | M::Casefold | M::Lower | M::Upper | M::Swapcase | M::Title => String::new(),
        M::Isalnum | M::Isalpha | M::Isascii | M::Isdecimal | M::Isdigit | M::Isidentifier => {
            String::new()
        }
        M::Islower | M::Isnumeric | M::Isprintable | M::Isspace | M::Istitle | M::Isupper => {
            String::new()
        }
        M::Center | M::Ljust | M::Rjust | M::Zfill => "100000000".to_owned(),
        M::Expandtabs => "100000".to_owned(),
        M::Find | M::Rfind | M::Index | M::Rindex if t == TypeId::Bytes => "b'zz'".to_owned(),
        M::Strip | M::Lstrip | M::Rstrip if t == TypeId::Bytes => "b'a'".to_owned(),
        M::Replace if t == TypeId::Bytes => "b'a', b'x' * 3000000".to_owned(),
        M::Join if t == TypeId::Bytes => "[b'x' * 3000000] * 300".to_owned(),
        M::Partition | M::Rpartition if t == TypeId::Bytes => "b'zz'".to_owned(),
        M::Removeprefix | M::Removesuffix if t == TypeId::Bytes => "b'a'".to_owned(),
        M::Count | M::Find | M::Rfind | M::Partition | M::Rpartition if s => "'b\\t'".to_owned(),
        M::Index | M::Rindex if s => "'zz'".to_owned(),
        M::Startswith | M::Endswith if s => "('q', 'r', 'a')".to_owned(),
        M::Removeprefix | M::Removesuffix => "'a'".to_owned(),
        M::Split | M::Rsplit => String::new(),
        M::Splitlines => "True".to_owned(),
        M::Strip | M::Lstrip | M::Rstrip => "'a'".to_owned(),
        M::Encode => String::new(),
        M::Format => format!("*{h}"),
        M::FormatMap => "{}".to_owned(),
        M::Translate => "{97: 'xyz' * 100}".to_owned(),
        M::Maketrans => "dict.fromkeys(range(400000))".to_owned(),
        M::Join => "'x' * 3000000".to_owned(),
        M::Replace => "'a', 'x' * 3000000".to_owned(),
        M::Decode | M::Hex => String::new(),
        M::Count | M::Startswith | M::Endswith if t == TypeId::Bytes => "b'b'".to_owned(),
        M::Count | M::Index | M::Remove => "-1".to_owned(),
        M::Append | M::Add | M::Discard => "1".to_owned(),
        M::Extend | M::Update if t != TypeId::Dict => h.to_owned(),
        M::Update => format!("zip({h}, {h})"),
        M::Insert => "0, 1".to_owned(),
        M::Pop if t == TypeId::Dict => "-1, 0".to_owned(),
        M::Pop | M::Popitem | M::Clear | M::Copy | M::Reverse => String::new(),
        M::Sort => "key=lambda v: -v".to_owned(),
        M::Fromkeys => h.to_owned(),
        M::Get | M::Setdefault => "-1".to_owned(),
        M::Items | M::Keys | M::Values => String::new(),
        M::Difference | M::DifferenceUpdate | M::Intersection | M::IntersectionUpdate => {
            h.to_owned()
        }
        M::Isdisjoint | M::Issubset | M::Issuperset | M::Union => h.to_owned(),
        M::SymmetricDifference | M::SymmetricDifferenceUpdate => h.to_owned(),
        M::BitLength | M::BitCount | M::Conjugate | M::AsIntegerRatio | M::IsInteger => {
            String::new()
        }
        _ => return None,
    })
}

/// Every case: (what it covers, program). Panics naming what has no case.
fn cases() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut missing = Vec::new();
    for b in BUILTINS {
        let name = b.what.name();
        match builtin_case(name) {
            Some(p) => out.push((format!("{name}()"), format!("[{p}] and None"))),
            None => missing.push(format!("{name}()")),
        }
    }
    for &t in TypeId::ALL {
        let Some(methods) = methods_of(t) else {
            continue;
        };
        for (m, _) in methods.declared() {
            let what = format!("{}.{}", t.name(), m.name());
            match (receiver(t), method_args(t, m)) {
                (Some(r), Some(a)) => out.push((what, format!("[{r}.{}({a})] and None", m.name()))),
                _ => missing.push(what),
            }
        }
    }
    assert!(
        missing.is_empty(),
        "no huge-input case for {missing:?}: add one to budget_guard_tests.rs"
    );
    out
}

fn run_case(src: &str) -> (Option<String>, Duration) {
    let module = match crate::syntax::parse::parse(src) {
        Ok(m) => m,
        Err(e) => return (Some(format!("parse: {e}")), Duration::ZERO),
    };
    let opts = RunOptions {
        limits: Limits {
            timeout: Duration::from_millis(150),
            max_memory: 8 * 1024 * 1024,
            ..Limits::default()
        },
        ..RunOptions::default()
    };
    // CPU time: a bound on work that a loaded machine does not stretch.
    let (out, took) = lackpy_test_support::cpu::measure(|| run(&module, &mut NoTools, &[], &opts));
    (out.error_type, took)
}

/// The peak resident set of this process since `reset`, where Linux tells.
fn peak_rss(reset: bool) -> Option<usize> {
    if reset {
        std::fs::write("/proc/self/clear_refs", "5").ok()?;
    }
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

#[test]
fn every_builtin_and_method_is_bounded_on_huge_input() {
    let cases = cases();
    let measured = peak_rss(true).is_some();
    let threads = 4;
    let chunks: Vec<Vec<(String, String)>> = (0..threads)
        .map(|i| cases.iter().skip(i).step_by(threads).cloned().collect())
        .collect();
    let handles: Vec<_> = chunks
        .into_iter()
        .map(|chunk| {
            std::thread::Builder::new()
                .stack_size(16 * 1024 * 1024)
                .spawn(move || {
                    let mut bad = Vec::new();
                    for (what, src) in chunk {
                        let (err, took) = run_case(&src);
                        let ended_badly = matches!(err.as_deref(), Some(e) if e.starts_with("parse")
                            || e == "ValidationError");
                        if ended_badly || took > Duration::from_secs(3) {
                            bad.push(format!("{what}: {err:?} after {took:?}"));
                        }
                    }
                    bad
                })
        })
        .collect();
    let mut bad = Vec::new();
    for h in handles {
        match h {
            Ok(h) => bad.extend(
                h.join()
                    .unwrap_or_else(|_| vec!["a case panicked".to_owned()]),
            ),
            Err(e) => bad.push(format!("no thread: {e}")),
        }
    }
    assert!(bad.is_empty(), "unbounded or broken cases: {bad:#?}");
    // Four runs at a time under 8 MiB each: the process never came near
    // what an unmetered builtin takes (gigabytes within the deadline).
    if let (true, Some(peak)) = (measured, peak_rss(false)) {
        assert!(peak < 512 * 1024 * 1024, "peak RSS {} MiB", peak >> 20);
    }
}
