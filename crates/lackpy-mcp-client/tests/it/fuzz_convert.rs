//! Fuzz target: MCP call results to program values, and program values to
//! call arguments.
//!
//! Generated `CallToolResult` JSON (text, image, audio, resource and
//! resource-link blocks and unknown ones, annotations, `structuredContent`
//! of every JSON shape, `isError` of every type, deep nesting, numbers
//! past i64/u64/f64, huge strings, lone surrogates), parsed as the
//! transport does, must give a value or a clean tool error; the value must
//! then convert back to JSON or fail cleanly. Generated program values
//! (NaN and infinities, ints past u64, tuples, sets, non-str keys, deep
//! nesting) must convert to arguments or fail cleanly. All on a 2 MiB
//! stack, never a panic or an overflow.
//!
//! CI runs a fixed number of cases from a fixed seed. For a longer run:
//! `LACKPY_FUZZ_CASES=100000 cargo test -p lackpy-mcp-client --test it fuzz_convert::`
//! (`LACKPY_FUZZ_SEED=N` for other cases).

use std::time::{Duration, Instant};

use lackpy_mcp_client::sources::lang::{Data, MAX_JSON_DEPTH};
use lackpy_mcp_client::{data_to_json, result_to_data};
use lackpy_test_support::rng::{self as fuzz, Rng};
use num_bigint::BigInt;
use rmcp::model::CallToolResult;

const CASE_WALL: Duration = Duration::from_secs(2);

const SCALARS: &[&str] = &[
    "null",
    "true",
    "false",
    "0",
    "-1",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775809",
    "123456789012345678901234567890",
    "1.5",
    "-0.0",
    "1e308",
    "1e-320",
    "1e400",
    "NaN",
    "Infinity",
    "\"\"",
    "\"text\"",
    "\"{\\\"result\\\": 1}\"",
    "\"\\ud800\"",
    "\"\\u0000\"",
    "\"é😀\"",
];

fn json(rng: &mut Rng, depth: u32) -> String {
    if depth > 4 || rng.chance(40) {
        return rng.pick(SCALARS).to_owned();
    }
    if rng.chance(50) {
        let items: Vec<String> = (0..rng.below(4)).map(|_| json(rng, depth + 1)).collect();
        format!("[{}]", items.join(", "))
    } else {
        let keys = ["result", "a", "", "type", "__class__", "result"];
        let items: Vec<String> = (0..rng.below(4))
            .map(|_| {
                format!(
                    "\"{}\": {}",
                    keys[rng.below(keys.len())],
                    json(rng, depth + 1)
                )
            })
            .collect();
        format!("{{{}}}", items.join(", "))
    }
}

fn text(rng: &mut Rng) -> String {
    // A megabyte now and then: enough to show size is no problem, rare
    // enough to keep the target fast.
    match rng.below(40) {
        0 => format!("\"{}\"", "x".repeat(1 << 20)),
        1 => "\"\"".to_owned(),
        2 => "42".to_owned(),
        3 => "null".to_owned(),
        _ => rng
            .pick(&["\"ok\"", "\"line\\nline\"", "\"\\ud83d\"", "\"[1, 2]\""])
            .to_owned(),
    }
}

fn block(rng: &mut Rng) -> String {
    let annotations = if rng.chance(15) {
        ", \"annotations\": {\"audience\": [\"user\"], \"priority\": 0.5}"
    } else {
        ""
    };
    let body = match rng.below(9) {
        0..=2 => format!("\"type\": \"text\", \"text\": {}", text(rng)),
        3 => format!(
            "\"type\": \"image\", \"data\": {}, \"mimeType\": {}",
            text(rng),
            rng.pick(&["\"image/png\"", "\"\"", "null", "7"])
        ),
        4 => "\"type\": \"audio\", \"data\": \"AAAA\", \"mimeType\": \"audio/wav\"".to_owned(),
        5 => format!(
            "\"type\": \"resource\", \"resource\": {{\"uri\": {}, \"text\": {}}}",
            rng.pick(&["\"file:///x\"", "\"\"", "5"]),
            text(rng)
        ),
        6 => "\"type\": \"resource\", \"resource\": {\"uri\": \"file:///b\", \"blob\": \"AAA=\", \"mimeType\": \"application/octet-stream\"}".to_owned(),
        7 => "\"type\": \"resource_link\", \"uri\": \"file:///l\", \"name\": \"l\"".to_owned(),
        _ => format!("\"type\": {}", rng.pick(&["\"video\"", "null", "3", "\"\""])),
    };
    format!("{{{body}{annotations}}}")
}

fn call_result(rng: &mut Rng) -> String {
    let mut fields = Vec::new();
    if rng.chance(85) {
        let blocks: Vec<String> = (0..rng.below(4)).map(|_| block(rng)).collect();
        fields.push(format!("\"content\": [{}]", blocks.join(", ")));
    }
    if rng.chance(50) {
        let v = if rng.chance(30) {
            format!("{{\"result\": {}}}", json(rng, 1))
        } else {
            json(rng, 0)
        };
        fields.push(format!("\"structuredContent\": {v}"));
    }
    if rng.chance(40) {
        fields.push(format!(
            "\"isError\": {}",
            rng.pick(&["true", "false", "null", "1", "\"true\""])
        ));
    }
    if rng.chance(10) {
        fields.push("\"_meta\": {\"k\": 1}".to_owned());
    }
    format!("{{{}}}", fields.join(", "))
}

