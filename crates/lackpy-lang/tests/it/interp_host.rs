//! The run's contract with its host: tool calls and the trace, params,
//! outputs, variables and the JSON form of values.

use lackpy_lang::{Data, JsonText};
use lackpy_lang::{Host, RunOptions, RunOutcome, ToolException, run};

/// Tools: `read_file(path)`, `write_file(path, content)`, `echo(*args)`,
/// `fail(msg)`, `big()` (a 700-character string).
/// One call as the host received it: tool, positional and keyword arguments.
type Call = (String, Vec<Data>, Vec<(String, Data)>);

struct TestHost {
    declared: Vec<(String, Vec<String>)>,
    calls: Vec<Call>,
}

impl TestHost {
    fn new() -> Self {
        let d = |n: &str, a: &[&str]| (n.to_owned(), a.iter().map(|s| s.to_string()).collect());
        TestHost {
            declared: vec![
                d("read_file", &["path"]),
                d("write_file", &["path", "content"]),
                d("echo", &[]),
                d("fail", &["msg"]),
                d("big", &[]),
            ],
            calls: Vec::new(),
        }
    }
}

impl Host for TestHost {
    fn tool_args(&self, name: &str) -> Option<&[String]> {
        self.declared
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, a)| a.as_slice())
    }

    fn call(
        &mut self,
        tool: &str,
        args: Vec<Data>,
        kwargs: Vec<(String, Data)>,
    ) -> Result<Data, ToolException> {
        self.calls
            .push((tool.to_owned(), args.clone(), kwargs.clone()));
        match tool {
            "read_file" => match args.first().or(kwargs.first().map(|(_, v)| v)) {
                Some(Data::Str(p)) => Ok(Data::Str(format!("contents of {p}\n"))),
                _ => Err(ToolException::new(
                    "TypeError",
                    "expected str, bytes or os.PathLike object, not int",
                )),
            },
            "write_file" => Ok(Data::Bool(true)),
            "echo" => Ok(Data::List(args)),
            "fail" => Err(ToolException::new("ToolError", "it failed")),
            "big" => Ok(Data::Str("x".repeat(700))),
            _ => Err(ToolException::new("ToolError", "unknown")),
        }
    }
}

fn run_host(src: &str, params: &[(String, Data)]) -> (RunOutcome, TestHost) {
    let module = lackpy_lang::parse(src).expect("program parses");
    let mut host = TestHost::new();
    let out = run(&module, &mut host, params, &RunOptions::default());
    (out, host)
}

fn s(text: &str) -> Data {
    Data::Str(text.to_owned())
}

