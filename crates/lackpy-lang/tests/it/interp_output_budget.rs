//! Every producer of output is charged to the run's budget: repr/str/print,
//! `%`, `str.format`, f-strings, the JSON writers (output, variables), the
//! conversion of tool arguments and results, and the trace. Values that
//! share structure (a list holding the same list twice, many levels deep)
//! write exponentially more than they hold; each writer stops at the limit
//! instead of exhausting the machine.

use std::time::{Duration, Instant};

use lackpy_lang::Data;
use lackpy_lang::{Host, Limits, NoTools, RunOptions, RunOutcome, ToolException, run};

const MIB: usize = 1024 * 1024;

/// 4 MiB of memory: the examples reach their bound fast. The deadline is
/// far: these tests show the memory bound (a loaded debug build is slow).
fn small() -> RunOptions {
    RunOptions {
        limits: Limits {
            max_memory: 4 * MIB,
            max_result: 4 * MIB,
            timeout: Duration::from_secs(20),
            ..Limits::default()
        },
        ..RunOptions::default()
    }
}

fn run_small(src: &str) -> RunOutcome {
    let module = lackpy_lang::parse(src).expect("program parses");
    run(&module, &mut NoTools, &[], &small())
}

/// A list 40 levels deep whose every level holds the level below twice:
/// 40 small lists that write 2**40 strings (the issue's example).
const DAG: &str = "a = ['x']\nfor i in range(40):\n    a = [a, a]\n";

/// The same shape with 1 kB leaves: the limit is reached after a few
/// thousand leaves, so that many variants stay fast in a debug build.
const WIDE_DAG: &str = "a = ['x' * 1000]\nfor i in range(40):\n    a = [a, a]\n";

fn assert_memory_error(src: &str) {
    let start = Instant::now();
    let out = run_small(src);
    assert!(!out.success, "{src}: {out:?}");
    assert_eq!(
        out.error_type.as_deref(),
        Some("MemoryError"),
        "{src}: {:?}",
        out.error
    );
    assert!(out.error_line.is_some(), "{src}");
    // Generous: the bound is the budget, reached in well under a second.
    assert!(start.elapsed() < Duration::from_secs(10), "{src}");
}

#[test]
fn str_repr_print_and_formatting_of_a_dag_stop_at_the_memory_limit() {
    assert_memory_error(&format!("{DAG}s = str(a)\n"));
    for tail in [
        "s = str(a)",
        "print(a)",
        "s = '%s' % [a]",
        "s = '%r' % (a,)",
        "s = f'{a}'",
        "s = f'{a!r}'",
        "s = f'{a!r:>5}'",
        "s = f'{a!s:<3}'",
        "s = '{}'.format(a)",
        "s = '{!r}'.format(a)",
        "s = '{0!s:^9}'.format(a)",
        "print(*[a, a])",
        "print('x', a, sep='--')",
    ] {
        assert_memory_error(&format!("{WIDE_DAG}{tail}\n"));
    }
}

#[test]
fn dict_and_tuple_dags_stop_too() {
    assert_memory_error(
        "d = {'k': 'x' * 1000}\nfor i in range(40):\n    d = {'a': d, 'b': d}\ns = str(d)\n",
    );
    assert_memory_error("t = ('x' * 1000,)\nfor i in range(40):\n    t = (t, t)\ns = f'{t}'\n");
}

#[test]
fn big_strings_shared_many_times_stop_at_the_limit() {
    // One 1 MB string, written 100 times.
    let s = "s = 'a' * 1000000\nxs = [s] * 100\n";
    assert_memory_error(&format!("{s}t = str(xs)\n"));
    assert_memory_error(&format!("{s}print(xs)\n"));
    assert_memory_error(&format!("{s}print(*xs)\n"));
    // Medium strings, many times: each small, together too large.
    assert_memory_error("s = 'a' * 30000\nys = [s] * 1000\nprint(*ys)\n");
    assert_memory_error("s = 'a' * 30000\nys = [s] * 1000\nt = f'{ys}'\n");
    assert_memory_error(&format!("{s}t = '%s' % [xs]\n"));
    assert_memory_error(&format!("{s}t = f'{{xs}}'\n"));
    // The repr of a set of distinct big strings: 3 x 1.2 MB held, as much
    // more to write, under 4 MiB.
    assert_memory_error("s = 'b' * 1200000\nt = {s, s + '1', s + '2'}\nu = f'{t!r}'\n");
}

