//! What the policy says, shown: each tool's state in `lackpy tools`, and
//! the grade and gated calls of a program in `lackpy validate`.

use lackpy_lang::{Grade, Validation};
use lackpy_sources::{PolicyState, ProvenanceKind};
use schemars::JsonSchema;
use serde::Serialize;

use super::error::ServiceError;
use super::inventory::LackpyService;
use super::plan;

/// A program checked against its namespace and the policy.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ValidationReport {
    /// The language's verdict (`valid`, `errors`, `diagnostics`, `calls`,
    /// `variables`).
    #[serde(flatten)]
    #[schemars(with = "super::lang_json::ValidationJson")]
    pub validation: Validation,
    /// The grade of the namespace's tools (what the run's result reports).
    #[schemars(with = "lackpy_sources::GradeJson")]
    pub grade: Grade,
    /// The tools the program calls that need approval, in the order of
    /// their first call, each with the rule that gates it.
    pub needs_approval: Vec<GatedCall>,
}

/// A called tool that needs approval.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct GatedCall {
    /// The name the program calls.
    pub tool: String,
    /// The rule that asks for approval.
    pub rule: String,
}

/// A tool's policy state as listings show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct PolicyView {
    /// `allowed`, `needs approval`, `auto-approved` or `over the ceiling`.
    pub state: &'static str,
    /// The rule that decided, when one did.
    pub rule: Option<String>,
}

impl LackpyService {
    /// What the policy (of `profile`, or the top-level one) says of tool
    /// `name`; `None` for an unknown or unavailable tool.
    pub fn tool_policy(&self, name: &str, profile: Option<&str>) -> Option<PolicyView> {
        let toolbox = &self.toolbox;
        let spec = toolbox.spec(name)?;
        let kind = ProvenanceKind::of(toolbox.precedence(name)?);
        let state = plan::policy_for(self, profile).evaluate(name, spec.grade, kind);
        Some(PolicyView {
            state: state.label(),
            rule: state.rule(),
        })
    }

    /// [`validate`](Self::validate) with the namespace's grade and the
    /// calls that will need approval.
    pub fn validate_report(
        &self,
        program: &str,
        tools: Option<&[String]>,
        profile: Option<&str>,
        params: &[(String, lackpy_lang::Data)],
        rules: &[lackpy_lang::Rule],
    ) -> Result<ValidationReport, ServiceError> {
        // One namespace for both: resolving it may read a kit file.
        let ns = self.namespace(tools, profile)?;
        let validation = self.validate_in(&ns, program, params, rules);
        let policy = plan::policy_for(self, ns.profile.as_deref());
        let toolbox = &self.toolbox;
        let names: Vec<&str> = ns.entries.iter().map(|(_, t)| t.as_str()).collect();
        let grade = toolbox.grade(&names);
        let mut needs_approval: Vec<GatedCall> = Vec::new();
        for call in &validation.calls {
            if needs_approval.iter().any(|g| g.tool == *call) {
                continue;
            }
            let Some((_, name)) = ns.entries.iter().find(|(c, _)| c == call) else {
                continue;
            };
            let (Some(spec), Some(p)) = (toolbox.spec(name), toolbox.precedence(name)) else {
                continue;
            };
            if let PolicyState::NeedsApproval { rule } =
                policy.evaluate(name, spec.grade, ProvenanceKind::of(p))
            {
                needs_approval.push(GatedCall {
                    tool: call.clone(),
                    rule,
                });
            }
        }
        Ok(ValidationReport {
            validation,
            grade,
            needs_approval,
        })
    }
}