#[test]
fn tool_calls_are_traced_with_named_arguments() {
    let (out, host) = run_host(
        "a = read_file('a.txt')\nwrite_file('b.txt', a.upper(), 'extra', content='kw')\na",
        &[],
    );
    assert!(out.success, "{:?}", out.error);
    assert_eq!(out.output_data(), Some(s("contents of a.txt\n")));
    assert_eq!(out.trace.len(), 2);
    let t0 = &out.trace[0];
    assert_eq!(
        (t0.step, t0.tool.as_str(), t0.success),
        (0, "read_file", true)
    );
    assert_eq!(t0.args, vec![("path".to_owned(), s("a.txt"))]);
    assert_eq!(t0.result, Some(s("contents of a.txt\n")));
    let t1 = &out.trace[1];
    assert_eq!(t1.step, 1);
    assert_eq!(
        t1.args,
        vec![
            ("path".to_owned(), s("b.txt")),
            ("content".to_owned(), s("kw")),
            ("arg2".to_owned(), s("extra"))
        ]
    );
    // The host got the call as written.
    assert_eq!(host.calls[1].1.len(), 3);
    assert_eq!(host.calls[1].2, vec![("content".to_owned(), s("kw"))]);
    assert_eq!(vars(&out), [("a", r#""contents of a.txt\n""#)]);
}

#[test]
fn long_string_results_are_cut_in_the_trace_only() {
    let (out, _) = run_host("len(big())", &[]);
    assert_eq!(out.output_data(), Some(Data::Int(700.into())));
    let Some(Data::Str(r)) = &out.trace[0].result else {
        panic!("string result")
    };
    assert_eq!(r, &format!("{}... (700 chars)", "x".repeat(500)));
}

#[test]
fn a_tool_error_ends_the_run() {
    let (out, _) = run_host("print('before')\nx = fail('now')\nprint('after')", &[]);
    assert!(!out.success);
    assert_eq!(out.error.as_deref(), Some("it failed"));
    assert_eq!(out.error_type.as_deref(), Some("ToolError"));
    assert_eq!(out.error_line, Some(2));
    assert_eq!(out.stdout, "before\n");
    assert!(out.variables.is_empty());
    let t = &out.trace[0];
    assert!(!t.success);
    assert_eq!(t.error.as_deref(), Some("it failed"));
    assert_eq!(t.result, None);
}

#[test]
fn tools_take_any_value_and_builtins_are_not_traced() {
    let (out, host) = run_host(
        "echo(len('ab'), {3, 1}, (1, 'a'), range(2), [None, 1.5], sorted)",
        &[],
    );
    assert!(out.success, "{:?}", out.error);
    assert_eq!(out.trace.len(), 1);
    assert_eq!(out.trace[0].args[0].0, "arg0");
    let args = &host.calls[0].1;
    assert_eq!(args[0], Data::Int(2.into()));
    assert_eq!(
        args[1],
        Data::Set(vec![Data::Int(1.into()), Data::Int(3.into())])
    );
    assert_eq!(args[2], Data::Tuple(vec![Data::Int(1.into()), s("a")]));
    assert_eq!(args[3], s("range(0, 2)"));
    assert_eq!(args[5], s("<built-in function sorted>"));
}

#[test]
fn params_are_injected_unwrapped_and_not_variables() {
    let params = vec![
        ("n".to_owned(), Data::Int(5.into())),
        (
            "cfg".to_owned(),
            Data::Dict(vec![
                (s("value"), Data::List(vec![Data::Int(1.into())])),
                (s("type"), s("list")),
            ]),
        ),
        ("meta".to_owned(), Data::Dict(vec![(s("type"), s("str"))])),
    ];
    let (out, _) = run_host("n = n * 2\nm = n + len(cfg)\n[n, cfg, meta]", &params);
    assert!(out.success, "{:?}", out.error);
    assert_eq!(
        out.output_repr.as_deref(),
        Some("[10, [1], {'type': 'str'}]")
    );
    assert_eq!(vars(&out), [("m", "11")]);
}

#[test]
fn params_colliding_with_tools_or_builtins_are_refused() {
    let (out, host) = run_host(
        "1",
        &[
            ("len".to_owned(), Data::Int(1.into())),
            ("read_file".to_owned(), s("x")),
        ],
    );
    assert!(!out.success);
    assert_eq!(out.error_type.as_deref(), Some("ValueError"));
    assert_eq!(
        out.error.as_deref(),
        Some("Param names collide with tool/builtin names: {'len', 'read_file'}")
    );
    assert!(host.calls.is_empty());
}

#[test]
fn output_effective_output_and_variables() {
    let (out, _) = run_host(
        "print('  hello  ')\n_hidden = 1\nprint = 'p'\nread_file = 2\nshown = {3, 1}\nx = 1",
        &[],
    );
    assert!(out.success);
    assert_eq!(out.output, None);
    assert_eq!(out.output_repr.as_deref(), Some("None"));
    assert_eq!(out.stdout, "  hello  \n");
    assert_eq!(
        out.effective_output().map(|j| j.to_data()),
        Some(s("hello"))
    );
    // Variables are JSON text: a set is written as its str().
    assert_eq!(vars(&out), [("shown", r#""{1, 3}""#), ("x", "1")]);
    let (out, _) = run_host("print('x')\nFalse", &[]);
    assert_eq!(
        out.effective_output().map(|j| j.to_data()),
        Some(Data::Bool(false))
    );
}

#[test]
fn json_text_is_what_python_writes() {
    let d = Data::Dict(vec![
        (Data::Int(1.into()), s("é\u{1f600}\"\\\n")),
        (Data::None, Data::Float(f64::NAN)),
        (Data::Float(2.5), Data::Float(f64::NEG_INFINITY)),
        (
            Data::Bool(true),
            Data::Tuple(vec![Data::Float(1e16), Data::Float(0.1), Data::Float(-0.0)]),
        ),
        (s("set"), Data::Set(vec![Data::Int(1.into()), s("a")])),
        (
            s("big"),
            Data::Int("123456789012345678901234567890".parse().expect("int")),
        ),
        (Data::Tuple(vec![Data::Int(1.into())]), Data::List(vec![])),
    ]);
    assert_eq!(
        d.to_json(),
        r#"{"1": "\u00e9\ud83d\ude00\"\\\n", "null": NaN, "2.5": -Infinity, "true": [1e+16, 0.1, -0.0], "set": "{1, 'a'}", "big": 123456789012345678901234567890, "(1,)": []}"#
    );
    let back = Data::from_json(&d.to_json()).expect("valid JSON");
    let Data::Dict(items) = back else {
        panic!("dict")
    };
    assert_eq!(
        items[5].1,
        Data::Int("123456789012345678901234567890".parse().expect("int"))
    );
    assert_eq!(
        d.py_repr(),
        "{1: 'é😀\"\\\\\\n', None: nan, 2.5: -inf, True: (1e+16, 0.1, -0.0), 'set': {1, 'a'}, 'big': 123456789012345678901234567890, (1,): []}"
    );
}

#[test]
fn outputs_become_json_values() {
    let (out, _) = run_host(
        "[{1, 2}, range(3), len, {'k': (1, 2)}, {}.keys(), 12345678901234567890123]",
        &[],
    );
    assert!(out.success, "{:?}", out.error);
    assert_eq!(
        out.output.as_ref().map(JsonText::as_str),
        Some(
            r#"["{1, 2}", "range(0, 3)", "<built-in function len>", {"k": [1, 2]}, "dict_keys([])", 12345678901234567890123]"#
        )
    );
}

/// A run's variables as (name, JSON text) pairs.
fn vars(out: &lackpy_lang::RunOutcome) -> Vec<(&str, &str)> {
    out.variables
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect()
}
