//! The trace under `Limits::max_trace_entries`: the first and the last
//! entries kept, the calls between counted exactly, and what the trace
//! holds (and is charged) bounded by the cap.

use lackpy_lang::{Data, Host, Limits, RunOptions, RunOutcome, ToolException, run};

/// `get(i)` answers `i`; `note(i)` too, each call noted, approved by
/// policy and replayed; `fail()` fails.
struct Tools {
    args: Vec<String>,
    last: String,
}

impl Host for Tools {
    fn tool_args(&self, name: &str) -> Option<&[String]> {
        matches!(name, "get" | "note" | "fail").then_some(self.args.as_slice())
    }

    fn call(
        &mut self,
        tool: &str,
        args: Vec<Data>,
        _kwargs: Vec<(String, Data)>,
    ) -> Result<Data, ToolException> {
        self.last = tool.to_owned();
        match tool {
            "fail" => Err(ToolException::new("ToolError", "it failed")),
            _ => Ok(args.into_iter().next().unwrap_or(Data::None)),
        }
    }

    fn call_note(&mut self) -> Option<String> {
        (self.last == "note").then(|| "noted".to_owned())
    }

    fn call_approval(&mut self) -> Option<String> {
        (self.last == "note").then(|| "policy".to_owned())
    }

    fn call_replayed(&mut self) -> bool {
        self.last == "note"
    }
}

fn run_capped(src: &str, cap: usize, max_memory: usize) -> RunOutcome {
    let module = lackpy_lang::parse(src).expect("program parses");
    let mut host = Tools {
        args: vec!["x".to_owned()],
        last: String::new(),
    };
    let opts = RunOptions {
        limits: Limits {
            max_trace_entries: cap,
            max_memory,
            ..Limits::default()
        },
        ..RunOptions::default()
    };
    run(&module, &mut host, &[], &opts)
}

fn steps(out: &RunOutcome) -> Vec<usize> {
    out.trace.iter().map(|e| e.step).collect()
}

const MIB: usize = 1024 * 1024;

#[test]
fn a_long_run_keeps_its_first_and_last_calls_and_counts_the_rest() {
    let out = run_capped(
        "n = 0\nfor i in range(1000):\n    n += get(i)\nn",
        10,
        256 * MIB,
    );
    assert!(out.success, "{:?}", out.error);
    assert_eq!(out.output_data(), Some(Data::Int(499_500.into())));
    assert_eq!(steps(&out), [0, 1, 2, 3, 4, 995, 996, 997, 998, 999]);
    // Each kept entry is the call of its step.
    for e in &out.trace {
        assert_eq!(e.args[0].1, Data::Int(e.step.into()));
    }
    let d = out.trace_dropped.expect("entries left out");
    assert_eq!(
        (d.total_calls, d.dropped, d.first_step, d.last_step),
        (1000, 990, 5, 994)
    );
    assert_eq!(d.by_tool.len(), 1);
    assert_eq!(
        (d.by_tool[0].tool.as_str(), d.by_tool[0].dropped),
        ("get", 990)
    );
}

#[test]
fn a_run_under_the_cap_has_no_summary() {
    let out = run_capped("for i in range(10):\n    get(i)\n", 10, 256 * MIB);
    assert_eq!(out.trace.len(), 10);
    assert_eq!(out.trace_dropped, None);
}

#[test]
fn the_failed_call_is_the_last_entry_kept_and_approvals_are_counted() {
    let out = run_capped(
        "for i in range(50):\n    note(i)\n    get(i)\nfail(1)\n",
        3,
        256 * MIB,
    );
    assert_eq!(out.error_type.as_deref(), Some("ToolError"));
    assert_eq!(steps(&out), [0, 99, 100]);
    let last = out.trace.last().expect("kept");
    assert_eq!((last.tool.as_str(), last.success), ("fail", false));
    let d = out.trace_dropped.expect("entries left out");
    assert_eq!((d.total_calls, d.dropped), (101, 98));
    let note = d.by_tool.iter().find(|t| t.tool == "note").expect("note");
    assert_eq!(note.dropped, 49);
    assert_eq!(note.notes, 49);
    assert_eq!(note.approvals, [("policy".to_owned(), 49)]);
    assert_eq!(note.replayed, 49);
    let get = d.by_tool.iter().find(|t| t.tool == "get").expect("get");
    assert_eq!((get.dropped, get.failed), (49, 0));
}

#[test]
fn a_cap_of_zero_keeps_no_entry_but_every_count() {
    let out = run_capped("for i in range(7):\n    get(i)\nfail(0)\n", 0, 256 * MIB);
    assert!(out.trace.is_empty());
    let d = out.trace_dropped.expect("all left out");
    assert_eq!(
        (d.total_calls, d.dropped, d.first_step, d.last_step),
        (8, 8, 0, 7)
    );
    let fail = d.by_tool.iter().find(|t| t.tool == "fail").expect("fail");
    assert_eq!((fail.dropped, fail.failed), (1, 1));
}

#[test]
fn the_trace_under_its_cap_stays_within_a_small_memory_limit() {
    // 40,000 entries of a few hundred bytes each are over 2 MiB: the
    // uncapped trace is charged past the limit, the capped one is not.
    let src = "for i in range(40000):\n    get('x' * 100)\n'done'";
    let out = run_capped(src, 1_000_000, 2 * MIB);
    assert_eq!(out.error_type.as_deref(), Some("MemoryError"));
    let out = run_capped(src, 100, 2 * MIB);
    assert!(out.success, "{:?}", out.error);
    let d = out.trace_dropped.expect("entries left out");
    assert_eq!((d.total_calls, d.dropped), (40_000, 39_900));
    assert_eq!(out.trace.len(), 100);
}
