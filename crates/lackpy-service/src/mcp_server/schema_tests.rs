//! The published output schemas against what the server writes: real
//! answers of every tool (every optional part present, and absent) must
//! validate, with no key the schema does not declare; the schemas
//! themselves are pinned by a snapshot so that a change to an answer's
//! shape is reviewed.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use lackpy_bridge::{ExecutionResult, Paused};
use lackpy_lang::{Data, DroppedCalls, Grade, JsonText, TraceDropped, TraceEntry, Validation};
use lackpy_mcp_client::{ServerState, ServerStatus, SkippedTool, ToolName};
use lackpy_sources::{
    ArgSpec, CallContext, CandidateInfo, Precedence, Provider, Tool, ToolAnswer, ToolListing,
    ToolSpec,
};
use serde::Serialize;
use serde_json::{Map, Value, json};

use super::tools;
use crate::delegate::{DelegateResult, GenerateResult, ProviderStatus, TierErrors};
use crate::runs::RunInfo;
use crate::service::{
    GatedCall, InventoryInfo, LackpyService, LimitsInfo, ListedTool, PolicyView, RunProgram,
    ServiceOptions, SkippedServerInfo, Status, ToolList, ValidationReport,
};

/// Checks `v` against `schema` (the subset schemars writes: type, const,
/// properties, required, items, additionalProperties, anyOf, oneOf, `$ref`
/// into `$defs`), and refuses any object key the schema does not declare.
/// `Err` names the path of the first mismatch.
fn check(v: &Value, schema: &Value, root: &Value, path: &str) -> Result<(), String> {
    let Some(s) = schema.as_object() else {
        return match schema {
            Value::Bool(true) => Ok(()),
            _ => Err(format!("{path}: schema {schema} refuses everything")),
        };
    };
    if let Some(r) = s.get("$ref").and_then(Value::as_str) {
        let name = r.trim_start_matches("#/$defs/");
        let target = &root["$defs"][name];
        return check(v, target, root, path);
    }
    if let Some(any) = s.get("anyOf").and_then(Value::as_array) {
        if any.iter().any(|alt| check(v, alt, root, path).is_ok()) {
            return Ok(());
        }
        return Err(format!("{path}: {v} matches no alternative of {schema}"));
    }
    if let Some(one) = s.get("oneOf").and_then(Value::as_array) {
        let matches = one
            .iter()
            .filter(|alt| check(v, alt, root, path).is_ok())
            .count();
        if matches != 1 {
            return Err(format!(
                "{path}: {v} matches {matches} alternatives of {schema}, not one"
            ));
        }
    }
    if let Some(c) = s.get("const")
        && c != v
    {
        return Err(format!("{path}: {v} is not {c}"));
    }
    if let Some(t) = s.get("type") {
        let types: Vec<&str> = match t {
            Value::String(one) => vec![one.as_str()],
            Value::Array(many) => many.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let actual = match v {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        };
        let ok = types.contains(&actual) || (actual == "integer" && types.contains(&"number"));
        if !ok {
            return Err(format!("{path}: {v} is not of type {t}"));
        }
    }
    if let Value::Array(items) = v
        && let Some(item) = s.get("items")
    {
        for (n, x) in items.iter().enumerate() {
            check(x, item, root, &format!("{path}[{n}]"))?;
        }
    }
    if let Value::Object(obj) = v {
        check_object(obj, s, root, path)?;
    }
    Ok(())
}

fn check_object(
    obj: &Map<String, Value>,
    s: &Map<String, Value>,
    root: &Value,
    path: &str,
) -> Result<(), String> {
    let props = s.get("properties").and_then(Value::as_object);
    for key in s
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        if !obj.contains_key(key) {
            return Err(format!("{path}: required key {key} is missing"));
        }
    }
    for (k, x) in obj {
        let at = format!("{path}.{k}");
        match (props.and_then(|p| p.get(k)), s.get("additionalProperties")) {
            (Some(p), _) => check(x, p, root, &at)?,
            (None, Some(extra)) => check(x, extra, root, &at)?,
            (None, None) if props.is_none() => {}
            (None, None) => return Err(format!("{at}: written but not declared")),
        }
    }
    Ok(())
}

