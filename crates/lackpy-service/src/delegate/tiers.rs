//! The tiers, tried in order until one yields a program that validates:
//! templates, rules, then each model. A model's invalid answer goes back to
//! it with the validator's errors, up to its `max_corrections` rounds (at
//! its `retry_temperature`); a model that cannot answer (unreachable, too
//! slow, an error status) ends its tier with the reason. When no tier
//! yields a program, the result says what each tier last said.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use lackpy_lang::{Rule, Validation};
use serde::Serialize;

use super::cleanup::cleanup;
use super::prompt::{self, Message, ParamInfo, Role, ToolLine};
use super::provider::ChatModel;
use super::{rules, templates};

/// The templates tier's name in results.
pub const TEMPLATES: &str = "templates";
/// The rules tier's name in results.
pub const RULES: &str = "rules";

/// A model tier: a chat model and how to sample it.
#[derive(Clone)]
pub struct ModelTier {
    /// The model.
    pub model: Arc<dyn ChatModel>,
    /// Temperature of the first answer.
    pub temperature: f64,
    /// Temperature of correction rounds.
    pub retry_temperature: f64,
    /// Correction rounds after an invalid first answer.
    pub max_corrections: u32,
}

/// A named model tier, or why it cannot be used.
#[derive(Clone)]
pub struct ModelSlot {
    /// The tier's name (`[inference.providers.<name>]`).
    pub name: String,
    /// The tier, or the reason it is unavailable.
    pub tier: Result<ModelTier, String>,
}

/// What to generate a program for.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// What the user wants.
    pub intent: &'a str,
    /// The namespace's tools, as the prompt shows them.
    pub tools: &'a [ToolLine],
    /// The params the program gets.
    pub params: &'a [ParamInfo],
    /// Extra validation rules.
    pub rules: &'a [Rule],
    /// The tools' signatures: a candidate's calls are checked against them.
    pub signatures: &'a [lackpy_lang::CallSignature],
}

/// A program that validates, and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// The program.
    pub program: String,
    /// The tier that wrote it (`templates`, `rules` or a provider's name).
    pub tier: String,
    /// The template file, when the templates tier wrote it.
    pub template: Option<PathBuf>,
}

/// What one tier last said when it gave no program.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct TierErrors {
    /// The tier.
    pub tier: String,
    /// Its last errors.
    pub errors: Vec<String>,
}

/// The outcome of generation.
#[derive(Debug, Clone, PartialEq)]
pub struct Generation {
    /// The program, when a tier yielded one.
    pub generated: Option<Generated>,
    /// What each tier that tried and failed before the one that wrote the
    /// program last said; when no tier wrote one, every tier, those that
    /// had nothing to try (no template or rule matched, a model
    /// unavailable) included.
    pub tier_errors: Vec<TierErrors>,
    /// Correction rounds: of the tier that yielded the program, else of
    /// every model tier.
    pub correction_attempts: u32,
    /// How long generation took.
    pub duration: Duration,
}

/// The tiers of one service.
#[derive(Clone)]
pub struct Generator {
    templates_dir: PathBuf,
    models: Vec<ModelSlot>,
}

/// A tier's verdict on one candidate program.
fn check(program: &str, request: &Request<'_>) -> Validation {
    if program.trim().is_empty() {
        return Validation::failed("the answer holds no code");
    }
    let mut allowed: Vec<&str> = request.tools.iter().map(|t| t.name.as_str()).collect();
    allowed.extend(request.params.iter().map(|p| p.name.as_str()));
    lackpy_lang::validate_with(program, &allowed, request.rules, request.signatures)
}

/// One model tier's outcome.
enum ModelOutcome {
    Program(String),
    Failed(Vec<String>),
}

impl Generator {
    /// Tiers reading templates from `templates_dir`, then `models` in order.
    pub fn new(templates_dir: PathBuf, models: Vec<ModelSlot>) -> Generator {
        Generator {
            templates_dir,
            models,
        }
    }

    /// The model tiers, in order.
    pub fn models(&self) -> &[ModelSlot] {
        &self.models
    }

    /// The templates folder.
    pub fn templates_dir(&self) -> &std::path::Path {
        &self.templates_dir
    }

