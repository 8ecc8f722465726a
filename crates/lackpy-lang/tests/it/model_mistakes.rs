//! Programs in the shapes small models write against a namespace of typed
//! tools (issue 29): a wrong keyword, a missing argument, a string for an
//! int, a lambda where a field name goes, a forbidden construct beside a
//! real error, a misspelt tool. Each must get, in one validation round,
//! exactly the errors a person would want, each with its line. The whole
//! list is one snapshot, program above its errors.

use lackpy_lang::{CallSignature, Lit, ParamSig, validate_with};

/// A parameter as a tool source declares it (`ArgSpec`'s display type).
fn arg(name: &str, ty: &str, default: Option<Lit>) -> ParamSig {
    let mut p = ParamSig::new(name, ty, default.is_none());
    p.default = default;
    p
}

fn tool(name: &str, params: Vec<ParamSig>) -> CallSignature {
    CallSignature::new(name, params)
}

/// The namespace: tools as MCP servers and config sources declare them.
fn namespace() -> Vec<CallSignature> {
    let mut unit = arg("unit", "str", Some(Lit::Str("c".into())));
    unit.choices = vec![Lit::Str("c".into()), Lit::Str("f".into())];
    vec![
        tool("get_current_time", vec![arg("timezone", "str", None)]),
        tool(
            "convert_temperature",
            vec![arg("value", "float", None), unit],
        ),
        tool(
            "find_files",
            vec![
                arg("pattern", "str", None),
                arg("limit", "int", Some(Lit::Int(100))),
            ],
        ),
        tool("read_file", vec![arg("path", "str", None)]),
        tool(
            "write_file",
            vec![arg("path", "str", None), arg("content", "str", None)],
        ),
        tool(
            "search_web",
            vec![
                arg("query", "str", None),
                arg("max_results", "int", Some(Lit::Int(5))),
                arg("region", "str | None", Some(Lit::None)),
            ],
        ),
        tool(
            "send_email",
            vec![
                arg("to", "list[str]", None),
                arg("subject", "str", None),
                arg("body", "str", None),
                arg("urgent", "bool", Some(Lit::Bool(false))),
            ],
        ),
        tool(
            "forecast",
            vec![
                arg("city", "str", None),
                arg("days", "int", Some(Lit::Int(3))),
                arg(
                    "units",
                    "Literal['metric', 'imperial']",
                    Some(Lit::Str("metric".into())),
                ),
            ],
        ),
        tool(
            "list_issues",
            vec![
                arg("repo", "str", None),
                arg(
                    "state",
                    "Literal['open', 'closed']",
                    Some(Lit::Str("open".into())),
                ),
            ],
        ),
    ]
}

