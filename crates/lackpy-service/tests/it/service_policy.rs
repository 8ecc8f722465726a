//! Policy through the service API: ceilings, approval gates, profile
//! limits and rules, and paused runs resumed by another service instance
//! (as another process would), with real files and journals.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use lackpy_bridge::{Answer, AnswerFuture, ApprovalRequest, Approver, Decision};
use lackpy_lang::{Data, Grade, JsonText};
use lackpy_service::runs::RunError;
use lackpy_service::{
    ApproverHandle, LackpyService, Resume, RunProgram, ServiceError, ServiceOptions,
};
use lackpy_sources::{ArgSpec, CallContext, Provider, Tool, ToolAnswer, ToolSpec};

/// Counts its calls; optionally sleeps on the runtime first.
struct Counter {
    calls: Arc<AtomicUsize>,
    delay: Duration,
}

impl Tool for Counter {
    fn call(&self, args: Vec<Data>, _kw: Vec<(String, Data)>, _ctx: &CallContext) -> ToolAnswer {
        let calls = Arc::clone(&self.calls);
        let delay = self.delay;
        ToolAnswer::Pending(Box::pin(async move {
            tokio::time::sleep(delay).await;
            let n = calls.fetch_add(1, Ordering::SeqCst) + 1;
            Ok(Data::List(vec![
                Data::Int(n.into()),
                args.into_iter().next().unwrap_or(Data::None),
            ]))
        }))
    }
}

struct Tools {
    read: Arc<AtomicUsize>,
    send: Arc<AtomicUsize>,
}

fn spec(name: &str, grade: Grade) -> ToolSpec {
    ToolSpec::new(name, Provider::Other("test".into()))
        .with_arg(ArgSpec::new("x"))
        .with_grade(grade)
        .with_description(format!("{name} things"))
}

async fn service(ws: &Path, config: &str, send_delay: Duration) -> (LackpyService, Tools) {
    std::fs::create_dir_all(ws.join(".lackpy")).expect("dir");
    std::fs::write(ws.join(".lackpy/config.toml"), config).expect("config");
    let tools = Tools {
        read: Arc::default(),
        send: Arc::default(),
    };
    let read: Arc<dyn Tool> = Arc::new(Counter {
        calls: Arc::clone(&tools.read),
        delay: Duration::ZERO,
    });
    let send: Arc<dyn Tool> = Arc::new(Counter {
        calls: Arc::clone(&tools.send),
        delay: send_delay,
    });
    let svc = LackpyService::start(ServiceOptions {
        workspace: ws.to_path_buf(),
        tools: vec![
            (spec("fetch", Grade::new(1, 0)), read),
            (spec("send", Grade::new(3, 3)), send),
        ],
        ..ServiceOptions::default()
    })
    .await
    .expect("service starts");
    (svc, tools)
}

const GATED: &str = "[policy]\napprove_above = { w = 2, d = 1 }\n";
const PROGRAM: &str = "a = fetch('one')\nb = send(a[1] + '!')\nc = fetch('two')\n[a, b, c]";

fn run(program: &str) -> RunProgram {
    RunProgram {
        program: program.to_string(),
        tools: Some(vec!["fetch".into(), "send".into()]),
        ..RunProgram::default()
    }
}

/// Answers every request with one decision and remembers what it was asked.
struct Fixed(Decision, Mutex<Vec<ApprovalRequest>>);

impl Approver for Fixed {
    fn decide(&self, request: ApprovalRequest) -> AnswerFuture {
        if let Ok(mut seen) = self.1.lock() {
            seen.push(request);
        }
        let d = self.0;
        Box::pin(async move { Answer::new(d, "api") })
    }
}

