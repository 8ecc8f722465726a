//! Every program of the speed suite (`benches/suite/*.py`) prints the same
//! under the real `lackpy` binary as under CPython, at a small size: line 1
//! (`N = <int>`) is rewritten to `N = max(N / SHRINK, FLOOR)`, which keeps
//! each program well under a second in a debug build. `python3` is required:
//! without it the test fails.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::lackpy_in;

/// How much smaller than the benchmark size the test runs each program.
const SHRINK: u64 = 200;
/// The smallest N a program runs with: repeat counts shrink to this.
const FLOOR: u64 = 4;

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/suite")
}

/// The programs, sorted by name.
fn programs() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(suite_dir())
        .expect("the suite directory is readable")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "py") && p.file_name().is_some_and(|n| n != "run.py")
        })
        .collect();
    out.sort();
    out
}

/// The program's text with its size knob turned down.
fn shrunk(name: &str, text: &str) -> String {
    let (first, rest) = text.split_once('\n').unwrap_or((text, ""));
    let n: u64 = first
        .strip_prefix("N = ")
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("{name}: line 1 must be `N = <int>`, not {first:?}"));
    format!("N = {}\n{rest}", (n / SHRINK).max(FLOOR))
}

/// A readable account of where two outputs part.
fn diff(lackpy: &str, cpython: &str) -> String {
    let (l, c): (Vec<&str>, Vec<&str>) = (lackpy.lines().collect(), cpython.lines().collect());
    let mut out = String::new();
    for i in 0..l.len().max(c.len()) {
        let (a, b) = (l.get(i).copied(), c.get(i).copied());
        if a != b {
            out.push_str(&format!(
                "  line {}:\n    lackpy:  {}\n    CPython: {}\n",
                i + 1,
                a.unwrap_or("<none>"),
                b.unwrap_or("<none>")
            ));
        }
    }
    out
}

#[test]
fn every_suite_program_prints_what_cpython_prints() {
    let programs = programs();
    assert!(
        programs.len() >= 64,
        "the suite has at least 64 programs, found {}",
        programs.len()
    );
    let dir = tempfile::tempdir().expect("a temp dir");
    let mut failures = Vec::new();
    for path in &programs {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = std::fs::read_to_string(path).expect("a suite program is readable");
        let small = dir.path().join(&name);
        std::fs::write(&small, shrunk(&name, &text)).expect("the shrunk program is written");

        let py = Command::new("python3")
            .arg(&small)
            .output()
            .expect("python3 is required for the suite's correctness test");
        let py_out = String::from_utf8_lossy(&py.stdout).into_owned();
        if !py.status.success() {
            failures.push(format!(
                "{name}: CPython failed ({}):\n{}",
                py.status,
                String::from_utf8_lossy(&py.stderr)
            ));
            continue;
        }
        let small_str = small.to_string_lossy();
        let lk = lackpy_in(dir.path(), &["run", &small_str], "");
        if lk.code != 0 {
            failures.push(format!(
                "{name}: lackpy exited with {}:\n{}{}",
                lk.code, lk.stdout, lk.stderr
            ));
        } else if lk.stdout != py_out {
            failures.push(format!(
                "{name}: output differs from CPython's\n{}",
                diff(&lk.stdout, &py_out)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} suite programs differ:\n{}",
        failures.len(),
        programs.len(),
        failures.join("\n")
    );
}