fn schema_of(tool: &str) -> Value {
    let all = tools::all("");
    let t = all.iter().find(|t| t.name == tool).expect("the tool");
    let schema = t.output_schema.as_ref().expect("an output schema");
    Value::Object((**schema).clone())
}

fn assert_valid(tool: &str, strict_json: &str) {
    let schema = schema_of(tool);
    let v: Value = serde_json::from_str(strict_json).expect("strict JSON");
    if let Err(e) = check(&v, &schema, &schema, "$") {
        panic!("{tool}: {e}\nschema: {schema:#}\nvalue: {v:#}");
    }
}

fn entry(step: usize, replayed: bool) -> TraceEntry {
    TraceEntry {
        step,
        tool: "read_file".into(),
        args: vec![("path".into(), Data::Str("a.txt".into()))],
        result: Some(Data::List(vec![Data::Float(f64::NAN), Data::Int(1.into())])),
        duration: Duration::from_micros(1500),
        success: true,
        error: None,
        note: replayed.then(|| "from the journal".into()),
        approval: replayed.then(|| "policy".into()),
        replayed,
    }
}

/// A result with every optional part present.
fn full_result() -> ExecutionResult {
    let mut r = ExecutionResult::failed(
        "ApprovalRequired",
        "waits".into(),
        Grade::new(1, 2),
        Duration::from_millis(3),
    );
    r.output = Some(JsonText::from(&Data::Dict(vec![(
        Data::Str("k".into()),
        Data::Tuple(vec![Data::Float(f64::INFINITY), Data::None]),
    )])));
    r.output_repr = Some("{'k': (inf, None)}".into());
    r.stdout = "printed\n".into();
    r.error_line = Some(3);
    r.error_column = Some(7);
    r.trace = vec![entry(0, false), entry(9, true)];
    r.trace_dropped = Some(TraceDropped {
        total_calls: 10,
        dropped: 8,
        first_step: 1,
        last_step: 8,
        by_tool: vec![DroppedCalls {
            tool: "read_file".into(),
            dropped: 8,
            duration: Duration::from_millis(4),
            failed: 1,
            approvals: vec![("api".into(), 2)],
            replayed: 3,
            notes: 1,
        }],
    });
    r.variables = vec![("x".into(), JsonText::from(&Data::Int(1.into())))];
    r.files_read = vec!["a.txt".into()];
    r.files_modified = vec!["b.txt".into()];
    r.paused = Some(Paused {
        run_id: "r1".into(),
        step: 10,
        tool: "send".into(),
        args: vec![("to".into(), Data::Str("x".into()))],
        grade: Grade::new(3, 3),
        rule: "ask send".into(),
        expires_at: "2026-01-01T00:00:00Z".into(),
    });
    r
}

fn bare_result() -> ExecutionResult {
    ExecutionResult::failed("X", "e".into(), Grade::UNKNOWN, Duration::ZERO)
}

#[test]
fn execution_results_validate_against_run_program_and_resume_run_schemas() {
    for tool in [tools::RUN_PROGRAM, tools::RESUME_RUN] {
        assert_valid(tool, &full_result().to_strict_json());
        assert_valid(tool, &bare_result().to_strict_json());
        let mut printed = bare_result();
        printed.stdout = "only printed\n".into();
        assert_valid(tool, &printed.to_strict_json());
    }
}

#[test]
fn delegate_results_validate_against_the_delegate_schema() {
    let tiers = vec![TierErrors {
        tier: "rules".into(),
        errors: vec!["no rule matches".into()],
    }];
    let ran = DelegateResult::ran(
        "read_file('a.txt')".into(),
        "rules".into(),
        tiers.clone(),
        1,
        Duration::from_millis(1),
        Duration::from_millis(5),
        full_result(),
    );
    assert_valid(tools::DELEGATE, &ran.to_strict_json());
    let none = DelegateResult::not_generated(Grade::PURE, tiers, 0, Duration::ZERO, Duration::ZERO);
    assert_valid(tools::DELEGATE, &none.to_strict_json());
}

