//! Python tools against a real `python3` worker.

use crate::common;

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use common::{int, outcome, s, write_files};
use lackpy_sources::lang::Data;
use lackpy_sources::parse_config;
use lackpy_sources::{
    CallContext, PythonRuntime, PythonTool, Tool, ToolErrorKind, Toolbox, add_local_sources,
};

const MODULE: &str = r#"
import os, time

def shout(text):
    print("this goes to stderr, not the protocol")
    return text.upper() + "!"

def add(a, b=1):
    return a + b

def boom():
    raise ValueError("bad input: 42")

def kinds():
    return {"tuple": (1, "a"), "set": {3}, "int_keys": {1: "one"}, "big": 2 ** 100,
            "float": 2.5, "none": None, "nested": [[1, [2]], {"k": (True,)}], "$odd": 1}

def echo(*args, **kwargs):
    return [list(args), kwargs]

def pid():
    return os.getpid()

def cwd():
    return os.getcwd()

def slow(seconds):
    time.sleep(seconds)
    return "done"

def die():
    os._exit(3)

class Thing:
    def __str__(self):
        return "a thing"

def thing():
    return Thing()

def lone_surrogate():
    return "a\ud800b"

def raises_surrogate():
    raise ValueError("bad \udc80 byte")

def big(n):
    return "x" * n

def quotes(n):
    return '"' * n
"#;

fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    write_files(dir.path(), &[("tools_mod.py", MODULE)]);
    dir
}

fn py(rt: &Arc<PythonRuntime>, function: &str) -> PythonTool {
    PythonTool::new(Arc::clone(rt), "tools_mod", function)
}

fn run(t: &PythonTool, ctx: &CallContext, args: Vec<Data>) -> String {
    outcome(&t.call(args, vec![], ctx).wait())
}

fn pid_of(t: &PythonTool, ctx: &CallContext) -> i64 {
    match t.call(vec![], vec![], ctx).wait() {
        Ok(Data::Int(p)) => p.to_string().parse().unwrap_or(0),
        other => panic!("{other:?}"),
    }
}

#[test]
fn calls_a_module_in_the_workspace() {
    let dir = workspace();
    let rt = PythonRuntime::new();
    assert!(
        rt.available(),
        "python3 is needed: {:?}",
        rt.unavailable_reason()
    );
    let ctx = CallContext::new(dir.path());
    assert_eq!(
        run(&py(&rt, "shout"), &ctx, vec![s("hi")]),
        "ok Str(\"HI!\")"
    );
    assert_eq!(
        run(&py(&rt, "add"), &ctx, vec![int(2), int(3)]),
        "ok Int(5)"
    );
    let kw = py(&rt, "add")
        .call(vec![int(2)], vec![("b".into(), int(40))], &ctx)
        .wait();
    assert_eq!(kw, Ok(int(42)));
    let cwd = run(&py(&rt, "cwd"), &ctx, vec![]);
    let real = dir.path().canonicalize().unwrap_or_default();
    assert_eq!(cwd, format!("ok Str({:?})", real.display().to_string()));
    assert!(
        !dir.path().join("__pycache__").exists(),
        "no bytecode in the workspace"
    );
}

#[test]
fn exceptions_come_back_as_python_says_them() {
    let dir = workspace();
    let rt = PythonRuntime::new();
    let ctx = CallContext::new(dir.path());
    let boom = py(&rt, "boom").call(vec![], vec![], &ctx).wait();
    assert_eq!(outcome(&boom), "ValueError: bad input: 42");
    assert_eq!(boom.err().map(|e| e.kind()), Some(ToolErrorKind::Value));
    assert_eq!(
        run(&py(&rt, "shout"), &ctx, vec![]),
        "TypeError: shout() missing 1 required positional argument: 'text'"
    );
    assert_eq!(
        run(&py(&rt, "add"), &ctx, vec![int(1), int(2), int(3)]),
        "TypeError: add() takes from 1 to 2 positional arguments but 3 were given"
    );
    let missing = PythonTool::new(Arc::clone(&rt), "no_such_module", "f");
    assert_eq!(
        run(&missing, &ctx, vec![]),
        "ModuleNotFoundError: No module named 'no_such_module'"
    );
    assert_eq!(
        run(&py(&rt, "nope"), &ctx, vec![]),
        "AttributeError: module 'tools_mod' has no attribute 'nope'"
    );
    // The worker survived all of that.
    assert_eq!(run(&py(&rt, "add"), &ctx, vec![int(1)]), "ok Int(2)");
}

