//! `Data`'s Python forms against CPython 3.11: the JSON reader and writer
//! against `json.loads`/`json.dumps`, and `repr()` of strings over every
//! code point (so `str.isprintable()`'s table is checked whole). The
//! reference answers come from `tests/it/difftest/cpython_forms.py`;
//! `python3` is required: without it the test fails.

use crate::difftest;

use lackpy_lang::{Data, MAX_JSON_DEPTH, str_repr};
use serde_json::{Value, json};

/// Code points per `repr()` compared.
const CHUNK: u32 = 256;

/// Texts whose answer differs from CPython's on purpose, with the reason.
/// A listed text that matches fails the test (the entry is stale).
const KNOWN_DEVIATIONS: &[(&str, &str)] = &[
    (
        r#""\ud800""#,
        "a lone surrogate cannot live in a Rust string: it reads as U+FFFD",
    ),
    (
        r#""\ud800x""#,
        "a lone surrogate cannot live in a Rust string: it reads as U+FFFD",
    ),
];

/// Texts `json.loads` reads or refuses, around every rule of the grammar.
fn json_texts() -> Vec<String> {
    let mut texts: Vec<String> = [
        "0",
        "-0",
        "7",
        "-7",
        "01",
        "-01",
        "00",
        "1.",
        "1.5",
        ".5",
        "-.5",
        "1e",
        "1e5",
        "1E+5",
        "1e-5",
        "1.5e+300",
        "1e400",
        "-1e400",
        "2.5E-3",
        "1e+",
        "-",
        "--1",
        "+1",
        "1 2",
        "1.0",
        "123456789012345678901234567890",
        "-98765432109876543210",
        "NaN",
        "Infinity",
        "-Infinity",
        "nan",
        "infinity",
        "-NaN",
        "true",
        "false",
        "null",
        "True",
        "None",
        "tru",
        "nul",
        "\"\"",
        "\"a\"",
        "\"\\u00e9\\ud83d\\ude00\"",
        "\"\\ud800\"",
        "\"\\ud800x\"",
        "\"\\/\\b\\f\\n\\r\\t\\\"\\\\\"",
        "\"\\x\"",
        "\"\\u12\"",
        "\"tab\there\"",
        "\"é☃𝄞\"",
        "\"\u{7f}\u{80}\u{ff}\"",
        "\"unterminated",
        "[]",
        "[1, 2]",
        "[1,]",
        "[,1]",
        "[1 2]",
        "{}",
        "{\"a\": 1}",
        "{\"a\" 1}",
        "{a: 1}",
        "{\"a\": 1,}",
        "{\"b\": 1, \"a\": 2, \"b\": 3}",
        "{\"k\": [1, {\"x\": [null, true, 2.5]}]}",
        " \t\n\r[ 1 ,\n 2 ] \n",
        "\u{a0}1",
        "[1]]",
        "",
        " ",
        "[",
        "{",
        "[0.1, 1e16, 1e-5, 123456789.125, 5e-324]",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    // Nesting at, and one past, where both readers stop.
    for depth in [50, 990, MAX_JSON_DEPTH + 1] {
        texts.push(format!("{}{}", "[".repeat(depth), "]".repeat(depth)));
    }
    texts
}

#[test]
fn json_and_repr_match_cpython() {
    let texts = json_texts();
    let theirs = difftest::cpython(
        "cpython_forms.py",
        &json!({"json": texts, "repr_chunk": CHUNK}),
    );
    let mut diffs = Vec::new();
    let mut deep_refused = 0;
    for (text, want) in texts.iter().zip(theirs["json"].as_array().expect("json")) {
        let before = diffs.len();
        compare_json(text, want, &mut diffs, &mut deep_refused);
        let known = KNOWN_DEVIATIONS.iter().find(|(t, _)| t == text);
        match (known, diffs.len() > before) {
            (Some(_), true) => diffs.truncate(before),
            (Some((_, why)), false) => diffs.push(format!(
                "{text:?} is listed as a known deviation ({why}) but matches CPython: remove the entry"
            )),
            (None, _) => {}
        }
    }
    assert!(deep_refused <= 1, "{deep_refused} deep texts differ");
    let chunks = theirs["repr"].as_array().expect("repr");
    assert_eq!(chunks.len() as u32, 0x110000 / CHUNK);
    for (n, want) in chunks.iter().enumerate() {
        let start = n as u32 * CHUNK;
        let text: String = (start..start + CHUNK).filter_map(char::from_u32).collect();
        let ours = str_repr(&text);
        if Some(ours.as_str()) != want.as_str() {
            diffs.push(format!("repr of U+{start:04X}..: {want} ours {ours:?}"));
        }
    }
    assert!(
        diffs.is_empty(),
        "{} differ:\n{}",
        diffs.len(),
        diffs[..diffs.len().min(10)].join("\n")
    );
}

/// Compares our reading (and writing back) of one text with CPython's.
fn compare_json(text: &str, want: &Value, diffs: &mut Vec<String>, deep_refused: &mut usize) {
    let ours = Data::from_json(text);
    let shown: String = text.chars().take(60).collect();
    match (ours, want.get("dumps")) {
        (Ok(v), Some(dumps)) => {
            if Some(v.to_json().as_str()) != dumps.as_str() {
                diffs.push(format!("{shown:?}: dumps {dumps} ours {}", v.to_json()));
            }
            if Some(v.py_repr().as_str()) != want["repr"].as_str() {
                diffs.push(format!(
                    "{shown:?}: repr {} ours {}",
                    want["repr"],
                    v.py_repr()
                ));
            }
        }
        (Err(_), None) => {}
        // CPython stops a little short of MAX_JSON_DEPTH (at its
        // recursion limit, which depends on its own stack): texts
        // between the two limits are the one allowed difference.
        (Ok(_), None) if text.starts_with("[[[[") && want["error"] == "RecursionError" => {
            *deep_refused += 1;
        }
        (Ok(v), None) => diffs.push(format!(
            "{shown:?}: CPython refuses ({}), ours reads {}",
            want["error"],
            v.to_json()
        )),
        (Err(e), Some(dumps)) => diffs.push(format!(
            "{shown:?}: CPython reads {dumps}, ours refuses: {e}"
        )),
    }
}

#[test]
fn type_names_are_pythons() {
    let names: Vec<&str> = [
        Data::None,
        Data::Bool(true),
        Data::Int(1.into()),
        Data::Float(1.0),
        Data::Str(String::new()),
        Data::List(vec![]),
        Data::Tuple(vec![]),
        Data::Dict(vec![]),
        Data::Set(vec![]),
    ]
    .iter()
    .map(Data::type_name)
    .collect();
    assert_eq!(
        names,
        [
            "NoneType", "bool", "int", "float", "str", "list", "tuple", "dict", "set"
        ]
    );
}

#[test]
fn dict_keys_as_json_dumps_writes_them() {
    let keys = [
        (Data::Str("k".into()), Some("k")),
        (Data::Int(1.into()), Some("1")),
        (Data::Float(2.5), Some("2.5")),
        (Data::Float(f64::NAN), Some("NaN")),
        (Data::Float(f64::NEG_INFINITY), Some("-Infinity")),
        (Data::Bool(true), Some("true")),
        (Data::None, Some("null")),
        (Data::Tuple(vec![Data::Int(1.into())]), None),
    ];
    for (k, want) in keys {
        assert_eq!(k.json_key().as_deref(), want, "{k:?}");
    }
}
