//! Delegation through the service API, no network anywhere:
//!
//! * `tiers/template` and `tiers/rule`: `LackpyService::generate` answered
//!   by the templates tier (a folder of 8 templates, the last one matching)
//!   and by the rules tier — namespace, template files read and parsed,
//!   patterns, substitution, validation (goal: under 0.2 ms).
//! * `model/generate`: `generate` answered by an in-process model behind
//!   the same `ChatModel` trait as the HTTP client, whose answer is chatter
//!   and a fenced block with an import and `open()`: the tiers before it,
//!   the prompt, cleanup and validation — everything but the model's own
//!   time (the fake answers at once).
//! * `model/delegate`: the same, then the program validated again and run
//!   (one `read_file`), as `delegate` does (goal: under 1 ms).
//!
//! ```text
//! cargo bench -p lackpy-service --bench delegate
//! ```
//!
//! Measured (medians, 2 cores shared with other builds): `tiers/template`
//! 30 µs, `tiers/rule` 32 µs, `model/generate` 65 µs, `model/delegate`
//! 170 µs. Templates are parsed once per file version and keep their
//! compiled pattern (a cloned `Regex` starts with cold search caches: 150 µs
//! more per call before that).
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use criterion::Criterion;
use lackpy_service::delegate::{ChatModel, Message, ModelFuture, ModelSlot, ModelTier};
use lackpy_service::{Delegate, LackpyService, ServiceOptions};

const ANSWER: &str = "Sure! Here is the cell:\n\n```python\nimport os\ntext = open('notes.txt').read()\nwords = text.split()\n{'words': len(words), 'first': words[0]}\n```\nIt counts the words.";

/// A model that answers at once.
struct Instant;

impl ChatModel for Instant {
    fn complete<'a>(&'a self, _messages: &'a [Message], _temperature: f64) -> ModelFuture<'a> {
        Box::pin(async { Ok(ANSWER.to_string()) })
    }
}

fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "alpha beta gamma delta\n").unwrap();
    let templates = dir.path().join(".lackpy/templates");
    std::fs::create_dir_all(&templates).unwrap();
    for i in 0..7 {
        std::fs::write(
            templates.join(format!("t{i}.tmpl")),
            format!(
                "---\nname: t{i}\npattern: \"never matches {i} {{x}}\"\nsuccess_count: 0\nfail_count: 0\n---\nx = read_file('{{x}}')\nx\n"
            ),
        )
        .unwrap();
    }
    std::fs::write(
        templates.join("t9.tmpl"),
        "---\nname: words\npattern: \"count (?:the )?words in {path}\"\n---\ntext = read_file('{path}')\nlen(text.split())\n",
    )
    .unwrap();
    dir
}

fn request(intent: &str) -> Delegate {
    Delegate {
        intent: intent.to_string(),
        tools: Some(vec!["read_file".into(), "find_files".into()]),
        ..Delegate::default()
    }
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let ws = workspace();
    let service: LackpyService = rt
        .block_on(LackpyService::start(ServiceOptions {
            workspace: ws.path().to_path_buf(),
            models: vec![ModelSlot {
                name: "instant".into(),
                tier: Ok(ModelTier {
                    model: Arc::new(Instant),
                    temperature: 0.2,
                    retry_temperature: 0.6,
                    max_corrections: 2,
                }),
            }],
            ..ServiceOptions::default()
        }))
        .unwrap();

    // Each case answers as it should before it is timed.
    let template = request("count the words in notes.txt");
    let rule = request("read file notes.txt");
    let model = request("summarise notes.txt");
    for (r, tier) in [
        (&template, "templates"),
        (&rule, "rules"),
        (&model, "instant"),
    ] {
        let g = rt.block_on(service.generate(r)).unwrap();
        assert_eq!(g.provider.as_deref(), Some(tier), "{g:?}");
    }
    let d = rt.block_on(service.delegate(model.clone())).unwrap();
    assert!(d.success(), "{}", d.to_json());

    let mut c = Criterion::default().configure_from_args();
    let mut tiers = c.benchmark_group("tiers");
    tiers.bench_function("template", |b| {
        b.iter(|| rt.block_on(service.generate(&template)).unwrap())
    });
    tiers.bench_function("rule", |b| {
        b.iter(|| rt.block_on(service.generate(&rule)).unwrap())
    });
    tiers.finish();
    let mut m = c.benchmark_group("model");
    m.bench_function("generate", |b| {
        b.iter(|| rt.block_on(service.generate(&model)).unwrap())
    });
    m.bench_function("delegate", |b| {
        b.iter(|| rt.block_on(service.delegate(model.clone())).unwrap())
    });
    m.finish();
    c.final_summary();
    rt.block_on(service.shutdown());
}
