//! Fuzz target beside `fuzz_run`: families of programs that make a builtin
//! or method loop over, or allocate in proportion to, an input that shares
//! structure, is deep or is huge (issue 27 §2).
//!
//! Each family is an input (two equal values `v` and `w` built apart: a
//! DAG of doubled lists, tuples or dicts, lists nested 100 wide at four
//! levels, chains 100,000 deep, long lists, strings (ASCII or not), big
//! sets and dicts, big ints) crossed
//! with an operation (sorting, `min`/`max`/`sum`/`any`/`all`, `join`,
//! `str`/formatting, constructors, `zip`/`enumerate`/`reversed`,
//! `in`, `==`, `<`, `count`, `index`, repetition, hashing, slicing, `+`,
//! int arithmetic, `%`/`format`/f-string specs, the str methods).
//! Every pair runs twice:
//!
//! * small (a few items): the answer must be CPython's, value or error;
//! * huge, under a small budget: the run must end within its limits (wall
//!   time with a margin for a loaded debug build, no abort) with a
//!   correct result, the error CPython gave for the small input (the same
//!   type error whatever the size), or `MemoryError`, `TimeoutError`,
//!   `RecursionError` or `StepLimitError`. The result's variables are
//!   written too (`v`, `w` and the result are module-level names).
//!
//! `LACKPY_FUZZ_CASES` sets how many huge pairs run (all small ones always
//! run), `LACKPY_FUZZ_SEED` which, `LACKPY_FUZZ_VERBOSE=1` prints each.

use crate::{difftest, programs};

use std::time::{Duration, Instant};

use lackpy_lang::{Limits, NoTools, RunOptions, run};
use programs::Rng;
use serde_json::{Value as Json, json};

