//! The service's door to delegation: `generate`, `delegate` and the model
//! tiers' status. What delegation does lives in [`crate::delegate`]; here
//! is only what needs the service: the request's namespace turned into the
//! tiers' prompt lines ([`Call`]), and `delegate`'s program run exactly as
//! `run_program` runs it (same namespace, params, rules, limits, trace).

use std::time::{Duration, Instant};

use lackpy_lang::{Data, Rule, Teardown, Variables, compute_grade};

use super::approver::ApproverHandle;
use super::error::ServiceError;
use super::inventory::LackpyService;
use super::observe::RunControl;
use super::run_program::RunProgram;
use crate::delegate::{Call, DelegateResult, GenerateResult, ParamInfo, ProviderStatus, ToolLine};

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
    pub approver: Option<ApproverHandle>,
    /// How the caller stops the delegation (a model being asked included)
    /// and hears of its run's calls.
    pub control: RunControl,
}

impl LackpyService {
    /// What the tiers are given for `request`: its namespace's tools as
    /// prompt lines and signatures, its params, its rules.
    fn prepare(&self, request: &Delegate) -> Result<Call, ServiceError> {
        if request.intent.trim().is_empty() {
            return Err(ServiceError::EmptyIntent);
        }
        let ns = self.namespace(request.tools.as_deref(), request.profile.as_deref())?;
        let toolbox = &self.toolbox;
        let specs = || {
            ns.entries
                .iter()
                .filter_map(|(called, name)| Some((called, toolbox.spec(name)?)))
        };
        Ok(Call {
            intent: request.intent.clone(),
            tools: specs()
                .map(|(called, spec)| ToolLine::of_spec(called.clone(), spec))
                .collect(),
            signatures: super::signatures::of_namespace(toolbox, &ns),
            params: request
                .params
                .iter()
                .map(|(k, v)| ParamInfo::from_call(k.clone(), v.clone()))
                .collect(),
            rules: request.rules.clone(),
            grade: compute_grade(specs().map(|(_, spec)| spec.grade)),
        })
    }

    /// A program for the intent, without running it. No program is a
    /// result (`success: false` with each tier's errors), not an error.
    pub async fn generate(&self, request: &Delegate) -> Result<GenerateResult, ServiceError> {
        let call = self.prepare(request)?;
        Ok(call.generate(&self.inner.generator).await)
    }

    /// Generates a program for the intent and runs it; the request's
    /// [`RunControl`] can stop both.
    pub async fn delegate(&self, mut request: Delegate) -> Result<DelegateResult, ServiceError> {
        let started = Instant::now();
        // One token for the generation and the run.
        let cancel = request.control.token();
        request.control.cancel = Some(cancel.clone());
        let call = self.prepare(&request)?;
        let run = |program, params| {
            self.run_program(RunProgram {
                program,
                tools: request.tools,
                profile: request.profile,
                params,
                rules: request.rules,
                timeout: request.timeout,
                max_trace_entries: None,
                // The delegate result shows the run's variables.
                variables: Variables::Collect,
                // The service keeps running after this run.
                teardown: Teardown::Free,
                output_value: false,
                approver: request.approver,
                journal: false,
                control: request.control,
            })
        };
        call.delegate(&self.inner.generator, &cancel, started, run)
            .await
    }

    /// The model tiers as configured, without asking them anything.
    pub fn providers(&self) -> Vec<ProviderStatus> {
        self.inner.models.status()
    }

    /// The model tiers, each endpoint asked whether it answers (all at
    /// once, each within a short limit).
    pub async fn providers_probed(&self) -> Vec<ProviderStatus> {
        self.inner.models.status_probed().await
    }
}
