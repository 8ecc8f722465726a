//! Variables are written straight to JSON text; the text must be exactly
//! what converting the same value to `Data` and writing that gives (the
//! program's output takes the `Data` road).

use lackpy_lang::{Data, JsonText};
use lackpy_lang::{NoTools, RunOptions};

/// Runs `x = <expr>` then `x`, returning (variable text, output written as JSON).
fn both(expr: &str) -> (String, String) {
    let src = format!("x = {expr}\nx");
    let module = lackpy_lang::parse(&src).expect("parses");
    let out = lackpy_lang::run(&module, &mut NoTools, &[], &RunOptions::default());
    assert!(out.success, "{expr}: {:?}", out.error);
    let var = out.variables.first().expect("x is a variable").1.clone();
    let data = out.output_data().unwrap_or(Data::None);
    (var.into_string(), data.to_json())
}

#[test]
fn variables_text_matches_data_json() {
    let exprs = [
        "None",
        "[True, False, 0, -1, 9223372036854775808, -1267650600228229401496703205376, 100000000000000000000000000000000000000000000000000]",
        "[0.1, -0.0, 1e300, 1.5e-7, float('nan'), float('inf'), -float('inf')]",
        r#"['plain', 'quote " and \\ backslash', 'tab\there\nnl\r\x08\x0c', '\x00\x1f\x7f', 'é ☃ 𝄞']"#,
        "(1, (2, 3), [4, (5,)])",
        "{'a': 1, 2: 'b', 2.5: None, True: 0, None: 1, (1, 'x'): 2, 1000000000000000000000000000000: 3}",
        "{0.1: 1, float('nan'): 2, False: 3}",
        "{3, 1, 2}",
        "[set(), {'a': {1, 2}}, range(3), len, str, {}.keys()]",
        "[[[[[[[[[[1]]]]]]]]]]",
        "{'k': [{'n': i, 's': str(i)} for i in range(20)]}",
        "'x' * 1000",
    ];
    for e in exprs {
        let (var, data) = both(e);
        assert_eq!(var, data, "{e}");
    }
}

#[test]
fn a_self_containing_value_is_its_repr_on_both_roads() {
    let src = "x = [1]\nx.append(x)\nx";
    let module = lackpy_lang::parse(src).expect("parses");
    let out = lackpy_lang::run(&module, &mut NoTools, &[], &RunOptions::default());
    assert!(out.success);
    assert_eq!(out.variables[0].1.as_str(), r#""[1, [...]]""#);
    assert_eq!(
        out.output.as_ref().map(JsonText::as_str),
        Some(r#""[1, [...]]""#)
    );
}

#[test]
fn json_text_reads_back_as_data() {
    let (var, _) = both("{'a': (1, 2), 'b': [None, 1180591620717411303424]}");
    let text = JsonText::from(&Data::from_json(&var).expect("valid"));
    assert_eq!(text.as_str(), var);
    let Data::Dict(items) = text.to_data() else {
        panic!("a dict");
    };
    assert_eq!(items.len(), 2);
    assert_eq!(text.to_string(), var);
}