/// An input family: its name and the prelude binding `v` and `w`, small
/// (for CPython) or huge (for the limits).
type Input = (&'static str, fn(bool) -> String);

fn pick(small: bool, s: usize, h: usize) -> usize {
    if small { s } else { h }
}

/// Two equal values, each built by `body` (about `n` times) from `start`.
fn twice(start: &str, n: usize, body: &str) -> String {
    let mut out = String::new();
    for name in ["v", "w"] {
        out.push_str(&format!(
            "{name} = {}\nfor _ in range({n}):\n    {name} = {}\n",
            start.replace('@', name),
            body.replace('@', name)
        ));
    }
    out
}

const INPUTS: &[Input] = &[
    ("list_dag", |s| twice("[1]", pick(s, 3, 60), "[@, @]")),
    ("tuple_dag", |s| twice("(1,)", pick(s, 3, 60), "(@, @)")),
    ("dict_dag", |s| {
        twice("{'a': 1}", pick(s, 3, 60), "{'a': @, 'b': @}")
    }),
    ("wide", |s| {
        let n = pick(s, 2, 100);
        format!("v = [[[[1]*{n}]*{n}]*{n}]*{n}\nw = [[[[1]*{n}]*{n}]*{n}]*{n}\n")
    }),
    ("wide_tuples", |s| {
        let n = pick(s, 2, 100);
        format!("v = ((((1,)*{n},)*{n},)*{n},)*{n}\nw = ((((1,)*{n},)*{n},)*{n},)*{n}\n")
    }),
    ("deep_list", |s| twice("[]", pick(s, 4, 100_000), "[@]")),
    ("deep_tuple", |s| twice("()", pick(s, 4, 100_000), "(@,)")),
    ("deep_dict", |s| {
        twice("{}", pick(s, 4, 100_000), "{'k': @}")
    }),
    ("long_ints", |s| {
        let n = pick(s, 6, 400_000);
        format!("v = list(range({n}))\nw = list(range({n}))\n")
    }),
    ("long_strs", |s| {
        let n = pick(s, 6, 200_000);
        format!("v = [str(i) for i in range({n})]\nw = [str(i) for i in range({n})]\n")
    }),
    ("long_text", |s| {
        let n = pick(s, 3, 4_000_000);
        format!("v = 'ab' * {n}\nw = 'ab' * {n}\n")
    }),
    ("big_int", |s| twice("3", pick(s, 3, 22), "@ * @")),
    ("big_set", |s| {
        let n = pick(s, 6, 300_000);
        format!("v = set(range({n}))\nw = set(range({n}))\n")
    }),
    ("big_dict", |s| {
        let n = pick(s, 6, 200_000);
        format!("v = {{i: str(i) for i in range({n})}}\nw = {{i: str(i) for i in range({n})}}\n")
    }),
    ("unicode_text", |s| {
        let n = pick(s, 3, 3_000_000);
        format!("v = 'é∂' * {n}\nw = 'é∂' * {n}\n")
    }),
];

/// Operations over `v` and `w`.
const OPS: &[&str] = &[
    "sorted(v)",
    "sorted(v, key=lambda t: t)",
    "sorted(v, reverse=True)",
    "sorted([v, w, v])",
    "list(v).sort()",
    "min(v)",
    "max(v)",
    "max([v, w])",
    "sum(v)",
    "any(v)",
    "all(v)",
    "','.join(v)",
    "len(str([v]))",
    "len(str(v))",
    "str({'a': v})",
    "list(v)",
    "tuple(v)",
    "len(set(v))",
    "dict(zip(v, w))",
    "list(zip(v, w))",
    "list(enumerate(v))",
    "list(reversed(v))",
    "v in [w]",
    "w in v",
    "v == w",
    "v != w",
    "v < w",
    "v.count(w)",
    "v.index(v)",
    "len(v * 3)",
    "len([v] * 1000)",
    "'%s' % (v,)",
    "'%r' % (v,)",
    "len(f'{v}')",
    "len(f'{v!r:>20}')",
    "len('{}'.format(v))",
    "len({v})",
    "{v: 1}",
    "len(v[::-1])",
    "len(v + w)",
    "print(v)",
    "min(v, key=lambda t: t)",
    "max(v, default=0)",
    "sum([v, w], [])",
    "v * w",
    "v // (w // 7 + 1)",
    "v % 1000",
    "-v + w",
    "round(v, -3)",
    "str(v)[:10]",
    "'%d' % (v,)",
    "len(f'{v:x}')",
    "len(v.upper())",
    "len(v.replace('a', 'bb'))",
    "len(v.split('a'))",
    "len('-'.join([v] * 10))",
    "len(v * 100000)",
    "sorted(zip(v, w))",
    "len([x for x in v if x])",
    "len({k: 1 for k in v})",
    "len(list(v.items()))",
    "'{:>{}}'.format(v, 50)[:5]",
];

/// The budget of a huge run.
fn small_budget() -> RunOptions {
    RunOptions {
        limits: Limits {
            timeout: Duration::from_millis(300),
            max_steps: 2_000_000,
            max_memory: 32 << 20,
            max_result: 4 << 20,
            max_stdout: 64 << 10,
            ..Limits::default()
        },
        ..RunOptions::default()
    }
}

/// What a huge run may take: its timeout, the building of its input (a
/// debug build is slow) and a margin for a loaded machine.
const HUGE_WALL: Duration = Duration::from_millis(2500);

/// Limit errors a huge run may end with besides CPython's own answer.
const LIMITS: &[&str] = &[
    "MemoryError",
    "TimeoutError",
    "RecursionError",
    "StepLimitError",
];

/// The pair's program: a small one answers `r`, a huge one leaves it to
/// the variables (its output would only meet the result's limit).
fn program(input: &Input, op: &str, small: bool) -> String {
    let last = if small { "r" } else { "0" };
    format!("{}r = {op}\n{last}\n", (input.1)(small))
}

/// Our answer to a small program, as `cpython_eval.py` writes CPython's.
fn ours_small(src: &str) -> Json {
    let Ok(module) = lackpy_lang::parse(src) else {
        return json!({"error": "does not parse"});
    };
    let out = run(&module, &mut NoTools, &[], &RunOptions::default());
    match &out.error {
        None => json!({"repr": out.output_repr.unwrap_or_default(), "stdout": out.stdout}),
        Some(msg) => json!({
            "error": format!("{}: {msg}", out.error_type.unwrap_or_default()),
            "stdout": out.stdout,
        }),
    }
}

/// Runs one huge program under the small budget: `Err` says what is wrong.
fn check_huge(src: &str, allowed_error: Option<&str>) -> Result<String, String> {
    let module = lackpy_lang::parse(src).map_err(|e| format!("does not parse: {e}"))?;
    let start = Instant::now();
    let out = run(&module, &mut NoTools, &[], &small_budget());
    let took = start.elapsed();
    if took > HUGE_WALL {
        return Err(format!("took {took:?} under a 300 ms budget"));
    }
    let kind = out.error_type.as_deref();
    match kind {
        None if out.success => Ok(format!("ok in {took:?}")),
        Some(k) if LIMITS.contains(&k) || allowed_error == Some(k) => {
            Ok(format!("{k} in {took:?}"))
        }
        // CPython's own size limit: an int past 4300 digits has no text.
        Some("ValueError")
            if out
                .error
                .as_deref()
                .is_some_and(|m| m.starts_with("Exceeds the limit (4300 digits)")) =>
        {
            Ok(format!("ValueError (digits) in {took:?}"))
        }
        _ => Err(format!(
            "ended with {kind:?}: {:?} (CPython's small answer: {allowed_error:?})",
            out.error
        )),
    }
}

#[test]
fn builtins_over_shared_deep_and_huge_inputs_end_within_their_limits() {
    let pairs: Vec<(usize, usize)> = (0..INPUTS.len())
        .flat_map(|i| (0..OPS.len()).map(move |o| (i, o)))
        .collect();
    // Small: every pair, answered as CPython answers.
    let small: Vec<String> = pairs
        .iter()
        .map(|&(i, o)| program(&INPUTS[i], OPS[o], true))
        .collect();
    let want = difftest::cpython("cpython_eval.py", &json!(small));
    let want = want.as_array().cloned().unwrap_or_default();
    assert_eq!(want.len(), small.len(), "one CPython answer per program");
    let mut failures = Vec::new();
    let mut errors: Vec<Option<String>> = Vec::new();
    for (src, want) in small.iter().zip(&want) {
        let ours = ours_small(src);
        // The error's type, for the huge run of the same pair.
        errors.push(
            want["error"]
                .as_str()
                .and_then(|e| e.split(':').next())
                .map(str::to_owned),
        );
        let same = match (want.get("error"), ours.get("error")) {
            (Some(w), Some(o)) => w == o && want["stdout"] == ours["stdout"],
            (None, None) => want["repr"] == ours["repr"] && want["stdout"] == ours["stdout"],
            _ => false,
        };
        if !same {
            failures.push(format!(
                "small:\n{src}\n  CPython: {want}\n  ours:    {ours}"
            ));
        }
    }
    // Huge: a sample of the pairs (all of them with LACKPY_FUZZ_CASES).
    let seed = programs::seed(0x27_0002);
    let cases = programs::cases(140).min(pairs.len() as u64) as usize;
    let mut order: Vec<usize> = (0..pairs.len()).collect();
    let mut rng = Rng::for_case(seed, 0);
    for k in (1..order.len()).rev() {
        order.swap(k, rng.below(k + 1));
    }
    let chosen: Vec<(String, Option<String>)> = order[..cases]
        .iter()
        .map(|&p| {
            let (i, o) = pairs[p];
            (program(&INPUTS[i], OPS[o], false), errors[p].clone())
        })
        .collect();
    let verbose = programs::verbose();
    let huge = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let mut bad = Vec::new();
            for (src, allowed) in chosen {
                if verbose {
                    eprintln!("--- huge\n{src}");
                }
                let res = std::panic::catch_unwind(|| check_huge(&src, allowed.as_deref()))
                    .unwrap_or_else(|_| Err("panicked".to_owned()));
                if verbose {
                    eprintln!("=== {res:?}");
                }
                if let Err(why) = res {
                    bad.push(format!("huge:\n{src}\n  {why}"));
                }
            }
            bad
        })
        .expect("a thread")
        .join()
        .unwrap_or_else(|_| vec!["the huge runs' thread died".to_owned()]);
    failures.extend(huge);
    assert!(
        failures.is_empty(),
        "{} failed:\n{}",
        failures.len(),
        failures[..failures.len().min(12)].join("\n\n")
    );
}