#[test]
fn a_long_control_character_string_is_refused_before_its_escapes_are_written() {
    // 1 MB held; its repr is 4 MB of \x01 escapes.
    assert_memory_error("s = '\\x01' * 1000000\nt = f'{s!r}'\n");
}

#[test]
fn small_values_are_written_as_before() {
    let out = run_small("a = [1, 'x', (2,)]\nprint(a, f'{a!r:>20}', '%s' % [a])\nb = {'k': a}\nb");
    assert!(out.success, "{out:?}");
    assert_eq!(
        out.stdout,
        "[1, 'x', (2,)]       [1, 'x', (2,)] [[1, 'x', (2,)]]\n"
    );
    assert_eq!(out.output_repr.as_deref(), Some("{'k': [1, 'x', (2,)]}"));
    let vars: Vec<(&str, &str)> = out
        .variables
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        vars,
        [("a", "[1, \"x\", [2]]"), ("b", "{\"k\": [1, \"x\", [2]]}")]
    );
}

fn assert_result_too_large(src: &str, what: &str) {
    let start = Instant::now();
    let out = run_small(src);
    assert!(!out.success, "{src}: {out:?}");
    assert_eq!(
        out.error_type.as_deref(),
        Some("ResultTooLargeError"),
        "{src}: {:?}",
        out.error
    );
    let msg = out.error.as_deref().unwrap_or("");
    assert!(msg.contains(what), "{msg}");
    assert!(out.variables.is_empty());
    assert!(out.output.is_none());
    assert!(start.elapsed() < Duration::from_secs(10), "{src}");
}

/// A variable too large for the result is left out with a marker; the
/// run that made it stays successful and the other variables are kept.
fn assert_variable_omitted(src: &str, name: &str) {
    let start = Instant::now();
    let out = run_small(src);
    assert!(out.success, "{src}: {:?}", out.error);
    let v = out.variables.iter().find(|(k, _)| k == name);
    assert_eq!(
        v.map(|(_, v)| v.as_str()),
        Some("{\"__lackpy_omitted__\": \"too large\"}"),
        "{src}"
    );
    assert!(start.elapsed() < Duration::from_secs(10), "{src}");
}

#[test]
fn a_dag_in_the_variables_is_left_out_of_the_result() {
    assert_variable_omitted(DAG, "a");
    assert_variable_omitted(
        "d = {'k': 'x' * 1000}\nfor i in range(40):\n    d = {'a': d, 'b': d}\n",
        "d",
    );
    // 1 MB held, 6 MB of \u0001 escapes as JSON: measured before it is
    // written.
    assert_variable_omitted("s = '\\x01' * 1000000\n", "s");
    assert_variable_omitted("s = 'a' * 1000000\nxs = [s] * 100\ny = 1\n", "xs");
    let out = run_small("s = 'a' * 1000000\nxs = [s] * 100\ny = 1\n");
    let y = out.variables.iter().find(|(k, _)| k == "y");
    assert_eq!(y.map(|(_, v)| v.as_str()), Some("1"));
}

#[test]
fn a_variable_nested_too_deep_for_json_is_left_out() {
    let out = run_small(
        "x = ()\nfor _i in range(10000):\n    x = (x,)\nprint(len(x))\ny = [x, 2]\nz = 3\n",
    );
    assert!(out.success, "{:?}", out.error);
    assert_eq!(out.stdout, "1\n");
    let vars: Vec<(&str, &str)> = out
        .variables
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let deep = "{\"__lackpy_omitted__\": \"too deep\"}";
    assert_eq!(vars, [("x", deep), ("y", deep), ("z", "3")]);
}

#[test]
fn a_dag_as_the_output_is_a_result_too_large_error() {
    assert_result_too_large(
        "_a = ['x' * 1000]\nfor i in range(40):\n    _a = [_a, _a]\n_a\n",
        "the output",
    );
    assert_result_too_large("s = 'a' * 1000000\n_xs = [s] * 100\n_xs\n", "the output");
}

