//! The file tools' trust boundary and their bounds, through the real
//! `lackpy` binary on real files: protected paths (lackpy's config, tool
//! code, git hooks through a symlink), FIFOs and devices, size caps, deep
//! configs, runaway globs, and tool names no program could call.

use crate::common;

use std::path::Path;
use std::process::Command;

use common::lackpy_in;

/// A workspace inside a fresh directory, so `../x` from it is still ours.
struct Ws {
    outer: tempfile::TempDir,
}

impl Ws {
    fn new() -> Ws {
        let outer = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir(outer.path().join("ws")).expect("workspace");
        Ws { outer }
    }

    fn path(&self) -> std::path::PathBuf {
        self.outer.path().join("ws")
    }

    fn write(&self, rel: &str, text: &str) {
        let p = self.path().join(rel);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).expect("parent dir");
        }
        std::fs::write(p, text).expect("write a file");
    }

    fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path().join(rel)).expect("read a file")
    }

    fn config(&self, text: &str) {
        self.write(".lackpy/config.toml", text);
    }

    /// Runs `program` with `--json` (and `extra` args); the parsed result.
    fn run(&self, program: &str, extra: &[&str]) -> serde_json::Value {
        let mut args = vec!["run", "-", "--json"];
        args.extend_from_slice(extra);
        let out = lackpy_in(&self.path(), &args, program);
        serde_json::from_str(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: stdout {} stderr {}", out.stdout, out.stderr))
    }
}

/// `(error_type, error)` of a failed run.
fn failure(v: &serde_json::Value) -> (String, String) {
    assert_eq!(v["success"], false, "{v}");
    (
        v["error_type"].as_str().unwrap_or_default().to_string(),
        v["error"].as_str().unwrap_or_default().to_string(),
    )
}

fn mkfifo(p: &Path) {
    let ok = Command::new("mkfifo")
        .arg(p)
        .status()
        .expect("mkfifo runs")
        .success();
    assert!(ok, "mkfifo {}", p.display());
}

#[test]
fn writing_lackpys_config_is_refused_and_status_then_runs_no_shell() {
    let ws = Ws::new();
    ws.config("");
    let v = ws.run(
        r#"write_file('.lackpy/config.toml', '[mcp_servers.x]\ncommand = "sh"\nargs = ["-c", "id > ../pwned"]\n')"#,
        &[],
    );
    let (ty, msg) = failure(&v);
    assert_eq!(ty, "PermissionError");
    insta::assert_snapshot!("write_lackpy_config", msg);
    assert_eq!(ws.read(".lackpy/config.toml"), "");
    let out = lackpy_in(&ws.path(), &["status"], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!ws.outer.path().join("pwned").exists());
    // Nor through `..`, nor by replacing the directory with a file.
    std::fs::create_dir(ws.path().join("src")).expect("src dir");
    let (ty, _) = failure(&ws.run("write_file('src/../.lackpy/config.toml', 'x')", &[]));
    assert_eq!(ty, "PermissionError");
    let fresh = Ws::new();
    let (ty, msg) = failure(&fresh.run("write_file('.lackpy', 'x')", &[]));
    assert_eq!(ty, "PermissionError", "{msg}");
    assert!(!fresh.path().join(".lackpy").exists());
}

#[test]
fn reading_lackpys_config_is_refused() {
    let ws = Ws::new();
    ws.config("[mcp_servers.s]\nurl = \"http://127.0.0.1:9/mcp\"\nheaders = { Authorization = \"Bearer secret\" }\nenabled = false\n");
    let (ty, msg) = failure(&ws.run("read_file('.lackpy/config.toml')", &[]));
    assert_eq!(ty, "PermissionError");
    insta::assert_snapshot!("read_lackpy_config", msg);
    // edit_file would tell whether a string is there: refused as well.
    let (ty, _) = failure(&ws.run("edit_file('.lackpy/config.toml', 'secret', 'secret')", &[]));
    assert_eq!(ty, "PermissionError");
}

