//! The trace's cap through the real binary: a long run's result stays
//! small with exact counts, `--max-trace-entries` and profiles set the cap
//! (a profile's binds), the human trace shows the gap, a bad value is a
//! config error at its line, and a paused run resumes with its cap.

use crate::common;

use common::approvals::{parse, workspace};
use common::lackpy_in;
use serde_json::{Value, json};

/// A workspace with `config` and a small file `a.txt` (6 bytes).
fn files_workspace(config: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join(".lackpy")).expect("mkdir");
    std::fs::write(dir.path().join(".lackpy/config.toml"), config).expect("config");
    std::fs::write(dir.path().join("a.txt"), "hello\n").expect("a.txt");
    dir
}

/// `n` calls of `read_file`, adding up what they read.
fn reads(n: usize) -> String {
    format!("n = 0\nfor i in range({n}):\n    n += len(read_file('a.txt'))\nn\n")
}

fn steps(v: &Value) -> Vec<u64> {
    v["trace"]
        .as_array()
        .expect("a trace")
        .iter()
        .map(|e| e["step"].as_u64().expect("a step"))
        .collect()
}

#[test]
fn fifty_thousand_calls_answer_a_bounded_result_with_exact_counts() {
    let ws = files_workspace("[limits]\ntimeout_ms = 600000\n");
    let out = lackpy_in(ws.path(), &["run", "-", "--json"], &reads(50_000));
    let v = parse(&out);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(v["output"], 300_000);
    // The default cap: the first 5,000 entries and the last 5,000.
    let kept = steps(&v);
    assert_eq!(kept.len(), 10_000);
    assert_eq!(kept[..3], [0, 1, 2]);
    assert_eq!(kept[4_999..5_001], [4_999, 45_000]);
    assert_eq!(kept.last(), Some(&49_999));
    let d = &v["trace_dropped"];
    assert_eq!(
        (
            &d["total_calls"],
            &d["dropped"],
            &d["first_step"],
            &d["last_step"]
        ),
        (
            &json!(50_000),
            &json!(40_000),
            &json!(5_000),
            &json!(44_999)
        )
    );
    let by_tool = d["by_tool"].as_object().expect("by_tool");
    assert_eq!(by_tool.len(), 1);
    assert_eq!(by_tool["read_file"]["dropped"], 40_000);
    assert!(
        by_tool["read_file"]["duration_ms"]
            .as_f64()
            .is_some_and(|ms| ms > 0.0)
    );
    // Ten thousand entries of ~150 bytes; all fifty thousand took 7.3 MB.
    assert!(
        out.stdout.len() < 2_000_000,
        "{} bytes of result",
        out.stdout.len()
    );
}

