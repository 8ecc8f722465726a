//! The two ways in give the same params: a generated family of JSON
//! objects, each read as a parsed value and as its text.

use lackpy_lang::MAX_JSON_DEPTH;
use lackpy_test_support::rng::Rng;
use serde_json::{Map, Number, Value, json};

use super::*;

/// Both readers' answers for `v`, comparable: every value's type and
/// digits (`Debug`, so `-0.0` and `0.0` differ), or the error.
fn both(v: &Value) -> (String, String) {
    let show = |r: Result<Vec<(String, Data)>, ServiceError>| match r {
        Ok(pairs) => format!("{pairs:?}"),
        Err(e) => format!("error: {e}"),
    };
    (
        show(params_from_value(v)),
        show(params_from_json(&v.to_string())),
    )
}

fn number(rng: &mut Rng) -> Value {
    match rng.below(8) {
        0 => json!(rng.next() as i64),
        1 => json!(rng.next()),
        2 => json!(i64::MIN),
        3 => json!(u64::MAX),
        4 => json!(rng.below(1000) as i64 - 500),
        // Any finite double, by its bits.
        5 => Number::from_f64(f64::from_bits(rng.next())).map_or(Value::Null, Value::Number),
        6 => json!(rng.pick(&[0.0, -0.0, 1.0, 0.1, 1e300, -1e-300, 5e-324, 2.5e16])),
        // An integer beyond 64 bits: serde_json holds it as a float.
        _ => serde_json::from_str("123456789012345678901234567890").unwrap_or(Value::Null),
    }
}

fn string(rng: &mut Rng) -> String {
    let pieces = [
        "a",
        "é",
        "\u{1F600}",
        "\"",
        "\\",
        "\n",
        "\u{0}",
        "\u{7f}",
        "\u{2028}",
        " ",
    ];
    (0..rng.below(6)).map(|_| rng.pick(&pieces)).collect()
}

fn value(rng: &mut Rng, depth: usize) -> Value {
    let kinds = if depth > 4 { 4 } else { 6 };
    match rng.below(kinds) {
        0 => Value::Null,
        1 => json!(rng.chance(50)),
        2 => number(rng),
        3 => Value::String(string(rng)),
        4 => Value::Array((0..rng.below(4)).map(|_| value(rng, depth + 1)).collect()),
        _ => Value::Object(object(rng, depth + 1)),
    }
}

fn object(rng: &mut Rng, depth: usize) -> Map<String, Value> {
    (0..rng.below(5))
        .map(|_| (string(rng), value(rng, depth)))
        .collect()
}

#[test]
fn a_parsed_value_reads_as_its_text() {
    for case in 0..2000 {
        let mut rng = Rng::for_case(0x5EED_0030, case);
        // Mostly objects (params), sometimes another value (refused).
        let v = if rng.chance(90) {
            Value::Object(object(&mut rng, 0))
        } else {
            value(&mut rng, 0)
        };
        let (parsed, text) = both(&v);
        assert_eq!(parsed, text, "case {case}: {v}");
    }
}

#[test]
fn nesting_is_bounded_the_same_way() {
    // The object itself is one level: its value may nest the rest.
    let mut deep = json!(0);
    for _ in 0..MAX_JSON_DEPTH - 1 {
        deep = json!([deep]);
    }
    let at_limit = json!({ "x": deep });
    let (parsed, text) = both(&at_limit);
    assert!(!parsed.starts_with("error"), "{parsed:.80}");
    assert_eq!(parsed, text);
    let past = json!({ "x": [deep] });
    assert!(params_from_value(&past).is_err());
    assert!(params_from_json(&past.to_string()).is_err());
}
