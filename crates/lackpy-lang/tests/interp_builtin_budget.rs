//! Work inside builtins and methods is bounded like the program's own:
//! their loops read the clock and the cancel flag, their temporary buffers
//! count against the memory budget, and comparing or hashing shared
//! structure ends at the deadline (language.md §5).

use std::time::Duration;

use lackpy_test_support::cpu::measure;

use lackpy_lang::{Limits, NoTools, RunOptions, RunOutcome, run};

const MIB: usize = 1024 * 1024;

fn run_limited(src: &str, timeout_ms: u64, max_memory: usize) -> (RunOutcome, Duration) {
    let module = lackpy_lang::parse(src).expect("program parses");
    let opts = RunOptions {
        limits: Limits {
            timeout: Duration::from_millis(timeout_ms),
            max_memory,
            ..Limits::default()
        },
        ..RunOptions::default()
    };
    // CPU time, not the wall clock: a bound on work that a loaded machine
    // does not stretch.
    measure(|| run(&module, &mut NoTools, &[], &opts))
}

/// `src` ends with TimeoutError soon after a 200 ms deadline.
#[track_caller]
fn assert_times_out(src: &str) {
    let (out, took) = run_limited(src, 200, 64 * MIB);
    assert_eq!(
        out.error_type.as_deref(),
        Some("TimeoutError"),
        "{src}: {:?}",
        out.error
    );
    assert!(took < Duration::from_secs(5), "{src} took {took:?}");
}

#[test]
fn iterating_a_huge_range_inside_a_builtin_reads_the_clock() {
    assert_times_out("-1 in reversed(range(1000000000000000000))");
    assert_times_out("(0, -1) in enumerate(range(1000000000000000000))");
    assert_times_out("(0, -1) in enumerate(reversed(range(1000000000000000000)))");
    assert_times_out("{1}.isdisjoint(range(2, 1000000000000000000))");
    assert_times_out("{-1: 2}.keys().isdisjoint(range(1000000000000000000))");
    assert_times_out("{-1: 2}.items().isdisjoint(zip(range(1000000000000000000)))");
    assert_times_out("d = {1: 2}\nd.keys() - range(1000000000000)");
    assert_times_out("all(range(1, 1000000000000))");
    assert_times_out("max(range(1000000000000))");
    assert_times_out("sum(reversed(range(1000000000000)))");
}

/// Two distinct DAGs of 60 levels: each has 2**60 paths, so `==`, `<` and
/// hashing visit exponentially many elements unless each visit is charged.
fn dag(kind: &str, leaf: &str) -> String {
    format!(
        "def_a = {leaf}\ndef_b = {leaf}\nfor i in range(60):\n    def_a = {kind}\n    def_b = {kind_b}\n",
        kind = kind.replace('X', "def_a"),
        kind_b = kind.replace('X', "def_b"),
    )
}

#[test]
fn comparing_and_hashing_shared_structure_ends_at_the_deadline() {
    let lists = dag("[X, X]", "[0]");
    assert_times_out(&format!("{lists}def_a == def_b"));
    assert_times_out(&format!("{lists}def_a != def_b"));
    assert_times_out(&format!("{lists}def_a < def_b"));
    assert_times_out(&format!("{lists}def_a in [def_b]"));
    let tuples = dag("(X, X)", "(0,)");
    assert_times_out(&format!("{tuples}def_a == def_b"));
    assert_times_out(&format!("{tuples}{{def_a}}"));
    assert_times_out(&format!("{tuples}{{def_a: 1}}"));
    let dicts = dag("{'k': X, 'j': X}", "{}");
    assert_times_out(&format!("{dicts}def_a == def_b"));
}