#[test]
fn generate_results_validate_against_the_generate_schema() {
    let g = GenerateResult {
        success: true,
        program: Some("1".into()),
        provider: Some("rules".into()),
        generation_time_ms: 0.5,
        correction_attempts: 0,
        error: None,
        generation_errors: Vec::new(),
        template: None,
    };
    assert_valid(
        tools::GENERATE,
        &serde_json::to_string(&g).expect("serialises"),
    );
}

#[test]
fn a_field_the_schema_does_not_declare_is_caught() {
    let schema = schema_of(tools::RUN_PROGRAM);
    let mut v: Value = serde_json::from_str(&bare_result().to_strict_json()).expect("JSON");
    v["surprise"] = Value::Bool(true);
    assert!(check(&v, &schema, &schema, "$").is_err());
    let mut v: Value = serde_json::from_str(&bare_result().to_strict_json()).expect("JSON");
    v.as_object_mut().map(|o| o.remove("stdout"));
    assert!(check(&v, &schema, &schema, "$").is_err());
}

#[test]
fn a_value_outside_an_enumeration_is_caught() {
    let schema = schema_of(tools::STATUS);
    let state = &schema["$defs"]["ServerState"];
    assert!(check(&Value::from("ready"), state, &schema, "$").is_ok());
    assert!(check(&Value::from("asleep"), state, &schema, "$").is_err());
    let precedence = &schema_of(tools::LIST_TOOLS);
    let p = &precedence["$defs"]["Precedence"];
    for ok in [Value::from(10), Value::from("direct")] {
        assert!(check(&ok, p, precedence, "$").is_ok());
    }
    assert!(check(&Value::from("∞"), p, precedence, "$").is_err());
}

#[test]
fn derived_output_schemas() {
    for tool in [tools::RUN_PROGRAM, tools::DELEGATE, tools::GENERATE] {
        insta::assert_json_snapshot!(format!("output_schema_{tool}"), schema_of(tool));
    }
}

#[test]
fn answer_output_schemas() {
    for tool in [
        tools::VALIDATE,
        tools::LIST_TOOLS,
        tools::LANGUAGE_SPEC,
        tools::STATUS,
        tools::LIST_RUNS,
    ] {
        insta::assert_json_snapshot!(format!("output_schema_{tool}"), schema_of(tool));
    }
}

#[test]
fn every_tool_publishes_an_object_schema_that_declares_its_keys() {
    for tool in tools::all("") {
        let schema = schema_of(&tool.name);
        assert_eq!(schema["type"], "object", "{}", tool.name);
        assert!(schema["properties"].is_object(), "{}", tool.name);
    }
}

/// An answer as the server writes it (`structuredContent`), checked.
fn assert_answer_valid<T: Serialize>(tool: &str, answer: &T) {
    let v = tools::to_json(answer).expect("serialises");
    assert_valid(tool, &v.to_string());
}

/// Answers every call with `None`.
struct Nothing;

impl Tool for Nothing {
    fn call(&self, _args: Vec<Data>, _kw: Vec<(String, Data)>, _ctx: &CallContext) -> ToolAnswer {
        ToolAnswer::Ready(Ok(Data::None))
    }
}

