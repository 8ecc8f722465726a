//! The pre-sort check and the sorts after it stay within the run's limits
//! on keys that share structure (many positions, few objects) or are deep.

use std::time::Duration;

use lackpy_test_support::cpu::measure;

use crate::interp::{Limits, NoTools, RunOptions, run};

/// Runs `src` under `timeout` and `memory`: its error type, stdout and the
/// CPU time it took (a bound on work, which holds on a loaded machine).
fn run_limited(src: &str, timeout: Duration, memory: usize) -> (Option<String>, String, Duration) {
    let module = match crate::syntax::parse::parse(src) {
        Ok(m) => m,
        Err(e) => return (Some(format!("parse: {e}")), String::new(), Duration::ZERO),
    };
    let opts = RunOptions {
        limits: Limits {
            timeout,
            max_memory: memory,
            ..Limits::default()
        },
        variables: crate::interp::Variables::Omit,
        ..RunOptions::default()
    };
    let (out, took) = measure(|| run(&module, &mut NoTools, &[], &opts));
    (out.error_type, out.stdout, took)
}

#[test]
fn shared_nested_keys_sort_as_cpython_does_at_once() {
    // 10**8 positions, 5 objects: the check used to build a shape node per
    // position (4 GB); CPython sorts these in microseconds.
    for src in [
        "_x = [[[[[1]*100]*100]*100]*100]*3\n_x.sort()\nprint(len(_x))",
        "_x = [[[[1]*100]*100]*100]*3000\n_x.sort()\nprint(len(_x))",
        "_x = [[[[1]*100]*100]*100]*3000\nprint(len(sorted(_x, key=lambda v: v)))",
        "_x = [([[[1]*100]*100]*100, 1)]*3000\nprint(len(sorted(_x)))",
        "_x = [([[[1]*100]*100]*100, 1)]*3000\nprint(len(sorted(_x, reverse=True)))",
    ] {
        let (err, out, took) = run_limited(src, Duration::from_secs(2), 64 << 20);
        assert_eq!(err, None, "{src}");
        assert!(out.ends_with('\n') && !out.is_empty(), "{src}: {out:?}");
        assert!(took < Duration::from_millis(1500), "{src}: {took:?}");
    }
}

#[test]
fn equal_but_distinct_deep_keys_time_out_on_time() {
    // Two equal keys built apart: every comparison walks 10**6 items, as
    // in CPython; the run must stop at its deadline.
    let mk = "a = [[[[1]*100]*100]*100]\nb = [[[[1]*100]*100]*100]\n";
    for tail in [
        "x = [a, b]*1500\nx.sort()",
        "x = [a, b]*1500\ny = sorted(x, key=lambda v: v)",
        "x = [(a, 1), (b, 1)]*1500\ny = sorted(x)",
        "x = [[a, 1], [b, 1]]*1500\ny = sorted(x, reverse=True)",
    ] {
        let src = format!("{mk}{tail}");
        let (err, _, took) = run_limited(&src, Duration::from_millis(500), 64 << 20);
        assert_eq!(err.as_deref(), Some("TimeoutError"), "{src}");
        assert!(took < Duration::from_millis(900), "{src}: {took:?}");
    }
}

#[test]
fn keys_past_the_check_share_sort_as_before() {
    // More positions than the check visits: the general sort orders them.
    let src = "b = [[[1]*50]*50]*30\nr = [[b, i % 7, -i] for i in range(200)]\n\
               r.sort()\nprint([x[1:] for x in r[:3]], r[-1][1:])\n\
               print(sorted([(b, 2), (b, 1), (b, 1.5)])[0][1])";
    let (err, out, _) = run_limited(src, Duration::from_secs(5), 64 << 20);
    assert_eq!(err, None);
    assert_eq!(out, "[[0, -196], [0, -189], [0, -182]] [6, -6]\n1\n");
}

#[test]
fn long_equal_strings_sort_in_one_frame_under_the_clock() {
    // A word per level of the radix: 1,000,000 levels of tied keys once
    // took a frame each (24 MB uncounted) and read no clock.
    let src = "v = 'ab' * 4000000\nw = 'ab' * 4000000\nr = sorted([v, w, v, w + 'a', 'b'])\n\
               print([len(x) for x in r])";
    let (err, out, took) = run_limited(src, Duration::from_secs(20), 128 << 20);
    assert_eq!(err, None);
    assert_eq!(out, "[8000000, 8000000, 8000000, 8000001, 1]\n");
    // (Unoptimised, a level costs microseconds: a second or two in all.)
    assert!(took < Duration::from_secs(10), "{took:?}");
    let (err, _, took) = run_limited(src, Duration::from_millis(30), 128 << 20);
    assert!(
        err.is_none() || err.as_deref() == Some("TimeoutError"),
        "{err:?}"
    );
    assert!(took < Duration::from_millis(500), "{took:?}");
}
