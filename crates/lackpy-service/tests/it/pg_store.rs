//! The PostgreSQL run store through the real binary: a run paused by one
//! process is resumed by another (another workspace: another replica),
//! two concurrent resumes of one run let exactly one through, a SIGKILLed
//! process leaves its run resumable elsewhere at once, replicas migrating
//! together are fine, and a store that cannot be used is named.
//!
//! The tests that need a database are ignored in a plain `cargo test` and
//! fail without `LACKPY_TEST_PG_URL` (`scripts/start-test-postgres.sh`).

use crate::common;

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::approvals::{lines, normalise, parse, trace_summary, wait_for_line, workspace};
use common::pg::{TestDb, query};
use common::{Out, lackpy_env};
use serde_json::{Value, json};

/// Counts, then sends (gated): `slow` makes send wait while `hold` exists.
const COUNT_THEN_SEND: &str = "n = count(text='a')\nsend(text='slow hello')\nn\n";

/// `lackpy ARGS` in `ws` with the store `url` from the environment.
fn lackpy_pg(ws: &Path, url: &str, args: &[&str]) -> Out {
    lackpy_env(ws, args, "", &[("LACKPY_RUNS_STORE", url)])
}

/// Starts `lackpy ARGS` in `ws` with the store `url`, not waiting.
fn spawn_pg(ws: &Path, url: &str, args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_lackpy"))
        .args(args)
        .current_dir(ws)
        .env_remove("RUST_LOG")
        .env("LACKPY_RUNS_STORE", url)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("lackpy starts")
}