#[test]
fn the_result_limit_is_configurable_and_names_the_way_out() {
    let module = lackpy_lang::parse("_xs = ['abc'] * 1000\n_ys = ['abc'] * 100000\n_xs\n")
        .expect("program parses");
    let mut opts = small();
    opts.limits.max_result = 1000;
    let out = run(&module, &mut NoTools, &[], &opts);
    assert_eq!(out.error_type.as_deref(), Some("ResultTooLargeError"));
    insta::assert_snapshot!("result_too_large_output", out.error.unwrap_or_default());
    // Hidden names are not part of the result.
    let module =
        lackpy_lang::parse("_ys = ['abc'] * 100000\nn = len(_ys)\n").expect("program parses");
    let out = run(&module, &mut NoTools, &[], &opts);
    assert!(out.success, "{out:?}");
}

#[test]
fn a_writer_stops_at_the_deadline() {
    // Memory for a long write, no time for it: the writer reads the clock.
    let module = lackpy_lang::parse(&format!("{DAG}s = str(a)\n")).expect("program parses");
    let opts = RunOptions {
        limits: Limits {
            max_memory: 64 * MIB,
            timeout: Duration::from_millis(50),
            ..Limits::default()
        },
        ..RunOptions::default()
    };
    let out = run(&module, &mut NoTools, &[], &opts);
    let kind = out.error_type.as_deref().unwrap_or("");
    assert!(kind == "TimeoutError" || kind == "MemoryError", "{kind}");
}

// ---- ints over 4300 digits: one rule for every JSON writer ----------------

/// An int of 4301 digits, built without `**` and without a 4300+ digit
/// literal: (10**4000 - 1) * 10**301 + 1.
const HUGE: &str = "big = int('9' * 4000) * int('1' + '0' * 301) + 1\n";

const DIGITS_MESSAGE: &str = "Exceeds the limit (4300 digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit";

/// The program never asked for the int's text, so the run stands: the
/// variable that holds one is a marker in the result.
#[test]
fn an_int_over_4300_digits_in_the_variables_is_left_out_with_a_marker() {
    let marker = r#"{"__lackpy_omitted__": "int over 4300 digits"}"#;
    for (tail, name) in [
        ("y = 1\n", "big"),
        ("d = {'k': [big]}\n", "d"),
        ("d = {big: 1}\n", "d"),
    ] {
        let out = run_small(&format!("{HUGE}{tail}"));
        assert!(out.success, "{tail}: {out:?}");
        let got: Vec<(&str, &str)> = out
            .variables
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert!(got.contains(&(name, marker)), "{tail}: {got:?}");
    }
}

#[test]
fn an_int_over_4300_digits_as_the_output_is_the_same_value_error() {
    let out = run_small(&format!("_{HUGE}[_big]\n"));
    assert_eq!(out.error_type.as_deref(), Some("ValueError"));
    assert_eq!(out.error.as_deref(), Some(DIGITS_MESSAGE));
}

#[test]
fn an_int_of_4300_digits_is_still_written() {
    let out = run_small("n = int('9' * 4300)\n");
    assert!(out.success, "{out:?}");
    assert_eq!(out.variables[0].1.as_str(), "9".repeat(4300));
}

// ---- tools ----------------------------------------------------------------

/// Tools: `find_files(pattern)`, `write_file(path, content)` (records the
/// length it got), `read_big(n)` (a string of `n` bytes), `echo(x)`.
#[derive(Default)]
struct Tools {
    calls: usize,
    written: Vec<usize>,
}

impl Host for Tools {
    fn tool_args(&self, name: &str) -> Option<&[String]> {
        static FIND: [String; 0] = [];
        match name {
            "find_files" | "write_file" | "read_big" | "echo" => Some(&FIND),
            _ => None,
        }
    }

    fn call(
        &mut self,
        tool: &str,
        args: Vec<Data>,
        _kwargs: Vec<(String, Data)>,
    ) -> Result<Data, ToolException> {
        self.calls += 1;
        match (tool, args.as_slice()) {
            ("write_file", [_, Data::Str(content)]) => {
                self.written.push(content.len());
                Ok(Data::Int(content.len().into()))
            }
            ("read_big", [Data::Int(n)]) => {
                let n: usize = n.try_into().unwrap_or(0);
                Ok(Data::Str("r".repeat(n)))
            }
            ("echo", [x]) => Ok(x.clone()),
            ("find_files", _) => Ok(Data::List(Vec::new())),
            _ => Err(ToolException::new("TypeError", "bad arguments")),
        }
    }
}

