//! The builtin file tools against the reference: every tool call recorded in
//! the conformance corpus (areas `tools` and `trace`) is replayed against its
//! fixture files; `find_files` is compared with Python's own
//! `pathlib.Path.glob` on a tree with hidden files, nesting and symlinks.

use crate::common;

use std::path::Path;
use std::process::Command;
use std::sync::Arc;

use common::{data, err_text, int, json, outcome, s, write_files};
use lackpy_sources::Config;
use lackpy_sources::lang::Data;
use lackpy_sources::{CallContext, PythonRuntime, Toolbox, add_local_sources};
use serde_json::Value;

fn toolbox() -> Toolbox {
    let mut tb = Toolbox::new();
    add_local_sources(&mut tb, &Config::default(), &PythonRuntime::new(), None)
        .unwrap_or_else(|e| panic!("{e}"));
    tb
}

fn call(
    tb: &Toolbox,
    ctx: &CallContext,
    name: &str,
    args: Vec<Data>,
) -> lackpy_sources::ToolResult {
    let r = tb.resolve(name).unwrap_or_else(|e| panic!("{e}"));
    r.tool.call(args, Vec::new(), ctx).wait()
}

/// Every file under `root` (relative path → text), `.lackpy` excluded.
fn snapshot_files(root: &Path) -> serde_json::Map<String, Value> {
    fn walk(root: &Path, dir: &Path, out: &mut serde_json::Map<String, Value>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(root, &p, out);
            } else if let (Ok(rel), Ok(text)) = (p.strip_prefix(root), std::fs::read_to_string(&p))
            {
                out.insert(rel.to_string_lossy().into_owned(), Value::String(text));
            }
        }
    }
    let mut out = serde_json::Map::new();
    walk(root, root, &mut out);
    out
}

/// Whether `got` matches a trace result (strings over 500 characters are
/// recorded cut, as `first 500... (N chars)`).
fn same_result(got: &Value, want: &Value) -> bool {
    if let (Value::String(g), Value::String(w)) = (got, want) {
        let n = g.chars().count();
        if n > 500 {
            let cut: String = g.chars().take(500).collect();
            return *w == format!("{cut}... ({n} chars)");
        }
    }
    got == want
}

#[test]
fn replays_every_tool_call_of_the_corpus() {
    let tb = toolbox();
    let corpus = include_str!("../fixtures/corpus_tools.jsonl");
    let mut calls = 0;
    for line in corpus.lines() {
        let case: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}"));
        let id = case["id"].as_str().unwrap_or("?");
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let files: Vec<(String, String)> = case["files"]
            .as_object()
            .map(|m| {
                m.iter()
                    .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                    .collect()
            })
            .unwrap_or_default();
        let refs: Vec<(&str, &str)> = files
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        write_files(dir.path(), &refs);
        let ctx = CallContext::new(dir.path());
        for step in case["trace"].as_array().cloned().unwrap_or_default() {
            let tool = step["tool"].as_str().unwrap_or_default();
            let spec = tb
                .spec(tool)
                .cloned()
                .unwrap_or_else(|| panic!("{id}: no tool {tool}"));
            // Declared names were positional or keyword — the same after binding;
            // `arg{i}` are extra positionals; any other name was a keyword.
            let mut positional: Vec<(usize, Data)> = Vec::new();
            let mut keywords = Vec::new();
            for (k, v) in step["args"].as_object().cloned().unwrap_or_default() {
                if let Some(i) = spec.args.iter().position(|a| a.name == k) {
                    positional.push((i, data(&v)));
                } else if let Some(i) = k.strip_prefix("arg").and_then(|i| i.parse::<usize>().ok())
                {
                    positional.push((i, data(&v)));
                } else {
                    keywords.push((k, data(&v)));
                }
            }
            positional.sort_by_key(|(i, _)| *i);
            let args = positional.into_iter().map(|(_, v)| v).collect();
            let r = tb
                .resolve(tool)
                .unwrap_or_else(|e| panic!("{e}"))
                .tool
                .call(args, keywords, &ctx)
                .wait();
            calls += 1;
            if step["success"] == Value::Bool(true) {
                let got = r.unwrap_or_else(|e| panic!("{id}: {tool} failed: {}", err_text(&e)));
                assert!(
                    same_result(&json(&got), &step["result"]),
                    "{id}: {tool} returned {:?}, want {}",
                    json(&got),
                    step["result"]
                );
            } else {
                let want = step["error"].as_str().unwrap_or_default();
                match r {
                    Err(e) => assert_eq!(e.message(), want, "{id}: {tool}"),
                    Ok(v) => panic!("{id}: {tool} returned {v:?}, want error {want}"),
                }
            }
        }
        if let Some(want) = case.get("files_after").and_then(Value::as_object) {
            assert_eq!(&snapshot_files(dir.path()), want, "{id}: files after");
        }
    }
    assert!(calls >= 50, "replayed only {calls} calls");
}

