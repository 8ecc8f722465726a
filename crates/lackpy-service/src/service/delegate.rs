//! `generate` and `delegate`: an intent, the namespace and the params go to
//! the tiers ([`crate::delegate`]); `delegate` then runs the program exactly
//! as `run_program` runs it (same namespace, params, rules, limits, trace)
//! and, when a template wrote it, counts the outcome in the template file.

use std::sync::Arc;
use std::time::{Duration, Instant};

use lackpy_lang::{Data, Rule, Teardown, Variables, compute_grade};
use lackpy_sources::ArgSpec;
use serde::Serialize;

use super::{LackpyService, RunProgram, ServiceError};
use crate::delegate::providers_config::{self, ProviderEntry};
use crate::delegate::{
    DelegateResult, GenerateResult, Generation, ModelSlot, ModelTier, OpenAiCompatible, ParamInfo,
    Reachability, Request, ToolLine, not_generated_error, templates,
};

/// One `delegate` or `generate` call.
#[derive(Debug, Clone, Default)]
pub struct Delegate {
    /// What the user wants, in words.
    pub intent: String,
    /// Exactly these tools (overrides `profile`).
    pub tools: Option<Vec<String>>,
    /// A named profile.
    pub profile: Option<String>,
    /// Params, in order; a `{"value": v, "type"?: t, "description"?: d}`
    /// dict gives `v` and describes it to the model.
    pub params: Vec<(String, Data)>,
    /// Extra validation rules (generation and run).
    pub rules: Vec<Rule>,
    /// Wall-clock limit of the run, over the service default.
    pub timeout: Option<Duration>,
    /// Who approves the run's gated calls; `None`: a gated call pauses
    /// the run.
    pub approver: Option<super::ApproverHandle>,
    /// How the caller stops the delegation (a model being asked included)
    /// and hears of its run's calls.
    pub control: super::RunControl,
}

/// A configured model tier as `lackpy status` shows it: no secrets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProviderStatus {
    /// The tier's name.
    pub name: String,
    /// The endpoint's base URL, without credentials.
    pub base_url: Option<String>,
    /// The model asked for.
    pub model: Option<String>,
    /// The variable the API key is read from (never its value).
    pub api_key_env: Option<String>,
    /// Whether the tier can be used at all.
    pub available: bool,
    /// Whether it answered just now (`None` when not asked).
    pub reachable: Option<bool>,
    /// Why it is unavailable or unreachable.
    pub reason: Option<String>,
}

/// The model tiers of a service and what status shows of them.
pub(super) struct Models {
    /// The tiers, in order.
    pub slots: Vec<ModelSlot>,
    /// The configured endpoints, for status and probes.
    pub endpoints: Vec<(ProviderEntry, Option<Arc<OpenAiCompatible>>)>,
}

/// The tiers of `[inference]`, then the ones given in code.
pub(super) fn models(
    inference: &lackpy_sources::InferenceSection,
    extra: Vec<ModelSlot>,
) -> Models {
    let mut slots = Vec::new();
    let mut endpoints = Vec::new();
    for entry in providers_config::read(inference) {
        let client = entry
            .settings
            .clone()
            .and_then(|s| OpenAiCompatible::new(s).map(Arc::new));
        let tier = client.clone().map(|c| {
            let s = c.settings();
            ModelTier {
                temperature: s.temperature,
                retry_temperature: s.retry_temperature,
                max_corrections: s.max_corrections,
                model: c as Arc<dyn crate::delegate::ChatModel>,
            }
        });
        slots.push(ModelSlot {
            name: entry.name.clone(),
            tier,
        });
        endpoints.push((entry, client.ok()));
    }
    slots.extend(extra);
    Models { slots, endpoints }
}

/// What the tiers need from a call: the namespace's prompt lines and the
/// params.
struct Prepared {
    tools: Vec<ToolLine>,
    signatures: Vec<lackpy_lang::CallSignature>,
    params: Vec<ParamInfo>,
    grade: lackpy_lang::Grade,
}

impl LackpyService {
    fn prepare(&self, request: &Delegate) -> Result<Prepared, ServiceError> {
        if request.intent.trim().is_empty() {
            return Err(ServiceError::EmptyIntent);
        }
        let ns = self.namespace(request.tools.as_deref(), request.profile.as_deref())?;
        let toolbox = &self.toolbox;
        let tools: Vec<ToolLine> = ns
            .entries
            .iter()
            .filter_map(|(called, name)| {
                let spec = toolbox.spec(name)?;
                Some(ToolLine {
                    name: called.clone(),
                    // Typed, as every other place shows a tool
                    // (`ArgSpec::parameter`: `unit: Literal['c', 'f'] = 'c'`).
                    args: spec.args.iter().map(ArgSpec::parameter).collect(),
                    returns: spec.returns.clone(),
                    description: spec.description.clone(),
                })
            })
            .collect();
        let grade = compute_grade(
            ns.entries
                .iter()
                .filter_map(|(_, name)| toolbox.spec(name).map(|s| s.grade)),
        );
        let params = request
            .params
            .iter()
            .map(|(k, v)| ParamInfo::from_call(k.clone(), v.clone()))
            .collect();
        let signatures = super::signatures::of_namespace(toolbox, &ns);
        Ok(Prepared {
            tools,
            signatures,
            params,
            grade,
        })
    }

