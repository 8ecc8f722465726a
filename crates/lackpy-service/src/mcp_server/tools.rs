//! The server's tools: names, schemas, annotations and descriptions (as
//! `surfaces.md` gives them), and reading a call's arguments.

use std::sync::Arc;
use std::time::Duration;

use lackpy_lang::{Data, Rule, Teardown, Variables};
use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use serde_json::{Value, json};

use lackpy_bridge::ExecutionResult;

use crate::delegate::{DelegateResult, GenerateResult};
use crate::service::{Delegate, LackpyService, Resume, RunProgram, params_from_json};

/// `run_program`.
pub(crate) const RUN_PROGRAM: &str = "run_program";
/// `validate`.
pub(crate) const VALIDATE: &str = "validate";
/// `list_tools`.
pub(crate) const LIST_TOOLS: &str = "list_tools";
/// `language_spec`.
pub(crate) const LANGUAGE_SPEC: &str = "language_spec";
/// `status`.
pub(crate) const STATUS: &str = "status";
/// `delegate`.
pub(crate) const DELEGATE: &str = "delegate";
/// `generate`.
pub(crate) const GENERATE: &str = "generate";
/// `resume_run`.
pub(crate) const RESUME_RUN: &str = "resume_run";
/// `list_runs`.
pub(crate) const LIST_RUNS: &str = "list_runs";

fn object(v: Value) -> Arc<JsonObject> {
    match v {
        Value::Object(m) => Arc::new(m),
        _ => Arc::new(JsonObject::new()),
    }
}

/// Read-only and closed-world: asks nothing of the world.
fn read_only() -> ToolAnnotations {
    ToolAnnotations::from_raw(None, Some(true), Some(false), Some(true), Some(false))
}

/// Asks a model (a network call, a different answer each time) but
/// changes nothing here: `generate`.
fn calls_a_model() -> ToolAnnotations {
    ToolAnnotations::from_raw(None, Some(false), Some(false), Some(false), Some(true))
}

/// The program may call tools that write or reach outside.
fn runs_tools() -> ToolAnnotations {
    ToolAnnotations::from_raw(None, Some(false), Some(true), Some(false), Some(true))
}

fn selection_properties() -> serde_json::Map<String, Value> {
    let Value::Object(m) = json!({
        "program": {"type": "string", "description": "The lackpy program: restricted Python 3.11 source."},
        "tools": {"type": "array", "items": {"type": "string"},
                  "description": "Exactly these tools are callable (default: the default profile, or every available tool)."},
        "profile": {"type": "string", "description": "A named profile selecting the tools."},
        "params": {"type": "object", "description": "Values the program sees as module-level names."},
        "rules": {"type": "array", "items": {"type": "string"},
                  "description": "Extra validation rules: no_loops, max_depth:N, max_calls:N, no_nested_calls."}
    }) else {
        return serde_json::Map::new();
    };
    m
}

fn input_schema(extra: &[(&str, Value)], drop: &[&str]) -> Arc<JsonObject> {
    let mut props = selection_properties();
    for d in drop {
        props.remove(*d);
    }
    for (k, v) in extra {
        props.insert((*k).to_string(), v.clone());
    }
    object(json!({
        "type": "object",
        "properties": props,
        "required": ["program"],
        "additionalProperties": false
    }))
}

/// The arguments of `delegate` (`run` true: with `timeout_ms`) and
/// `generate`.
fn intent_schema(run: bool) -> Arc<JsonObject> {
    let mut props = selection_properties();
    props.remove("program");
    props.insert(
        "intent".to_string(),
        json!({"type": "string", "description": "What the program should do, in words."}),
    );
    props.insert(
        "params".to_string(),
        json!({"type": "object", "description": "Values the program sees as module-level names; \
               {\"value\": v, \"description\": d} describes one to the model (never its value)."}),
    );
    if run {
        props.insert(
            "timeout_ms".to_string(),
            json!({"type": "integer", "minimum": 1, "description": "Wall-clock limit of the run, in milliseconds."}),
        );
    }
    object(json!({
        "type": "object",
        "properties": props,
        "required": ["intent"],
        "additionalProperties": false
    }))
}