    /// Tries every tier in order.
    pub async fn generate(&self, request: &Request<'_>) -> Generation {
        let started = Instant::now();
        let mut tier_errors = Vec::new();
        // Tiers with nothing to try: left out when another tier succeeds.
        let mut untried: Vec<String> = Vec::new();
        let done = |generated: Generated,
                    tier_errors: Vec<TierErrors>,
                    untried: Vec<String>,
                    corrections| Generation {
            generated: Some(generated),
            tier_errors: tier_errors
                .into_iter()
                .filter(|t| !untried.contains(&t.tier))
                .collect(),
            correction_attempts: corrections,
            duration: started.elapsed(),
        };
        match self.by_template(request) {
            Ok(g) => return done(g, tier_errors, untried, 0),
            Err((errors, tried)) => {
                if !tried {
                    untried.push(TEMPLATES.to_string());
                }
                tier_errors.push(TierErrors {
                    tier: TEMPLATES.to_string(),
                    errors,
                });
            }
        }
        match by_rule(request) {
            Ok(program) => {
                let g = Generated {
                    program,
                    tier: RULES.to_string(),
                    template: None,
                };
                return done(g, tier_errors, untried, 0);
            }
            Err((errors, tried)) => {
                if !tried {
                    untried.push(RULES.to_string());
                }
                tier_errors.push(TierErrors {
                    tier: RULES.to_string(),
                    errors,
                });
            }
        }
        let mut corrections_total = 0;
        let mut system: Option<String> = None;
        for slot in &self.models {
            let tier = match &slot.tier {
                Ok(t) => t,
                Err(why) => {
                    untried.push(slot.name.clone());
                    tier_errors.push(TierErrors {
                        tier: slot.name.clone(),
                        errors: vec![format!("unavailable: {why}")],
                    });
                    continue;
                }
            };
            let system =
                system.get_or_insert_with(|| prompt::system_prompt(request.tools, request.params));
            let asked = Instant::now();
            match tier.model.model_name() {
                "" => tracing::info!("asking {} …", slot.name),
                model => tracing::info!("asking {} ({model}) …", slot.name),
            }
            let (outcome, corrections) = converse(tier, system, request).await;
            tracing::info!(
                "{}: {} in {}{}",
                slot.name,
                match &outcome {
                    ModelOutcome::Program(_) => "a valid program",
                    ModelOutcome::Failed(_) => "no valid program",
                },
                seconds(asked.elapsed()),
                match corrections {
                    0 => String::new(),
                    1 => ", 1 correction".to_string(),
                    n => format!(", {n} corrections"),
                }
            );
            corrections_total += corrections;
            match outcome {
                ModelOutcome::Program(program) => {
                    let g = Generated {
                        program,
                        tier: slot.name.clone(),
                        template: None,
                    };
                    return done(g, tier_errors, untried, corrections);
                }
                ModelOutcome::Failed(errors) => tier_errors.push(TierErrors {
                    tier: slot.name.clone(),
                    errors,
                }),
            }
        }
        if self.models.is_empty() {
            tier_errors.push(TierErrors {
                tier: "model".to_string(),
                errors: vec![
                    "no model is configured: add an [inference.providers.<name>] table with base_url and model"
                        .to_string(),
                ],
            });
        }
        Generation {
            generated: None,
            tier_errors,
            correction_attempts: corrections_total,
            duration: started.elapsed(),
        }
    }

    /// The first template whose pattern matches the intent and whose
    /// program validates; else the errors, and whether any template was
    /// tried (matched, or a file could not be read).
    fn by_template(&self, request: &Request<'_>) -> Result<Generated, (Vec<String>, bool)> {
        let files = templates::load_dir(&self.templates_dir);
        let mut errors = Vec::new();
        let mut matched = false;
        for file in &files {
            let shown = file
                .path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let template = match &file.template {
                Ok(t) => t,
                Err(why) => {
                    errors.push(format!("{shown} is skipped: {why}"));
                    continue;
                }
            };
            let Some(captures) = template.captures(request.intent) else {
                continue;
            };
            matched = true;
            let program = match template.instantiate(&captures) {
                Ok(p) => p,
                Err(why) => {
                    errors.push(format!("template '{}' ({shown}): {why}", template.name));
                    continue;
                }
            };
            let v = check(&program, request);
            if v.valid {
                return Ok(Generated {
                    program,
                    tier: TEMPLATES.to_string(),
                    template: Some(file.path.clone()),
                });
            }
            errors.push(format!(
                "template '{}' ({shown}): {}",
                template.name,
                v.errors.join("; ")
            ));
        }
        let tried = matched || !errors.is_empty();
        if !matched {
            errors.insert(
                0,
                if files.is_empty() {
                    format!("no templates in {}", self.templates_dir.display())
                } else {
                    "no template matches the intent".to_string()
                },
            );
        }
        Err((errors, tried))
    }
}

/// The rules tier: a program for the intent, when a rule matches and its
/// program validates; else the errors, and whether a rule matched.
fn by_rule(request: &Request<'_>) -> Result<String, (Vec<String>, bool)> {
    let has_tool = |name: &str| request.tools.iter().any(|t| t.name == name);
    let Some(program) = rules::program_for(request.intent, has_tool) else {
        return Err((vec!["no rule matches the intent".to_string()], false));
    };
    let v = check(&program, request);
    if v.valid {
        Ok(program)
    } else {
        Err((v.errors, true))
    }
}