#[test]
fn overwriting_a_configured_python_tool_module_is_refused() {
    let ws = Ws::new();
    ws.write("ptools.py", "def greet(name):\n    return 'hi ' + name\n");
    ws.write("pkg/__init__.py", "");
    ws.write("pkg/deep.py", "def f():\n    return 1\n");
    ws.config(
        "[[tools]]\nname = \"greet\"\nprovider = \"python\"\nmodule = \"ptools\"\nfunction = \"greet\"\n\n\
         [[tools]]\nname = \"deep\"\nprovider = \"python\"\nmodule = \"pkg.deep\"\nfunction = \"f\"\n\n\
         [[tools]]\nname = \"script\"\nprovider = \"command\"\ncommand = [\"sh\", \"scripts/run.sh\"]\n",
    );
    ws.write("scripts/run.sh", "cat\n");
    let (ty, msg) = failure(&ws.run(
        "write_file('ptools.py', 'import subprocess\\nsubprocess.run([\"id\"])\\n')",
        &[],
    ));
    assert_eq!(ty, "PermissionError");
    insta::assert_snapshot!("write_python_tool_module", msg);
    assert!(ws.read("ptools.py").starts_with("def greet"));
    // The validator refuses string literals holding `__`: build the name.
    for target in [
        "'pkg/_' + '_init_' + '_.py'",
        "'pkg/deep.py'",
        "'scripts/run.sh'",
    ] {
        let (ty, msg) = failure(&ws.run(&format!("write_file({target}, 'x')"), &[]));
        assert_eq!(ty, "PermissionError", "{target}: {msg}");
    }
    // Other files stay writable.
    let v = ws.run("write_file('notes.txt', 'ok')", &[]);
    assert_eq!(v["success"], true, "{v}");
}

#[test]
fn a_symlink_into_git_hooks_is_refused() {
    let ws = Ws::new();
    std::fs::create_dir_all(ws.path().join(".git/hooks")).expect("hooks dir");
    std::os::unix::fs::symlink(".git/hooks", ws.path().join("h")).expect("symlink");
    let (ty, msg) = failure(&ws.run("write_file('h/pre-commit', '#!/bin/sh\\nid\\n')", &[]));
    assert_eq!(ty, "PermissionError");
    insta::assert_snapshot!("write_through_symlink_into_git", msg);
    assert!(!ws.path().join(".git/hooks/pre-commit").exists());
}

#[test]
fn fifos_fail_fast_for_reads_and_writes() {
    let ws = Ws::new();
    mkfifo(&ws.path().join("fifo"));
    let (ty, msg) = failure(&ws.run("read_file('fifo')", &["--timeout", "20000"]));
    assert_eq!(ty, "OSError");
    insta::assert_snapshot!("read_fifo", msg);
    let (ty, msg) = failure(&ws.run("write_file('fifo', 'x')", &["--timeout", "20000"]));
    assert_eq!(ty, "OSError", "{msg}");
    assert!(msg.contains("named pipe"), "{msg}");
}

#[test]
fn a_read_over_the_cap_is_a_clean_error() {
    let ws = Ws::new();
    ws.config("[files]\nmax_read_bytes = 1000\n");
    ws.write("big.txt", &"x".repeat(2000));
    ws.write("small.txt", &"x".repeat(1000));
    let (ty, msg) = failure(&ws.run("read_file('big.txt')", &[]));
    assert_eq!(ty, "OSError");
    insta::assert_snapshot!("read_over_cap", msg);
    let v = ws.run("len(read_file('small.txt'))", &[]);
    assert_eq!(v["output"], 1000, "{v}");
}

#[test]
fn a_file_named_as_a_directory_is_not_a_directory() {
    let ws = Ws::new();
    ws.write("h.txt", "hi\n");
    let (ty, msg) = failure(&ws.run("read_file('h.txt/')", &[]));
    assert_eq!(
        (ty.as_str(), msg.as_str()),
        ("NotADirectoryError", "[Errno 20] Not a directory: 'h.txt/'")
    );
    let (ty, _) = failure(&ws.run("write_file('h.txt/', 'x')", &[]));
    assert_eq!(ty, "NotADirectoryError");
    assert_eq!(ws.read("h.txt"), "hi\n");
}