/// A tool's output schema, derived from the struct that writes the answer
/// (so the two cannot drift apart).
fn derived(schema: schemars::Schema) -> Arc<JsonObject> {
    object(schema.to_value())
}

fn delegate_result_schema() -> Arc<JsonObject> {
    derived(DelegateResult::json_schema())
}

fn generate_result_schema() -> Arc<JsonObject> {
    derived(lackpy_bridge::result_json::output_schema::<GenerateResult>())
}

fn execution_result_schema() -> Arc<JsonObject> {
    derived(ExecutionResult::json_schema())
}

fn resume_schema() -> Arc<JsonObject> {
    object(json!({
        "type": "object",
        "properties": {
            "run_id": {"type": "string", "description": "The run, as a paused result's paused.run_id or list_runs gives it."},
            "approve": {"type": "boolean",
                        "description": "The answer for the call a paused run waits at: true runs it, false refuses it (PermissionError in the program). Required for a paused run."},
            "retry_in_flight": {"type": "boolean",
                                "description": "Call again a call that was in flight when the run's process ended, even when it may have had effects."}
        },
        "required": ["run_id"],
        "additionalProperties": false
    }))
}

fn runs_schema() -> Arc<JsonObject> {
    object(json!({
        "type": "object",
        "properties": {"runs": {"type": "array", "items": {
            "type": "object",
            "properties": {
                "run_id": {"type": "string"},
                "state": {"type": "string", "description": "paused, interrupted, in_flight, running, expired or corrupt."},
                "created_at": {"type": "string"},
                "expires_at": {"type": "string"},
                "calls": {"type": "integer"},
                "step": {"type": ["integer", "null"]},
                "tool": {"type": ["string", "null"]},
                "rule": {"type": ["string", "null"]},
                "reason": {"type": ["string", "null"]},
                "program": {"type": "string", "description": "The program's first line."}
            },
            "required": ["run_id", "state"]
        }}},
        "required": ["runs"]
    }))
}

/// What `run_program`'s description says about the language, so that a
/// host model can write a valid program without another round trip. The
/// lists come from the spec itself, so they cannot drift from it.
fn language_summary() -> String {
    let spec = lackpy_lang::spec();
    format!(
        "Write one restricted Python 3.11 program that composes the tools below; the value of its last \
         expression is the output and print() text is returned as stdout. Allowed: assignment, if, for, \
         with, lambda, list/dict/set comprehensions, f-strings, literals, slicing. Forbidden: def, class, \
         while, break, continue, pass, return, try, raise, assert, import, generator expressions, **, \
         bit operators, :=, match, async; names {}; any attribute starting with '_'. A lambda is \
         allowed only as a key= argument (sorted(xs, key=lambda x: x['n'])). Builtins: {}. \
         The program is validated first, calls included (unknown keywords, missing or extra \
         arguments, constants of the wrong type): a rejected program comes back as success=false \
         with error_type=ValidationError, the reasons, error_line and error_column.",
        spec.forbidden_names.join(", "),
        lackpy_lang::builtin_signatures()
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ")
    )
}