fn text(o: &Output) -> (i32, String, String) {
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Pauses COUNT_THEN_SEND in `ws` (no approver): its run id.
fn pause(ws: &Path, url: &str) -> String {
    let out = lackpy_pg(ws, url, &["run", "p.lpy", "--json"]);
    let v = parse(&out);
    assert_eq!(out.code, 1, "{v}");
    assert_eq!(v["error_type"], "ApprovalRequired", "{v}");
    v["paused"]["run_id"].as_str().expect("run id").to_string()
}

fn runs(ws: &Path, url: &str) -> Value {
    let out = lackpy_pg(ws, url, &["runs", "--json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    parse(&out)
}

#[test]
#[ignore = "needs PostgreSQL: scripts/start-test-postgres.sh"]
fn a_run_paused_by_one_process_is_resumed_by_another() {
    let db = TestDb::new();
    let a = workspace(COUNT_THEN_SEND, "");
    // Replica B: another workspace with the same tools, the store from
    // its config rather than the environment.
    let b = workspace(
        COUNT_THEN_SEND,
        &format!("\n[runs]\nstore = \"{}\"\n", db.url),
    );
    let id = pause(a.path(), &db.url);
    assert_eq!(lines(a.path(), "count.txt").len(), 1);
    // Nothing is on A's disk: the journal is in the database.
    assert!(!a.path().join(".lackpy/runs").exists());

    let listed = parse(&common::lackpy_in(b.path(), &["runs", "--json"], ""));
    assert_eq!(listed["runs"].as_array().map(Vec::len), Some(1), "{listed}");
    let run = &listed["runs"][0];
    assert_eq!(
        (
            &run["run_id"],
            &run["state"],
            &run["step"],
            &run["tool"],
            &run["calls"]
        ),
        (
            &json!(id),
            &json!("paused"),
            &json!(1),
            &json!("send"),
            &json!(1)
        ),
        "{run}"
    );
    let table = common::lackpy_in(b.path(), &["runs"], "");
    assert!(
        normalise(&table.stdout).contains("rXXXXXXXXXXXXXXXX  paused"),
        "{}",
        table.stdout
    );

    let out = common::lackpy_in(b.path(), &["resume", &id, "--approve", "--json"], "");
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
    // count ran once, on A; send once, on B.
    assert!(lines(b.path(), "count.txt").is_empty());
    assert_eq!(lines(b.path(), "send.txt"), [r#"{"text": "slow hello"}"#]);
    // Finished: removed from the store, for every replica.
    assert_eq!(runs(a.path(), &db.url), json!({ "runs": [] }));
    assert_eq!(
        query(&db.url, "SELECT count(*) FROM lackpy_run_lines"),
        ["0"]
    );
}

#[test]
#[ignore = "needs PostgreSQL: scripts/start-test-postgres.sh"]
fn of_two_concurrent_resumes_exactly_one_runs_the_other_is_busy() {
    let db = TestDb::new();
    let a = workspace(COUNT_THEN_SEND, "");
    let b = workspace(COUNT_THEN_SEND, "");
    for round in 0..3 {
        let id = pause(a.path(), &db.url);
        // The winner waits in send while `hold` exists: the loser meets it
        // holding the run.
        std::fs::write(b.path().join("hold"), "").expect("hold");
        let args = ["resume", id.as_str(), "--approve", "--json"];
        let mut children = [
            spawn_pg(b.path(), &db.url, &args),
            spawn_pg(b.path(), &db.url, &args),
        ];
        let deadline = Instant::now() + Duration::from_secs(60);
        let loser = loop {
            if let Some(i) = (0..2).find(|&i| matches!(children[i].try_wait(), Ok(Some(_)))) {
                break i;
            }
            assert!(
                Instant::now() < deadline,
                "round {round}: neither resume ended"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        std::fs::remove_file(b.path().join("hold")).expect("release");
        let [c0, c1] = children;
        let (l, w) = if loser == 0 { (c0, c1) } else { (c1, c0) };
        let (lcode, lout, lerr) = text(&l.wait_with_output().expect("loser"));
        let (wcode, wout, werr) = text(&w.wait_with_output().expect("winner"));
        assert_eq!(lcode, 1, "round {round}: {lout} {lerr}");
        let lv: Value = serde_json::from_str(&lout).expect("loser's JSON");
        assert_eq!(lv["error_type"], "Busy", "round {round}: {lv}");
        assert_eq!(wcode, 0, "round {round}: {wout} {werr}");
        let wv: Value = serde_json::from_str(&wout).expect("winner's JSON");
        // count ran on A, once per round.
        assert_eq!(wv["output"], round + 1, "round {round}: {wv}");
        // The gated call ran once in all.
        assert_eq!(lines(b.path(), "send.txt").len(), round + 1);
    }
    assert_eq!(runs(a.path(), &db.url), json!({ "runs": [] }));
}

#[test]
#[ignore = "needs PostgreSQL: scripts/start-test-postgres.sh"]
fn a_sigkilled_process_leaves_its_run_resumable_by_another() {
    let db = TestDb::new();
    let program = "a = count(text='a')\nb = push(text='slow p')\nc = count(text='c')\n[a, b, c]\n";
    let a = workspace(program, "");
    let b = workspace(program, "");
    std::fs::write(a.path().join("hold"), "").expect("hold");
    // push is gated: --yes approves it, and the journal keeps who did.
    let mut child = spawn_pg(
        a.path(),
        &db.url,
        &["run", "p.lpy", "--journal", "--yes", "--json"],
    );
    wait_for_line(a.path(), "push.started", "slow");
    let listed = runs(b.path(), &db.url);
    assert_eq!(listed["runs"][0]["state"], "running", "{listed}");
    let id = listed["runs"][0]["run_id"]
        .as_str()
        .expect("run id")
        .to_string();
    let busy = lackpy_pg(b.path(), &db.url, &["resume", &id]);
    assert_eq!(busy.code, 1, "{}", busy.stderr);
    assert_eq!(
        normalise(&busy.stderr),
        "error: Busy: run 'rXXXXXXXXXXXXXXXX' is busy: another process is running or resuming it\n"
    );

    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");
    // The dead process's connection closes and PostgreSQL drops its lock:
    // no lease to wait out (the server notices within moments).
    let deadline = Instant::now() + Duration::from_secs(20);
    let run = loop {
        let listed = runs(b.path(), &db.url);
        let run = listed["runs"][0].clone();
        if run["state"] != "running" {
            break run;
        }
        assert!(Instant::now() < deadline, "the run stayed held: {run}");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(
        (&run["state"], &run["step"], &run["tool"], &run["calls"]),
        (&json!("in_flight"), &json!(1), &json!("push"), &json!(1)),
        "{run}"
    );

    let refused = lackpy_pg(b.path(), &db.url, &["resume", &id]);
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(
        refused.stderr.contains("--retry-in-flight"),
        "{}",
        refused.stderr
    );
    assert!(
        lines(b.path(), "push.started").is_empty(),
        "nothing was called"
    );

    let out = lackpy_pg(
        b.path(),
        &db.url,
        &["resume", &id, "--retry-in-flight", "--json"],
    );
    let v = parse(&out);
    assert_eq!(out.code, 0, "{v}");
    assert_eq!(v["output"], json!([1, 1, 1]));
    assert_eq!(
        trace_summary(&v),
        [
            ("count".into(), true, None),
            ("push".into(), false, Some("flag".into())),
            ("count".into(), false, None)
        ]
    );
    assert_eq!(runs(a.path(), &db.url), json!({ "runs": [] }));
}

#[test]
#[ignore = "needs PostgreSQL: scripts/start-test-postgres.sh"]
fn replicas_starting_together_migrate_once() {
    let db = TestDb::new();
    let ws = workspace("1\n", "");
    let children: Vec<Child> = (0..6)
        .map(|_| spawn_pg(ws.path(), &db.url, &["runs", "--json"]))
        .collect();
    for c in children {
        let (code, out, err) = text(&c.wait_with_output().expect("runs"));
        assert_eq!(code, 0, "{err}");
        assert_eq!(
            serde_json::from_str::<Value>(&out).ok(),
            Some(json!({ "runs": [] }))
        );
    }
    assert_eq!(
        query(
            &db.url,
            "SELECT string_agg(version::text, ',') FROM lackpy_schema_version"
        ),
        ["1"]
    );
    // And again, on a migrated database.
    assert_eq!(runs(ws.path(), &db.url), json!({ "runs": [] }));
}

#[test]
#[ignore = "needs PostgreSQL: scripts/start-test-postgres.sh"]
fn an_expired_run_is_listed_so_and_not_resumed() {
    let db = TestDb::new();
    let ws = workspace(COUNT_THEN_SEND, "");
    let id = pause(ws.path(), &db.url);
    query(
        &db.url,
        "UPDATE lackpy_runs SET updated_at = updated_at - 25 * 3600",
    );
    assert_eq!(runs(ws.path(), &db.url)["runs"][0]["state"], "expired");
    let out = lackpy_pg(ws.path(), &db.url, &["resume", &id, "--approve"]);
    assert_ne!(out.code, 0);
    assert!(
        out.stderr.contains("has expired") && out.stderr.contains("keep_hours"),
        "{}",
        out.stderr
    );
}

#[test]
#[ignore = "needs PostgreSQL: scripts/start-test-postgres.sh"]
fn a_journal_over_its_cap_ends_a_durable_run() {
    let db = TestDb::new();
    // A 1 MiB cap and calls whose results pass it.
    let ws = workspace(
        "for i in range(400):\n    count(text='x' * 4000)\n",
        "\n[runs]\nmax_journal_mb = 1\n",
    );
    let out = lackpy_pg(ws.path(), &db.url, &["run", "p.lpy", "--journal", "--json"]);
    let v = parse(&out);
    assert_eq!(out.code, 1, "{v}");
    assert_eq!(v["error_type"], "JournalError", "{v}");
    assert!(
        v["error"].as_str().unwrap_or("").contains("max_journal_mb"),
        "{v}"
    );
    // The run ended: nothing is left to resume.
    assert_eq!(runs(ws.path(), &db.url), json!({ "runs": [] }));
}

#[test]
fn a_store_that_cannot_be_reached_is_named() {
    let ws = workspace("1\n", "");
    let out = lackpy_pg(ws.path(), "postgres://nobody@127.0.0.1:1/lackpy", &["runs"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr
            .starts_with("error: run store postgres://nobody@127.0.0.1:1/lackpy: cannot connect"),
        "{}",
        out.stderr
    );
    let out = lackpy_pg(
        ws.path(),
        "postgres://nobody@127.0.0.1:notaport/x",
        &["runs"],
    );
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.starts_with(
            "error: run store postgres://nobody@127.0.0.1:notaport/x: not a PostgreSQL URL"
        ),
        "{}",
        out.stderr
    );
    let out = lackpy_pg(ws.path(), "mysql://db/x", &["runs"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert_eq!(
        out.stderr,
        "error: LACKPY_RUNS_STORE: expected `files` or a postgres://user@host:port/db URL\n"
    );
}

#[test]
fn a_password_in_the_config_is_a_config_error() {
    let ws = workspace(
        "1\n",
        "\n[runs]\nstore = \"postgres://lackpy:secret@db/lackpy\"\n",
    );
    let out = common::lackpy_in(ws.path(), &["runs"], "");
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(!out.stderr.contains("secret"), "{}", out.stderr);
    assert!(
        out.stderr.ends_with(
            "config.toml:35:9: key 'runs.store': the URL holds a password: set it in PGPASSWORD or LACKPY_RUNS_STORE_PASSWORD instead\n"
        ),
        "{}",
        out.stderr
    );
}