#[test]
fn values_cross_exactly() {
    let dir = workspace();
    let rt = PythonRuntime::new();
    let ctx = CallContext::new(dir.path());
    let got = py(&rt, "kinds").call(vec![], vec![], &ctx).wait();
    let big: num_bigint::BigInt = num_bigint::BigInt::from(2).pow(100);
    let want = Data::Dict(vec![
        (s("tuple"), Data::Tuple(vec![int(1), s("a")])),
        (s("set"), Data::Set(vec![int(3)])),
        (s("int_keys"), Data::Dict(vec![(int(1), s("one"))])),
        (s("big"), Data::Int(big)),
        (s("float"), Data::Float(2.5)),
        (s("none"), Data::None),
        (
            s("nested"),
            Data::List(vec![
                Data::List(vec![int(1), Data::List(vec![int(2)])]),
                Data::Dict(vec![(s("k"), Data::Tuple(vec![Data::Bool(true)]))]),
            ]),
        ),
        (s("$odd"), int(1)),
    ]);
    assert_eq!(got, Ok(want));
    let args = vec![
        Data::Tuple(vec![int(1), int(2)]),
        Data::Set(vec![s("x")]),
        Data::Dict(vec![(Data::Tuple(vec![int(1)]), s("tuple key"))]),
    ];
    let echoed = py(&rt, "echo")
        .call(
            args.clone(),
            vec![("k".into(), Data::Float(f64::INFINITY))],
            &ctx,
        )
        .wait();
    assert_eq!(
        echoed,
        Ok(Data::List(vec![
            Data::List(args),
            Data::Dict(vec![(s("k"), Data::Float(f64::INFINITY))])
        ]))
    );
    assert_eq!(run(&py(&rt, "thing"), &ctx, vec![]), "ok Str(\"a thing\")");
}

#[test]
fn a_killed_worker_is_restarted() {
    let dir = workspace();
    let rt = PythonRuntime::new();
    let ctx = CallContext::new(dir.path());
    let pid = py(&rt, "pid");
    let first = pid_of(&pid, &ctx);
    assert_eq!(pid_of(&pid, &ctx), first, "one long-lived worker");
    assert_eq!(rt.worker_pid(dir.path()).map(i64::from), Some(first));
    let killed = std::process::Command::new("kill")
        .args(["-9", &first.to_string()])
        .status()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(killed.success());
    // Let the kill land (the worker becomes a zombie until reaped) before the next call.
    let stat = format!("/proc/{first}/stat");
    let until = Instant::now() + Duration::from_secs(5);
    while Instant::now() < until {
        let state = std::fs::read_to_string(&stat).unwrap_or_default();
        if state
            .rsplit(')')
            .next()
            .is_none_or(|r| r.trim_start().starts_with('Z'))
        {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let second = pid_of(&pid, &ctx);
    assert_ne!(second, first);
    assert_eq!(
        run(&py(&rt, "shout"), &ctx, vec![s("back")]),
        "ok Str(\"BACK!\")"
    );
}

#[test]
fn a_worker_dying_mid_call_fails_that_call_only() {
    let dir = workspace();
    let rt = PythonRuntime::new();
    let ctx = CallContext::new(dir.path());
    let msg = run(&py(&rt, "die"), &ctx, vec![]);
    assert!(
        msg.starts_with("ToolError: the python worker died during the call"),
        "{msg}"
    );
    assert_eq!(run(&py(&rt, "add"), &ctx, vec![int(1)]), "ok Int(2)");
}

#[test]
fn timeouts_and_cancellation_kill_the_worker_and_the_next_call_works() {
    let dir = workspace();
    let rt = PythonRuntime::new();
    let ctx = CallContext::new(dir.path());
    let slow = py(&rt, "slow").with_timeout(Duration::from_millis(300));
    let start = Instant::now();
    assert_eq!(
        run(&slow, &ctx, vec![int(30)]),
        "TimeoutError: python tool 'tools_mod.slow' timed out"
    );
    assert!(start.elapsed() < Duration::from_secs(5));
    assert_eq!(run(&py(&rt, "add"), &ctx, vec![int(1)]), "ok Int(2)");

    let cancel = Arc::clone(&ctx.cancel);
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        cancel.store(true, Ordering::SeqCst);
    });
    assert_eq!(
        run(&py(&rt, "slow"), &ctx, vec![int(30)]),
        "Cancelled: the call was cancelled"
    );
    let fresh = CallContext::new(dir.path());
    assert_eq!(run(&py(&rt, "add"), &fresh, vec![int(1)]), "ok Int(2)");
}