#[test]
fn device_and_fifo_host_configs_fail_fast() {
    let ws = Ws::new();
    mkfifo(&ws.path().join("host.json"));
    ws.config("[mcp]\nhost_configs = [\"/dev/zero\", \"host.json\"]\n");
    let out = lackpy_in(&ws.path(), &["status"], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    // The listed host configs are protected too.
    let (ty, msg) = failure(&ws.run("read_file('host.json')", &[]));
    assert_eq!(ty, "PermissionError", "{msg}");
}

#[test]
fn thousands_of_nested_tables_fail_fast() {
    let ws = Ws::new();
    ws.config(&format!(
        "x = {}1{}\n",
        "{a = ".repeat(3000),
        "}".repeat(3000)
    ));
    let out = lackpy_in(&ws.path(), &["status"], "");
    assert_ne!(out.code, 0);
    let first = out.stderr.lines().next().unwrap_or_default();
    assert!(first.contains("nest more than 32 levels"), "{}", out.stderr);
    // Nested headers, each one level deeper: refused at the 33rd.
    let text: String = (1..=100)
        .map(|n| format!("[{}]\n", vec!["a"; n].join(".")))
        .collect();
    ws.config(&text);
    let out = lackpy_in(&ws.path(), &["status"], "");
    assert_ne!(out.code, 0);
    let first = out.stderr.lines().next().unwrap_or_default();
    assert!(first.contains("config.toml:33:1"), "{}", out.stderr);
}

#[test]
fn runaway_globs_end_within_the_timeout() {
    let ws = Ws::new();
    for a in ["a", "b", "c"] {
        for b in ["d", "e", "f"] {
            ws.write(&format!("{a}/{b}/x.txt"), "x");
        }
    }
    for n in [40, 80] {
        let v = ws.run(
            &format!("len(find_files('/'.join(['**'] * {n})))"),
            &["--timeout", "3000"],
        );
        assert_eq!(v["output"], 13, "{v}");
        let v = ws.run(
            &format!("len(find_files('/'.join(['**', '*'] * {n})))"),
            &["--timeout", "3000"],
        );
        assert_eq!(v["success"], true, "{v}");
    }
}

#[test]
fn a_pattern_with_thousands_of_parts_is_refused_not_a_stack_overflow() {
    let ws = Ws::new();
    std::fs::create_dir(ws.path().join("a")).expect("dir");
    let (ty, msg) = failure(&ws.run(
        "find_files('/'.join(['a', '..'] * 50000) + '/a')",
        &["--timeout", "3000"],
    ));
    assert_eq!(
        (ty.as_str(), msg.as_str()),
        ("ValueError", "Invalid pattern: more than 256 parts")
    );
}

#[test]
fn tool_names_no_program_could_call_are_refused() {
    for (name, why) in [
        ("my-tool", "not a Python identifier"),
        ("for", "keyword"),
        ("", "not a Python identifier"),
        ("x y", "not a Python identifier"),
        ("print", "shadow a builtin"),
        ("len", "shadow a builtin"),
    ] {
        let ws = Ws::new();
        ws.config(&format!(
            "[[tools]]\nname = \"{name}\"\nprovider = \"command\"\ncommand = [\"cat\"]\n"
        ));
        let out = lackpy_in(&ws.path(), &["status"], "");
        assert_ne!(out.code, 0, "{name}: {}", out.stdout);
        assert!(out.stderr.contains(why), "{name}: {}", out.stderr);
    }
}

/// A hard link in the workspace to a file outside it (a checked-in file or
/// a command tool can leave one): writes through it are refused and the
/// outside file is untouched; a read works and its trace entry says so.
#[test]
fn hard_links_to_outside_files_are_never_written_and_reads_are_noted() {
    let ws = Ws::new();
    let outside = ws.outer.path().join("outside.txt");
    std::fs::write(&outside, "outside").expect("outside file");
    std::fs::hard_link(&outside, ws.path().join("link.txt")).expect("hard link");
    let v = ws.run("write_file('link.txt', 'pwned')", &[]);
    let (ty, msg) = failure(&v);
    assert_eq!(ty, "PermissionError", "{v}");
    assert!(
        msg.contains("2 hard links") && msg.contains("allow_hardlinks"),
        "{msg}"
    );
    assert_eq!(std::fs::read_to_string(&outside).expect("read"), "outside");

    let v = ws.run("read_file('link.txt')", &[]);
    assert_eq!(v["success"], true, "{v}");
    assert_eq!(v["output"], "outside", "{v}");
    let note = v["trace"][0]["note"].as_str().unwrap_or_default();
    assert!(
        note.contains("'link.txt'") && note.contains("2 hard links"),
        "{v}"
    );
    // A file with one name has no note.
    ws.write("plain.txt", "plain");
    let v = ws.run("read_file('plain.txt')", &[]);
    assert!(v["trace"][0].get("note").is_none(), "{v}");

    ws.config("[files]\nallow_hardlinks = true\n");
    let v = ws.run("write_file('link.txt', 'shared')", &[]);
    assert_eq!(v["success"], true, "{v}");
    assert_eq!(std::fs::read_to_string(&outside).expect("read"), "shared");
}
