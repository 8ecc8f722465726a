//! Approval gates on the command line, through the real binary: `--yes`,
//! `--deny`, a run that pauses when nobody can answer, `lackpy runs`,
//! `lackpy resume`, and what `tools`, `validate` and `init` say of the
//! policy.

use crate::common;

use std::path::Path;
use std::process::Command;

use common::approvals::{lines, normalise, parse, trace_summary, workspace};
use common::chat_server::{ChatServer, Reply};
use common::{Out, lackpy_in};
use serde_json::{Value, json};

/// Counts, then sends: the gate is the second call.
const COUNT_THEN_SEND: &str = "n = count(text='a')\nsend(text='hello')\nn\n";

fn paused_run(ws: &Path) -> (Out, Value) {
    let out = lackpy_in(ws, &["run", "p.lpy", "--json"], "");
    let v = parse(&out);
    assert_eq!(out.code, 1, "{v}");
    (out, v)
}

fn run_id(v: &Value) -> String {
    v["paused"]["run_id"]
        .as_str()
        .expect("a paused run's id")
        .to_string()
}

#[test]
fn yes_approves_every_gated_call() {
    let ws = workspace(COUNT_THEN_SEND, "");
    let out = lackpy_in(ws.path(), &["run", "p.lpy", "--yes", "--json"], "");
    let v = parse(&out);
    assert_eq!(out.code, 0, "{v}");
    assert_eq!(v["output"], 1);
    assert_eq!(
        trace_summary(&v),
        [
            ("count".into(), false, None),
            ("send".into(), false, Some("flag".into()))
        ]
    );
    assert_eq!(lines(ws.path(), "send.txt"), [r#"{"text": "hello"}"#]);
    assert!(v.get("paused").is_none_or(Value::is_null), "{v}");
    // A run that finished leaves nothing to resume.
    let runs = parse(&lackpy_in(ws.path(), &["runs", "--json"], ""));
    assert_eq!(runs, json!({ "runs": [] }));
}

#[test]
fn deny_refuses_every_gated_call() {
    let ws = workspace(COUNT_THEN_SEND, "");
    let out = lackpy_in(ws.path(), &["run", "p.lpy", "--deny", "--json"], "");
    let v = parse(&out);
    assert_eq!(out.code, 1, "{v}");
    assert_eq!(v["error_type"], "PermissionError");
    assert_eq!(v["error"], "call to send was not approved");
    assert!(lines(ws.path(), "send.started").is_empty());
    assert_eq!(lines(ws.path(), "count.txt").len(), 1);
    let human = lackpy_in(ws.path(), &["run", "p.lpy", "--deny"], "");
    assert_eq!(human.code, 1);
    assert_eq!(
        human.stderr,
        "error: PermissionError: call to send was not approved (line 2)\n"
    );
    // Both flags at once is a usage error.
    let both = lackpy_in(ws.path(), &["run", "p.lpy", "--deny", "--yes"], "");
    assert_eq!(both.code, 2, "{}", both.stderr);
    assert!(
        both.stderr.contains("cannot be used with"),
        "{}",
        both.stderr
    );
}

#[test]
fn a_run_nobody_can_answer_pauses_and_resumes_where_it_stopped() {
    let ws = workspace(COUNT_THEN_SEND, "");
    let (_, v) = paused_run(ws.path());
    assert_eq!(v["error_type"], "ApprovalRequired");
    let id = run_id(&v);
    let mut paused = v["paused"].clone();
    assert_eq!(normalise(&id), "rXXXXXXXXXXXXXXXX");
    let expires = paused["expires_at"].as_str().expect("expires_at");
    assert_eq!(normalise(expires), "YYYY-MM-DDTHH:MM:SSZ");
    paused["run_id"] = json!("[run]");
    paused["expires_at"] = json!("[time]");
    assert_eq!(
        paused,
        json!({
            "run_id": "[run]", "step": 1, "tool": "send", "args": { "text": "hello" },
            "grade": { "w": 3, "d": 3 }, "rule": "[policy] approve_above (2, 1)",
            "expires_at": "[time]"
        })
    );
    assert!(
        lines(ws.path(), "send.started").is_empty(),
        "nothing of send ran"
    );
    assert_eq!(lines(ws.path(), "count.txt").len(), 1);

    let runs = parse(&lackpy_in(ws.path(), &["runs", "--json"], ""));
    let listed = &runs["runs"][0];
    assert_eq!(runs["runs"].as_array().map(Vec::len), Some(1), "{runs}");
    assert_eq!(listed["run_id"], id.as_str());
    assert_eq!(listed["state"], "paused");
    assert_eq!(
        (&listed["step"], &listed["tool"]),
        (&json!(1), &json!("send"))
    );
    assert_eq!(listed["rule"], "[policy] approve_above (2, 1)");
    assert_eq!(listed["calls"], 1);
    assert_eq!(listed["program"], "n = count(text='a')");

    let out = lackpy_in(ws.path(), &["resume", &id, "--approve", "--json"], "");
    let v = parse(&out);
    assert_eq!(out.code, 0, "{v}");
    assert_eq!(v["output"], 1);
    assert_eq!(
        trace_summary(&v),
        [
            ("count".into(), true, None),
            ("send".into(), false, Some("flag".into()))
        ]
    );
    // Each command ran exactly once: count is answered from the journal.
    assert_eq!(lines(ws.path(), "count.started"), [r#"{"text": "a"}"#]);
    assert_eq!(lines(ws.path(), "send.started"), [r#"{"text": "hello"}"#]);
    assert_eq!(
        parse(&lackpy_in(ws.path(), &["runs", "--json"], "")),
        json!({ "runs": [] })
    );
    // Done: there is nothing left to resume.
    let again = lackpy_in(ws.path(), &["resume", &id, "--approve"], "");
    assert_eq!(again.code, 2);
    assert_eq!(
        normalise(&again.stderr),
        "error: no resumable run 'rXXXXXXXXXXXXXXXX' (see `lackpy runs`)\n"
    );
}

#[test]
fn a_paused_run_in_human_mode_says_how_to_resume_and_deny_refuses() {
    let ws = workspace(COUNT_THEN_SEND, "");
    let out = lackpy_in(ws.path(), &["run", "p.lpy"], "");
    assert_eq!(out.code, 1);
    assert_eq!(out.stdout, "");
    insta::assert_snapshot!("paused_message", normalise(&out.stderr));
    let id = out
        .stderr
        .split_whitespace()
        .find(|w| w.len() == 17 && w.starts_with('r'))
        .expect("the run id in the hint")
        .to_string();

    // With --workspace the hint names it, so it works from anywhere.
    let elsewhere = tempfile::tempdir().expect("temp dir");
    let ws_arg = ws.path().display().to_string();
    let out = lackpy_in(
        elsewhere.path(),
        &["run", &format!("{ws_arg}/p.lpy"), "--workspace", &ws_arg],
        "",
    );
    assert!(
        out.stderr
            .contains(&format!(" --workspace {ws_arg} --approve")),
        "{}",
        out.stderr
    );

    // A paused run needs a decision.
    let undecided = lackpy_in(ws.path(), &["resume", &id], "");
    assert_eq!(undecided.code, 2);
    insta::assert_snapshot!("resume_needs_decision", normalise(&undecided.stderr));

    let denied = lackpy_in(ws.path(), &["resume", &id, "--deny"], "");
    assert_eq!(denied.code, 1, "{}", denied.stderr);
    assert_eq!(
        denied.stderr,
        "error: PermissionError: call to send was not approved (line 2)\n"
    );
    assert!(lines(ws.path(), "send.started").is_empty());
    // Two runs counted; the resume answered count from the journal.
    assert_eq!(lines(ws.path(), "count.started").len(), 2);
}

#[test]
fn resume_errors_are_one_line_and_exit_2() {
    let ws = workspace(COUNT_THEN_SEND, "");
    let runs_dir = ws.path().join(".lackpy/runs");
    std::fs::create_dir_all(&runs_dir).expect("mkdir");
    std::fs::write(runs_dir.join("r00000000000000cc.jsonl"), "{not json\n").expect("corrupt");
    // An expired journal: a real paused run, last written three days ago.
    let (_, v) = paused_run(ws.path());
    let expired = run_id(&v);
    touch(&runs_dir.join(format!("{expired}.jsonl")), "3 days ago");
    touch(&runs_dir.join("r00000000000000cc.jsonl"), "1 hour ago");
    let (_, v) = paused_run(ws.path());
    let paused = run_id(&v);

    let table = lackpy_in(ws.path(), &["runs"], "");
    assert_eq!(table.code, 0, "{}", table.stderr);
    assert!(table.stdout.contains(&paused), "{}", table.stdout);
    insta::assert_snapshot!("runs_table", normalise(&table.stdout));

    let mut errors = Vec::new();
    for id in [
        "r0000000000000000",
        "../../etc/passwd",
        "r00000000000000cc",
        &expired,
    ] {
        let out = lackpy_in(ws.path(), &["resume", id, "--approve"], "");
        assert_eq!(out.code, 2, "{id}: {}", out.stderr);
        assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
        assert_eq!(out.stdout, "");
        errors.push(normalise(&out.stderr));
    }
    insta::assert_snapshot!("resume_errors", errors.concat());
    // Both decisions at once is a usage error.
    let both = lackpy_in(ws.path(), &["resume", &paused, "--approve", "--deny"], "");
    assert_eq!(both.code, 2);
}

#[test]
fn an_empty_workspace_has_no_runs() {
    let ws = tempfile::tempdir().expect("temp dir");
    let out = lackpy_in(ws.path(), &["runs"], "");
    assert_eq!((out.code, out.stdout.as_str()), (0, "no resumable runs\n"));
}

#[test]
fn tools_shows_each_policy_state_and_validate_the_gated_calls() {
    let ws = workspace(
        COUNT_THEN_SEND,
        "", // the [policy] below replaces CONFIG's
    );
    let config = std::fs::read_to_string(ws.path().join(".lackpy/config.toml")).expect("config");
    let config = config.replace(
        "[policy]\napprove_above = { w = 2, d = 1 }\n",
        "[policy]\nmax_grade = { w = 3, d = 2 }\napprove_above = { w = 2, d = 1 }\n\
         approve_tools = [\"count\"]\nauto_approve = [\"push\"]\n",
    );
    std::fs::write(ws.path().join(".lackpy/config.toml"), config).expect("config");
    let out = lackpy_in(ws.path(), &["tools"], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    insta::assert_snapshot!("tools_policy", out.stdout);

    let ws = workspace(COUNT_THEN_SEND, "");
    let out = lackpy_in(ws.path(), &["validate", "p.lpy"], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        "valid\nneeds approval: send ([policy] approve_above (2, 1))\n"
    );
}

#[test]
fn delegate_takes_the_same_flags_and_its_pause_resumes() {
    let program = "send(text='hi')";
    let server = ChatServer::start(vec![
        Reply::answer(program),
        Reply::answer(program),
        Reply::answer(program),
    ]);
    let provider = format!(
        "\n[inference]\norder = [\"local\"]\n[inference.providers.local]\nbase_url = \"{}\"\nmodel = \"scripted-model\"\n",
        server.base_url()
    );
    let ws = workspace("", &provider);
    let denied = lackpy_in(
        ws.path(),
        &["delegate", "send hi", "--tools", "send", "--deny", "--json"],
        "",
    );
    let v = parse(&denied);
    assert_eq!(denied.code, 1, "{v}");
    assert_eq!(v["error"], "call to send was not approved", "{v}");
    assert_eq!(v["trace"][0]["approval"], "flag", "{v}");

    let paused = lackpy_in(ws.path(), &["delegate", "send hi", "--tools", "send"], "");
    assert_eq!(paused.code, 1);
    assert!(
        normalise(&paused.stderr).starts_with(
            "paused at step 0: send(text='hi') needs approval ([policy] approve_above (2, 1)); resume with: lackpy resume rXXXXXXXXXXXXXXXX --approve"
        ),
        "{}",
        paused.stderr
    );
    let runs = parse(&lackpy_in(ws.path(), &["runs", "--json"], ""));
    let id = runs["runs"][0]["run_id"]
        .as_str()
        .expect("a run")
        .to_string();
    let resumed = lackpy_in(ws.path(), &["resume", &id, "--approve"], "");
    assert_eq!(resumed.code, 0, "{}", resumed.stderr);
    assert_eq!(resumed.stdout, "1\n");

    let yes = lackpy_in(
        ws.path(),
        &["delegate", "send hi", "--tools", "send", "--yes", "--json"],
        "",
    );
    assert_eq!(yes.code, 0, "{}", yes.stdout);
    assert_eq!(lines(ws.path(), "send.txt").len(), 2);
}

#[test]
fn the_starter_policy_examples_load_uncommented() {
    let ws = tempfile::tempdir().expect("temp dir");
    let out = lackpy_in(ws.path(), &["init"], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let file = ws.path().join(".lackpy/config.toml");
    let starter = std::fs::read_to_string(&file).expect("starter");
    // Every example block of the policy, the careful profile and [runs]:
    // from its commented header to the next blank line.
    let mut uncommented = String::new();
    let mut inside = false;
    for line in starter.lines() {
        if ["# [policy", "# [profiles.careful]", "# [runs]"]
            .iter()
            .any(|h| line.starts_with(h))
        {
            inside = true;
        }
        if line.trim().is_empty() {
            inside = false;
        }
        match line.strip_prefix("# ") {
            Some(rest) if inside => uncommented.push_str(rest),
            _ => uncommented.push_str(line),
        }
        uncommented.push('\n');
    }
    for key in [
        "max_grade",
        "approve_above",
        "approve_tools",
        "auto_approve",
        "approval_timeout_ms",
        "[policy.provenance.host]",
        "limits",
        "rules",
        "policy =",
        "journal",
        "keep_hours",
        "max_journal_mb",
    ] {
        assert!(
            uncommented.lines().any(|l| l.starts_with(key)),
            "{key} is in the starter: {uncommented}"
        );
    }
    std::fs::write(&file, uncommented).expect("write");
    let status = lackpy_in(ws.path(), &["status"], "");
    assert_eq!(status.code, 0, "{}", status.stderr);
    assert_eq!(status.stderr, "");
    let tools = parse(&lackpy_in(ws.path(), &["tools", "--json"], ""));
    let edit = tools["tools"]
        .as_array()
        .and_then(|t| t.iter().find(|t| t["name"] == "edit_file"))
        .expect("edit_file");
    assert_eq!(edit["policy"]["state"], "auto-approved", "{edit}");
}

/// Sets a file's modification time with the real `touch`.
fn touch(file: &Path, when: &str) {
    let status = Command::new("touch")
        .arg("-d")
        .arg(when)
        .arg(file)
        .status()
        .expect("touch runs");
    assert!(status.success());
}