/// Every tool this server offers. `namespace` is the prompt line of each
/// tool a program gets by default.
pub(crate) fn all(namespace: &str) -> Vec<Tool> {
    let namespace = if namespace.trim().is_empty() {
        "  (no tools are available)".to_string()
    } else {
        namespace.to_string()
    };
    let run_description = format!(
        "Run a lackpy program: one call composes many tool calls. {}\n\
         Tools the program can call (default namespace):\n{namespace}\n\
         Returns the ExecutionResult: success, output, stdout, error, error_type, trace of tool calls.",
        language_summary()
    );
    let timeout = json!({"type": "integer", "minimum": 1,
                         "description": "Wall-clock limit of the run, in milliseconds."});
    let trace_cap = json!({"type": "integer", "minimum": 0,
                           "description": "Trace entries kept: the first half and the last half; \
                           the calls between are summarised per tool in trace_dropped."});
    let run_input = input_schema(
        &[("timeout_ms", timeout), ("max_trace_entries", trace_cap)],
        &[],
    );
    vec![
        Tool::new(RUN_PROGRAM, run_description, run_input)
            .with_raw_output_schema(execution_result_schema())
            .with_annotations(runs_tools()),
        Tool::new(
            VALIDATE,
            "Check a lackpy program against the language whitelist and the tool set without running it. \
             Returns {valid, errors, diagnostics, calls, variables, grade, needs_approval}: \
             diagnostics are the errors with their 1-based line and column (null when unknown); \
             needs_approval lists the called tools whose calls wait for an approval, with the \
             policy rule.",
            input_schema(&[], &[]),
        )
        .with_raw_output_schema(object(json!({
            "type": "object",
            "properties": {
                "valid": {"type": "boolean"},
                "errors": {"type": "array", "items": {"type": "string"}},
                "diagnostics": {"type": "array", "items": {"type": "object", "properties": {
                    "message": {"type": "string"},
                    "line": {"type": ["integer", "null"]},
                    "column": {"type": ["integer", "null"], "description": "1-based, in UTF-8 bytes."}
                }}},
                "calls": {"type": "array", "items": {"type": "string"}},
                "variables": {"type": "array", "items": {"type": "string"}},
                "grade": {"type": "object", "properties": {"w": {"type": "integer"}, "d": {"type": "integer"}}},
                "needs_approval": {"type": "array", "items": {"type": "object", "properties": {
                    "tool": {"type": "string"},
                    "rule": {"type": "string"}
                }}}
            },
            "required": ["valid", "errors"]
        })))
        .with_annotations(read_only()),
        Tool::new(
            DELEGATE,
            format!(
                "Describe a task in words: lackpy writes one program for it (a matching template, a \
                 rule, else the configured model, correcting the model's invalid answers), validates \
                 it and runs it like run_program. Tools the program can call (default namespace):\n\
                 {namespace}\nReturns success, program, generation_tier, output, stdout, error, trace \
                 and timings; when no program validates, success=false with each tier's errors."
            ),
            intent_schema(true),
        )
        .with_raw_output_schema(delegate_result_schema())
        .with_annotations(runs_tools()),
        Tool::new(
            GENERATE,
            "Write a lackpy program for a task described in words, without running it (to inspect \
             it first; run it with run_program). Returns {success, program, provider, \
             generation_time_ms}; when no program validates, success=false with each tier's errors.",
            intent_schema(false),
        )
        .with_raw_output_schema(generate_result_schema())
        .with_annotations(calls_a_model()),
        Tool::new(
            LIST_TOOLS,
            "Every tool lackpy knows: its signature, description, arguments (type, required, default, enum) \
             and result type, provider kind, source, precedence, grade and why, availability and what it \
             shadows (only a profile's tools when one is named).",
            object(json!({
                "type": "object",
                "properties": {"profile": {"type": "string", "description": "Only this profile's tools."}},
                "additionalProperties": false
            })),
        )
        .with_raw_output_schema(object(json!({
            "type": "object",
            "properties": {"tools": {"type": "array", "items": {"type": "object"}}},
            "required": ["tools"]
        })))
        .with_annotations(read_only()),
        Tool::new(
            LANGUAGE_SPEC,
            "The lackpy language spec: allowed and forbidden syntax, names, builtins, attributes and rules.",
            object(json!({"type": "object", "properties": {}, "additionalProperties": false})),
        )
        .with_raw_output_schema(object(json!({"type": "object"})))
        .with_annotations(read_only()),
        Tool::new(
            STATUS,
            "The server's workspace, config file, default limits, profiles, tool counts and MCP servers (no secrets).",
            object(json!({"type": "object", "properties": {}, "additionalProperties": false})),
        )
        .with_raw_output_schema(object(json!({"type": "object"})))
        .with_annotations(read_only()),
        Tool::new(
            RESUME_RUN,
            "Resume a paused or interrupted run: its completed calls are answered from its journal \
             (not repeated), the call it waits at runs (approve: true) or raises PermissionError \
             (approve: false), and the rest runs live. Returns the ExecutionResult, like run_program \
             (it may pause again).",
            resume_schema(),
        )
        .with_raw_output_schema(execution_result_schema())
        .with_annotations(runs_tools()),
        Tool::new(
            LIST_RUNS,
            "The runs that can be resumed (paused for an approval, or interrupted), with their state, \
             the call they wait at and when they expire.",
            object(json!({"type": "object", "properties": {}, "additionalProperties": false})),
        )
        .with_raw_output_schema(runs_schema())
        .with_annotations(read_only()),
    ]
}

