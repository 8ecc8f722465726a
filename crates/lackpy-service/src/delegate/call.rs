//! One `generate` or `delegate` call, from the namespace's prompt lines to
//! its result: the tiers write the program and, for `delegate`, the
//! caller's runner runs it, and the template that wrote it (if one did)
//! hears how the run went.
//!
//! Delegation knows nothing of how a program runs: the service hands
//! [`Call::delegate`] its `run_program` as the runner, with the namespace,
//! limits and approvals of the request.

use std::time::Instant;

use lackpy_bridge::{CancelToken, ExecutionResult};
use lackpy_lang::{CallSignature, Data, Grade, Rule};

use super::prompt::{ParamInfo, ToolLine};
use super::result::{DelegateResult, GenerateResult};
use super::templates;
use super::tiers::{Generator, Request};

/// What the tiers are given for one intent.
#[derive(Debug, Clone)]
pub struct Call {
    /// What the user wants, in words.
    pub intent: String,
    /// The namespace's tools, as the prompt shows them.
    pub tools: Vec<ToolLine>,
    /// The tools' signatures: a candidate's calls are checked against them.
    pub signatures: Vec<CallSignature>,
    /// The params, each with what the model is told of it.
    pub params: Vec<ParamInfo>,
    /// Extra validation rules.
    pub rules: Vec<Rule>,
    /// The namespace's grade (a result's grade when no program ran).
    pub grade: Grade,
}

impl Call {
    fn request(&self) -> Request<'_> {
        Request {
            intent: &self.intent,
            tools: &self.tools,
            params: &self.params,
            rules: &self.rules,
            signatures: &self.signatures,
        }
    }

    /// A program for the intent, not run. No program is a result
    /// (`success: false` with each tier's errors).
    pub async fn generate(&self, generator: &Generator) -> GenerateResult {
        GenerateResult::from_generation(generator.generate(&self.request()).await)
    }

    /// A program for the intent, run by `run` with the params' values
    /// (a param's description is for the model only). `cancel` stops the
    /// wait for a model too (its request is dropped, which closes its
    /// connection); `started` is when the whole call began.
    pub async fn delegate<R, E>(
        self,
        generator: &Generator,
        cancel: &CancelToken,
        started: Instant,
        run: impl FnOnce(String, Vec<(String, Data)>) -> R,
    ) -> Result<DelegateResult, E>
    where
        R: Future<Output = Result<ExecutionResult, E>>,
    {
        let request = self.request();
        let g = tokio::select! {
            g = generator.generate(&request) => g,
            () = cancel.cancelled() => {
                return Ok(DelegateResult::cancelled(self.grade, started.elapsed()));
            }
        };
        let Some(generated) = g.generated else {
            return Ok(DelegateResult::not_generated(
                self.grade,
                g.tier_errors,
                g.correction_attempts,
                g.duration,
                started.elapsed(),
            ));
        };
        let params = self.params.into_iter().map(|p| (p.name, p.value)).collect();
        let result = run(generated.program.clone(), params).await?;
        if let Some(path) = generated.template {
            record_outcome(path, result.success).await;
        }
        Ok(DelegateResult::ran(
            generated.program,
            generated.tier,
            g.tier_errors,
            g.correction_attempts,
            g.duration,
            started.elapsed(),
            result,
        ))
    }
}

/// Counts a run in the template file that wrote its program (a file
/// write: off the async runtime). A failure to count is only logged.
async fn record_outcome(path: std::path::PathBuf, success: bool) {
    let recorded =
        tokio::task::spawn_blocking(move || templates::record_outcome(&path, success)).await;
    match recorded {
        Ok(Ok(())) => {}
        Ok(Err(e)) => tracing::warn!("template outcome not recorded: {e}"),
        Err(e) => tracing::warn!("template outcome not recorded: {e}"),
    }
}
