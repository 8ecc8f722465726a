//! `cargo xtask codegen [--check]`: the files made from CPython's answers.
//!
//! Each [`Target`] is a file in the tree and the Python script (under
//! `xtask/codegen/`) that prints its text. The scripts ask CPython 3.11
//! itself (the Unicode tables of `str`'s methods, `format`, `%` and
//! `str.format`), so the tables cannot drift from what they claim to copy.
//! `--check` writes nothing and fails naming every file whose text is not
//! what its script prints now; a test runs it, so a stale table fails CI.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A generated file and how to make it.
#[derive(Debug, Clone, Copy)]
pub struct Target {
    /// The file, relative to the workspace root.
    pub path: &'static str,
    /// The script that prints it, relative to the workspace root.
    pub script: &'static str,
    /// The script's arguments.
    pub args: &'static [&'static str],
}

/// Every generated file in the workspace.
pub const TARGETS: &[Target] = &[
    Target {
        path: "crates/lackpy-lang/src/text/unicode/tables.rs",
        script: "xtask/codegen/unicode_tables.py",
        args: &[],
    },
    Target {
        path: "crates/lackpy-lang/src/text/format/format_spec_cases.rs",
        script: "xtask/codegen/format_tables.py",
        args: &["spec"],
    },
    Target {
        path: "crates/lackpy-lang/src/text/format/printf_cases.rs",
        script: "xtask/codegen/format_tables.py",
        args: &["percent"],
    },
    Target {
        path: "crates/lackpy-lang/src/text/format/template_cases.rs",
        script: "xtask/codegen/format_tables.py",
        args: &["template"],
    },
];

/// The workspace root (this crate's parent directory).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// The text `target`'s script prints, run with `python3` from `root`.
pub fn generate(root: &Path, target: &Target) -> Result<String, String> {
    let out = Command::new("python3")
        .arg(root.join(target.script))
        .args(target.args)
        .current_dir(root)
        .output()
        .map_err(|e| format!("cannot run python3 (CPython 3.11 is required): {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{} {} failed ({}): {}",
            target.script,
            target.args.join(" "),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    String::from_utf8(out.stdout).map_err(|_| format!("{} printed non-UTF-8 text", target.script))
}

/// Regenerates every target under `root`. With `check`, nothing is written
/// and any file that differs from what its script prints is an error naming
/// it; otherwise the files that differ are rewritten. The report lists each
/// file and what happened to it.
pub fn run(root: &Path, targets: &[Target], check: bool) -> Result<String, String> {
    let mut report = String::new();
    let mut stale = Vec::new();
    for target in targets {
        let fresh = generate(root, target)?;
        let path = root.join(target.path);
        let current = std::fs::read_to_string(&path).ok();
        let state = if current.as_deref() == Some(fresh.as_str()) {
            "up to date"
        } else if check {
            stale.push(target.path);
            "STALE"
        } else {
            std::fs::write(&path, &fresh)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            "written"
        };
        let _ = writeln!(report, "{:<52} {state}", target.path);
    }
    if stale.is_empty() {
        let _ = writeln!(report, "codegen: ok");
        Ok(report)
    } else {
        Err(format!(
            "{report}codegen: {} file(s) differ from what their generator prints now: {}\n\
             run `cargo xtask codegen` and review the diff",
            stale.len(),
            stale.join(", ")
        ))
    }
}
