//! `RunOptions::teardown`: a run whose values are left to the process's
//! exit gives the same outcome as one that frees them, and what it leaves
//! is not counted against the next run's memory limit.

use std::time::Duration;

use lackpy_lang::{Limits, NoTools, RunOptions, RunOutcome, Teardown, Variables, run};

fn run_with(src: &str, opts: &RunOptions) -> RunOutcome {
    let module = lackpy_lang::parse(src).expect("program parses");
    run(&module, &mut NoTools, &[], opts)
}

fn opts(teardown: Teardown, variables: Variables) -> RunOptions {
    RunOptions {
        teardown,
        variables,
        limits: Limits {
            timeout: Duration::from_secs(60),
            ..Limits::default()
        },
        ..RunOptions::default()
    }
}

/// Shared values, nested containers, a cycle, big ints and strings: all
/// the shapes whose freeing differs.
const PROGRAMS: &[&str] = &[
    "xs = [str(i) * 3 for i in range(1000)]\nd = {x: [x] for x in xs}\nprint(len(d))\nxs[-1]\n",
    "a = []\nb = [a]\na.append(b)\nd = {'self': None}\nd['self'] = d\nprint(len(a), len(d))\nb\n",
    "big = 7 ** 500\nt = (big, [big], {'k': (1, 2.5, 'x')})\nprint(big % 1000)\nt[2]\n",
    "rows = [{'id': i, 'tags': {str(i % 3)}} for i in range(500)]\nrows[3]['id'] / 0\n",
];

#[test]
fn the_default_frees_the_values() {
    assert_eq!(RunOptions::default().teardown, Teardown::Free);
}

#[test]
fn leaving_values_to_the_exit_changes_nothing_in_the_outcome() {
    for src in PROGRAMS {
        for variables in [Variables::Collect, Variables::Omit] {
            let freed = run_with(src, &opts(Teardown::Free, variables));
            let left = run_with(src, &opts(Teardown::AtExit, variables));
            assert_eq!(left.success, freed.success, "{src}");
            assert_eq!(left.stdout, freed.stdout, "{src}");
            assert_eq!(left.output_repr, freed.output_repr, "{src}");
            assert_eq!(left.output, freed.output, "{src}");
            assert_eq!(left.error_type, freed.error_type, "{src}");
            assert_eq!(left.error, freed.error, "{src}");
            assert_eq!(left.error_line, freed.error_line, "{src}");
            assert_eq!(left.variables, freed.variables, "{src}");
        }
    }
}

/// Between 80 and 160 MiB of live values: two runs of it fit under a
/// 160 MiB limit only if the first run's leftovers are not charged to the
/// second.
const LARGE: &str = "xs = [[i] for i in range(1500000)]\nprint(len(xs))\n";

#[test]
fn values_left_by_one_run_are_not_charged_to_the_next() {
    let limited = |teardown| RunOptions {
        limits: Limits {
            max_memory: 160 << 20,
            ..opts(teardown, Variables::Omit).limits
        },
        ..opts(teardown, Variables::Omit)
    };
    let first = run_with(LARGE, &limited(Teardown::AtExit));
    assert!(first.success, "{:?}: {:?}", first.error_type, first.error);
    let second = run_with(LARGE, &limited(Teardown::Free));
    assert!(
        second.success,
        "{:?}: {:?}",
        second.error_type, second.error
    );
    assert_eq!(second.stdout, "1500000\n");
    // One run alone takes more than half the limit, so the first run's
    // values, had they stayed charged, would have failed the second.
    let half = RunOptions {
        limits: Limits {
            max_memory: 80 << 20,
            ..opts(Teardown::Free, Variables::Omit).limits
        },
        ..opts(Teardown::Free, Variables::Omit)
    };
    let alone = run_with(LARGE, &half);
    assert_eq!(alone.error_type.as_deref(), Some("MemoryError"));
}
