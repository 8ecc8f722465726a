//! A journaled run killed with SIGKILL mid-call, then resumed with the
//! real binary: completed calls are not made again, the call in flight is
//! retried when its tool has no lasting effects (effects ceiling ≤ 1) and
//! only with `--retry-in-flight` otherwise. And the replay these rest on:
//! the same program gives the same calls and output in every process.

use crate::common;

use std::path::Path;
use std::process::{Child, Command, Stdio};

use common::approvals::{lines, normalise, parse, trace_summary, wait_for_line, workspace};
use common::lackpy_in;
use serde_json::{Value, json};

/// Starts `lackpy run p.lpy --journal --json EXTRA` in `ws`, with `hold`
/// in place so the `slow` call waits.
fn start_journaled(ws: &Path, extra: &[&str]) -> Child {
    std::fs::write(ws.join("hold"), "").expect("hold");
    Command::new(env!("CARGO_BIN_EXE_lackpy"))
        .args(["run", "p.lpy", "--journal", "--json"])
        .args(extra)
        .current_dir(ws)
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("lackpy starts")
}

/// SIGKILLs `child` while its `tool` call with `slow` in its arguments
/// waits, then lets later calls through. The only run listed then is the
/// killed one, in flight at step 1.
fn kill_during_slow_call(ws: &Path, mut child: Child, tool: &str) -> String {
    wait_for_line(ws, &format!("{tool}.started"), "slow");
    // While its process lives, the run is its own: listed as running, and
    // a resume is turned away without touching it.
    let runs = parse(&lackpy_in(ws, &["runs", "--json"], ""));
    assert_eq!(runs["runs"][0]["state"], "running", "{runs}");
    let id = runs["runs"][0]["run_id"].as_str().expect("run id");
    let busy = lackpy_in(ws, &["resume", id], "");
    assert_eq!(busy.code, 1, "{}", busy.stderr);
    assert_eq!(
        normalise(&busy.stderr),
        "error: Busy: run 'rXXXXXXXXXXXXXXXX' is busy: another process is running or resuming it\n"
    );
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");
    std::fs::remove_file(ws.join("hold")).expect("release");
    let runs = parse(&lackpy_in(ws, &["runs", "--json"], ""));
    let run = &runs["runs"][0];
    assert_eq!(runs["runs"].as_array().map(Vec::len), Some(1), "{runs}");
    assert_eq!(
        (&run["state"], &run["step"], &run["tool"], &run["calls"]),
        (&json!("in_flight"), &json!(1), &json!(tool), &json!(1)),
        "{run}"
    );
    run["run_id"].as_str().expect("run id").to_string()
}

#[test]
fn a_killed_run_resumes_and_retries_a_call_without_lasting_effects() {
    let ws = workspace(
        "a = count(text='a')\nb = count(text='slow b')\nc = count(text='c')\n[a, b, c]\n",
        "",
    );
    let child = start_journaled(ws.path(), &[]);
    let id = kill_during_slow_call(ws.path(), child, "count");
    // The killed process's tool went with it: nothing completed the call.
    assert_eq!(lines(ws.path(), "count.txt"), [r#"{"text": "a"}"#]);

    let out = lackpy_in(ws.path(), &["resume", &id, "--json"], "");
    let v = parse(&out);
    assert_eq!(out.code, 0, "{v}");
    assert_eq!(v["output"], json!([1, 2, 3]));
    assert_eq!(
        trace_summary(&v),
        [
            ("count".into(), true, None),
            ("count".into(), false, None),
            ("count".into(), false, None)
        ]
    );
    // Each call completed once; the one in flight was made again.
    assert_eq!(
        lines(ws.path(), "count.txt"),
        [
            r#"{"text": "a"}"#,
            r#"{"text": "slow b"}"#,
            r#"{"text": "c"}"#
        ]
    );
    assert_eq!(
        lines(ws.path(), "count.started"),
        [
            r#"{"text": "a"}"#,
            r#"{"text": "slow b"}"#,
            r#"{"text": "slow b"}"#,
            r#"{"text": "c"}"#
        ]
    );
    assert_eq!(
        parse(&lackpy_in(ws.path(), &["runs", "--json"], "")),
        json!({ "runs": [] })
    );
}

#[test]
fn a_call_in_flight_that_may_have_had_effects_is_retried_only_when_asked() {
    let ws = workspace(
        "a = count(text='a')\nb = push(text='slow p')\nc = count(text='c')\n[a, b, c]\n",
        "",
    );
    // push is gated: --yes approves it, and the journal keeps who did.
    let child = start_journaled(ws.path(), &["--yes"]);
    let id = kill_during_slow_call(ws.path(), child, "push");

    let refused = lackpy_in(ws.path(), &["resume", &id], "");
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    insta::assert_snapshot!("resume_in_flight_refused", normalise(&refused.stderr));
    assert_eq!(
        lines(ws.path(), "push.started").len(),
        1,
        "nothing was called"
    );

    let out = lackpy_in(
        ws.path(),
        &["resume", &id, "--retry-in-flight", "--json"],
        "",
    );
    let v = parse(&out);
    assert_eq!(out.code, 0, "{v}");
    assert_eq!(v["output"], json!([1, 1, 2]));
    assert_eq!(
        trace_summary(&v),
        [
            ("count".into(), true, None),
            ("push".into(), false, Some("flag".into())),
            ("count".into(), false, None)
        ]
    );
    assert_eq!(lines(ws.path(), "push.started").len(), 2);
    assert_eq!(lines(ws.path(), "push.txt"), [r#"{"text": "slow p"}"#]);
    assert_eq!(lines(ws.path(), "count.txt").len(), 2);
}

/// Sets of strings, dict iteration, set algebra and sorting, feeding tool
/// calls: what a replay needs to come out the same.
const ORDER_SENSITIVE: &str = r#"words = {'pear', 'apple', 'fig', 'kiwi', 'banana', 'cherry', 'date', 'elderberry'}
seen = []
for w in words:
    seen.append(count(text=w))
lengths = {w: len(w) for w in words}
keys = [k for k in lengths]
both = words.union({'zeta', 'alpha'}).difference({'fig'})
pairs = {(w, len(w)) for w in both}
send(text=','.join(list(both)))
mixed = {1, 'one', 2.5, (3, 'x'), None, True}
[seen, keys, list(both), sorted(both), list(pairs), list(mixed), list(lengths.items()), str(words)]
"#;

/// The `--json` result without what varies between identical runs.
fn without_durations(mut v: Value) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(m) => {
                m.remove("duration_ms");
                m.values_mut().for_each(strip);
            }
            Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut v);
    v
}

#[test]
fn the_same_program_makes_the_same_calls_in_every_process() {
    let results: Vec<(Value, Vec<String>)> = (0..3)
        .map(|_| {
            let ws = workspace(ORDER_SENSITIVE, "");
            let out = lackpy_in(ws.path(), &["run", "p.lpy", "--yes", "--json"], "");
            let v = parse(&out);
            assert_eq!(out.code, 0, "{v}");
            (without_durations(v), lines(ws.path(), "count.txt"))
        })
        .collect();
    assert_eq!(results[0].1.len(), 8);
    for (v, calls) in &results[1..] {
        assert_eq!(v, &results[0].0);
        assert_eq!(calls, &results[0].1);
    }
    // The trace holds each call's tool, arguments and result.
    let trace = results[0].0["trace"].as_array().expect("trace");
    assert_eq!(trace.len(), 9);
    assert!(
        trace
            .iter()
            .all(|e| e["args"]["text"].is_string() && e["result"].is_number())
    );
}
