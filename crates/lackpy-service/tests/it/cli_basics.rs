//! The CLI's first-hour basics: help texts with examples, `--workspace`
//! and `-v` before the subcommand, `run --json` on a file it cannot read.

use crate::common::{examples, lackpy, lackpy_in};

/// `lackpy ARGS --help`'s stdout, after checking it exits 0.
fn help(args: &[&str]) -> String {
    let mut all = args.to_vec();
    all.push("--help");
    let out = lackpy(&all, "");
    assert_eq!(out.code, 0, "{all:?}: {}", out.stderr);
    out.stdout
}

#[test]
fn top_level_help_says_what_lackpy_is() {
    let text = help(&[]);
    assert!(
        text.starts_with("lackpy runs small programs"),
        "opens with what lackpy is for: {text}"
    );
    insta::assert_snapshot!("help_top", text);
    let out = lackpy(&["-h"], "");
    insta::assert_snapshot!("help_top_short", out.stdout);
}

#[test]
fn subcommand_help_has_an_example() {
    // `tools`, `spec` (and `stubs`) keep their own texts.
    for cmd in [
        &["run"][..],
        &["resume"],
        &["runs"],
        &["validate"],
        &["status"],
        &["init"],
        &["delegate"],
        &["generate"],
        &["template"],
        &["template", "create"],
        &["template", "list"],
        &["mcp"],
        &["mcp", "serve"],
        &["mcp", "init"],
    ] {
        let text = help(cmd);
        assert!(text.contains("Example"), "{cmd:?} has no example: {text}");
        insta::assert_snapshot!(format!("help_{}", cmd.join("_")), text);
    }
}

#[test]
fn workspace_and_verbose_before_the_subcommand() {
    let ws = examples();
    let ws = ws.to_str().expect("utf-8 path");
    let dir = tempfile::tempdir().expect("temp dir");
    let out = lackpy_in(
        dir.path(),
        &["--workspace", ws, "-v", "run", "summarise.lpy"],
        "",
    );
    // The program file is relative to the cwd, not the workspace.
    assert_eq!(out.code, 2, "{}", out.stderr);
    let out = lackpy_in(
        &examples(),
        &["--workspace", ws, "-v", "run", "summarise.lpy"],
        "",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr.contains("trace:"),
        "-v shows the trace: {}",
        out.stderr
    );
    // The workspace before the subcommand is the one used: its notes are found.
    let before = lackpy_in(dir.path(), &["--workspace", ws, "status", "--json"], "");
    let after = lackpy_in(dir.path(), &["status", "--json", "--workspace", ws], "");
    assert_eq!(before.code, 0, "{}", before.stderr);
    assert_eq!(before.stdout, after.stdout);
    // After the subcommand wins.
    let other = dir.path().to_str().expect("utf-8 path");
    let both = lackpy_in(
        dir.path(),
        &["--workspace", ws, "status", "--json", "--workspace", other],
        "",
    );
    assert_ne!(both.stdout, before.stdout);
}

#[test]
fn run_json_on_a_missing_file_prints_the_failure_object() {
    let out = lackpy(&["run", "nope.lpy", "--json"], "");
    assert_eq!(out.code, 2);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).expect("one JSON object");
    insta::assert_json_snapshot!("run_json_missing_file", v);
    assert!(
        out.stderr
            .starts_with("error: cannot read program file 'nope.lpy'"),
        "{}",
        out.stderr
    );
    // Without --json, only the error line.
    let out = lackpy(&["run", "nope.lpy"], "");
    assert_eq!(out.code, 2);
    assert_eq!(out.stdout, "");
}

#[test]
fn no_dot_components_in_paths_shown() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join(".lackpy")).expect("mkdir");
    std::fs::write(dir.path().join(".lackpy/config.toml"), "colr = 1\n").expect("config");
    let ws = format!("{}/.", dir.path().display());
    let out = lackpy_in(dir.path(), &["status", "--workspace", &ws], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    // (Temporary directories' names start with a dot: look for `/./`
    // and a trailing `/.`.)
    assert!(!out.stdout.contains("/./"), "{}", out.stdout);
    assert!(
        out.stdout
            .lines()
            .next()
            .is_some_and(|l| !l.ends_with("/.")),
        "{}",
        out.stdout
    );
    assert!(!out.stderr.contains("/./"), "{}", out.stderr);
    assert!(
        out.stderr.contains(&format!(
            "{}/.lackpy/config.toml:1: unknown config key 'colr'",
            dir.path().display()
        )),
        "{}",
        out.stderr
    );
}