/// Each program and how many errors it must get.
const CASES: &[(&str, usize)] = &[
    // Keywords.
    ("get_current_time(tz='UTC')", 1),
    ("get_current_time(time_zone='UTC')", 1),
    ("find_files(pattern='*.rs', max=10)", 1),
    ("find_files(glob='*.rs')", 1),
    ("read_file(file_path='a.txt')", 1),
    ("search_web(q='rust', max_results=3)", 1),
    ("send_email(recipient=['a@b.c'], subject='hi', body='x')", 1),
    ("forecast(city='Oslo', day=2)", 1),
    // Missing arguments.
    ("now = get_current_time()\nnow", 1),
    ("t = convert_temperature(unit='f')", 1),
    ("write_file('out.txt')", 1),
    ("send_email(['a@b.c'], 'hi')", 1),
    ("x = 1\ny = 2\nforecast(days=5)", 1),
    // Too many positional arguments.
    ("read_file('a.txt', 'utf-8')", 1),
    ("get_current_time('UTC', True)", 1),
    // Given twice.
    ("find_files('*.py', pattern='*.rs')", 1),
    // Wrong constant types.
    ("find_files('*.rs', limit='10')", 1),
    ("convert_temperature('20', unit='c')", 1),
    ("search_web('rust', max_results=2.5)", 1),
    ("send_email('a@b.c', 'hi', 'body')", 1),
    ("send_email(['a@b.c'], 'hi', 'body', urgent='yes')", 1),
    ("forecast('Oslo', days='three')", 1),
    ("n = '5'\nfind_files('*.md', limit=n)", 1),
    ("get_current_time(timezone=None)", 1),
    // Outside an enum.
    ("convert_temperature(20, unit='kelvin')", 1),
    ("forecast('Oslo', units='celsius')", 1),
    ("list_issues('lackpy/lackpy-rs', state='all')", 1),
    ("u = 'F'\nconvert_temperature(70, u)", 1),
    // Lambdas where they do not go.
    (
        "rows = read_file('a.json')\nsort_by(rows, key=lambda r: r['n'])",
        1,
    ),
    ("xs = [3, 1, 2]\nsort_by(xs, lambda x: -x)", 1),
    ("xs = [3, 1, 2]\nsorted(xs, lambda x: -x)", 1),
    ("xs = [3, 1, 2]\nout = list(map(lambda x: x * 2, xs))", 2),
    ("f = lambda x: x + 1\nf(2)", 1),
    // Misspelt or invented tools and builtins.
    ("find_file('*.rs')", 1),
    ("readfile('a.txt')", 1),
    ("get_time(timezone='UTC')", 1),
    ("files = find_files('*.rs')\nlength(files)", 1),
    ("sortby([{'a': 1}], 'a')", 1),
    (
        "files = find_files('*.rs')\nfor f in files:\n    print(f.upper())\nprint(lenght(files))",
        1,
    ),
    // A forbidden construct beside a real error: both, once each.
    ("import os\nread_file(name='a.txt')", 2),
    ("x = 2 ** 8\nfind_files('*', limit='all')", 2),
    ("class Box:\n    pass\nget_current_time()", 2),
    ("while True:\n    pass\nfind_file('x')", 2),
    ("try:\n    read_file('a')\nexcept Exception:\n    pass", 2),
    // Builtins called wrongly.
    ("len([1], [2])", 1),
    ("sorted([3, 1], reverse=True, key_func=len)", 1),
    ("print('a', sepp=',')", 1),
    ("round(2.5, ndigits=1, mode='up')", 1),
    // Right programs stay right: unknown values are not guessed at.
    ("tz = get_current_time('UTC')\nfind_files(tz, limit=3)", 0),
    (
        "n = len(find_files('*.rs'))\nfind_files('*.md', limit=n)",
        0,
    ),
    ("args = {'pattern': '*.rs'}\nfind_files(**args)", 0),
    (
        "rows = [{'n': 2}, {'n': 1}]\nsort_by(rows, 'n', reverse=True)",
        0,
    ),
    ("convert_temperature(20.5, 'f')", 0),
    ("convert_temperature(value=20, unit='c')", 0),
    ("search_web('rust', region=None)", 0),
    ("find_files('*.rs', limit=None)", 0),
    // A param read before the program assigns its name keeps its value.
    ("find_files('*', limit=limit)\nlimit = 'x'", 0),
];

#[test]
fn model_mistakes_get_the_errors_a_person_wants() {
    let sigs = namespace();
    let mut names: Vec<&str> = sigs.iter().map(|s| s.name.as_str()).collect();
    names.push("limit");
    let mut out = String::new();
    let mut wrong = Vec::new();
    for (program, want) in CASES {
        let v = validate_with(program, &names, &[], &sigs);
        out.push_str(&format!("--- {program}\n"));
        for e in &v.errors {
            out.push_str(&format!("  {e}\n"));
            if !e.contains("line ") {
                wrong.push(format!("{program:?}: no line in {e:?}"));
            }
        }
        if v.errors.len() != *want {
            wrong.push(format!(
                "{program:?}: want {want} errors, got {:?}",
                v.errors
            ));
        }
    }
    assert!(CASES.len() >= 40);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    insta::assert_snapshot!(out);
}
