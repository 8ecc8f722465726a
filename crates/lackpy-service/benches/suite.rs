//! The speed suite: every program in `benches/suite/` under `lackpy run`
//! and under CPython, as whole processes, alternately (see BENCHMARKS.md).
//!
//! ```text
//! cargo bench -p lackpy-service --bench suite
//! cargo bench -p lackpy-service --bench suite -- sort --repeat 5 --json /tmp/suite.json
//! ```
//!
//! Cargo builds the `lackpy` binary with the bench profile and this target
//! hands it to `benches/suite/run.py` (Python 3, stdlib only), passing the
//! arguments after `--` through: `--repeat K`, `--filter SUBSTR` (a bare
//! word is taken as the filter, as bench filters are), `--json OUT`,
//! `--python PATH`. It exits non-zero when the runner does (an output that
//! differs from CPython's, a failed run, no `python3`).
//!
//! Under `cargo test` (no `--bench` flag) it only checks that the runner
//! and the programs are there: the outputs are compared by the
//! `bench_suite` test, and timing a debug build would mean nothing.
#![allow(missing_docs)]

use std::path::Path;
use std::process::{Command, ExitCode};

fn main() -> ExitCode {
    let suite = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/suite");
    let runner = suite.join("run.py");
    let mut bench = false;
    let mut pass = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--bench" => bench = true,
            // Options of the runner that take a value keep it.
            "--repeat" | "--filter" | "--json" | "--python" => {
                pass.push(arg);
                if let Some(value) = args.next() {
                    pass.push(value);
                }
            }
            a if !a.starts_with('-') => {
                pass.push("--filter".to_owned());
                pass.push(arg);
            }
            _ => pass.push(arg),
        }
    }
    if !bench {
        let programs = std::fs::read_dir(&suite)
            .map(|d| {
                d.filter_map(Result::ok)
                    .filter(|e| {
                        let name = e.file_name();
                        let name = name.to_string_lossy();
                        name.ends_with(".py") && name != "run.py"
                    })
                    .count()
            })
            .unwrap_or(0);
        if !runner.is_file() || programs == 0 {
            eprintln!(
                "suite bench: no runner or no programs in {}",
                suite.display()
            );
            return ExitCode::FAILURE;
        }
        println!(
            "suite bench: {programs} programs; run `cargo bench -p lackpy-service --bench suite` to time them"
        );
        return ExitCode::SUCCESS;
    }
    let status = Command::new("python3")
        .arg(&runner)
        .arg(env!("CARGO_BIN_EXE_lackpy"))
        .arg(&suite)
        .args(&pass)
        .status();
    match status {
        Ok(s) if s.success() => ExitCode::SUCCESS,
        Ok(s) => {
            eprintln!("suite bench: the runner failed ({s})");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("suite bench: cannot start python3 ({e}); the suite needs Python 3.11");
            ExitCode::FAILURE
        }
    }
}