    async fn generation(&self, request: &Delegate, prepared: &Prepared) -> Generation {
        self.inner
            .generator
            .generate(&Request {
                intent: &request.intent,
                tools: &prepared.tools,
                params: &prepared.params,
                rules: &request.rules,
                signatures: &prepared.signatures,
            })
            .await
    }

    /// A program for the intent, without running it. No program is a
    /// result (`success: false` with each tier's errors), not an error.
    pub async fn generate(&self, request: &Delegate) -> Result<GenerateResult, ServiceError> {
        let prepared = self.prepare(request)?;
        let g = self.generation(request, &prepared).await;
        let generation_time_ms = g.duration.as_secs_f64() * 1000.0;
        Ok(match g.generated {
            Some(generated) => GenerateResult {
                success: true,
                program: Some(generated.program),
                provider: Some(generated.tier),
                generation_time_ms,
                correction_attempts: g.correction_attempts,
                error: None,
                generation_errors: g.tier_errors,
                template: generated.template,
            },
            None => GenerateResult {
                success: false,
                program: None,
                provider: None,
                generation_time_ms,
                correction_attempts: g.correction_attempts,
                error: Some(not_generated_error(&g.tier_errors)),
                generation_errors: g.tier_errors,
                template: None,
            },
        })
    }

    /// Generates a program for the intent and runs it; the request's
    /// [`RunControl`](super::RunControl) can stop both.
    pub async fn delegate(&self, mut request: Delegate) -> Result<DelegateResult, ServiceError> {
        let started = Instant::now();
        // One token for the generation and the run.
        let cancel = request.control.token();
        request.control.cancel = Some(cancel.clone());
        let prepared = self.prepare(&request)?;
        // A model may take long: a cancel stops waiting for it (the request
        // is dropped, which closes its connection).
        let g = tokio::select! {
            g = self.generation(&request, &prepared) => g,
            () = cancel.cancelled() => {
                return Ok(DelegateResult::cancelled(prepared.grade, started.elapsed()));
            }
        };
        let Some(generated) = g.generated else {
            return Ok(DelegateResult::not_generated(
                prepared.grade,
                g.tier_errors,
                g.correction_attempts,
                g.duration,
                started.elapsed(),
            ));
        };
        let run = RunProgram {
            program: generated.program.clone(),
            tools: request.tools,
            profile: request.profile,
            params: prepared
                .params
                .into_iter()
                .map(|p| (p.name, p.value))
                .collect(),
            rules: request.rules,
            timeout: request.timeout,
            max_trace_entries: None,
            // The delegate result shows the run's variables.
            variables: Variables::Collect,
            // The service keeps running after this run.
            teardown: Teardown::Free,
            output_value: false,
            approver: request.approver.clone(),
            journal: false,
            control: request.control,
        };
        let run = self.run_program(run).await?;
        if let Some(path) = generated.template {
            let success = run.success;
            let recorded =
                tokio::task::spawn_blocking(move || templates::record_outcome(&path, success))
                    .await;
            match recorded {
                Ok(Ok(())) => {}
                Ok(Err(e)) => tracing::warn!("template outcome not recorded: {e}"),
                Err(e) => tracing::warn!("template outcome not recorded: {e}"),
            }
        }
        Ok(DelegateResult::ran(
            generated.program,
            generated.tier,
            g.tier_errors,
            g.correction_attempts,
            g.duration,
            started.elapsed(),
            run,
        ))
    }

    /// The model tiers as configured, without asking them anything.
    pub fn providers(&self) -> Vec<ProviderStatus> {
        let models = &self.inner.models;
        let mut out: Vec<ProviderStatus> = models
            .endpoints
            .iter()
            .map(|(entry, _)| match &entry.settings {
                Ok(s) => ProviderStatus {
                    name: entry.name.clone(),
                    base_url: Some(crate::delegate::provider::without_credentials(&s.base_url)),
                    model: Some(s.model.clone()),
                    api_key_env: s.api_key_env.clone(),
                    available: true,
                    reachable: None,
                    reason: None,
                },
                Err(why) => ProviderStatus {
                    name: entry.name.clone(),
                    base_url: None,
                    model: None,
                    api_key_env: None,
                    available: false,
                    reachable: None,
                    reason: Some(why.clone()),
                },
            })
            .collect();
        for slot in models.slots.iter().skip(models.endpoints.len()) {
            out.push(ProviderStatus {
                name: slot.name.clone(),
                base_url: None,
                model: None,
                api_key_env: None,
                available: slot.tier.is_ok(),
                reachable: None,
                reason: slot.tier.as_ref().err().cloned(),
            });
        }
        out
    }

    /// The model tiers, each endpoint asked whether it answers (all at
    /// once, each within a short limit).
    pub async fn providers_probed(&self) -> Vec<ProviderStatus> {
        let mut out = self.providers();
        let mut probes = tokio::task::JoinSet::new();
        for (i, (_, client)) in self.inner.models.endpoints.iter().enumerate() {
            if let Some(c) = client {
                let c = Arc::clone(c);
                probes.spawn(async move { (i, c.probe().await) });
            }
        }
        while let Some(done) = probes.join_next().await {
            let Ok((i, reach)) = done else { continue };
            if let Some(p) = out.get_mut(i) {
                match reach {
                    Reachability::Reachable(_) => p.reachable = Some(true),
                    Reachability::Unreachable(why) => {
                        p.reachable = Some(false);
                        p.reason = Some(why);
                    }
                }
            }
        }
        out
    }
}