/// Nesting past serde's limit and past ours.
fn deep(rng: &mut Rng) -> String {
    let n = [100, 127, 200, 300, 10_000][rng.below(5)];
    match rng.below(3) {
        0 => format!(
            "{{\"content\": [], \"structuredContent\": {{\"result\": {}1{}}}}}",
            "[".repeat(n),
            "]".repeat(n)
        ),
        1 => format!(
            "{{\"structuredContent\": {}0{}}}",
            "{\"a\": ".repeat(n),
            "}".repeat(n)
        ),
        _ => format!("{{\"content\": {}{}}}", "[".repeat(n), "]".repeat(n)),
    }
}

/// Parses (as the transport does) and converts one result.
fn check_result(text: &str) -> Result<(), String> {
    let Ok(result) = serde_json::from_str::<CallToolResult>(text) else {
        return Ok(()); // the transport refuses it before us
    };
    match result_to_data(&result) {
        Ok(data) => {
            let _ = data_to_json(&data);
            Ok(())
        }
        Err(e) => {
            if e.to_string().is_empty() {
                Err("empty tool error".to_owned())
            } else {
                Ok(())
            }
        }
    }
}

fn data(rng: &mut Rng, depth: u32) -> Data {
    if depth > 5 || rng.chance(40) {
        return match rng.below(9) {
            0 => Data::None,
            1 => Data::Bool(true),
            2 => Data::Int(BigInt::from(i64::MIN)),
            3 => Data::Int(BigInt::from(u64::MAX) * 7),
            4 => Data::Float(f64::NAN),
            5 => Data::Float(f64::NEG_INFINITY),
            6 => Data::Float(-0.0),
            7 => Data::Str("s".repeat(rng.below(3) * 100)),
            _ => Data::Int(BigInt::from(u64::MAX)),
        };
    }
    let items: Vec<Data> = (0..rng.below(4)).map(|_| data(rng, depth + 1)).collect();
    match rng.below(4) {
        0 => Data::List(items),
        1 => Data::Tuple(items),
        2 => Data::Set(items),
        _ => Data::Dict(items.into_iter().map(|v| (data(rng, 6), v)).collect()),
    }
}

fn deep_data(n: usize) -> Data {
    let mut d = Data::None;
    for i in 0..n {
        d = if i.is_multiple_of(2) {
            Data::List(vec![d])
        } else {
            Data::Dict(vec![(Data::Str("k".into()), d)])
        };
    }
    d
}

fn on_small_stack(f: impl FnOnce() -> Vec<String> + Send + 'static) -> Vec<String> {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("no stack overflow or abort")
}

#[test]
fn generated_call_results_give_a_value_or_a_clean_error() {
    let seed = fuzz::seed(0x5eed_0005);
    let cases = fuzz::cases(2000);
    let failures = on_small_stack(move || {
        let mut failures = Vec::new();
        for case in 0..cases {
            let mut rng = Rng::for_case(seed, case);
            let text = if case.is_multiple_of(10) {
                deep(&mut rng)
            } else {
                call_result(&mut rng)
            };
            let start = Instant::now();
            let res = std::panic::catch_unwind(|| check_result(&text))
                .unwrap_or_else(|_| Err("panicked".to_owned()));
            let took = start.elapsed();
            let res = res.and_then(|()| {
                if took > CASE_WALL {
                    Err(format!("took {took:?}"))
                } else {
                    Ok(())
                }
            });
            if let Err(why) = res {
                failures.push(format!(
                    "case {case} (seed {seed}): {why}\n{}",
                    &text[..text.len().min(500)]
                ));
            }
        }
        failures
    });
    assert!(
        failures.is_empty(),
        "{} failed:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
}

#[test]
fn generated_values_give_arguments_or_a_clean_error() {
    let seed = fuzz::seed(0x5eed_0006);
    let cases = fuzz::cases(2000);
    let failures = on_small_stack(move || {
        let mut failures = Vec::new();
        for case in 0..cases {
            let mut rng = Rng::for_case(seed, case);
            let d = data(&mut rng, 0);
            let ok = std::panic::catch_unwind(|| {
                let _ = data_to_json(&d);
            })
            .is_ok();
            if !ok {
                failures.push(format!("case {case} (seed {seed}): panicked on {d:?}"));
            }
        }
        // The one nesting limit of every JSON conversion of a value.
        for n in [
            200,
            MAX_JSON_DEPTH - 1,
            MAX_JSON_DEPTH,
            MAX_JSON_DEPTH + 1,
            2_000,
        ] {
            let d = deep_data(n);
            match data_to_json(&d) {
                Ok(_) if n <= MAX_JSON_DEPTH => {}
                Err(e) if n > MAX_JSON_DEPTH && e.to_string().contains("nested too deeply") => {}
                other => failures.push(format!("depth {n}: {other:?}")),
            }
        }
        failures
    });
    assert!(
        failures.is_empty(),
        "{} failed:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
}

/// Found by this target: an error result whose only texts are blank gave
/// a tool error with an empty message.
#[test]
fn regression_error_with_blank_texts_says_why() {
    for text in [
        r#"{"content": [{"type": "text", "text": ""}], "isError": true}"#,
        r#"{"content": [{"type": "text", "text": "  "}, {"type": "image", "data": "", "mimeType": "image/png"}], "isError": true}"#,
    ] {
        let result: CallToolResult = serde_json::from_str(text).expect("a valid result");
        let e = result_to_data(&result).expect_err("an error result");
        assert!(e.to_string().contains("MCP tool returned an error"), "{e}");
    }
    let mixed: CallToolResult = serde_json::from_str(
        r#"{"content": [{"type": "text", "text": ""}, {"type": "text", "text": "bad input"}], "isError": true}"#,
    )
    .expect("a valid result");
    let e = result_to_data(&mixed).expect_err("an error result");
    assert!(e.to_string().contains("bad input"), "{e}");
    assert!(!e.to_string().contains("; "), "{e}");
}