#[test]
fn each_workspace_has_its_own_worker() {
    let a = workspace();
    let b = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    write_files(
        b.path(),
        &[(
            "tools_mod.py",
            "import os\ndef pid():\n    return os.getpid()\ndef who():\n    return 'b'\n",
        )],
    );
    let rt = PythonRuntime::new();
    let (ca, cb) = (CallContext::new(a.path()), CallContext::new(b.path()));
    assert_ne!(pid_of(&py(&rt, "pid"), &ca), pid_of(&py(&rt, "pid"), &cb));
    assert_eq!(run(&py(&rt, "who"), &cb, vec![]), "ok Str(\"b\")");
    assert_eq!(
        run(&py(&rt, "who"), &ca, vec![]),
        "AttributeError: module 'tools_mod' has no attribute 'who'"
    );
}

#[test]
fn concurrent_calls_take_turns_on_one_worker() {
    let dir = workspace();
    let rt = PythonRuntime::new();
    let handles: Vec<_> = (0..4)
        .map(|i: i64| {
            let rt = Arc::clone(&rt);
            let root = dir.path().to_path_buf();
            std::thread::spawn(move || {
                let ctx = CallContext::new(&root);
                (0..25).all(|j| {
                    py(&rt, "add")
                        .call(vec![int(i * 100 + j)], vec![], &ctx)
                        .wait()
                        == Ok(int(i * 100 + j + 1))
                })
            })
        })
        .collect();
    for h in handles {
        assert!(h.join().unwrap_or(false));
    }
}

#[test]
fn a_lackpy_config_with_python_tools_runs_unchanged() {
    let text = r#"
[[tools]]
name = "shout"
provider = "python"
module = "tools_mod"
function = "shout"
description = "Shout"
returns = "str"
args = [{ name = "text", type = "str" }]

[[tools]]
name = "list_glob"
provider = "python"
module = "lackpy.sources.builtins"
function = "find_files"
returns = "list[str]"
grade_w = 1
effects_ceiling = 1
args = [{ name = "pattern", type = "str" }]
"#;
    let cfg = parse_config(text, Path::new("config.toml"))
        .unwrap_or_else(|e| panic!("{e}"))
        .config;
    let dir = workspace();
    let ctx = CallContext::new(dir.path());
    let mut tb = Toolbox::new();
    add_local_sources(&mut tb, &cfg, &PythonRuntime::new(), None).unwrap_or_else(|e| panic!("{e}"));
    let shout = tb.resolve("shout").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        shout.tool.call(vec![s("x")], vec![], &ctx).wait(),
        Ok(s("X!"))
    );
    let glob = tb.resolve("list_glob").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        glob.tool.call(vec![s("*.py")], vec![], &ctx).wait(),
        Ok(Data::List(vec![s("tools_mod.py")]))
    );
}

#[test]
fn without_python3_the_tools_are_unavailable_with_a_reason() {
    let text = r#"
[[tools]]
name = "read_file"
provider = "python"
module = "tools_mod"
function = "shout"
args = [{ name = "path" }]

[[tools]]
name = "shout"
module = "tools_mod"
function = "shout"

[[tools]]
name = "list_glob"
module = "lackpy.sources.builtins"
function = "find_files"
args = [{ name = "pattern" }]
"#;
    let cfg = parse_config(text, Path::new("config.toml"))
        .unwrap_or_else(|e| panic!("{e}"))
        .config;
    let rt = PythonRuntime::with_interpreter("/nonexistent/python3");
    assert!(!rt.available());
    let mut tb = Toolbox::new();
    let (res, logs) = common::with_logs(|| add_local_sources(&mut tb, &cfg, &rt, None));
    res.unwrap_or_else(|e| panic!("{e}"));
    assert!(
        logs.contains("python tool is unavailable") && logs.contains("/nonexistent/python3"),
        "{logs}"
    );
    assert!(!tb.is_available("shout"));
    assert!(
        tb.is_available("list_glob"),
        "lackpy's builtins module needs no python"
    );
    // The user's python read_file cannot run: the shipped builtin serves the name.
    assert_eq!(
        tb.resolve("read_file").map(|r| r.source).ok().as_deref(),
        Some("defaults")
    );
    let shout = tb
        .listing()
        .into_iter()
        .find(|l| l.name == "shout")
        .unwrap_or_else(|| panic!("listed"));
    assert_eq!(
        shout.candidates[0].unavailable_reason.as_deref(),
        Some("/nonexistent/python3 is not an executable python interpreter")
    );
    let dir = workspace();
    let ctx = CallContext::new(dir.path());
    let direct = PythonTool::new(Arc::clone(&rt), "tools_mod", "shout");
    let err = direct.call(vec![s("x")], vec![], &ctx).wait().err();
    assert_eq!(
        err.as_ref().map(|e| e.kind()),
        Some(ToolErrorKind::Unavailable)
    );
}