#[test]
fn the_flag_sets_the_cap_and_the_human_trace_shows_the_gap() {
    let ws = files_workspace("");
    let out = lackpy_in(
        ws.path(),
        &["run", "-", "--json", "--max-trace-entries", "5"],
        &reads(100),
    );
    let v = parse(&out);
    assert_eq!(steps(&v), [0, 1, 97, 98, 99]);
    assert_eq!(v["trace_dropped"]["dropped"], 95);

    let out = lackpy_in(
        ws.path(),
        &["-v", "run", "-", "--max-trace-entries", "3"],
        &reads(100),
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines: Vec<String> = out
        .stderr
        .lines()
        .filter(|l| l.starts_with("trace:") || l.starts_with("  "))
        .map(|l| l.rsplit_once(" [").map_or(l, |(head, _)| head).to_string())
        .collect();
    assert!(
        lines[0].starts_with("trace: 100 tool calls in "),
        "{lines:?}"
    );
    assert_eq!(
        lines[1..],
        [
            "    0 read_file(path='a.txt') -> 'hello\\n'",
            "  ... 97 calls left out (steps 1-97): read_file 97",
            "   98 read_file(path='a.txt') -> 'hello\\n'",
            "   99 read_file(path='a.txt') -> 'hello\\n'",
        ]
    );

    // A cap of 0 keeps no entry; the line stands for every call.
    let out = lackpy_in(
        ws.path(),
        &["-v", "run", "-", "--max-trace-entries", "0"],
        &reads(4),
    );
    assert!(
        out.stderr
            .contains("  ... 4 calls left out (steps 0-3): read_file 4 ["),
        "{}",
        out.stderr
    );
}

#[test]
fn a_profile_cap_binds_and_a_caller_may_only_lower_it() {
    let ws = files_workspace(
        "[limits]\nmax_trace_entries = 50\n\n[profiles.short]\ntools = [\"read_file\"]\nlimits = { max_trace_entries = 4 }\n",
    );
    let run = |args: &[&str]| {
        let mut all = vec!["run", "-", "--json"];
        all.extend_from_slice(args);
        let v = parse(&lackpy_in(ws.path(), &all, &reads(100)));
        assert_eq!(v["success"], true, "{v}");
        v["trace"].as_array().map_or(0, Vec::len)
    };
    assert_eq!(run(&[]), 50);
    assert_eq!(run(&["--max-trace-entries", "70"]), 70);
    assert_eq!(run(&["--profile", "short"]), 4);
    assert_eq!(run(&["--profile", "short", "--max-trace-entries", "70"]), 4);
    assert_eq!(run(&["--profile", "short", "--max-trace-entries", "2"]), 2);
    // The service's limits say the cap.
    let status = parse(&lackpy_in(ws.path(), &["status", "--json"], ""));
    assert_eq!(status["limits"]["max_trace_entries"], 50);
}

#[test]
fn a_bad_cap_is_a_config_error_at_its_line() {
    for (config, place, why) in [
        (
            "[limits]\nmax_trace_entries = -1\n",
            ".lackpy/config.toml:2:21: key 'limits.max_trace_entries'",
            "invalid value: integer `-1`, expected u64",
        ),
        (
            "[limits]\nmax_trace_entries = \"all\"\n",
            ".lackpy/config.toml:2:21: key 'limits.max_trace_entries'",
            "invalid type: string \"all\", expected u64",
        ),
        (
            "[limits]\nmax_trace_entries = 10\n[profiles.p]\nlimits = { max_trace_entries = 11 }\n",
            ".lackpy/config.toml:4:12: key 'profiles.p.limits.max_trace_entries'",
            "profile 'p' max_trace_entries 11 is above [limits] max_trace_entries 10; a profile's limits can only tighten",
        ),
    ] {
        let ws = files_workspace(config);
        let out = lackpy_in(ws.path(), &["run", "-"], "1");
        assert_eq!(out.code, 2, "{config}: {}", out.stderr);
        assert!(out.stderr.contains(place), "{config}: {}", out.stderr);
        assert!(out.stderr.contains(why), "{config}: {}", out.stderr);
    }
}

#[test]
fn a_paused_run_resumes_with_its_cap_and_counts_replayed_calls() {
    // 30 reads, the gated send, 30 more reads.
    let program = "n = 0\nfor i in range(30):\n    n += len(read_file('p.lpy'))\nsend(text='hello')\nfor i in range(30):\n    n += len(read_file('p.lpy'))\nn\n";
    let ws = workspace(program, "");
    let out = lackpy_in(
        ws.path(),
        &["run", "p.lpy", "--json", "--max-trace-entries", "4"],
        "",
    );
    let v = parse(&out);
    assert_eq!(v["error_type"], "ApprovalRequired", "{v}");
    // The paused call is the last entry kept.
    assert_eq!(steps(&v), [0, 1, 29, 30]);
    assert_eq!(v["trace"][3]["tool"], "send");
    assert_eq!(v["paused"]["step"], 30);
    let d = &v["trace_dropped"];
    assert_eq!((&d["total_calls"], &d["dropped"]), (&json!(31), &json!(27)));
    let id = v["paused"]["run_id"].as_str().expect("run id").to_string();

    let out = lackpy_in(ws.path(), &["resume", &id, "--approve", "--json"], "");
    let v = parse(&out);
    assert_eq!(v["success"], true, "{v}");
    assert_eq!(v["output"], 60 * program.len());
    // The same cap: the journal kept it.
    assert_eq!(steps(&v), [0, 1, 59, 60]);
    assert_eq!(v["trace"][0]["replayed"], true);
    assert!(v["trace"][3].get("replayed").is_none(), "{v}");
    let d = &v["trace_dropped"];
    assert_eq!(
        (
            &d["total_calls"],
            &d["dropped"],
            &d["first_step"],
            &d["last_step"]
        ),
        (&json!(61), &json!(57), &json!(2), &json!(58))
    );
    // Steps 2..=29 were replayed reads, 30 the approved send, 31..=58 reads.
    assert_eq!(
        d["by_tool"]["read_file"],
        json!({"dropped": 56, "duration_ms": d["by_tool"]["read_file"]["duration_ms"], "replayed": 28})
    );
    let send = &d["by_tool"]["send"];
    assert_eq!(
        (&send["dropped"], &send["approvals"]),
        (&json!(1), &json!({"flag": 1}))
    );
}
