//! The approval prompt on a real pseudo-terminal: `y`, `n`, `a`, end of
//! input, and an approval timeout that pauses the run under an unanswered
//! prompt.

use crate::common;

use std::time::{Duration, Instant};

use common::approvals::{lines, normalise, workspace};
use common::pty::lackpy_tty;

/// Two gated calls around an open one.
const TWO_SENDS: &str = "send(text='first')\nn = count(text='a')\nsend(text='second')\nn\n";

#[test]
fn yes_approves_one_call_at_a_time() {
    let ws = workspace(TWO_SENDS, "");
    let out = lackpy_tty(ws.path(), &["run", "p.lpy"], &["y\n", "yes\n"]);
    assert_eq!(out.code, 0, "{}", out.tty);
    assert_eq!(out.stdout, "1\n");
    insta::assert_snapshot!("tty_prompts_yes", normalise(&out.tty));
    assert_eq!(lines(ws.path(), "send.txt").len(), 2);
}

#[test]
fn anything_but_yes_refuses() {
    let ws = workspace(TWO_SENDS, "");
    let out = lackpy_tty(ws.path(), &["run", "p.lpy"], &["n\n"]);
    assert_eq!(out.code, 1, "{}", out.tty);
    assert_eq!(out.tty.matches("[y/N/a] ").count(), 1, "{}", out.tty);
    assert!(
        out.tty
            .ends_with("error: PermissionError: call to send was not approved (line 1)\n"),
        "{}",
        out.tty
    );
    assert!(lines(ws.path(), "send.started").is_empty());
    assert!(lines(ws.path(), "count.started").is_empty());

    // End of input (^D at the prompt) refuses too.
    let out = lackpy_tty(ws.path(), &["run", "p.lpy"], &["\x04"]);
    assert_eq!(out.code, 1, "{}", out.tty);
    assert!(out.tty.contains("not approved"), "{}", out.tty);
    assert!(lines(ws.path(), "send.started").is_empty());
}

#[test]
fn all_approves_every_later_call_with_one_prompt() {
    let ws = workspace(TWO_SENDS, "");
    let out = lackpy_tty(ws.path(), &["run", "p.lpy", "--json"], &["a\n"]);
    assert_eq!(out.code, 0, "{}", out.tty);
    assert_eq!(out.tty.matches("[y/N/a] ").count(), 1, "{}", out.tty);
    insta::assert_snapshot!("tty_prompt_all", normalise(&out.tty));
    assert_eq!(
        lines(ws.path(), "send.txt"),
        [r#"{"text": "first"}"#, r#"{"text": "second"}"#]
    );
    let v: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON result");
    let by: Vec<&str> = v["trace"]
        .as_array()
        .expect("trace")
        .iter()
        .filter_map(|e| e["approval"].as_str())
        .collect();
    assert_eq!(by, ["tty", "tty"]);
}

#[test]
fn an_unanswered_prompt_pauses_the_run_at_the_approval_timeout() {
    let ws = workspace(TWO_SENDS, "");
    let config = ws.path().join(".lackpy/config.toml");
    let text = std::fs::read_to_string(&config).expect("config");
    std::fs::write(
        &config,
        text.replace("[policy]\n", "[policy]\napproval_timeout_ms = 500\n"),
    )
    .expect("config");
    let started = Instant::now();
    let out = lackpy_tty(ws.path(), &["run", "p.lpy"], &[]);
    // The read the prompt left behind does not keep the process alive.
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(out.code, 1, "{}", out.tty);
    insta::assert_snapshot!("tty_prompt_timeout", normalise(&out.tty));
    assert!(lines(ws.path(), "send.started").is_empty());
}

#[test]
fn resume_asks_about_later_calls_on_the_terminal() {
    let ws = workspace(TWO_SENDS, "");
    let paused = common::lackpy_in(ws.path(), &["run", "p.lpy", "--json"], "");
    assert_eq!(paused.code, 1);
    let v: serde_json::Value = serde_json::from_str(&paused.stdout).expect("JSON result");
    let id = v["paused"]["run_id"].as_str().expect("run id");
    let out = lackpy_tty(ws.path(), &["resume", id, "--approve"], &["y\n"]);
    assert_eq!(out.code, 0, "{}", out.tty);
    assert_eq!(out.tty.matches("[y/N/a] ").count(), 1, "{}", out.tty);
    assert!(
        out.tty.contains("step 2: send(text='second')"),
        "{}",
        out.tty
    );
    assert_eq!(out.stdout, "1\n");
    assert_eq!(lines(ws.path(), "send.txt").len(), 2);
}