#[test]
fn errors_carry_python_exception_classes() {
    let tb = toolbox();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    write_files(dir.path(), &[("a.txt", "alpha\n"), ("src/m.py", "")]);
    let ctx = CallContext::new(dir.path());
    let cases: Vec<(&str, Vec<Data>, &str)> = vec![
        (
            "read_file",
            vec![s("x.txt")],
            "FileNotFoundError: [Errno 2] No such file or directory: 'x.txt'",
        ),
        (
            "read_file",
            vec![s("./x.txt")],
            "FileNotFoundError: [Errno 2] No such file or directory: 'x.txt'",
        ),
        (
            "read_file",
            vec![s("src")],
            "IsADirectoryError: [Errno 21] Is a directory: 'src'",
        ),
        (
            "read_file",
            vec![s("")],
            "IsADirectoryError: [Errno 21] Is a directory: '.'",
        ),
        (
            "read_file",
            vec![s("a.txt/x")],
            "NotADirectoryError: [Errno 20] Not a directory: 'a.txt/x'",
        ),
        (
            "read_file",
            vec![int(5)],
            "TypeError: expected str, bytes or os.PathLike object, not int",
        ),
        (
            "read_file",
            vec![Data::None],
            "TypeError: expected str, bytes or os.PathLike object, not NoneType",
        ),
        (
            "read_file",
            vec![],
            "TypeError: read_file() missing 1 required positional argument: 'path'",
        ),
        (
            "read_file",
            vec![s("a\0b")],
            "ValueError: embedded null byte",
        ),
        (
            "write_file",
            vec![s("src"), s("x")],
            "IsADirectoryError: [Errno 21] Is a directory: 'src'",
        ),
        (
            "write_file",
            vec![int(1), s("x")],
            "TypeError: expected str, bytes or os.PathLike object, not int",
        ),
        (
            "write_file",
            vec![s("n.txt"), Data::Float(1.5)],
            "TypeError: data must be str, not float",
        ),
        (
            "edit_file",
            vec![s("a.txt"), int(1), s("x")],
            "TypeError: 'in <string>' requires string as left operand, not int",
        ),
        (
            "edit_file",
            vec![s("a.txt"), s("alpha"), int(2)],
            "TypeError: replace() argument 2 must be str, not int",
        ),
        (
            "edit_file",
            vec![s("a.txt"), s("zzz"), int(2)],
            "ok Bool(false)",
        ),
        (
            "edit_file",
            vec![s("missing.txt"), s("a"), s("b")],
            "FileNotFoundError: [Errno 2] No such file or directory: 'missing.txt'",
        ),
        (
            "find_files",
            vec![int(3)],
            "TypeError: argument should be a str object or an os.PathLike object returning str, not <class 'int'>",
        ),
        (
            "find_files",
            vec![s("")],
            "ValueError: Unacceptable pattern: ''",
        ),
        (
            "find_files",
            vec![s("/etc/*")],
            "NotImplementedError: Non-relative patterns are unsupported",
        ),
    ];
    for (tool, args, want) in cases {
        assert_eq!(outcome(&call(&tb, &ctx, tool, args)), want, "{tool}");
    }
}

#[test]
fn bad_utf8_is_a_clean_decode_error() {
    let tb = toolbox();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(dir.path().join("bin.dat"), b"ok\n\xff\xfe").unwrap_or_else(|e| panic!("{e}"));
    let ctx = CallContext::new(dir.path());
    assert_eq!(
        outcome(&call(&tb, &ctx, "read_file", vec![s("bin.dat")])),
        "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position 3: invalid start byte"
    );
    assert_eq!(
        outcome(&call(
            &tb,
            &ctx,
            "edit_file",
            vec![s("bin.dat"), s("ok"), s("no")]
        )),
        "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position 3: invalid start byte"
    );
    assert!(ctx.files.files_read().is_empty());
}

#[test]
fn reads_use_universal_newlines_like_python_text_mode() {
    let tb = toolbox();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(dir.path().join("crlf.txt"), b"a\r\nb\rc\n").unwrap_or_else(|e| panic!("{e}"));
    let ctx = CallContext::new(dir.path());
    assert_eq!(
        call(&tb, &ctx, "read_file", vec![s("crlf.txt")]),
        Ok(s("a\nb\nc\n"))
    );
}

#[test]
fn reads_and_writes_are_recorded_once_each_in_order() {
    let tb = toolbox();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    write_files(dir.path(), &[("a.txt", "alpha"), ("src/b.txt", "beta")]);
    let ctx = CallContext::new(dir.path());
    let steps: Vec<(&str, Vec<Data>)> = vec![
        ("read_file", vec![s("src/b.txt")]),
        ("read_file", vec![s("./a.txt")]),
        ("read_file", vec![s("src/../src/b.txt")]),
        ("write_file", vec![s("new.txt"), s("n")]),
        ("edit_file", vec![s("a.txt"), s("alpha"), s("ALPHA")]),
        ("edit_file", vec![s("src/b.txt"), s("absent"), s("x")]),
        ("find_files", vec![s("**/*.txt")]),
        ("read_file", vec![s("missing.txt")]),
    ];
    for (tool, args) in steps {
        let _ = call(&tb, &ctx, tool, args);
    }
    assert_eq!(ctx.files.files_read(), vec!["src/b.txt", "a.txt"]);
    assert_eq!(ctx.files.files_modified(), vec!["new.txt", "a.txt"]);
}