/// A call's arguments, checked: a message for the caller when they are
/// malformed.
pub(crate) struct Args<'a>(pub(crate) &'a JsonObject);

impl Args<'_> {
    /// Refuses any argument outside `known`.
    pub(crate) fn only(&self, known: &[&str]) -> Result<(), String> {
        match self.0.keys().find(|k| !known.contains(&k.as_str())) {
            Some(k) => Err(format!(
                "unknown argument '{k}' (expected: {})",
                known.join(", ")
            )),
            None => Ok(()),
        }
    }

    fn string(&self, key: &str) -> Result<Option<String>, String> {
        match self.0.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(format!("argument '{key}' must be a string")),
        }
    }

    fn strings(&self, key: &str) -> Result<Option<Vec<String>>, String> {
        match self.0.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| match v {
                    Value::String(s) => Ok(s.clone()),
                    _ => Err(format!("argument '{key}' must be a list of strings")),
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
            Some(_) => Err(format!("argument '{key}' must be a list of strings")),
        }
    }

    pub(crate) fn program(&self) -> Result<String, String> {
        self.string("program")?
            .ok_or_else(|| "argument 'program' (a string) is required".to_string())
    }

    pub(crate) fn tools(&self) -> Result<Option<Vec<String>>, String> {
        self.strings("tools")
    }

    pub(crate) fn profile(&self) -> Result<Option<String>, String> {
        self.string("profile")
    }

    pub(crate) fn params(&self) -> Result<Vec<(String, Data)>, String> {
        match self.0.get("params") {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(v @ Value::Object(_)) => {
                params_from_json(&v.to_string()).map_err(|e| e.to_string())
            }
            Some(_) => Err("argument 'params' must be an object".to_string()),
        }
    }

    pub(crate) fn rules(&self) -> Result<Vec<Rule>, String> {
        self.strings("rules")?
            .unwrap_or_default()
            .iter()
            .map(|r| r.parse::<Rule>().map_err(|e| e.to_string()))
            .collect()
    }

    fn boolean(&self, key: &str) -> Result<Option<bool>, String> {
        match self.0.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(_) => Err(format!("argument '{key}' must be a boolean")),
        }
    }

    fn timeout(&self) -> Result<Option<Duration>, String> {
        match self.0.get("timeout_ms") {
            None | Some(Value::Null) => Ok(None),
            Some(v) => match v.as_u64() {
                Some(ms) if ms > 0 => Ok(Some(Duration::from_millis(ms))),
                _ => Err("argument 'timeout_ms' must be a positive integer".to_string()),
            },
        }
    }

    fn max_trace_entries(&self) -> Result<Option<usize>, String> {
        match self.0.get("max_trace_entries") {
            None | Some(Value::Null) => Ok(None),
            Some(v) => match v.as_u64() {
                Some(n) => Ok(Some(usize::try_from(n).unwrap_or(usize::MAX))),
                None => {
                    Err("argument 'max_trace_entries' must be a non-negative integer".to_string())
                }
            },
        }
    }

    /// The `run_program` request these arguments make.
    pub(crate) fn run_request(&self) -> Result<RunProgram, String> {
        self.only(&[
            "program",
            "tools",
            "profile",
            "params",
            "rules",
            "timeout_ms",
            "max_trace_entries",
        ])?;
        Ok(RunProgram {
            program: self.program()?,
            tools: self.tools()?,
            profile: self.profile()?,
            params: self.params()?,
            rules: self.rules()?,
            timeout: self.timeout()?,
            max_trace_entries: self.max_trace_entries()?,
            // run_program's result has `variables`, as lackpy's does.
            variables: Variables::Collect,
            // The service keeps running after this run.
            teardown: Teardown::Free,
            output_value: false,
            approver: None,
            journal: false,
            control: Default::default(),
        })
    }

    /// The `resume_run` request these arguments make; its decision is the
    /// client's (`by` is `api`).
    pub(crate) fn resume_request(&self) -> Result<Resume, String> {
        self.only(&["run_id", "approve", "retry_in_flight"])?;
        let run_id = self
            .string("run_id")?
            .filter(|id| !id.is_empty())
            .ok_or_else(|| "argument 'run_id' (a string) is required".to_string())?;
        Ok(Resume {
            run_id,
            approve: self.boolean("approve")?,
            by: "api".to_string(),
            retry_in_flight: self.boolean("retry_in_flight")?.unwrap_or(false),
            approver: None,
            variables: Variables::Collect,
            control: Default::default(),
        })
    }
}

