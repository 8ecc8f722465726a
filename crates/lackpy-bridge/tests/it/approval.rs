//! Approval gates and journal replay, with a real runtime and tools.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use lackpy_bridge::{
    Answer, AnswerFuture, ApprovalRequest, Approver, Bridge, CallRecord, CallStart, CancelToken,
    Decision, Gate, Journal, JournalSink, NamespaceTool, RunRequest,
};
use lackpy_lang::{Data, Grade};
use lackpy_sources::{CallContext, Tool, ToolAnswer};

/// Counts its calls and answers `[args…]` doubled as text.
#[derive(Default)]
struct Counted(AtomicUsize);

impl Tool for Counted {
    fn call(&self, args: Vec<Data>, _kw: Vec<(String, Data)>, _ctx: &CallContext) -> ToolAnswer {
        self.0.fetch_add(1, Ordering::SeqCst);
        let text = args.iter().map(Data::to_json).collect::<Vec<_>>().join(",");
        ToolAnswer::Ready(Ok(Data::Tuple(vec![
            Data::Str(text),
            Data::Set(vec![Data::Int(1.into())]),
        ])))
    }
}

/// Answers every request with one decision after a delay, and keeps the
/// requests it saw.
struct Fixed {
    decision: Decision,
    delay: Duration,
    seen: Arc<Mutex<Vec<ApprovalRequest>>>,
}

impl Fixed {
    fn new(decision: Decision, delay: Duration) -> Arc<Fixed> {
        Arc::new(Fixed {
            decision,
            delay,
            seen: Arc::default(),
        })
    }
}

impl Approver for Fixed {
    fn decide(&self, request: ApprovalRequest) -> AnswerFuture {
        self.seen.lock().expect("lock").push(request);
        let (d, delay) = (self.decision, self.delay);
        Box::pin(async move {
            tokio::time::sleep(delay).await;
            Answer::new(d, "api")
        })
    }
}

/// Keeps every record in memory.
#[derive(Default)]
struct Memory {
    starts: Vec<CallStart>,
    records: Vec<CallRecord>,
}

impl JournalSink for Memory {
    fn begin(&mut self, start: &CallStart) -> Result<(), String> {
        self.starts.push(start.clone());
        Ok(())
    }
    fn complete(&mut self, record: &CallRecord) -> Result<(), String> {
        self.records.push(record.clone());
        Ok(())
    }
}

const PROGRAM: &str = "a = t('x', 1)\nb = send(a[0], n=2)\nc = t('y', 3)\n[a, b, c]";

fn tools(t: &Arc<Counted>, send: &Arc<Counted>, gate: Gate) -> Vec<NamespaceTool> {
    let mut gated = NamespaceTool::new("send", vec!["text".into()], Grade::new(3, 3), send.clone());
    gated.gate = gate;
    gated.provenance = "config".into();
    vec![
        NamespaceTool::new(
            "t",
            vec!["a".into(), "b".into()],
            Grade::new(1, 0),
            t.clone(),
        ),
        gated,
    ]
}

fn request(tools: Vec<NamespaceTool>) -> RunRequest {
    let module = lackpy_lang::parse(PROGRAM).expect("parses");
    let mut r = RunRequest::new(Arc::new(module), tools, std::env::temp_dir());
    r.run_id = Some("r1".into());
    r
}