/// A service over `ws` whose config gates `send` (grade (3, 3)), with a
/// tool whose arguments have a default, choices and docs.
async fn service(ws: &Path) -> LackpyService {
    std::fs::create_dir_all(ws.join(".lackpy")).expect("dir");
    std::fs::write(
        ws.join(".lackpy/config.toml"),
        "[policy]\napprove_above = { w = 2, d = 1 }\n\
         [profiles.reader]\ntools = [\"fetch\"]\n",
    )
    .expect("config");
    let mut fetch = ToolSpec::new("fetch", Provider::Other("test".into()))
        .with_arg(ArgSpec::new("url").with_type("str"))
        .with_grade(Grade::new(1, 0))
        .with_description("Fetch a URL.");
    let mut mode = ArgSpec::new("mode").optional();
    mode.default = Some(json!("text"));
    mode.choices = vec![json!("text"), json!("bytes")];
    fetch.args.push(mode);
    fetch.docs = Some("docs/fetch.md".into());
    let send = ToolSpec::new("send", Provider::Other("test".into()))
        .with_arg(ArgSpec::new("x"))
        .with_grade(Grade::new(3, 3));
    let nothing: Arc<dyn Tool> = Arc::new(Nothing);
    LackpyService::start(ServiceOptions {
        workspace: ws.to_path_buf(),
        tools: vec![(fetch, Arc::clone(&nothing)), (send, nothing)],
        ..ServiceOptions::default()
    })
    .await
    .expect("service starts")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn validate_answers_validate_against_the_validate_schema() {
    let dir = tempfile::tempdir().expect("tmp");
    let svc = service(dir.path()).await;
    let report = |program: &str| {
        svc.validate_report(program, None, None, &[], &[])
            .expect("a namespace")
    };
    // Valid, with a gated call.
    let gated = report("a = fetch('u')\nsend(a)");
    assert!(gated.validation.valid && !gated.needs_approval.is_empty());
    // Invalid: diagnostics with a line and a column; a parse error's has
    // no column; a refused program's has neither.
    let refused = report("import os\nx = os");
    assert!(refused.validation.diagnostics[0].column.is_some());
    let unparsed = report("x = (");
    assert!(unparsed.validation.diagnostics[0].column.is_none());
    let failed = ValidationReport {
        validation: Validation::failed("not text"),
        ..report("")
    };
    for r in [&gated, &refused, &unparsed, &failed] {
        assert_answer_valid(tools::VALIDATE, r);
    }
    svc.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tool_lists_validate_against_the_list_tools_schema() {
    let dir = tempfile::tempdir().expect("tmp");
    let svc = service(dir.path()).await;
    let all = svc.tool_list(None).expect("listing");
    // Directly registered tools ("direct") and the defaults (levels), each
    // with its policy.
    assert!(all.tools.iter().any(|t| t.policy.is_some()));
    assert_answer_valid(tools::LIST_TOOLS, &all);
    assert_answer_valid(
        tools::LIST_TOOLS,
        &svc.tool_list(Some("reader")).expect("profile"),
    );
    svc.shutdown().await;

    // What the real services here do not show: an unavailable tool (no
    // winner, no policy) whose candidates have a grade reason.
    let candidate = |available: bool| CandidateInfo {
        source: "mcp:web".into(),
        provider: "mcp".into(),
        signature: "fetch(url: str) -> str".into(),
        description: "Fetch a URL.".into(),
        docs: None,
        args: vec![ArgSpec::new("url").with_type("str")],
        returns: "str".into(),
        precedence: if available {
            Precedence::host_config(0)
        } else {
            Precedence::Direct
        },
        grade: Grade::new(2, 1),
        grade_reason: Some("readOnlyHint".into()),
        available,
        unavailable_reason: (!available).then(|| "MCP server 'web' is down".into()),
    };
    let list = ToolList {
        tools: vec![
            ListedTool {
                listing: ToolListing {
                    name: "fetch".into(),
                    candidates: vec![candidate(false), candidate(true)],
                    winner: None,
                },
                policy: None,
            },
            ListedTool {
                listing: ToolListing {
                    name: "send".into(),
                    candidates: vec![candidate(true)],
                    winner: Some(0),
                },
                policy: Some(PolicyView {
                    state: "allowed",
                    rule: None,
                }),
            },
        ],
    };
    assert_answer_valid(tools::LIST_TOOLS, &list);
}

#[test]
fn the_language_spec_validates_against_the_language_spec_schema() {
    let spec = lackpy_lang::spec();
    assert_answer_valid(tools::LANGUAGE_SPEC, &spec);
    // The JSON value embedders get is the same object.
    assert_eq!(tools::to_json(&spec), Ok(spec.to_json()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn statuses_validate_against_the_status_schema() {
    let dir = tempfile::tempdir().expect("tmp");
    let svc = service(dir.path()).await;
    // No MCP server, nothing skipped, no model tier.
    let bare = svc.status_probed().await;
    assert!(bare.skipped_mcp_servers.is_empty());
    assert_answer_valid(tools::STATUS, &bare);
    svc.shutdown().await;

    let server = |ready: bool| ServerStatus {
        id: "web".into(),
        source: "mcp:web".into(),
        provenance: "own".into(),
        transport: "stdio: web-server".into(),
        state: if ready {
            ServerState::Ready
        } else {
            ServerState::Down
        },
        reason: (!ready).then(|| "exited".into()),
        tools: vec![ToolName {
            name: "fetch".into(),
            server_name: "fetch-url".into(),
        }],
        skipped_tools: vec![SkippedTool {
            server_name: "bad name".into(),
            reason: "not an identifier".into(),
        }],
        protocol_version: ready.then(|| "2025-06-18".into()),
        server_name: ready.then(|| "web".into()),
        server_version: ready.then(|| "1.0".into()),
        pid: ready.then_some(42),
        sessions: 1,
        discovery_ms: 12,
        reconnects: 0,
    };
    let provider = |reachable: Option<bool>| ProviderStatus {
        name: "local".into(),
        base_url: reachable.map(|_| "http://localhost:11434/v1".into()),
        model: reachable.map(|_| "qwen".into()),
        api_key_env: reachable.map(|_| "LOCAL_KEY".into()),
        available: reachable.is_some(),
        reachable,
        reason: (reachable != Some(true)).then(|| "no answer".into()),
    };
    let full = Status {
        workspace: "/ws".into(),
        config_file: Some("/ws/.lackpy/config.toml".into()),
        config_warnings: vec!["unknown key 'x'".into()],
        limits: LimitsInfo {
            timeout_ms: 30_000,
            max_steps: 1_000_000,
            max_memory_bytes: 1 << 28,
            max_depth: 100,
            max_stdout_bytes: 1 << 20,
            max_trace_entries: 1000,
        },
        default_profile: Some("reader".into()),
        profiles: vec!["reader".into()],
        inventory: InventoryInfo {
            version: 2,
            changed_at: "2026-01-01T00:00:00Z".into(),
        },
        tools_total: 3,
        tools_available: 2,
        mcp_servers: vec![server(true), server(false)],
        skipped_mcp_servers: vec![SkippedServerInfo {
            server: "self".into(),
            file: ".mcp.json".into(),
            reason: "it would start lackpy itself".into(),
        }],
        providers: vec![provider(Some(true)), provider(None), provider(Some(false))],
    };
    assert_answer_valid(tools::STATUS, &full);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn run_lists_validate_against_the_list_runs_schema() {
    let dir = tempfile::tempdir().expect("tmp");
    let svc = service(dir.path()).await;
    assert_answer_valid(tools::LIST_RUNS, &tools::list_runs(svc.runs()));
    // A run paused at its gated call: listed with its step, tool and rule.
    let paused = svc
        .run_program(RunProgram {
            program: "send(1)".into(),
            ..RunProgram::default()
        })
        .await
        .expect("runs");
    assert_eq!(paused.error_type.as_deref(), Some("ApprovalRequired"));
    let runs = svc.runs();
    assert!(runs.iter().any(|r| r.step.is_some() && r.rule.is_some()));
    assert_answer_valid(tools::LIST_RUNS, &tools::list_runs(runs));
    svc.shutdown().await;
    // A corrupt journal: a reason, no call.
    let corrupt = RunInfo {
        state: "corrupt".into(),
        reason: Some("not JSON".into()),
        ..RunInfo::blank("r0")
    };
    assert_answer_valid(tools::LIST_RUNS, &tools::list_runs(vec![corrupt]));
}

#[test]
fn gated_calls_and_policy_views_are_declared() {
    let report = ValidationReport {
        validation: Validation::failed("x"),
        grade: Grade::UNKNOWN,
        needs_approval: vec![GatedCall {
            tool: "send".into(),
            rule: "[policy] approve_above (2, 1)".into(),
        }],
    };
    assert_answer_valid(tools::VALIDATE, &report);
    let mut v = tools::to_json(&report).expect("JSON");
    v["needs_approval"][0]["surprise"] = Value::Bool(true);
    let schema = schema_of(tools::VALIDATE);
    assert!(check(&v, &schema, &schema, "$").is_err());
}
