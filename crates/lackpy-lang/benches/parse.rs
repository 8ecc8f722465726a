//! Parser benchmarks: a realistic ~200-line program (parse alone, and
//! parse followed by validation, the front end's whole job) and the whole
//! conformance corpus. The script `benches/compare/parse_validate.py`
//! times the reference on the same inputs.
// criterion's macros generate undocumented items.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use lackpy_lang::{CallSignature, ParamSig, parse, validate, validate_with};

const TOOLS: [&str; 4] = ["read_file", "find_files", "write_file", "edit_file"];

fn corpus() -> Vec<String> {
    let dir = env!("CARGO_MANIFEST_DIR");
    let candidates = [
        format!("{dir}/tests/conformance/visible.jsonl"),
        format!("{dir}/../../tests/conformance/visible.jsonl"),
    ];
    let Some(text) = candidates
        .iter()
        .find_map(|p| std::fs::read_to_string(p).ok())
    else {
        return Vec::new();
    };
    text.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v["program"].as_str().map(str::to_string))
        .collect()
}

fn benches(c: &mut Criterion) {
    let realistic = include_str!("data/realistic.lpy");
    c.bench_function("parse realistic-200-lines", |b| {
        b.iter(|| parse(black_box(realistic)))
    });
    c.bench_function("parse+validate realistic-200-lines", |b| {
        b.iter(|| validate(black_box(realistic), &TOOLS, &[]))
    });
    // The realistic program 85 times over (~17.6k lines), with and
    // without the call check against the four tools' signatures.
    let big = realistic.repeat(85);
    let sigs: Vec<CallSignature> = TOOLS
        .iter()
        .map(|t| {
            let mut params = vec![ParamSig::new("path", "str", true)];
            if *t == "write_file" {
                params.push(ParamSig::new("content", "str", true));
            }
            CallSignature::new(*t, params)
        })
        .collect();
    c.bench_function("parse realistic-x85", |b| b.iter(|| parse(black_box(&big))));
    c.bench_function("parse+validate realistic-x85", |b| {
        b.iter(|| validate(black_box(&big), &TOOLS, &[]))
    });
    c.bench_function("parse+validate_with realistic-x85", |b| {
        b.iter(|| validate_with(black_box(&big), &TOOLS, &[], &sigs))
    });
    let programs = corpus();
    if !programs.is_empty() {
        c.bench_function("parse corpus", |b| {
            b.iter(|| {
                for p in &programs {
                    let _ = black_box(parse(black_box(p)));
                }
            })
        });
    }
}

criterion_group!(parser, benches);
criterion_main!(parser);
