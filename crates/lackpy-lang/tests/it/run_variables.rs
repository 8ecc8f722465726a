//! `RunOptions::variables`: collected by default (every module-level
//! variable written as JSON text into the outcome), omitted on request,
//! and then nothing is written for them: a variable too large for the
//! result is left out (a marker in its place) of a run that collects them.

use std::time::Duration;

use lackpy_lang::{Limits, NoTools, RunOptions, RunOutcome, Variables, run};

const PROGRAM: &str =
    "n = 3\nxs = [i * 0.5 for i in range(n)]\n_hidden = 1\nprint(len(xs))\nxs[-1]\n";

fn run_with(src: &str, opts: &RunOptions) -> RunOutcome {
    let module = lackpy_lang::parse(src).expect("program parses");
    run(&module, &mut NoTools, &[], opts)
}

fn vars(out: &RunOutcome) -> Vec<(&str, &str)> {
    out.variables
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect()
}

#[test]
fn variables_are_collected_by_default() {
    assert_eq!(RunOptions::default().variables, Variables::Collect);
    let out = run_with(PROGRAM, &RunOptions::default());
    assert!(out.success, "{:?}", out.error);
    assert_eq!(vars(&out), [("n", "3"), ("xs", "[0.0, 0.5, 1.0]")]);
}

#[test]
fn omitted_variables_leave_the_rest_of_the_outcome_as_it_was() {
    let collected = run_with(PROGRAM, &RunOptions::default());
    let omitted = run_with(
        PROGRAM,
        &RunOptions {
            variables: Variables::Omit,
            ..RunOptions::default()
        },
    );
    assert!(omitted.success, "{:?}", omitted.error);
    assert!(omitted.variables.is_empty());
    assert_eq!(omitted.stdout, "3\n");
    assert_eq!(omitted.output_repr.as_deref(), Some("1.0"));
    assert_eq!(omitted.output, collected.output);
    assert_eq!(omitted.effective_output(), collected.effective_output());
}

/// 200,000 floats take about 2.4 MB as JSON, past a 1 MiB result limit.
const BIG: &str = "xs = [i * 0.001 for i in range(200000)]\nprint(len(xs))\n";

fn one_mib(variables: Variables) -> RunOptions {
    RunOptions {
        limits: Limits {
            max_result: 1 << 20,
            timeout: Duration::from_secs(30),
            ..Limits::default()
        },
        variables,
        ..RunOptions::default()
    }
}

#[test]
fn a_variable_past_the_result_limit_is_left_out_and_the_run_succeeds() {
    let collected = run_with(BIG, &one_mib(Variables::Collect));
    assert!(collected.success, "{:?}", collected.error);
    assert_eq!(collected.stdout, "200000\n");
    assert_eq!(
        vars(&collected),
        [("xs", "{\"__lackpy_omitted__\": \"too large\"}")]
    );

    let omitted = run_with(BIG, &one_mib(Variables::Omit));
    assert!(omitted.success, "{:?}", omitted.error);
    assert_eq!(omitted.stdout, "200000\n");
    assert!(omitted.variables.is_empty());
}

#[test]
fn a_failed_run_has_no_variables_either_way() {
    for variables in [Variables::Collect, Variables::Omit] {
        let out = run_with(
            "x = 1\ny = x // 0\n",
            &RunOptions {
                variables,
                ..RunOptions::default()
            },
        );
        assert_eq!(out.error_type.as_deref(), Some("ZeroDivisionError"));
        assert!(out.variables.is_empty());
    }
}
