//! The CPython side of the differential tests: each helper script in this
//! directory reads one JSON document on stdin and prints one. `python3`
//! (3.11) is required: without it the tests fail.

#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

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