#[test]
fn edit_replaces_only_the_first_occurrence() {
    let tb = toolbox();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    write_files(dir.path(), &[("f.txt", "A then A\n")]);
    let ctx = CallContext::new(dir.path());
    assert_eq!(
        call(&tb, &ctx, "edit_file", vec![s("f.txt"), s("A"), s("B")]),
        Ok(Data::Bool(true))
    );
    assert_eq!(
        call(&tb, &ctx, "read_file", vec![s("f.txt")]),
        Ok(s("B then A\n"))
    );
}

/// `sorted(str(p) for p in Path('.').glob(pattern))`, or `Type: message`.
fn python_glob(root: &Path, patterns: &[&str]) -> Vec<String> {
    let script = r#"
import json, sys
from pathlib import Path
out = []
for pat in json.loads(sys.argv[1]):
    try:
        out.append(json.dumps(sorted(str(p) for p in Path('.').glob(pat))))
    except Exception as e:
        out.append(type(e).__name__ + ': ' + str(e))
print(json.dumps(out))
"#;
    let arg = serde_json::to_string(patterns).unwrap_or_default();
    let o = Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(arg)
        .current_dir(root)
        .output()
        .unwrap_or_else(|e| panic!("python3: {e}"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn find_files_matches_python_pathlib_glob() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let root = dir.path();
    write_files(
        root,
        &[
            ("a.txt", ""),
            ("ab.txt", ""),
            ("b.txt", ""),
            ("c.log", ""),
            (".hidden", ""),
            (".config/settings.json", ""),
            ("notes.md", ""),
            ("src/main.py", ""),
            ("src/util.py", ""),
            ("src/pkg/mod.py", ""),
            ("src/pkg/data.json", ""),
            ("src/pkg/deep/x.py", ""),
            ("docs/guide.md", ""),
            ("-dash.txt", ""),
            ("]odd[.txt", ""),
            ("caf\u{e9}.txt", ""),
            ("Upper.TXT", ""),
        ],
    );
    std::os::unix::fs::symlink("src", root.join("srclink")).unwrap_or_else(|e| panic!("{e}"));
    std::os::unix::fs::symlink("a.txt", root.join("alink.txt")).unwrap_or_else(|e| panic!("{e}"));
    std::os::unix::fs::symlink("nowhere", root.join("dangling")).unwrap_or_else(|e| panic!("{e}"));
    let patterns = [
        "*",
        "*.txt",
        "?.txt",
        "*.none",
        "**",
        "**/",
        "src/**",
        "**/*.py",
        "**/*.md",
        "*/",
        "*/*",
        "src/*.py",
        "src/pkg/*",
        "*.[tl]*",
        "[!a]*.txt",
        "[a-b]*",
        "[b-a]*",
        "[!]*",
        "[]]*",
        "[-]*",
        "[a-]*",
        "[!-a]*",
        "*[",
        "src",
        "src/",
        "./a.txt",
        "a.txt/",
        "src//pkg",
        "nope/*",
        ".*",
        ".config/*",
        "**/.hidden",
        "**/**",
        "srclink/*",
        "srclink/**",
        "**/mod.py",
        "*/pkg/*.py",
        "Upper.*",
        "upper.*",
        "caf\u{e9}*",
        "dangling",
        "alink.txt",
        "src/../*.md",
        ".",
        "./",
        "/",
        "",
        "a**",
        "**.py",
    ];
    let want = python_glob(root, &patterns);
    let tb = toolbox();
    let ctx = CallContext::new(root);
    for (pat, want) in patterns.iter().zip(want) {
        let got = match call(&tb, &ctx, "find_files", vec![s(pat)]) {
            Ok(v) => serde_json::to_string(&json(&v)).unwrap_or_default(),
            Err(e) => err_text(&e),
        };
        // Python writes JSON with ", " separators.
        let want = match serde_json::from_str::<Value>(&want) {
            Ok(v) => serde_json::to_string(&v).unwrap_or_default(),
            Err(_) => want,
        };
        assert_eq!(got, want, "pattern {pat:?}");
    }
}

#[test]
fn tools_are_shared_across_threads() {
    let tb = Arc::new(toolbox());
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    write_files(dir.path(), &[("a.txt", "x")]);
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let tb = Arc::clone(&tb);
            let root = dir.path().to_path_buf();
            std::thread::spawn(move || {
                let ctx = CallContext::new(&root);
                (0..50)
                    .map(|_| call(&tb, &ctx, "read_file", vec![s("a.txt")]))
                    .all(|r| r == Ok(s("x")))
            })
        })
        .collect();
    for h in handles {
        assert!(h.join().unwrap_or(false));
    }
}
