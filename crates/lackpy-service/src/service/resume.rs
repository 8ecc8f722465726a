//! Resuming a journaled run: re-run from the top, each completed call
//! answered from the journal, the call the run stopped at decided by the
//! resume, and the rest live.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use lackpy_bridge::{Answer, Decision, ExecutionResult, RunRequest};
use lackpy_lang::{Grade, Teardown, Variables, parse};

use super::approver::ApproverHandle;
use super::error::ServiceError;
use super::execute::{RunJournal, run_journaled};
use super::inventory::LackpyService;
use super::observe::RunControl;
use super::run_program::RunProgram;
use super::{observe, plan};
use crate::runs::record::Line;
use crate::runs::sink::JournalFile;
use crate::runs::{RunError, RunState};
use tracing::Instrument;

/// One `resume` call.
#[derive(Debug, Clone, Default)]
pub struct Resume {
    /// The run.
    pub run_id: String,
    /// The answer for the call a paused run waits at: approve (`true`) or
    /// deny. A paused run needs one; for a run whose process died it is not
    /// used.
    pub approve: Option<bool>,
    /// Who gave that answer, as the call's trace entry records it (`flag`
    /// from the command line, `api` from the service API and MCP).
    pub by: String,
    /// Call again a call that was in flight when the run's process died,
    /// even when its tool's effects ceiling is 2 or more (it may have
    /// happened already).
    pub retry_in_flight: bool,
    /// Who approves the gated calls after it.
    pub approver: Option<ApproverHandle>,
    /// Whether the result carries the program's variables.
    pub variables: Variables,
    /// How the caller stops the run and hears of its live calls.
    pub control: RunControl,
}

