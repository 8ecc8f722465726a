//! The server's tools: names, schemas, annotations and descriptions (as
//! `surfaces.md` gives them); their arguments are types in `arguments`.

use std::sync::Arc;

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use serde_json::Value;

use lackpy_bridge::ExecutionResult;
use lackpy_bridge::result_json::output_schema;
use lackpy_lang::Spec;

use super::answer::TOOLS_ARGUMENT;
use super::arguments::{
    DelegateArgs, GenerateArgs, ListToolsArgs, NoArgs, ResumeRunArgs, RunProgramArgs, ValidateArgs,
    input_schema,
};
use crate::delegate::{DelegateResult, GenerateResult};
use crate::runs::{RunInfo, RunList};
use crate::service::{LackpyService, SpecJson, Status, ToolList, ValidationReport};

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

/// A tool's output schema, derived from the struct that writes the answer
/// (so the two cannot drift apart).
fn derived(schema: schemars::Schema) -> Arc<JsonObject> {
    object(schema.to_value())
}

fn delegate_result_schema() -> Arc<JsonObject> {
    derived(DelegateResult::json_schema())
}

fn execution_result_schema() -> Arc<JsonObject> {
    derived(ExecutionResult::json_schema())
}

/// The output schema of a tool whose answer is a `T` written by serde.
fn answer_schema<T: schemars::JsonSchema>() -> Arc<JsonObject> {
    derived(output_schema::<T>())
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
    vec![
        Tool::new(
            RUN_PROGRAM,
            run_description,
            input_schema::<RunProgramArgs>(),
        )
            .with_raw_output_schema(execution_result_schema())
            .with_annotations(runs_tools()),
        Tool::new(
            VALIDATE,
            "Check a lackpy program against the language whitelist and the tool set without running it. \
             Returns {valid, errors, diagnostics, calls, variables, grade, needs_approval}: \
             diagnostics are the errors with their 1-based line and column (null when unknown); \
             needs_approval lists the called tools whose calls wait for an approval, with the \
             policy rule.",
            input_schema::<ValidateArgs>(),
        )
        .with_raw_output_schema(answer_schema::<ValidationReport>())
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
            input_schema::<DelegateArgs>(),
        )
        .with_raw_output_schema(delegate_result_schema())
        .with_annotations(runs_tools()),
        Tool::new(
            GENERATE,
            "Write a lackpy program for a task described in words, without running it (to inspect \
             it first; run it with run_program). Returns {success, program, provider, \
             generation_time_ms}; when no program validates, success=false with each tier's errors.",
            input_schema::<GenerateArgs>(),
        )
        .with_raw_output_schema(answer_schema::<GenerateResult>())
        .with_annotations(calls_a_model()),
        Tool::new(
            LIST_TOOLS,
            "Every tool lackpy knows: its signature, description, arguments (type, required, default, enum) \
             and result type, provider kind, source, precedence, grade and why, availability and what it \
             shadows (only a profile's tools when one is named).",
            input_schema::<ListToolsArgs>(),
        )
        .with_raw_output_schema(answer_schema::<ToolList>())
        .with_annotations(read_only()),
        Tool::new(
            LANGUAGE_SPEC,
            "The lackpy language spec: allowed and forbidden syntax, names, builtins, attributes and rules.",
            input_schema::<NoArgs>(),
        )
        .with_raw_output_schema(answer_schema::<SpecJson>())
        .with_annotations(read_only()),
        Tool::new(
            STATUS,
            "The server's workspace, config file, default limits, profiles, tool counts and MCP servers (no secrets).",
            input_schema::<NoArgs>(),
        )
        .with_raw_output_schema(answer_schema::<Status>())
        .with_annotations(read_only()),
        Tool::new(
            RESUME_RUN,
            "Resume a paused or interrupted run: its completed calls are answered from its journal \
             (not repeated), the call it waits at runs (approve: true) or raises PermissionError \
             (approve: false), and the rest runs live. Returns the ExecutionResult, like run_program \
             (it may pause again).",
            input_schema::<ResumeRunArgs>(),
        )
        .with_raw_output_schema(execution_result_schema())
        .with_annotations(runs_tools()),
        Tool::new(
            LIST_RUNS,
            "The runs that can be resumed (paused for an approval, or interrupted), with their state, \
             the call they wait at and when they expire.",
            input_schema::<NoArgs>(),
        )
        .with_raw_output_schema(answer_schema::<RunList>())
        .with_annotations(read_only()),
    ]
}

/// `validate`'s answer.
pub(crate) fn validate(
    service: &LackpyService,
    args: ValidateArgs,
) -> Result<ValidationReport, String> {
    let ValidateArgs {
        program,
        mut selection,
    } = args;
    let params = selection.take_params()?;
    let rules = selection.rules()?;
    service
        .validate_report(
            &program,
            selection.tools.as_deref(),
            selection.profile.as_deref(),
            &params,
            &rules,
        )
        .map_err(|e| e.message_for(TOOLS_ARGUMENT))
}

/// `list_tools`'s answer.
pub(crate) fn list_tools(service: &LackpyService, args: ListToolsArgs) -> Result<ToolList, String> {
    service
        .tool_list(args.profile.as_deref())
        .map_err(|e| e.to_string())
}

/// `list_runs`'s answer.
pub(crate) fn list_runs(runs: Vec<RunInfo>) -> RunList {
    RunList { runs }
}

/// `language_spec`'s answer.
pub(crate) fn language_spec(service: &LackpyService) -> Spec {
    service.spec()
}

/// An answer as the JSON of its `structuredContent` (and text).
pub(crate) fn to_json<T: serde::Serialize>(answer: &T) -> Result<Value, String> {
    serde_json::to_value(answer).map_err(|e| e.to_string())
}
