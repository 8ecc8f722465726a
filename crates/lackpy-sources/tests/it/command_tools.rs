//! Command tools against real processes.

use crate::common;

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use common::{outcome, s, write_files};
use lackpy_sources::lang::Data;
use lackpy_sources::parse_config;
use lackpy_sources::{
    ArgSpec, CallContext, CommandTool, PythonRuntime, Tool, Toolbox, add_local_sources,
};

fn sh(script: &str) -> Vec<String> {
    vec!["sh".into(), "-c".into(), script.into()]
}

fn tool(argv: Vec<String>) -> CommandTool {
    CommandTool::new("t", vec![ArgSpec::new("text")], argv)
}

fn run(t: &CommandTool, ctx: &CallContext, args: Vec<Data>) -> String {
    outcome(&t.call(args, vec![], ctx).wait())
}

fn ws() -> tempfile::TempDir {
    tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"))
}

/// Whether a process is gone (or a zombie nobody has reaped yet).
fn dead(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{}/stat", pid.trim())) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z')),
    }
}

#[test]
fn arguments_arrive_as_json_on_stdin_and_json_output_is_parsed() {
    let dir = ws();
    let ctx = CallContext::new(dir.path());
    let t = tool(vec!["cat".into()]);
    assert_eq!(
        run(&t, &ctx, vec![s("héllo \"world\"")]),
        "ok Dict([(Str(\"text\"), Str(\"héllo \\\"world\\\"\"))])"
    );
    let t = tool(sh(
        "cat >/dev/null; echo '[1, 2.5, \"x\", null, 123456789012345678901234567890]'",
    ));
    assert_eq!(
        run(&t, &ctx, vec![s("")]),
        "ok List([Int(1), Float(2.5), Str(\"x\"), None, Int(123456789012345678901234567890)])"
    );
}

#[test]
fn stdin_is_the_text_json_dumps_writes_and_stdout_reads_as_json_loads() {
    let dir = ws();
    let ctx = CallContext::new(dir.path());
    let t = CommandTool::new(
        "t",
        vec![ArgSpec::new("a"), ArgSpec::new("b")],
        sh("cat > stdin.json; echo '01'"),
    );
    let args = vec![
        Data::Tuple(vec![Data::Str("é☃".into()), Data::Float(f64::NAN)]),
        Data::Dict(vec![(Data::Int(1.into()), Data::Set(vec![Data::None]))]),
    ];
    // "01" is no JSON number (json.loads refuses it): the text comes back.
    assert_eq!(run(&t, &ctx, args), "ok Str(\"01\")");
    let stdin = std::fs::read_to_string(dir.path().join("stdin.json")).unwrap_or_default();
    assert_eq!(
        stdin,
        r#"{"a": ["\u00e9\u2603", NaN], "b": {"1": "{None}"}}"#
    );
}

#[test]
fn a_killed_command_names_the_signal() {
    let dir = ws();
    let ctx = CallContext::new(dir.path());
    assert_eq!(
        run(&tool(sh("kill -TERM $$")), &ctx, vec![s("")]),
        "ToolError: command tool 't' was killed by SIGTERM"
    );
}

#[test]
fn non_json_output_is_text_minus_one_newline() {
    let dir = ws();
    let ctx = CallContext::new(dir.path());
    assert_eq!(
        run(&tool(sh("printf 'hello\\n\\n'")), &ctx, vec![s("")]),
        "ok Str(\"hello\\n\")"
    );
    assert_eq!(
        run(&tool(sh("printf 'a b'")), &ctx, vec![s("")]),
        "ok Str(\"a b\")"
    );
    assert_eq!(run(&tool(sh("true")), &ctx, vec![s("")]), "ok Str(\"\")");
    assert_eq!(
        run(&tool(sh("printf '\\377'")), &ctx, vec![s("")]),
        "ToolError: command tool 't': output is not valid UTF-8"
    );
}

