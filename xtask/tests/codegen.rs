//! The generated tables must be what their generators print today, and the
//! check must notice when one is not. The generators ask `python3`
//! (CPython 3.11); without it these tests fail.

use std::path::Path;

use xtask::codegen::{self, Target};

#[test]
fn every_generated_file_is_fresh() {
    let report = codegen::run(&codegen::workspace_root(), codegen::TARGETS, true)
        .unwrap_or_else(|e| panic!("{e}"));
    for t in codegen::TARGETS {
        assert!(report.contains(t.path), "{report}");
    }
}

#[test]
fn the_command_checks_the_tree() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(["codegen", "--check"])
        .output()
        .expect("xtask runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("codegen: ok"));
}

/// A target in a scratch tree whose script prints `text`.
fn scratch(root: &Path, text: &str) -> Target {
    std::fs::create_dir_all(root.join("gen")).expect("dir");
    std::fs::write(
        root.join("gen/make.py"),
        format!("import sys\nsys.stdout.write({text:?})\n"),
    )
    .expect("script");
    Target {
        path: "gen/out.rs",
        script: "gen/make.py",
        args: &[],
    }
}

#[test]
fn a_stale_or_missing_file_fails_the_check_and_is_rewritten() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let target = scratch(root, "const X: u8 = 2;\n");
    let err = codegen::run(root, &[target], true).expect_err("missing file is stale");
    assert!(err.contains("gen/out.rs") && err.contains("STALE"), "{err}");
    std::fs::write(root.join(target.path), "const X: u8 = 1;\n").expect("write");
    let err = codegen::run(root, &[target], true).expect_err("old text is stale");
    assert!(err.contains("1 file(s) differ"), "{err}");
    // The check wrote nothing.
    assert_eq!(
        std::fs::read_to_string(root.join(target.path))
            .ok()
            .as_deref(),
        Some("const X: u8 = 1;\n")
    );
    let report = codegen::run(root, &[target], false).expect("writes");
    assert!(report.contains("written"), "{report}");
    assert_eq!(
        std::fs::read_to_string(root.join(target.path))
            .ok()
            .as_deref(),
        Some("const X: u8 = 2;\n")
    );
    assert!(codegen::run(root, &[target], true).is_ok());
}

#[test]
fn a_failing_generator_is_an_error_not_an_empty_table() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    std::fs::create_dir_all(root.join("gen")).expect("dir");
    std::fs::write(
        root.join("gen/make.py"),
        "import sys\nsys.exit('no CPython 3.11')\n",
    )
    .expect("script");
    let target = Target {
        path: "gen/out.rs",
        script: "gen/make.py",
        args: &[],
    };
    let err = codegen::run(root, &[target], false).expect_err("must fail");
    assert!(err.contains("no CPython 3.11"), "{err}");
    assert!(!root.join(target.path).exists());
}
