//! What a run will be, decided before it starts: its namespace
//! ([`LackpyService::namespace`]: the call's tools or profile, less the
//! tools over a policy ceiling), its tools with their approval gates (policy), its limits and rules (the profile's, tightened
//! by the caller), and whether it keeps a journal.

use std::time::{Duration, Instant};

use lackpy_bridge::{ExecutionResult, Gate, NamespaceTool};
use lackpy_lang::ExceptionKind;
use lackpy_lang::{
    CallSignature, Data, Grade, Limits, Rule, Validation, compute_grade, validate_module_with,
};
use lackpy_sources::{Policy, PolicyState, ProvenanceKind, over_ceiling_message};

use super::error::ServiceError;
use super::execute::RunJournal;
use super::inventory::LackpyService;
use super::profile::{self, Namespace, Selection};
use super::run_program::RunProgram;
use crate::runs::record::{Line, RunHeader, VERSION};
use crate::runs::sink::JournalFile;
use crate::runs::time::now_secs;

/// A run, planned.
pub(super) struct Plan {
    /// Its tools, gated.
    pub tools: Vec<NamespaceTool>,
    /// Its namespace (with the tools over a ceiling set aside).
    pub ns: Namespace,
    /// The grade of its tools.
    pub grade: Grade,
    /// Its limits.
    pub limits: Limits,
    /// The request's rules and its profile's.
    pub rules: Vec<Rule>,
    /// How long a gated call waits for its answer.
    pub approval_timeout: Duration,
    /// Its tools' signatures, which every call to them is checked against.
    pub signatures: Vec<CallSignature>,
}

/// Plans `request`'s run.
pub(super) fn plan(service: &LackpyService, request: &RunProgram) -> Result<Plan, ServiceError> {
    let ns = service.namespace(request.tools.as_deref(), request.profile.as_deref())?;
    let tools = namespace_tools(service, &ns);
    let grade = compute_grade(tools.iter().map(|t| t.grade));
    let mut limits = service.inner.limits.clone();
    let profile = ns
        .profile
        .as_deref()
        .and_then(|p| service.inner.config.profiles.get(p));
    let profile_limits = profile.and_then(|p| p.limits.as_ref());
    match (request.timeout, profile_limits.and_then(|l| l.timeout_ms)) {
        // A profile's timeout binds: a caller may only shorten it.
        (t, Some(ms)) => {
            let own = Duration::from_millis(ms);
            limits.timeout = t.map_or(own, |t| t.min(own));
        }
        (Some(t), None) => limits.timeout = t,
        (None, None) => {}
    }
    let profile_trace = profile_limits
        .and_then(|l| l.max_trace_entries)
        .map(|n| usize::try_from(n).unwrap_or(usize::MAX));
    // As with the timeout, a profile's cap binds (the config checker keeps
    // it at most `[limits]`'s) and a caller's may only lower it; without a
    // profile's, a caller's replaces `[limits]`'s.
    match (request.max_trace_entries, profile_trace) {
        (n, Some(own)) => limits.max_trace_entries = n.map_or(own, |n| n.min(own)),
        (Some(n), None) => limits.max_trace_entries = n,
        (None, None) => {}
    }
    if let Some(l) = profile_limits {
        if let Some(s) = l.max_steps {
            limits.max_steps = s;
        }
        if let Some(mb) = l.max_memory_mb {
            limits.max_memory =
                usize::try_from(mb.saturating_mul(1024 * 1024)).unwrap_or(usize::MAX);
            limits.max_result = limits.max_memory;
        }
    }
    let mut rules = request.rules.clone();
    rules.extend(profile_rules(service, ns.profile.as_deref()));
    let approval_timeout = policy_for(service, ns.profile.as_deref()).approval_timeout();
    let signatures = super::signatures::of_namespace(&service.toolbox, &ns);
    Ok(Plan {
        signatures,
        tools,
        ns,
        grade,
        limits,
        rules,
        approval_timeout,
    })
}

