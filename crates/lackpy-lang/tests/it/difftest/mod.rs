//! The CPython side of the differential tests: each helper script in this
//! directory reads one JSON document on stdin and prints one. `python3`
//! (3.11) is required: without it the tests fail.

#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Stdio};

use lackpy_lang::{NoTools, RunOptions, run};
use serde_json::{Value, json};

/// Our side: what a program gives: `repr` of its last expression's value (or of
/// `None`) or `Type: message`, and what it printed.
pub fn ours(src: &str) -> Value {
    let module = lackpy_lang::parse(src).expect("program parses");
    let o = run(&module, &mut NoTools, &[], &RunOptions::default());
    if o.success {
        json!({"repr": o.output_repr.unwrap_or_default(), "stdout": o.stdout})
    } else {
        json!({
            "error": format!("{}: {}", o.error_type.unwrap_or_default(), o.error.unwrap_or_default()),
            "stdout": o.stdout,
        })
    }
}

/// Runs `tests/it/difftest/<script>` with `input` on stdin and returns what it
/// printed.
pub fn cpython(script: &str, input: &Value) -> Value {
    let path = format!("{}/tests/it/difftest/{script}", env!("CARGO_MANIFEST_DIR"));
    let mut child = Command::new("python3")
        .arg(&path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 is required for the differential tests");
    let bytes = serde_json::to_vec(input).expect("encode");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(&bytes));
    let out = child.wait_with_output().expect("python3 output");
    writer.join().expect("writer").expect("write to python3");
    assert!(out.status.success(), "python3 {script} failed");
    serde_json::from_slice(&out.stdout).expect("JSON from the python3 helper")
}

/// Runs the generator `tests/it/difftest/<script>` (argv: seed, programs per
/// family; `LACKPY_FUZZ_SEED` overrides the seed), checks it made
/// `families * per_family` cases, runs each with ours and fails listing the
/// first divergences. Each case is `{family, program, repr | error [, line]}`, as
/// CPython answered (with `line`, the error's line must match too; with
/// `stdout`, what the program printed must match too); every program must
/// also pass validation.
pub fn assert_generated_cases_match(script: &str, families: usize, per_family: usize) {
    let path = format!("{}/tests/it/difftest/{script}", env!("CARGO_MANIFEST_DIR"));
    let seed = std::env::var("LACKPY_FUZZ_SEED").unwrap_or_else(|_| "20261201".to_owned());
    let out = Command::new("python3")
        .args([path.as_str(), &seed, &per_family.to_string()])
        .output()
        .expect("python3 is required for the differential test");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cases: Vec<Value> = serde_json::from_slice(&out.stdout).expect("JSON from the helper");
    assert_eq!(cases.len(), families * per_family);
    let failures: Vec<String> = cases.iter().filter_map(diverges).collect();
    if std::env::var_os("LACKPY_FUZZ_VERBOSE").is_some() {
        for f in &failures {
            eprintln!("!!! {f}\n");
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} differ:\n{}",
        failures.len(),
        cases.len(),
        failures[..failures.len().min(8)].join("\n\n")
    );
}

/// Runs one generated case with ours; `Some` describes a divergence.
fn diverges(case: &Value) -> Option<String> {
    use lackpy_lang::{NoTools, RunOptions, run};
    let src = case["program"].as_str().unwrap_or_default();
    let family = case["family"].as_str().unwrap_or("?");
    let module = match lackpy_lang::parse(src) {
        Ok(m) => m,
        Err(e) => return Some(format!("[{family}] {src}\n  does not parse: {e}")),
    };
    let v = lackpy_lang::validate_module::<&str>(&module, &[], &[]);
    if !v.valid {
        return Some(format!(
            "[{family}] {src}\n  outside the language: {:?}",
            v.errors
        ));
    }
    let want_line = case.get("line").and_then(Value::as_u64);
    let want_stdout = case.get("stdout").and_then(Value::as_str);
    let ours = std::panic::catch_unwind(|| {
        let got = run(&module, &mut NoTools, &[], &RunOptions::default());
        let printed = match want_stdout {
            Some(_) => format!("{:?} then ", got.stdout),
            None => String::new(),
        };
        printed
            + &match &got.error {
                None => got.output_repr.clone().unwrap_or_default(),
                // A case that records its error's line is answered with ours.
                Some(msg) if want_line.is_some() => format!(
                    "{}: {msg} (line {})",
                    got.error_type.clone().unwrap_or_default(),
                    got.error_line.unwrap_or(0)
                ),
                Some(msg) => format!("{}: {msg}", got.error_type.clone().unwrap_or_default()),
            }
    })
    .unwrap_or_else(|_| "a panic".to_owned());
    let mut want = case
        .get("repr")
        .or_else(|| case.get("error"))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    if let (Some(line), Some(_)) = (want_line, case.get("error")) {
        want = format!("{want} (line {line})");
    }
    if let Some(printed) = want_stdout {
        want = format!("{printed:?} then {want}");
    }
    (ours.trim_end() != want.trim_end())
        .then(|| format!("[{family}] {src}\n  CPython: {want}\n  ours:    {ours}"))
}