#[test]
fn a_lone_surrogate_is_a_clean_error_and_the_worker_lives_on() {
    let dir = workspace();
    let rt = PythonRuntime::new();
    let ctx = CallContext::new(dir.path());
    let before = pid_of(&py(&rt, "pid"), &ctx);
    let got = run(&py(&rt, "lone_surrogate"), &ctx, vec![]);
    assert!(
        got.starts_with("UnicodeEncodeError: 'utf-8' codec can't encode character '\\ud800'"),
        "{got}"
    );
    // A message holding one still arrives (the surrogate replaced).
    let got = run(&py(&rt, "raises_surrogate"), &ctx, vec![]);
    assert_eq!(got, "ValueError: bad \u{fffd} byte");
    assert_eq!(pid_of(&py(&rt, "pid"), &ctx), before);
}

#[test]
fn a_result_over_the_cap_is_a_clean_error_and_the_worker_lives_on() {
    let dir = workspace();
    let rt = PythonRuntime::new();
    let ctx = CallContext::new(dir.path());
    let before = pid_of(&py(&rt, "pid"), &ctx);
    let capped = py(&rt, "big").with_max_output(1000);
    let got = run(&capped, &ctx, vec![int(5000)]);
    assert_eq!(
        got,
        "ToolError: python tool 'tools_mod.big': result exceeds 1000 bytes as JSON (max_output_bytes)"
    );
    assert_eq!(
        run(&capped, &ctx, vec![int(10)]),
        format!("ok Str(\"{}\")", "x".repeat(10))
    );
    // Under the cheap bound but over the cap once written as JSON (escapes).
    let quotes = py(&rt, "quotes").with_max_output(1000);
    let got = run(&quotes, &ctx, vec![int(600)]);
    assert!(got.contains("result exceeds 1000 bytes as JSON"), "{got}");
    assert_eq!(pid_of(&py(&rt, "pid"), &ctx), before);
}

#[test]
fn max_output_bytes_comes_from_the_config() {
    let dir = workspace();
    let cfg = parse_config(
        "[[tools]]\nname = \"big\"\nprovider = \"python\"\nmodule = \"tools_mod\"\nfunction = \"big\"\nmax_output_bytes = 100\n",
        Path::new("config.toml"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let rt = PythonRuntime::new();
    let mut tb = Toolbox::new();
    add_local_sources(&mut tb, &cfg.config, &rt, None).unwrap_or_else(|e| panic!("{e}"));
    let tool = tb.resolve("big").unwrap_or_else(|e| panic!("{e}")).tool;
    let ctx = CallContext::new(dir.path());
    let got = outcome(&tool.call(vec![int(500)], vec![], &ctx).wait());
    assert!(got.contains("result exceeds 100 bytes"), "{got}");
}

#[test]
fn files_in_the_workspace_cannot_stand_in_for_standard_modules() {
    let dir = workspace();
    write_files(
        dir.path(),
        &[
            ("json.py", "open('pwned-json', 'w').write('x')\n"),
            ("string.py", "open('pwned-string', 'w').write('x')\n"),
            (
                "uses_string.py",
                "import string\ndef letters():\n    return string.ascii_lowercase[:3]\n",
            ),
        ],
    );
    let rt = PythonRuntime::new();
    let ctx = CallContext::new(dir.path());
    let t = PythonTool::new(Arc::clone(&rt), "uses_string", "letters");
    assert_eq!(run(&t, &ctx, vec![]), "ok Str(\"abc\")");
    assert!(!dir.path().join("pwned-json").exists());
    assert!(!dir.path().join("pwned-string").exists());
}