impl Plan {
    /// Validates the program against the plan: `Some(result)` when it is
    /// refused.
    pub(super) fn validate(
        &self,
        module: &lackpy_lang::ast::Module,
        params: &[(String, Data)],
        started: Instant,
    ) -> Option<ExecutionResult> {
        let mut allowed: Vec<&str> = self.tools.iter().map(|t| t.name.as_str()).collect();
        allowed.extend(params.iter().map(|(k, _)| k.as_str()));
        let mut validation = validate_module_with(module, &allowed, &self.rules, &self.signatures);
        explain_ceilings(&self.ns, &mut validation);
        (!validation.valid).then(|| refused(&validation, self.grade, started))
    }

    /// The run's journal, when it needs one: it is durable, or one of its
    /// tools is gated (the run may pause).
    pub(super) fn journal(
        &self,
        service: &LackpyService,
        request: &RunProgram,
    ) -> Result<Option<RunJournal>, String> {
        let gated = self
            .tools
            .iter()
            .any(|t| matches!(t.gate, Gate::Ask { .. }));
        let durable = request.journal || service.inner.config.runs.journal;
        if !gated && !durable {
            return Ok(None);
        }
        let store = &service.inner.base.runs;
        let run_id = store.new_run_id();
        let params = request
            .params
            .iter()
            .map(|(k, v)| Ok((k.clone(), lackpy_bridge::journal::codec::encode(v)?)))
            .collect::<Result<Vec<_>, lackpy_bridge::journal::codec::CodecError>>()
            .map_err(|e| format!("the run's params cannot be journaled: {e}"))?;
        let header = Line::Run(RunHeader {
            version: VERSION,
            run_id: run_id.clone(),
            created_at: now_secs(),
            program: request.program.clone(),
            params,
            tools: request.tools.clone(),
            profile: request.profile.clone(),
            rules: request.rules.iter().map(ToString::to_string).collect(),
            timeout_ms: request
                .timeout
                .map(|t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX)),
            max_trace_entries: request.max_trace_entries,
            namespace_digest: digest(&self.tools),
            durable,
        });
        let file = if durable {
            JournalFile::durable(store, &run_id, &header)
                .map_err(|e| format!("cannot create the run's journal: {e}"))?
        } else {
            JournalFile::in_memory(store, &run_id, &header)?
        };
        Ok(Some(RunJournal {
            run_id,
            file: std::sync::Arc::new(std::sync::Mutex::new(file)),
        }))
    }
}

/// The result of a run refused by validation: its `error_line` and
/// `error_column` are those of the first error that names a line.
pub(super) fn refused(validation: &Validation, grade: Grade, started: Instant) -> ExecutionResult {
    let mut r = ExecutionResult::failed(
        ExceptionKind::ValidationError.name(),
        format!("Validation failed: {}", validation.errors.join("; ")),
        grade,
        started.elapsed(),
    );
    if let Some(d) = validation.diagnostics.iter().find(|d| d.line.is_some()) {
        r.error_line = d.line;
        r.error_column = d.column;
    }
    r
}

/// The policy a run under `profile` is held to.
pub(super) fn policy_for(service: &LackpyService, profile: Option<&str>) -> Policy {
    match profile {
        Some(p) => service.inner.policy.for_profile(&service.inner.config, p),
        None => service.inner.policy.clone(),
    }
}

/// Sets aside the tools whose grade is over a ceiling: no program, prompt
/// or listing of the namespace sees them.
pub(super) fn apply_ceilings(service: &LackpyService, ns: &mut Namespace) {
    if service.inner.policy.is_empty() && ns.profile.is_none() {
        return;
    }
    let policy = policy_for(service, ns.profile.as_deref());
    if policy.is_empty() {
        return;
    }
    let toolbox = &service.toolbox;
    let entries = std::mem::take(&mut ns.entries);
    for (called, name) in entries {
        let (Some(spec), Some(precedence)) = (toolbox.spec(&name), toolbox.precedence(&name))
        else {
            ns.entries.push((called, name));
            continue;
        };
        match policy.evaluate(&name, spec.grade, ProvenanceKind::of(precedence)) {
            PolicyState::OverCeiling { ceiling, scope } => {
                let message = over_ceiling_message(&called, spec.grade, ceiling, &scope);
                ns.over_ceiling.push((called, message));
            }
            _ => ns.entries.push((called, name)),
        }
    }
}