/// The `delegate` (`run` true) or `generate` request these arguments make.
pub(crate) fn intent_request(args: &Args<'_>, run: bool) -> Result<Delegate, String> {
    if run {
        args.only(&[
            "intent",
            "tools",
            "profile",
            "params",
            "rules",
            "timeout_ms",
        ])?;
    } else {
        args.only(&["intent", "tools", "profile", "params", "rules"])?;
    }
    let intent = args
        .string("intent")?
        .ok_or_else(|| "argument 'intent' (a string) is required".to_string())?;
    Ok(Delegate {
        intent,
        tools: args.tools()?,
        profile: args.profile()?,
        params: args.params()?,
        rules: args.rules()?,
        timeout: if run { args.timeout()? } else { None },
        approver: None,
        control: Default::default(),
    })
}

/// `validate`'s answer as JSON.
pub(crate) fn validate(service: &LackpyService, args: &Args<'_>) -> Result<Value, String> {
    args.only(&["program", "tools", "profile", "params", "rules"])?;
    let program = args.program()?;
    let tools = args.tools()?;
    let profile = args.profile()?;
    let params = args.params()?;
    let rules = args.rules()?;
    let v = service
        .validate_report(
            &program,
            tools.as_deref(),
            profile.as_deref(),
            &params,
            &rules,
        )
        .map_err(|e| e.message_for(super::TOOLS_ARGUMENT))?;
    serde_json::to_value(v).map_err(|e| e.to_string())
}

/// `list_tools`'s answer as JSON.
pub(crate) fn list_tools(service: &LackpyService, args: &Args<'_>) -> Result<Value, String> {
    args.only(&["profile"])?;
    let profile = args.profile()?;
    service
        .tools_json(profile.as_deref())
        .map_err(|e| e.to_string())
}

/// `list_runs`'s answer as JSON.
pub(crate) fn runs_json(runs: &[crate::runs::RunInfo]) -> Result<Value, String> {
    serde_json::to_value(runs)
        .map(|runs| json!({ "runs": runs }))
        .map_err(|e| e.to_string())
}

/// `language_spec`'s answer as JSON.
pub(crate) fn language_spec(service: &LackpyService, args: &Args<'_>) -> Result<Value, String> {
    args.only(&[])?;
    Ok(service.spec().to_json())
}