fn ask() -> Gate {
    Gate::Ask {
        rule: "[policy] approve_above (2, 1)".into(),
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime")
}

#[test]
fn an_approved_call_runs_and_the_trace_says_who_approved() {
    let (t, send) = (Arc::<Counted>::default(), Arc::<Counted>::default());
    let approver = Fixed::new(Decision::Approve, Duration::ZERO);
    let mut req = request(tools(&t, &send, ask()));
    req.approvals.approver = Some(approver.clone());
    let result = runtime().block_on(Bridge::default().run(req));
    assert!(result.success, "{:?}", result.error);
    assert_eq!(send.0.load(Ordering::SeqCst), 1);
    let approvals: Vec<Option<&str>> = result.trace.iter().map(|e| e.approval.as_deref()).collect();
    assert_eq!(approvals, [None, Some("api"), None]);
    let seen = approver.seen.lock().expect("lock");
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].step, 1);
    assert_eq!(seen[0].call_text(), "send(text='\"x\",1', n=2)");
    assert_eq!(seen[0].grade, Grade::new(3, 3));
    assert_eq!(seen[0].provenance, "config");
    assert!(result.to_json().contains(r#""approval": "api""#));
}

#[test]
fn a_refused_call_never_happens_and_raises_permission_error() {
    let (t, send) = (Arc::<Counted>::default(), Arc::<Counted>::default());
    let mut req = request(tools(&t, &send, ask()));
    req.approvals.approver = Some(Fixed::new(Decision::Deny, Duration::ZERO));
    let result = runtime().block_on(Bridge::default().run(req));
    assert!(!result.success);
    assert_eq!(result.error_type.as_deref(), Some("PermissionError"));
    assert_eq!(
        result.error.as_deref(),
        Some("call to send was not approved")
    );
    assert_eq!(send.0.load(Ordering::SeqCst), 0);
    assert_eq!(t.0.load(Ordering::SeqCst), 1);
    assert_eq!(result.trace[1].approval.as_deref(), Some("api"));
}

#[test]
fn without_an_approver_the_run_pauses_before_the_call() {
    let (t, send) = (Arc::<Counted>::default(), Arc::<Counted>::default());
    let result = runtime().block_on(Bridge::default().run(request(tools(&t, &send, ask()))));
    assert_eq!(result.error_type.as_deref(), Some("ApprovalRequired"));
    assert_eq!(send.0.load(Ordering::SeqCst), 0);
    let paused = result.paused.as_ref().expect("paused");
    assert_eq!((paused.step, paused.tool.as_str()), (1, "send"));
    assert_eq!(paused.run_id, "r1");
    assert_eq!(paused.args[1].0, "n");
    let json = result.to_json();
    assert!(
        json.contains(r#""paused": {"run_id": "r1", "step": 1, "tool": "send""#),
        "{json}"
    );
}

#[test]
fn an_approver_slower_than_the_approval_timeout_pauses_the_run() {
    let (t, send) = (Arc::<Counted>::default(), Arc::<Counted>::default());
    let mut req = request(tools(&t, &send, ask()));
    req.approvals.approver = Some(Fixed::new(Decision::Approve, Duration::from_secs(30)));
    req.approvals.timeout = Duration::from_millis(100);
    let started = Instant::now();
    let result = runtime().block_on(Bridge::default().run(req));
    assert_eq!(result.error_type.as_deref(), Some("ApprovalRequired"));
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(send.0.load(Ordering::SeqCst), 0);
}

#[test]
fn waiting_for_a_person_does_not_count_against_the_run_timeout() {
    let (t, send) = (Arc::<Counted>::default(), Arc::<Counted>::default());
    let mut req = request(tools(&t, &send, ask()));
    req.limits.timeout = Duration::from_millis(300);
    req.approvals.approver = Some(Fixed::new(Decision::Approve, Duration::from_millis(600)));
    let result = runtime().block_on(Bridge::default().run(req));
    assert!(result.success, "{:?}", result.error);
    // The call's own duration leaves out the wait.
    assert!(result.trace[1].duration < Duration::from_millis(300));
}

#[test]
fn a_cancel_while_waiting_ends_the_run_without_the_call() {
    let (t, send) = (Arc::<Counted>::default(), Arc::<Counted>::default());
    let mut req = request(tools(&t, &send, ask()));
    req.approvals.approver = Some(Fixed::new(Decision::Approve, Duration::from_secs(30)));
    let cancel = CancelToken::new();
    let rt = runtime();
    let c2 = cancel.clone();
    rt.spawn(async move {
        tokio::time::sleep(Duration::from_millis(100)).await;
        c2.cancel();
    });
    let result = rt.block_on(Bridge::default().run_with_cancel(req, cancel));
    assert_eq!(result.error_type.as_deref(), Some("Cancelled"));
    assert!(result.paused.is_none());
    assert_eq!(send.0.load(Ordering::SeqCst), 0);
}

#[test]
fn auto_approved_calls_record_the_policy() {
    let (t, send) = (Arc::<Counted>::default(), Arc::<Counted>::default());
    let result = runtime().block_on(Bridge::default().run(request(tools(&t, &send, Gate::Auto))));
    assert!(result.success, "{:?}", result.error);
    assert_eq!(result.trace[1].approval.as_deref(), Some("policy"));
}

#[test]
fn a_resumed_run_replays_completed_calls_and_runs_the_decided_one() {
    let (t, send) = (Arc::<Counted>::default(), Arc::<Counted>::default());
    let sink = Arc::new(Mutex::new(Memory::default()));
    let mut first = request(tools(&t, &send, ask()));
    first.journal = Some(Journal {
        replay: Vec::new(),
        sink: Some(sink.clone()),
    });
    let rt = runtime();
    let paused = rt.block_on(Bridge::default().run(first));
    assert_eq!(paused.error_type.as_deref(), Some("ApprovalRequired"));
    let records = sink.lock().expect("lock").records.clone();
    assert_eq!(records.len(), 1);
    assert_eq!(t.0.load(Ordering::SeqCst), 1);

    // Resume: step 0 from the journal, step 1 approved in advance, step 2 live.
    let sink2 = Arc::new(Mutex::new(Memory::default()));
    let mut again = request(tools(&t, &send, ask()));
    again.journal = Some(Journal {
        replay: records,
        sink: Some(sink2.clone()),
    });
    again.approvals.decided = Some((1, Answer::new(Decision::Approve, "flag")));
    let result = rt.block_on(Bridge::default().run(again));
    assert!(result.success, "{:?}", result.error);
    assert_eq!(t.0.load(Ordering::SeqCst), 2, "step 0 was not called again");
    assert_eq!(send.0.load(Ordering::SeqCst), 1);
    let replayed: Vec<bool> = result.trace.iter().map(|e| e.replayed).collect();
    assert_eq!(replayed, [true, false, false]);
    assert_eq!(result.trace[1].approval.as_deref(), Some("flag"));
    // The replayed value is the tool's exact value (a tuple holding a set).
    // Its repr shows the tuple and the set (JSON would show two lists).
    let repr = result.output_repr.as_deref().unwrap_or_default();
    assert!(repr.starts_with("[('\"x\",1', {1}), "), "{repr}");
    let s2 = sink2.lock().expect("lock");
    assert_eq!(s2.starts.iter().map(|s| s.step).collect::<Vec<_>>(), [1, 2]);
    assert_eq!(s2.starts[0].approval.as_deref(), Some("flag"));
}

#[test]
fn a_call_that_does_not_match_its_record_calls_nothing() {
    let (t, send) = (Arc::<Counted>::default(), Arc::<Counted>::default());
    let sink = Arc::new(Mutex::new(Memory::default()));
    let mut first = request(tools(&t, &send, Gate::Open));
    first.journal = Some(Journal {
        replay: Vec::new(),
        sink: Some(sink.clone()),
    });
    let rt = runtime();
    assert!(rt.block_on(Bridge::default().run(first)).success);
    let mut records = sink.lock().expect("lock").records.clone();
    assert_eq!(records.len(), 3);
    records[1].args = serde_json::json!({"args": ["other"], "kwargs": []});
    let before = (t.0.load(Ordering::SeqCst), send.0.load(Ordering::SeqCst));
    let mut again = request(tools(&t, &send, Gate::Open));
    again.journal = Some(Journal {
        replay: records,
        sink: None,
    });
    let result = rt.block_on(Bridge::default().run(again));
    assert_eq!(result.error_type.as_deref(), Some("ReplayDivergenceError"));
    assert_eq!(
        (t.0.load(Ordering::SeqCst), send.0.load(Ordering::SeqCst)),
        before
    );
}

#[test]
fn a_program_that_ends_before_its_journal_diverged() {
    let (t, send) = (Arc::<Counted>::default(), Arc::<Counted>::default());
    let record = CallRecord {
        step: 1,
        tool: "t".into(),
        args: serde_json::json!({"args": [], "kwargs": []}),
        result: serde_json::Value::Null,
        approval: None,
    };
    let module = lackpy_lang::parse("1").expect("parses");
    let mut req = RunRequest::new(
        Arc::new(module),
        tools(&t, &send, Gate::Open),
        std::env::temp_dir(),
    );
    req.journal = Some(Journal {
        replay: vec![record],
        sink: None,
    });
    let result = runtime().block_on(Bridge::default().run(req));
    assert_eq!(result.error_type.as_deref(), Some("ReplayDivergenceError"));
}