impl LackpyService {
    /// Resumes a paused or interrupted run (see [`Resume`]). A run that
    /// another process holds answers `Busy`; an unknown, expired or corrupt
    /// journal, a paused run without a decision and an unsafe in-flight
    /// call are errors naming the run.
    pub async fn resume(&self, resume: Resume) -> Result<ExecutionResult, ServiceError> {
        let started = Instant::now();
        let failed = |kind: &str, message: String, grade: Grade| {
            ExecutionResult::failed(kind, message, grade, started.elapsed())
        };
        // Opening reads the store (a file, or PostgreSQL): off the runtime.
        let (runs, run_id) = (self.inner.base.runs.clone(), resume.run_id.clone());
        let opened = tokio::task::spawn_blocking(move || runs.open(&run_id))
            .await
            .unwrap_or_else(|e| {
                Err(RunError::Io {
                    run_id: resume.run_id.clone(),
                    message: format!("opening it failed: {e}"),
                })
            });
        let loaded = match opened {
            Ok(l) => l,
            Err(e @ RunError::Busy(_)) => return Ok(failed("Busy", e.to_string(), Grade::PURE)),
            Err(e) => return Err(ServiceError::Run(e)),
        };
        let header = loaded.header.clone();
        let corrupt = |reason: String| {
            ServiceError::Run(RunError::Corrupt {
                run_id: header.run_id.clone(),
                reason,
            })
        };
        let params = header
            .params
            .iter()
            .map(|(k, v)| Ok((k.clone(), lackpy_bridge::journal::codec::decode(v)?)))
            .collect::<Result<Vec<_>, lackpy_bridge::journal::codec::CodecError>>()
            .map_err(|e| corrupt(format!("its params cannot be read: {e}")))?;
        let rules = header
            .rules
            .iter()
            .map(|r| r.parse())
            .collect::<Result<Vec<_>, _>>()?;
        let request = RunProgram {
            program: header.program.clone(),
            tools: header.tools.clone(),
            profile: header.profile.clone(),
            params,
            rules,
            timeout: header.timeout_ms.map(Duration::from_millis),
            max_trace_entries: header.max_trace_entries,
            variables: resume.variables,
            teardown: Teardown::Free,
            output_value: false,
            approver: resume.approver.clone(),
            journal: header.durable,
            // The plan only: the run below is steered by `resume.control`.
            control: Default::default(),
        };
        let plan = plan::plan(self, &request)?;
        let module = parse(&request.program)
            .map_err(|e| corrupt(format!("its program does not parse: {e}")))?;
        if let Some(refused) = plan.validate(&module, &request.params, started) {
            return Ok(refused);
        }
        if plan::digest(&plan.tools) != header.namespace_digest {
            return Ok(failed(
                "ReplayDivergenceError",
                format!(
                    "run '{}' cannot be replayed: its tools (names, arguments, grades or sources) changed since it was journaled; nothing was called",
                    header.run_id
                ),
                plan.grade,
            ));
        }
        let decision = |approve: bool| {
            if approve {
                Decision::Approve
            } else {
                Decision::Deny
            }
        };
        let mut resumed_line = None;
        let decided = match &loaded.state {
            RunState::Paused { step, .. } => {
                let approve = resume.approve.ok_or_else(|| {
                    ServiceError::Run(RunError::NeedsDecision(header.run_id.clone()))
                })?;
                let by = if resume.by.is_empty() {
                    "api"
                } else {
                    resume.by.as_str()
                };
                resumed_line = Some(Line::Resumed {
                    step: *step,
                    approve,
                    by: by.to_string(),
                });
                Some((*step, Answer::new(decision(approve), by)))
            }
            RunState::InFlight {
                step,
                tool,
                approval,
            } => {
                let grade = plan
                    .tools
                    .iter()
                    .find(|t| t.name == *tool)
                    .map_or(Grade::UNKNOWN, |t| t.grade);
                if grade.d >= 2 && !resume.retry_in_flight {
                    return Err(ServiceError::Run(RunError::InFlight {
                        run_id: header.run_id.clone(),
                        tool: tool.clone(),
                        w: grade.w,
                        d: grade.d,
                    }));
                }
                approval
                    .as_ref()
                    .map(|by| (*step, Answer::new(Decision::Approve, by.clone())))
            }
            RunState::Interrupted => loaded
                .decided
                .as_ref()
                .map(|(step, approve, by)| (*step, Answer::new(decision(*approve), by.clone()))),
        };
        let mut file = JournalFile::reopened(
            &self.inner.base.runs,
            &header.run_id,
            loaded.held,
            loaded.bytes,
            header.durable,
        );
        if let Some(line) = &resumed_line {
            file.append(line).map_err(|message| {
                ServiceError::Run(RunError::Io {
                    run_id: header.run_id.clone(),
                    message,
                })
            })?;
        }
        let journal = RunJournal {
            run_id: header.run_id.clone(),
            file: Arc::new(Mutex::new(file)),
        };
        let replayed = loaded.records.len();
        let tools = match &resume.control.observer {
            Some(o) => observe::observed(plan.tools, o, replayed),
            None => plan.tools,
        };
        // The resumed part of the run is a `lackpy.run` span of its own.
        let span = crate::telemetry::run_span::start(
            &request.program,
            self.inner.config.telemetry.include_program,
            resume.control.traceparent.as_deref(),
        );
        crate::telemetry::run_span::record_profile(&span, plan.ns.profile.as_deref());
        let tools = self.traced_tools(tools, &plan.ns, &span, replayed);
        let cancel = resume.control.token();
        let run = RunRequest {
            module: Arc::new(module),
            journal: Some(journal.bridge_journal(loaded.records)),
            tools,
            params: request.params,
            limits: plan.limits,
            default_call_timeout: None,
            workspace: self.inner.base.workspace.clone(),
            variables: request.variables,
            teardown: Teardown::Free,
            output_value: false,
            approvals: lackpy_bridge::Approvals {
                approver: resume.approver.map(|a| a.0),
                timeout: plan.approval_timeout,
                decided,
            },
            run_id: Some(header.run_id.clone()),
        };
        let mut result = run_journaled(self, run, cancel, Some(journal))
            .instrument(span.clone())
            .await;
        result.duration = started.elapsed();
        crate::telemetry::run_span::finish(&span, &result);
        Ok(result)
    }
}