#[test]
fn a_non_zero_exit_is_an_error_with_the_stderr_tail() {
    let dir = ws();
    let ctx = CallContext::new(dir.path());
    assert_eq!(
        run(
            &tool(sh("echo partial; echo 'it broke' >&2; exit 3")),
            &ctx,
            vec![s("")]
        ),
        "ToolError: command tool 't' exited with status 3: it broke"
    );
    assert_eq!(
        run(&tool(sh("exit 1")), &ctx, vec![s("")]),
        "ToolError: command tool 't' exited with status 1"
    );
    let noisy = tool(sh(
        "i=0; while [ $i -lt 3000 ]; do echo \"noise line $i\" >&2; i=$((i+1)); done; echo LAST >&2; exit 2",
    ));
    let msg = run(&noisy, &ctx, vec![s("")]);
    assert!(
        msg.starts_with("ToolError: command tool 't' exited with status 2: …"),
        "{msg}"
    );
    assert!(msg.ends_with("noise line 2999\nLAST"), "{msg}");
    assert!(
        msg.len() < 2200,
        "only the tail is quoted: {} bytes",
        msg.len()
    );
}

#[test]
fn timeout_kills_the_child_and_its_children() {
    let dir = ws();
    let ctx = CallContext::new(dir.path());
    let t = tool(sh(
        "echo $$ > sh.pid; sleep 30 & echo $! > bg.pid; sleep 30",
    ))
    .with_timeout(Duration::from_millis(1000));
    let start = Instant::now();
    let msg = run(&t, &ctx, vec![s("")]);
    assert_eq!(
        msg,
        "TimeoutError: command tool 't' timed out after 1000 ms"
    );
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    let read = |f: &str| std::fs::read_to_string(dir.path().join(f)).unwrap_or_default();
    let (sh_pid, bg_pid) = (read("sh.pid"), read("bg.pid"));
    assert!(!sh_pid.trim().is_empty() && !bg_pid.trim().is_empty());
    let deadline = Instant::now() + Duration::from_secs(3);
    while !(dead(&sh_pid) && dead(&bg_pid)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(dead(&sh_pid), "the shell survived");
    assert!(dead(&bg_pid), "the background sleep survived");
}

#[test]
fn the_runs_deadline_bounds_the_call() {
    let dir = ws();
    let ctx =
        CallContext::new(dir.path()).with_deadline(Instant::now() + Duration::from_millis(200));
    let start = Instant::now();
    let msg = run(&tool(sh("sleep 30")), &ctx, vec![s("")]);
    assert!(msg.starts_with("TimeoutError:"), "{msg}");
    assert!(start.elapsed() < Duration::from_secs(5));
}

#[test]
fn cancellation_stops_the_call() {
    let dir = ws();
    let ctx = CallContext::new(dir.path());
    let cancel = Arc::clone(&ctx.cancel);
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(150));
        cancel.store(true, Ordering::SeqCst);
    });
    let start = Instant::now();
    let msg = run(&tool(sh("sleep 30")), &ctx, vec![s("")]);
    assert_eq!(msg, "Cancelled: the call was cancelled");
    assert!(start.elapsed() < Duration::from_secs(5));
}

#[test]
fn huge_output_is_an_error_not_a_memory_blow_up() {
    let dir = ws();
    let ctx = CallContext::new(dir.path());
    let start = Instant::now();
    let endless = tool(sh("yes")).with_max_output(1 << 20);
    assert_eq!(
        run(&endless, &ctx, vec![s("")]),
        "ToolError: command tool 't': output exceeds 1048576 bytes"
    );
    assert!(start.elapsed() < Duration::from_secs(10));
    // Big but under the cap is fine.
    let big = tool(sh("head -c 3000000 /dev/zero | tr '\\0' a"));
    match big.call(vec![s("")], vec![], &ctx).wait() {
        Ok(Data::Str(text)) => assert_eq!(text.len(), 3_000_000),
        other => panic!("{other:?}"),
    }
}

