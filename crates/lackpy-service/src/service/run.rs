//! `run_program`: the plan, the parse and the check, then the run with its
//! journal (`execute.rs`) under its `lackpy.run` span; and the result of a
//! program that could not be read at all.

use std::sync::Arc;
use std::time::Instant;

use tracing::Instrument;

use lackpy_bridge::{ExecutionResult, NamespaceTool, RunRequest};
use lackpy_lang::{ExceptionKind, Grade, ParseError, compute_grade, parse};

use super::error::ServiceError;
use super::inventory::LackpyService;
use super::profile::Namespace;
use super::run_program::RunProgram;
use super::{execute, observe, plan};

impl LackpyService {
    /// The result of a run whose program could not be read as source at
    /// all (`error`, e.g. from [`lackpy_lang::parse_bytes`] on bytes
    /// that are not UTF-8): the same `ValidationError` result, with the
    /// same grade, as any other program that does not parse.
    pub fn rejected_program(
        &self,
        request: &RunProgram,
        error: &ParseError,
    ) -> Result<ExecutionResult, ServiceError> {
        let started = Instant::now();
        let tools = self.run_tools(request)?;
        Ok(rejected(
            error,
            compute_grade(tools.iter().map(|t| t.grade)),
            started,
        ))
    }

    /// The run's tools: its namespace, resolved, with their call timeouts
    /// and approval gates.
    fn run_tools(&self, request: &RunProgram) -> Result<Vec<NamespaceTool>, ServiceError> {
        let ns = self.namespace(request.tools.as_deref(), request.profile.as_deref())?;
        Ok(plan::namespace_tools(self, &ns))
    }

    /// Validates and runs a program. Expected failures (validation, tool
    /// errors, limits) are results; misconfiguration is an error. The
    /// request's [`RunControl`](super::RunControl) can stop it and hear of
    /// its tool calls.
    pub async fn run_program(&self, request: RunProgram) -> Result<ExecutionResult, ServiceError> {
        let span = crate::telemetry::run_span::start(
            &request.program,
            self.inner.config.telemetry.include_program,
            request.control.traceparent.as_deref(),
        );
        let result = self
            .run_program_in(request, &span)
            .instrument(span.clone())
            .await;
        match &result {
            Ok(r) => crate::telemetry::run_span::finish(&span, r),
            Err(_) => crate::telemetry::run_span::refused(&span),
        }
        result
    }

    /// The run's tools wrapped to trace each call under `span`, when traces
    /// are exported (otherwise as they are).
    pub(super) fn traced_tools(
        &self,
        tools: Vec<NamespaceTool>,
        ns: &Namespace,
        span: &tracing::Span,
        first_step: usize,
    ) -> Vec<NamespaceTool> {
        if span.is_disabled() {
            return tools;
        }
        let source_of = |called: &str| {
            let (_, name) = ns.entries.iter().find(|(c, _)| c.as_str() == called)?;
            self.toolbox
                .resolve(name)
                .ok()
                .map(|r| r.source.to_string())
        };
        crate::telemetry::tool_span::traced(tools, span, source_of, first_step)
    }

    /// [`LackpyService::run_program`] under its `lackpy.run` span.
    async fn run_program_in(
        &self,
        request: RunProgram,
        span: &tracing::Span,
    ) -> Result<ExecutionResult, ServiceError> {
        let started = Instant::now();
        let plan = plan::plan(self, &request)?;
        crate::telemetry::run_span::record_profile(span, plan.ns.profile.as_deref());
        let module = match parse(&request.program) {
            Ok(m) => m,
            Err(e) => return Ok(rejected(&e, plan.grade, started)),
        };
        if let Some(failed) = plan.validate(&module, &request.params, started) {
            return Ok(failed);
        }
        let journal = match plan.journal(self, &request) {
            Ok(j) => j,
            Err(e) => {
                return Ok(ExecutionResult::failed(
                    "JournalError",
                    e,
                    plan.grade,
                    started.elapsed(),
                ));
            }
        };
        let run_id = journal.as_ref().map(|j| j.run_id.clone());
        let cancel = request.control.token();
        let tools = match &request.control.observer {
            Some(o) => observe::observed(plan.tools, o, 0),
            None => plan.tools,
        };
        let tools = self.traced_tools(tools, &plan.ns, span, 0);
        let run = RunRequest {
            module: Arc::new(module),
            journal: journal.as_ref().map(|j| j.bridge_journal(Vec::new())),
            tools,
            params: request.params,
            limits: plan.limits,
            default_call_timeout: None,
            workspace: self.inner.base.workspace.clone(),
            variables: request.variables,
            teardown: request.teardown,
            output_value: request.output_value,
            approvals: lackpy_bridge::Approvals {
                approver: request.approver.map(|a| a.0),
                timeout: plan.approval_timeout,
                decided: None,
            },
            run_id,
        };
        let mut result = execute::run_journaled(self, run, cancel, journal).await;
        result.duration = started.elapsed();
        Ok(result)
    }
}

/// A program that does not parse: a `ValidationError` result.
fn rejected(error: &ParseError, grade: Grade, started: Instant) -> ExecutionResult {
    let mut r = ExecutionResult::failed(
        ExceptionKind::ValidationError.name(),
        format!("Validation failed: {error}"),
        grade,
        started.elapsed(),
    );
    r.error_line = Some(error.line);
    r
}