/// A duration for a progress line: `0.4 s`.
fn seconds(d: Duration) -> String {
    format!("{:.1} s", d.as_secs_f64())
}

/// Asks one model, correcting invalid answers: the outcome and how many
/// correction rounds were sent.
async fn converse(tier: &ModelTier, system: &str, request: &Request<'_>) -> (ModelOutcome, u32) {
    let mut messages: Vec<Message> = prompt::opening(system, request.intent);
    let mut temperature = tier.temperature;
    let mut corrections = 0;
    loop {
        let answer = match tier.model.complete(&messages, temperature).await {
            Ok(a) => a,
            Err(e) => return (ModelOutcome::Failed(vec![e.to_string()]), corrections),
        };
        let program = cleanup(&answer);
        let v = check(&program, request);
        if v.valid {
            return (ModelOutcome::Program(program), corrections);
        }
        if corrections >= tier.max_corrections {
            return (ModelOutcome::Failed(v.errors), corrections);
        }
        // The cleaned program is what the errors are about (their lines).
        messages.push(Message::new(Role::Assistant, program));
        messages.push(Message::new(Role::User, prompt::correction(&v.errors)));
        temperature = tier.retry_temperature;
        corrections += 1;
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::delegate::provider::{ModelError, ModelFuture};

    /// Replays answers and records each conversation it was sent.
    struct Scripted {
        answers: Mutex<Vec<Result<String, ModelError>>>,
        seen: Mutex<Vec<(Vec<Message>, f64)>>,
    }

    impl Scripted {
        fn new(answers: Vec<Result<&str, ModelError>>) -> Arc<Scripted> {
            Arc::new(Scripted {
                answers: Mutex::new(
                    answers
                        .into_iter()
                        .rev()
                        .map(|a| a.map(String::from))
                        .collect(),
                ),
                seen: Mutex::new(Vec::new()),
            })
        }
        fn seen(&self) -> Vec<(Vec<Message>, f64)> {
            self.seen.lock().map(|s| s.clone()).unwrap_or_default()
        }
    }

    impl ChatModel for Scripted {
        fn complete<'a>(&'a self, messages: &'a [Message], temperature: f64) -> ModelFuture<'a> {
            if let Ok(mut s) = self.seen.lock() {
                s.push((messages.to_vec(), temperature));
            }
            let next = self
                .answers
                .lock()
                .ok()
                .and_then(|mut a| a.pop())
                .unwrap_or_else(|| Err(ModelError::Other("no more answers".into())));
            Box::pin(async move { next })
        }
    }

    fn slot(name: &str, model: Arc<Scripted>, max_corrections: u32) -> ModelSlot {
        ModelSlot {
            name: name.into(),
            tier: Ok(ModelTier {
                model,
                temperature: 0.2,
                retry_temperature: 0.6,
                max_corrections,
            }),
        }
    }

    fn read_file_line() -> Vec<ToolLine> {
        vec![ToolLine {
            name: "read_file".into(),
            args: vec!["path".into()],
            returns: "str".into(),
            description: "Read a file".into(),
        }]
    }

    #[test]
    fn a_candidate_is_checked_against_the_tools_signatures() {
        let tools = read_file_line();
        let sigs = [lackpy_lang::CallSignature::new(
            "read_file",
            vec![lackpy_lang::ParamSig::new("path", "str", true)],
        )];
        let mut r = request("read it", &tools);
        r.signatures = &sigs;
        let v = check("text = read_file(pth='a.txt')", &r);
        assert_eq!(
            v.errors,
            ["read_file() got an unexpected keyword argument 'pth'. Did you mean 'path'? (line 1)"]
        );
        assert!(check("read_file('a.txt')", &r).valid);
    }

    fn request<'a>(intent: &'a str, tools: &'a [ToolLine]) -> Request<'a> {
        Request {
            intent,
            tools,
            params: &[],
            rules: &[],
            signatures: &[],
        }
    }

    fn generator(models: Vec<ModelSlot>) -> (tempfile::TempDir, Generator) {
        let dir = tempfile::tempdir().expect("tmp");
        let g = Generator::new(dir.path().join("templates"), models);
        (dir, g)
    }

    #[tokio::test]
    async fn invalid_answers_go_back_with_the_errors_at_the_retry_temperature() {
        let model = Scripted::new(vec![
            Ok("while True:\n    x = 1"),
            Ok("```\nx = read_file('a')\nx\n```"),
        ]);
        let (_d, g) = generator(vec![slot("local", model.clone(), 2)]);
        let tools = read_file_line();
        let out = g.generate(&request("summarise a", &tools)).await;
        let generated = out.generated.expect("a program");
        assert_eq!(generated.program, "x = read_file('a')\nx");
        assert_eq!(generated.tier, "local");
        assert_eq!(out.correction_attempts, 1);
        let seen = model.seen();
        assert_eq!(seen.len(), 2);
        assert_eq!((seen[0].1, seen[1].1), (0.2, 0.6));
        let second = &seen[1].0;
        assert_eq!(second.len(), 4);
        assert_eq!(second[2].role, Role::Assistant);
        assert_eq!(second[2].content, "while True:\n    x = 1");
        assert!(second[3].content.contains("While"), "{}", second[3].content);
    }

    #[tokio::test]
    async fn every_tier_failing_says_what_each_last_said() {
        let bad = Scripted::new(vec![
            Ok("import os"),
            Ok("def f(): pass"),
            Ok("class A: pass"),
        ]);
        let down = Scripted::new(vec![Err(ModelError::Unreachable {
            url: "http://127.0.0.1:9/v1/chat/completions".into(),
            reason: "Connection refused".into(),
        })]);
        let (_d, g) = generator(vec![
            slot("bad", bad.clone(), 2),
            ModelSlot {
                name: "broken".into(),
                tier: Err("`model` is missing".into()),
            },
            slot("down", down, 2),
        ]);
        let tools = read_file_line();
        let out = g.generate(&request("do the thing", &tools)).await;
        assert!(out.generated.is_none());
        assert_eq!(out.correction_attempts, 2);
        assert_eq!(
            bad.seen().len(),
            3,
            "bounded: one answer and two corrections"
        );
        let tiers: Vec<&str> = out.tier_errors.iter().map(|t| t.tier.as_str()).collect();
        assert_eq!(tiers, ["templates", "rules", "bad", "broken", "down"]);
        assert!(
            out.tier_errors[2].errors[0].contains("ClassDef"),
            "{:?}",
            out.tier_errors[2]
        );
        assert_eq!(
            out.tier_errors[3].errors,
            ["unavailable: `model` is missing"]
        );
        assert!(out.tier_errors[4].errors[0].contains("Connection refused"));
    }

    #[tokio::test]
    async fn templates_then_rules_answer_without_a_model() {
        let model = Scripted::new(vec![]);
        let (dir, g) = generator(vec![slot("local", model.clone(), 2)]);
        let tools = read_file_line();
        let out = g.generate(&request("read file notes.txt", &tools)).await;
        assert_eq!(out.generated.map(|g| g.tier).as_deref(), Some("rules"));
        std::fs::create_dir_all(dir.path().join("templates")).expect("mkdir");
        std::fs::write(
            dir.path().join("templates/show.tmpl"),
            "---\nname: show\npattern: \"show {path}\"\n---\nt = read_file('{path}')\nt\n",
        )
        .expect("write");
        let out = g.generate(&request("please show notes.txt", &tools)).await;
        let generated = out.generated.expect("a program");
        assert_eq!(generated.tier, "templates");
        assert_eq!(generated.program, "t = read_file('notes.txt')\nt");
        assert!(model.seen().is_empty(), "no model was asked");
        // Without the tool the template's program does not validate, and
        // no model answers: every tier says why.
        let out = g.generate(&request("please show notes.txt", &[])).await;
        assert!(out.generated.is_none());
        assert!(
            out.tier_errors[0].errors[0].contains("template 'show'"),
            "{:?}",
            out.tier_errors
        );
    }

    #[tokio::test]
    async fn only_tiers_that_tried_and_failed_are_listed_on_success() {
        // No templates, no matching rule: the model writes the program,
        // and neither "no templates" nor "no rule matches" is reported.
        let model = Scripted::new(vec![
            Ok("x = read_file('a')\nx"),
            Ok("x = read_file('b')\nx"),
        ]);
        let (dir, g) = generator(vec![slot("local", model.clone(), 2)]);
        let tools = read_file_line();
        let out = g.generate(&request("summarise a", &tools)).await;
        assert_eq!(out.generated.map(|g| g.tier).as_deref(), Some("local"));
        assert!(out.tier_errors.is_empty(), "{:?}", out.tier_errors);
        // A template that matched but does not validate did try and fail.
        std::fs::create_dir_all(dir.path().join("templates")).expect("mkdir");
        std::fs::write(
            dir.path().join("templates/show.tmpl"),
            "---\nname: show\npattern: \"summarise {path}\"\n---\nt = nope('{path}')\nt\n",
        )
        .expect("write");
        let out = g.generate(&request("summarise b", &tools)).await;
        assert_eq!(out.generated.map(|g| g.tier).as_deref(), Some("local"));
        let tiers: Vec<&str> = out.tier_errors.iter().map(|t| t.tier.as_str()).collect();
        assert_eq!(tiers, ["templates"], "{:?}", out.tier_errors);
    }
}