#[test]
fn runs_in_the_workspace_with_a_minimal_environment_plus_env() {
    let dir = ws();
    let ctx = CallContext::new(dir.path());
    assert_eq!(
        run(&tool(vec!["pwd".into()]), &ctx, vec![s("")]),
        format!("ok Str({:?})", dir.path().display().to_string())
    );
    let t =
        tool(vec!["env".into()]).with_env(vec![("LACKPY_TEST_VAR".into(), "from-config".into())]);
    let out = match t.call(vec![s("")], vec![], &ctx).wait() {
        Ok(Data::Str(text)) => text,
        other => panic!("{other:?}"),
    };
    assert!(
        out.lines().any(|l| l == "LACKPY_TEST_VAR=from-config"),
        "{out}"
    );
    assert!(out.lines().any(|l| l.starts_with("PATH=")), "{out}");
    for (k, _) in std::env::vars() {
        if k.starts_with("CARGO") || k.starts_with("RUST") {
            assert!(
                !out.lines().any(|l| l.starts_with(&format!("{k}="))),
                "{k} leaked: {out}"
            );
        }
    }
}

#[test]
fn arguments_bind_like_python() {
    let dir = ws();
    let ctx = CallContext::new(dir.path());
    let t = tool(vec!["cat".into()]);
    assert_eq!(
        run(&t, &ctx, vec![s("a"), s("b")]),
        "TypeError: t() takes 1 positional argument but 2 were given"
    );
    assert_eq!(
        outcome(&t.call(vec![], vec![("txt".into(), s("a"))], &ctx).wait()),
        "TypeError: t() got an unexpected keyword argument 'txt'"
    );
    assert_eq!(
        outcome(&t.call(vec![], vec![("text".into(), s("a"))], &ctx).wait()),
        "ok Dict([(Str(\"text\"), Str(\"a\"))])"
    );
}

#[test]
fn programs_that_cannot_start_fail_cleanly() {
    let dir = ws();
    let ctx = CallContext::new(dir.path());
    let msg = run(&tool(vec!["/nonexistent/prog".into()]), &ctx, vec![s("")]);
    assert!(
        msg.starts_with("ToolError: command tool 't': cannot start '/nonexistent/prog': "),
        "{msg}"
    );
}

#[test]
fn relative_programs_run_from_the_workspace() {
    let dir = ws();
    write_files(
        dir.path(),
        &[("bin/tool.sh", "#!/bin/sh\necho from-script\n")],
    );
    let p = dir.path().join("bin/tool.sh");
    std::fs::set_permissions(&p, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .unwrap_or_else(|e| panic!("{e}"));
    let ctx = CallContext::new(dir.path());
    assert_eq!(
        run(&tool(vec!["./bin/tool.sh".into()]), &ctx, vec![s("")]),
        "ok Str(\"from-script\")"
    );
}

#[test]
fn config_command_tools_run_and_missing_programs_are_unavailable() {
    let text = r#"
[[tools]]
name = "word_count"
provider = "command"
command = ["python3", "-c", "import json, sys; print(len(json.load(sys.stdin)['text'].split()))"]
returns = "int"
args = [{ name = "text", type = "str" }]
timeout_ms = 5000

[[tools]]
name = "read_file"
provider = "command"
command = ["lackpy-no-such-program-xyz"]
args = [{ name = "path" }]
"#;
    let cfg = parse_config(text, Path::new("config.toml"))
        .unwrap_or_else(|e| panic!("{e}"))
        .config;
    let mut tb = Toolbox::new();
    add_local_sources(&mut tb, &cfg, &PythonRuntime::new(), None).unwrap_or_else(|e| panic!("{e}"));
    let dir = ws();
    write_files(dir.path(), &[("a.txt", "alpha")]);
    let ctx = CallContext::new(dir.path());
    let wc = tb.resolve("word_count").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        wc.tool
            .call(vec![s("three small words")], vec![], &ctx)
            .wait(),
        Ok(Data::Int(3.into()))
    );
    // The user's read_file cannot run, so the shipped default serves the name.
    let rf = tb.resolve("read_file").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rf.source, "defaults");
    let listing = tb.listing();
    let entry = listing
        .iter()
        .find(|l| l.name == "read_file")
        .unwrap_or_else(|| panic!("listed"));
    assert_eq!(entry.candidates[0].source, "config");
    assert!(!entry.candidates[0].available);
    assert_eq!(
        entry.candidates[0].unavailable_reason.as_deref(),
        Some("program 'lackpy-no-such-program-xyz' was not found on PATH")
    );
}