#[test]
fn a_cancelled_builtin_stops() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = cancel.clone();
    let setter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        flag.store(true, Ordering::Relaxed);
    });
    let module =
        lackpy_lang::parse("-1 in reversed(range(1000000000000000000))").expect("program parses");
    let opts = RunOptions {
        cancel: Some(cancel),
        ..RunOptions::default()
    };
    let out = run(&module, &mut NoTools, &[], &opts);
    setter.join().expect("setter thread");
    assert_eq!(out.error_type.as_deref(), Some("Cancelled"));
}

/// A program that grows a temporary buffer inside a builtin far past an
/// 8 MiB budget ends with MemoryError.
#[track_caller]
fn assert_memory_error(src: &str) {
    let (out, took) = run_limited(src, 10_000, 8 * MIB);
    assert_eq!(
        out.error_type.as_deref(),
        Some("MemoryError"),
        "{src}: {:?}",
        out.error
    );
    assert!(took < Duration::from_secs(5), "{src} took {took:?}");
}

/// The programs of the issue, scaled to an 8 MiB budget: every one builds
/// a temporary far bigger than the budget from a small input.
const GROWTH: &[&str] = &[
    "s = 'a' * 4000000\nlist(s)",
    "s = 'a' * 4000000\nsorted(s)",
    "s = 'a' * 4000000\ntuple(s)",
    "('a\\n' * 2000000).splitlines()",
    "('a ' * 2000000).split()",
    "('a,' * 2000000).split(',')",
    "('\u{390}' * 2000000).upper()",
    "('\u{390}' * 2000000).swapcase()",
    "('\u{390}' * 2000000).title()",
    "('\u{390}' * 2000000).casefold()",
    "list(reversed(range(1000000000000)))",
    "list(enumerate(range(1000000000000)))",
    "list(zip(range(1000000000000)))",
    "s = 'a' * 4000000\nl = []\nl.extend(s)",
    "s = 'a' * 4000000\nl = []\nl += s",
    "s = 'a' * 4000000\n''.join(reversed(s))",
    "s = 'a' * 4000000\nsorted(s, key=lambda c: c)",
    "s = 'a' * 4000000\n[*s]",
    "s = 'a' * 4000000\n(*s,)",
    "s = 'a' * 4000000\n{*s}",
    "s = 'a' * 4000000\nprint(*s)",
    "s = 'a' * 4000000\na, *b = s",
    "s = 'a' * 4000000\nsort_by(list(s), 'k')",
    "dict.fromkeys(range(1000000000000))",
    "set(range(1000000000000))",
    "s = set()\ns.update(range(1000000000000))",
    "list(reversed(b'a' * 1000000))",
    "dict(zip(range(1000000000000), range(1000000000000)))",
];

/// Peak resident memory of this process (Linux), resettable.
mod rss {
    use std::fs;

    /// Resets the peak; false where the kernel does not allow it.
    pub fn reset_peak() -> bool {
        fs::write("/proc/self/clear_refs", "5").is_ok()
    }

    /// The peak resident set since the last reset, in bytes.
    pub fn peak() -> Option<usize> {
        let status = fs::read_to_string("/proc/self/status").ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024)
    }

    /// The resident set now, in bytes.
    pub fn now() -> Option<usize> {
        let status = fs::read_to_string("/proc/self/status").ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024)
    }
}

/// Each program ends with MemoryError, and the memory it really took (not
/// only what it was charged) stays near the 8 MiB budget: the peak resident
/// set of the process grows by far less than the unmetered code took (16
/// bytes per item, 64 MB and more here, before it noticed). The other
/// tests of this binary allocate little, so the peak is this test's.
#[test]
fn temporary_buffers_count_against_the_memory_budget() {
    let measured = rss::reset_peak();
    for src in GROWTH {
        let before = rss::now();
        rss::reset_peak();
        assert_memory_error(src);
        if let (true, Some(before), Some(peak)) = (measured, before, rss::peak()) {
            let grew = peak.saturating_sub(before);
            assert!(
                grew < 40 * MIB,
                "{src}: the peak grew by {} MiB",
                grew / MIB
            );
        }
    }
}