/// The namespace's tools, resolved, with their call timeouts and gates.
pub(super) fn namespace_tools(service: &LackpyService, ns: &Namespace) -> Vec<NamespaceTool> {
    let toolbox = &service.toolbox;
    let policy = policy_for(service, ns.profile.as_deref());
    ns.entries
        .iter()
        .filter_map(|(called, name)| {
            let r = toolbox.resolve(name).ok()?;
            let kind = ProvenanceKind::of(r.precedence);
            let gate = if policy.is_empty() {
                Gate::Open
            } else {
                match policy.evaluate(name, r.spec.grade, kind) {
                    PolicyState::NeedsApproval { rule } => Gate::Ask { rule },
                    PolicyState::AutoApproved { .. } => Gate::Auto,
                    PolicyState::Allowed | PolicyState::OverCeiling { .. } => Gate::Open,
                }
            };
            let call_timeout = service
                .inner
                .call_timeouts
                .iter()
                .find(|(source, _)| *source == r.source)
                .map(|(_, t)| *t);
            let mut t = NamespaceTool::new(
                called.clone(),
                r.spec.args.iter().map(|a| a.name.clone()).collect(),
                r.spec.grade,
                r.tool,
            );
            t.call_timeout = call_timeout;
            t.gate = gate;
            t.provenance = kind.name().to_string();
            Some(t)
        })
        .collect()
}

/// The rules profile `profile` applies to every run.
pub(super) fn profile_rules(service: &LackpyService, profile: Option<&str>) -> Vec<Rule> {
    profile
        .and_then(|p| service.inner.config.profiles.get(p))
        .map(|p| p.rules.iter().filter_map(|r| r.parse().ok()).collect())
        .unwrap_or_default()
}

/// A call to a tool over a ceiling says so, instead of "unknown function".
pub(super) fn explain_ceilings(ns: &Namespace, v: &mut Validation) {
    if ns.over_ceiling.is_empty() {
        return;
    }
    for (e, d) in v.errors.iter_mut().zip(v.diagnostics.iter_mut()) {
        for (name, message) in &ns.over_ceiling {
            let unknown = format!("Unknown function: '{name}' at line ");
            if let Some(rest) = e.strip_prefix(&unknown) {
                let line = rest.split(' ').next().unwrap_or("");
                *e = format!("{message} (line {line})");
                // The same error, so the same place.
                d.message.clone_from(e);
            }
        }
    }
}

/// A digest of the run's tools as a program sees them (names, argument
/// names, grades, provenance): a resume under another namespace or tool
/// inventory is refused before anything is called. Gates are left out: a
/// policy changed since the pause applies to the calls still to come.
pub(super) fn digest(tools: &[NamespaceTool]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |s: &str| {
        for b in s.bytes().chain(std::iter::once(0)) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for t in tools {
        eat(&t.name);
        eat(&t.args.join(","));
        eat(&format!("{},{}", t.grade.w, t.grade.d));
        eat(&t.provenance);
    }
    format!("{h:016x}")
}

impl LackpyService {
    /// Resolves which tools a call may use, dropping unavailable ones.
    pub fn namespace(
        &self,
        tools: Option<&[String]>,
        profile: Option<&str>,
    ) -> Result<Namespace, ServiceError> {
        let selection = match (tools, profile) {
            (Some(t), _) => Selection::Tools(t),
            (None, Some(p)) => Selection::Profile(p),
            (None, None) => Selection::Default,
        };
        let mut ns = profile::resolve(
            selection,
            &self.inner.config,
            &self.inner.base.workspace,
            &self.toolbox,
        )?;
        apply_ceilings(self, &mut ns);
        Ok(ns)
    }
}
