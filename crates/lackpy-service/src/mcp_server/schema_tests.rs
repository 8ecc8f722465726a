//! The published output schemas against what the server writes: real
//! results (every optional part present, and absent) must validate, with
//! no key the schema does not declare; the schemas themselves are pinned
//! by a snapshot so that a change to a result's shape is reviewed.

use std::time::Duration;

use lackpy_bridge::{ExecutionResult, Paused};
use lackpy_lang::{Data, DroppedCalls, Grade, JsonText, TraceDropped, TraceEntry};
use serde_json::{Map, Value};

use super::tools;
use crate::delegate::{DelegateResult, GenerateResult, TierErrors};

/// Checks `v` against `schema` (the subset schemars writes: type, properties,
/// required, items, additionalProperties, anyOf, `$ref` into `$defs`), and
/// refuses any object key the schema does not declare. `Err` names the
/// path of the first mismatch.
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
fn derived_output_schemas() {
    for tool in [tools::RUN_PROGRAM, tools::DELEGATE, tools::GENERATE] {
        insta::assert_json_snapshot!(format!("output_schema_{tool}"), schema_of(tool));
    }
}