fn journals(ws: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(ws.join(".lackpy/runs"))
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_over_a_ceiling_is_out_of_the_namespace() {
    let dir = tempfile::tempdir().expect("tmp");
    let config = "[policy]\nmax_grade = { w = 3, d = 3 }\n\
                  [profiles.reader]\ntools = [\"fetch\", \"send\"]\n\
                  policy = { max_grade = { w = 1, d = 0 } }\n";
    let (svc, tools) = service(dir.path(), config, Duration::ZERO).await;
    let ns = svc.namespace(None, Some("reader")).expect("profile");
    assert_eq!(ns.names(), ["fetch"]);
    let info = svc.profile_info(Some("reader")).expect("info");
    assert!(!info.description.contains("send"), "{}", info.description);
    let result = svc
        .run_program(RunProgram {
            program: "send('x')".into(),
            profile: Some("reader".into()),
            ..RunProgram::default()
        })
        .await
        .expect("runs");
    assert_eq!(result.error_type.as_deref(), Some("ValidationError"));
    assert_eq!((result.error_line, result.error_column), (Some(1), Some(1)));
    insta::assert_snapshot!(result.outcome.error.unwrap_or_default(), @"Validation failed: Tool 'send' has grade (3, 3), above the policy ceiling (1, 0) of profile 'reader' (line 1)");
    // The explained error keeps its place, and its diagnostic its text.
    let report = svc
        .validate_report(
            "x = 1
if x:
    send('x')
",
            None,
            Some("reader"),
            &[],
            &[],
        )
        .expect("report");
    let d = &report.validation.diagnostics;
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].message, report.validation.errors[0]);
    assert!(d[0].message.starts_with("Tool 'send' has grade"), "{d:?}");
    assert_eq!((d[0].line, d[0].column), (Some(3), Some(5)));
    assert_eq!(tools.send.load(Ordering::SeqCst), 0);
    let listing = serde_json::to_value(svc.tool_list(Some("reader")).expect("listing"))
        .expect("a listing is JSON");
    let send = listing["tools"]
        .as_array()
        .and_then(|t| t.iter().find(|t| t["name"] == "send"))
        .expect("send listed");
    assert_eq!(send["policy"]["state"], "over the ceiling");
    assert_eq!(send["policy"]["rule"], "profile 'reader' max_grade (1, 0)");
    svc.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn profile_limits_and_rules_bind_and_a_caller_only_tightens() {
    let dir = tempfile::tempdir().expect("tmp");
    let config = "[profiles.quick]\ntools = [\"fetch\"]\nlimits = { timeout_ms = 300 }\n\
                  [profiles.flat]\ntools = [\"fetch\"]\nrules = [\"no_loops\"]\n";
    let (svc, _) = service(dir.path(), config, Duration::ZERO).await;
    let forever = "n = 0\nfor i in range(1000000000000):\n    n += 1\n";
    let started = Instant::now();
    let result = svc
        .run_program(RunProgram {
            program: forever.into(),
            profile: Some("quick".into()),
            timeout: Some(Duration::from_secs(30)),
            ..RunProgram::default()
        })
        .await
        .expect("runs");
    assert_eq!(result.error_type.as_deref(), Some("TimeoutError"));
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "the profile's 300 ms bound"
    );
    let result = svc
        .run_program(RunProgram {
            program: "for x in fetch('a'):\n    x\n".into(),
            profile: Some("flat".into()),
            ..RunProgram::default()
        })
        .await
        .expect("runs");
    assert_eq!(result.error_type.as_deref(), Some("ValidationError"));
    assert!(result.outcome.error.unwrap_or_default().contains("loop"));
    svc.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_api_approver_decides_each_gated_call() {
    let dir = tempfile::tempdir().expect("tmp");
    let (svc, tools) = service(dir.path(), GATED, Duration::ZERO).await;
    let yes = Arc::new(Fixed(Decision::Approve, Mutex::default()));
    let mut req = run(PROGRAM);
    req.approver = Some(ApproverHandle(yes.clone()));
    let result = svc.run_program(req).await.expect("runs");
    assert!(result.success, "{:?}", result.error);
    assert_eq!(result.trace[1].approval.as_deref(), Some("api"));
    assert_eq!(yes.1.lock().expect("lock")[0].provenance, "direct");
    assert_eq!(tools.send.load(Ordering::SeqCst), 1);
    // A run that never paused leaves no journal.
    assert!(journals(dir.path()).is_empty());

    let mut req = run(PROGRAM);
    req.approver = Some(ApproverHandle::new(Fixed(Decision::Deny, Mutex::default())));
    let result = svc.run_program(req).await.expect("runs");
    assert_eq!(result.error_type.as_deref(), Some("PermissionError"));
    assert_eq!(
        tools.send.load(Ordering::SeqCst),
        1,
        "a refused call never happens"
    );
    let report = svc
        .validate_report(
            PROGRAM,
            Some(&["fetch".into(), "send".into()]),
            None,
            &[],
            &[],
        )
        .expect("report");
    assert_eq!(report.grade, Grade::new(3, 3));
    assert_eq!(report.needs_approval.len(), 1);
    assert_eq!(report.needs_approval[0].tool, "send");
    assert_eq!(
        report.needs_approval[0].rule,
        "[policy] approve_above (2, 1)"
    );
    svc.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paused_run_is_resumed_by_another_service_without_repeating_calls() {
    let dir = tempfile::tempdir().expect("tmp");
    let (first, tools) = service(dir.path(), GATED, Duration::ZERO).await;
    let paused = first.run_program(run(PROGRAM)).await.expect("runs");
    assert_eq!(paused.error_type.as_deref(), Some("ApprovalRequired"));
    let p = paused.paused.clone().expect("paused");
    assert_eq!((p.step, p.tool.as_str()), (1, "send"));
    assert!(p.expires_at.ends_with('Z'), "{}", p.expires_at);
    assert_eq!(journals(dir.path()), [format!("{}.jsonl", p.run_id)]);
    assert_eq!(first.runs()[0].state, "paused");
    assert_eq!(
        (
            tools.read.load(Ordering::SeqCst),
            tools.send.load(Ordering::SeqCst)
        ),
        (1, 0)
    );
    first.shutdown().await;

    // A new service (another process, later) resumes it.
    let (second, tools2) = service(dir.path(), GATED, Duration::ZERO).await;
    let missing = second
        .resume(Resume {
            run_id: p.run_id.clone(),
            ..Resume::default()
        })
        .await;
    assert!(matches!(
        missing,
        Err(ServiceError::Run(RunError::NeedsDecision(_)))
    ));
    let result = second
        .resume(Resume {
            run_id: p.run_id.clone(),
            approve: Some(true),
            by: "flag".into(),
            ..Resume::default()
        })
        .await
        .expect("resumes");
    assert!(result.success, "{:?}", result.error);
    // Step 0 came from the journal; steps 1 and 2 ran here, once each.
    assert_eq!(
        (
            tools2.read.load(Ordering::SeqCst),
            tools2.send.load(Ordering::SeqCst)
        ),
        (1, 1)
    );
    let replayed: Vec<bool> = result.trace.iter().map(|e| e.replayed).collect();
    assert_eq!(replayed, [true, false, false]);
    assert_eq!(result.trace[1].approval.as_deref(), Some("flag"));
    assert_eq!(
        result.output.as_ref().map(JsonText::as_str),
        // This service's `fetch` counted one call: the first came from the
        // journal.
        Some(r#"[[1, "one"], [1, "one!"], [1, "two"]]"#)
    );
    // Finished: nothing left to resume.
    assert!(journals(dir.path()).is_empty());
    let again = second
        .resume(Resume {
            run_id: p.run_id.clone(),
            approve: Some(true),
            ..Resume::default()
        })
        .await;
    assert!(matches!(
        again,
        Err(ServiceError::Run(RunError::NotFound(_)))
    ));
    second.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_resumes_of_one_run_one_runs_the_other_is_busy() {
    let dir = tempfile::tempdir().expect("tmp");
    let (svc, tools) = service(dir.path(), GATED, Duration::from_millis(800)).await;
    let paused = svc.run_program(run(PROGRAM)).await.expect("runs");
    let id = paused.paused.expect("paused").run_id;
    let resume = || {
        svc.resume(Resume {
            run_id: id.clone(),
            approve: Some(true),
            ..Resume::default()
        })
    };
    let (a, b) = tokio::join!(resume(), resume());
    let (a, b) = (a.expect("a"), b.expect("b"));
    let kinds = [a.error_type.clone(), b.error_type.clone()];
    assert!(
        kinds.contains(&None) && kinds.contains(&Some("Busy".to_string())),
        "{kinds:?}"
    );
    assert_eq!(tools.send.load(Ordering::SeqCst), 1);
    svc.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resume_under_changed_tools_calls_nothing_and_keeps_the_journal() {
    let dir = tempfile::tempdir().expect("tmp");
    let (svc, _) = service(dir.path(), GATED, Duration::ZERO).await;
    let id = svc
        .run_program(run(PROGRAM))
        .await
        .expect("runs")
        .paused
        .expect("paused")
        .run_id;
    svc.shutdown().await;
    // The same names, but `fetch` now comes with another grade.
    std::fs::write(dir.path().join(".lackpy/config.toml"), GATED).expect("config");
    let read = Arc::new(AtomicUsize::new(0));
    let changed = LackpyService::start(ServiceOptions {
        workspace: dir.path().to_path_buf(),
        tools: vec![
            (
                spec("fetch", Grade::new(2, 0)),
                Arc::new(Counter {
                    calls: Arc::clone(&read),
                    delay: Duration::ZERO,
                }) as Arc<dyn Tool>,
            ),
            (
                spec("send", Grade::new(3, 3)),
                Arc::new(Counter {
                    calls: Arc::clone(&read),
                    delay: Duration::ZERO,
                }) as Arc<dyn Tool>,
            ),
        ],
        ..ServiceOptions::default()
    })
    .await
    .expect("starts");
    let result = changed
        .resume(Resume {
            run_id: id.clone(),
            approve: Some(true),
            ..Resume::default()
        })
        .await
        .expect("an answer");
    assert_eq!(result.error_type.as_deref(), Some("ReplayDivergenceError"));
    assert_eq!(read.load(Ordering::SeqCst), 0);
    assert_eq!(journals(dir.path()), [format!("{id}.jsonl")]);
    changed.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_corrupt_and_expired_runs_are_errors_naming_the_run() {
    let dir = tempfile::tempdir().expect("tmp");
    let (svc, _) = service(dir.path(), "[runs]\nkeep_hours = 1\n", Duration::ZERO).await;
    let resume = |id: &str| {
        svc.resume(Resume {
            run_id: id.to_string(),
            approve: Some(true),
            ..Resume::default()
        })
    };
    for id in [
        "r0000000000000000",
        "../../etc/passwd",
        "",
        "r000000000000000G",
    ] {
        let e = resume(id)
            .await
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(e.starts_with("no resumable run"), "{id}: {e}");
    }
    let runs = dir.path().join(".lackpy/runs");
    std::fs::create_dir_all(&runs).expect("dir");
    std::fs::write(
        runs.join("r00000000000000aa.jsonl"),
        "{\"kind\": \"nonsense\"}\n",
    )
    .expect("w");
    let e = resume("r00000000000000aa")
        .await
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    insta::assert_snapshot!(e, @"run 'r00000000000000aa' cannot be resumed: its journal is corrupt (line 1: unknown variant `nonsense`, expected one of `run`, `begin`, `call`, `paused`, `resumed` at line 1 column 19)");
    // A journal last written two hours ago, kept one hour.
    let old = runs.join("r00000000000000bb.jsonl");
    std::fs::write(&old, "").expect("w");
    let f = std::fs::File::options()
        .write(true)
        .open(&old)
        .expect("open");
    f.set_modified(std::time::SystemTime::now() - Duration::from_secs(7200))
        .expect("mtime");
    let e = resume("r00000000000000bb")
        .await
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        e.starts_with("run 'r00000000000000bb' has expired") && e.contains("kept 1 hours"),
        "{e}"
    );
    let states: Vec<(String, String)> = svc
        .runs()
        .into_iter()
        .map(|r| (r.run_id, r.state))
        .collect();
    assert!(
        states.contains(&("r00000000000000aa".into(), "corrupt".into())),
        "{states:?}"
    );
    assert!(
        states.contains(&("r00000000000000bb".into(), "corrupt".into()))
            || states.contains(&("r00000000000000bb".into(), "expired".into())),
        "{states:?}"
    );
    svc.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_durable_journal_is_capped() {
    let dir = tempfile::tempdir().expect("tmp");
    let (svc, _) = service(dir.path(), "[runs]\nmax_journal_mb = 1\n", Duration::ZERO).await;
    let mut req = run("big = 'x' * 2000000\nfetch(big)\n");
    req.journal = true;
    let result = svc.run_program(req).await.expect("runs");
    assert_eq!(result.error_type.as_deref(), Some("JournalError"));
    assert!(
        result
            .outcome
            .error
            .unwrap_or_default()
            .contains("max_journal_mb"),
        "the error names the cap"
    );
    svc.shutdown().await;
}