fn run_tools(src: &str, opts: &RunOptions) -> (RunOutcome, Tools) {
    let module = lackpy_lang::parse(src).expect("program parses");
    let mut host = Tools::default();
    let out = run(&module, &mut host, &[], opts);
    (out, host)
}

#[test]
fn a_dag_as_a_tool_argument_is_a_memory_error_before_the_call() {
    let src = "a = ['x']\nfor i in range(30):\n    a = [a, a]\nfind_files(a)\n";
    let (out, host) = run_tools(src, &small());
    assert_eq!(out.error_type.as_deref(), Some("MemoryError"), "{out:?}");
    assert_eq!(out.error_line, Some(4));
    assert_eq!(host.calls, 0);
    assert!(out.trace.is_empty());
}

#[test]
fn the_trace_keeps_previews_of_large_arguments() {
    // One shared 1 MB string, written 40 times under 4 MiB: each call's
    // copy is freed after the call, the trace keeps a preview.
    let src = "s = 'a' * 1000000\nfor i in range(40):\n    write_file('a.txt', s)\n";
    let (out, host) = run_tools(src, &small());
    assert!(out.success, "{out:?}");
    assert_eq!(host.written, vec![1_000_000; 40]);
    assert_eq!(out.trace.len(), 40);
    for e in &out.trace {
        let Some((_, Data::Str(p))) = e.args.get(1) else {
            panic!("a string preview: {:?}", e.args.get(1));
        };
        assert_eq!(p.len(), 500 + "... (1000000 chars)".len());
        assert!(p.ends_with("... (1000000 chars)"), "{}", &p[490..]);
    }
}

#[test]
fn previews_of_containers_are_bounded_and_say_what_they_left_out() {
    let src = "xs = [str(i) * 10 for i in range(1000)]\necho(xs)\necho({str(i): i for i in range(1000)})\necho([[[['deep']]]])\n";
    let (out, _) = run_tools(src, &small());
    assert!(out.success, "{out:?}");
    let Some(Data::List(items)) = &out.trace[0].result else {
        panic!("a list preview");
    };
    assert!(items.len() < 1000);
    assert_eq!(
        items.last(),
        Some(&Data::Str(format!(
            "... ({} more items)",
            1001 - items.len()
        )))
    );
    let Some(Data::Dict(items)) = &out.trace[1].result else {
        panic!("a dict preview");
    };
    let (k, v) = items.last().expect("entries");
    assert_eq!(k, &Data::Str("...".into()));
    assert_eq!(v, &Data::Str(format!("{} more items", 1001 - items.len())));
    // Small values are kept whole.
    assert_eq!(out.trace[2].args[0].1.to_json(), r#"[[[["deep"]]]]"#);
}

#[test]
fn tool_results_are_converted_under_the_memory_budget() {
    // Two 1.5 MB results fit in 4 MiB; the third does not, and fails
    // before it is built.
    let src = "a = read_big(1500000)\nb = read_big(1500000)\nc = read_big(1500000)\n";
    let (out, host) = run_tools(src, &small());
    assert_eq!(out.error_type.as_deref(), Some("MemoryError"), "{out:?}");
    assert_eq!(out.error_line, Some(3));
    assert_eq!(host.calls, 3);
    // The first two alone succeed.
    let (out, _) = run_tools(
        "a = read_big(1500000)\nb = read_big(1500000)\nn = len(a) + len(b)\n",
        &small(),
    );
    assert!(out.success, "{out:?}");
}

#[test]
fn a_huge_int_in_a_trace_preview_is_a_marker() {
    let (out, _) = run_tools(&format!("_{HUGE}_n = echo(_big) % 7\n"), &small());
    assert!(out.success, "{out:?}");
    assert_eq!(
        out.trace[0].args[0].1,
        Data::Str("<int with more than 4300 digits>".into())
    );
}
