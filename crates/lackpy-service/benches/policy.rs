//! What policy and journals cost a run, through the service API.
//!
//! One program of 200 calls to an in-process tool that answers at once (so
//! the tool costs next to nothing and what is measured is lackpy's own
//! work per call), under four configurations:
//!
//! * `no_policy`: no `[policy]` (what every run cost before policies);
//! * `policy_no_gate`: a `[policy]` whose ceiling and approval line the tool
//!   is under: the namespace is checked, no call is gated, no journal;
//! * `journal_memory`: another tool of the namespace is gated, so the run
//!   keeps an in-memory journal of each call (the run never pauses);
//! * `journal_durable`: `RunProgram::journal`: each call's two lines are
//!   written and synced to disk before the program goes on;
//! * `journal_postgres` (only when `LACKPY_TEST_PG_URL` names a database,
//!   `scripts/start-test-postgres.sh`): the same in the PostgreSQL run
//!   store, each line one committed `INSERT`.
//!
//! The summary prints the median per call and each case's cost over
//! `no_policy`.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::Criterion;
use lackpy_lang::{Data, Grade};
use lackpy_service::{LackpyService, RunProgram, ServiceOptions};
use lackpy_sources::{ArgSpec, CallContext, Provider, Tool, ToolAnswer, ToolSpec};

const CALLS: usize = 200;

struct Inc;

impl Tool for Inc {
    fn call(&self, args: Vec<Data>, _kw: Vec<(String, Data)>, _ctx: &CallContext) -> ToolAnswer {
        match args.first() {
            Some(Data::Int(n)) => ToolAnswer::Ready(Ok(Data::Int(n + 1))),
            _ => ToolAnswer::Ready(Ok(Data::None)),
        }
    }
}

fn spec(name: &str, grade: Grade) -> ToolSpec {
    ToolSpec::new(name, Provider::Other("bench".into()))
        .with_arg(ArgSpec::new("n"))
        .with_grade(grade)
}

async fn service(config: &str) -> (LackpyService, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::create_dir_all(dir.path().join(".lackpy")).expect("dir");
    std::fs::write(dir.path().join(".lackpy/config.toml"), config).expect("config");
    let svc = LackpyService::start(ServiceOptions {
        workspace: dir.path().to_path_buf(),
        tools: vec![
            (
                spec("inc", Grade::new(1, 0)),
                Arc::new(Inc) as Arc<dyn Tool>,
            ),
            (
                spec("send", Grade::new(3, 3)),
                Arc::new(Inc) as Arc<dyn Tool>,
            ),
        ],
        ..ServiceOptions::default()
    })
    .await
    .expect("service");
    (svc, dir)
}

fn request(journal: bool) -> RunProgram {
    RunProgram {
        program: format!("n = 0\nfor i in range({CALLS}):\n    n = inc(n)\nn"),
        tools: Some(vec!["inc".into(), "send".into()]),
        journal,
        ..RunProgram::default()
    }
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime");
    let pg = std::env::var("LACKPY_TEST_PG_URL")
        .ok()
        .map(|url| format!("[runs]\nstore = \"{url}\"\n"));
    let mut cases: Vec<(&str, &str, bool)> = vec![
        ("no_policy", "", false),
        (
            "policy_no_gate",
            "[policy]\nmax_grade = { w = 3, d = 3 }\napprove_above = { w = 3, d = 3 }\n",
            false,
        ),
        (
            "journal_memory",
            "[policy]\napprove_tools = [\"send\"]\n",
            false,
        ),
        ("journal_durable", "", true),
    ];
    if let Some(config) = &pg {
        cases.push(("journal_postgres", config, true));
    }
    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group("policy_200_calls");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(4));
    let mut medians = Vec::new();
    for (name, config, journal) in cases {
        let (svc, _dir) = rt.block_on(service(config));
        let mut times = Vec::new();
        group.bench_function(name, |b| {
            b.iter(|| {
                let t = Instant::now();
                let r = rt.block_on(svc.run_program(request(journal))).expect("run");
                assert!(r.success, "{name}: {:?}", r.error);
                assert_eq!(r.trace.len(), CALLS);
                times.push(t.elapsed());
            })
        });
        times.sort();
        if let Some(m) = times.get(times.len() / 2) {
            medians.push((name, *m));
        }
        rt.block_on(svc.shutdown());
    }
    group.finish();
    let base = medians.first().map_or(Duration::ZERO, |(_, m)| *m);
    eprintln!(
        "\n{:<16} {:>12} {:>14}",
        "case", "per call", "over no_policy"
    );
    for (name, m) in &medians {
        let per = m.as_secs_f64() * 1e6 / CALLS as f64;
        let over = (m.as_secs_f64() - base.as_secs_f64()) * 1e6 / CALLS as f64;
        eprintln!("{name:<16} {per:>9.2} µs {over:>11.2} µs");
    }
}
