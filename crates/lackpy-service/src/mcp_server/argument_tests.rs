//! The wording of argument errors, pinned: every tool is called with each
//! of a family of values in each of its arguments (and with none, and with
//! one it does not know), and what it answers is snapshotted.

use serde_json::{Map, Value, json};

use super::arguments::{
    self, DelegateArgs, GenerateArgs, ListToolsArgs, NoArgs, ResumeRunArgs, RunProgramArgs,
    ValidateArgs,
};
use super::tools;

/// The arguments a call needs to be well-formed, for each tool.
fn base(tool: &str) -> Map<String, Value> {
    let v = match tool {
        tools::RUN_PROGRAM | tools::VALIDATE => json!({"program": "1"}),
        tools::DELEGATE | tools::GENERATE => json!({"intent": "say hi"}),
        tools::RESUME_RUN => json!({"run_id": "r1"}),
        _ => json!({}),
    };
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

/// What reading `args` for `tool` answers: `ok` or the error text.
fn answer(tool: &str, args: &Map<String, Value>) -> String {
    match read(tool, args) {
        Ok(()) => "ok".to_string(),
        Err(e) => e,
    }
}

fn read(tool: &str, args: &Map<String, Value>) -> Result<(), String> {
    let args = args.clone();
    match tool {
        tools::RUN_PROGRAM => arguments::read(args)
            .and_then(RunProgramArgs::into_request)
            .map(drop),
        tools::VALIDATE => arguments::read(args).and_then(|mut a: ValidateArgs| {
            a.selection.take_params()?;
            a.selection.rules().map(drop)
        }),
        tools::DELEGATE => arguments::read(args)
            .and_then(DelegateArgs::into_request)
            .map(drop),
        tools::GENERATE => arguments::read(args)
            .and_then(GenerateArgs::into_request)
            .map(drop),
        tools::RESUME_RUN => arguments::read(args)
            .and_then(ResumeRunArgs::into_request)
            .map(drop),
        tools::LIST_TOOLS => arguments::read::<ListToolsArgs>(args).map(drop),
        _ => arguments::read::<NoArgs>(args).map(drop),
    }
}

/// Values of every JSON type, and the edges of the integer arguments.
fn family() -> Vec<Value> {
    vec![
        Value::Null,
        json!(true),
        json!(-1),
        json!(0),
        json!(1),
        json!(1.5),
        json!(""),
        json!("x"),
        json!([1]),
        json!(["x"]),
        json!(["no_loops"]),
        json!({}),
        json!({"n": 1}),
    ]
}

#[test]
fn argument_errors_of_every_tool() {
    let mut lines = Vec::new();
    for tool in tools::all("") {
        let name = tool.name.as_ref();
        let properties: Vec<String> = tool
            .input_schema
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default();
        lines.push(format!("{name} {{}} -> {}", answer(name, &Map::new())));
        let mut unknown = base(name);
        unknown.insert("bogus".into(), json!(1));
        lines.push(format!(
            "{name} {} -> {}",
            Value::Object(unknown.clone()),
            answer(name, &unknown)
        ));
        let mut sorted = properties.clone();
        sorted.sort();
        for property in sorted {
            for value in family() {
                let mut args = base(name);
                args.insert(property.clone(), value.clone());
                lines.push(format!(
                    "{name} {property}={value} -> {}",
                    answer(name, &args)
                ));
            }
        }
    }
    insta::assert_snapshot!("argument_errors", lines.join("\n"));
}

#[test]
fn input_schemas() {
    let schemas: Map<String, Value> = tools::all("")
        .into_iter()
        .map(|t| (t.name.to_string(), Value::Object((*t.input_schema).clone())))
        .collect();
    insta::assert_json_snapshot!("input_schemas", Value::Object(schemas));
}
