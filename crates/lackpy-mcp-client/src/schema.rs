//! Arguments from a tool's `inputSchema`: names in the schema's order,
//! display types, required flags.
//!
//! Order matters (positional arguments map onto properties in order). The
//! SDK hands the schema over as a `serde_json::Map`, which keeps document
//! order because the workspace builds `serde_json` with `preserve_order`
//! (this crate's own dependency asks for it too, so it holds wherever the
//! crate is built; a test below proves it on the SDK's own types).

use lackpy_sources::ArgSpec;
use serde_json::{Map, Value, json};

use crate::schema_type::python_type;

/// An argument's display type: its schema's Python type, leaving out an
/// `enum` (kept apart as the argument's choices); an enum with no `type`
/// takes its values' kind.
fn arg_type(prop: &Value, root: &Map<String, Value>) -> String {
    let Some(Value::Array(values)) = prop.get("enum") else {
        return python_type(prop, root);
    };
    let mut base = prop.clone();
    if let Some(m) = base.as_object_mut() {
        m.remove("enum");
    }
    let t = python_type(&base, root);
    if t != "Any" {
        return t;
    }
    let kinds: Vec<Value> = values
        .iter()
        .map(|v| {
            json!({"type": match v {
                Value::Null => "null",
                Value::Bool(_) => "boolean",
                Value::Number(n) if n.is_f64() => "number",
                Value::Number(_) => "integer",
                Value::String(_) => "string",
                Value::Array(_) => "array",
                Value::Object(_) => "object",
            }})
        })
        .collect();
    python_type(&json!({ "anyOf": kinds }), root)
}

/// A tool's result type from its `outputSchema`: `Any` without one; the
/// wrapped type for `{"result": T}` (which calls unwrap); else the
/// schema's type (`dict` or a short `{'field': type}` list).
pub fn returns_from_schema(output: Option<&Map<String, Value>>) -> String {
    let Some(schema) = output else {
        return "Any".to_string();
    };
    if let Some(Value::Object(props)) = schema.get("properties")
        && props.len() == 1
        && let Some(inner) = props.get("result")
    {
        return python_type(inner, schema);
    }
    python_type(&Value::Object(schema.clone()), schema)
}

/// A tool's arguments from its `inputSchema`, and whether the schema lists
/// no properties at all (then keyword arguments pass through unchecked).
pub fn args_from_schema(schema: &Map<String, Value>) -> (Vec<ArgSpec>, bool) {
    let required: Vec<&str> = match schema.get("required") {
        Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let Some(Value::Object(props)) = schema.get("properties") else {
        return (Vec::new(), true);
    };
    let args = props
        .iter()
        .map(|(name, prop)| {
            let description = prop
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            ArgSpec {
                required: required.contains(&name.as_str()),
                type_name: arg_type(prop, schema),
                description,
                name: name.clone(),
                default: prop.get("default").cloned(),
                choices: match prop.get("enum") {
                    Some(Value::Array(values)) => values.clone(),
                    _ => Vec::new(),
                },
            }
        })
        .collect::<Vec<_>>();
    let open = args.is_empty();
    (args, open)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => Map::new(),
        }
    }

    #[test]
    fn types_required_and_descriptions() {
        let schema = obj(json!({
            "type": "object",
            "properties": {
                "s": {"type": "string", "description": "a string"},
                "i": {"type": "integer"}, "n": {"type": "number"}, "b": {"type": "boolean"},
                "o": {"type": "object"}, "a": {"type": "array"}, "x": {"anyOf": []},
                "maybe": {"type": ["string", "null"]}
            },
            "required": ["s", "i"]
        }));
        let (args, open) = args_from_schema(&schema);
        assert!(!open);
        let shown: Vec<(&str, &str, bool)> = args
            .iter()
            .map(|a| (a.name.as_str(), a.type_name.as_str(), a.required))
            .collect();
        assert_eq!(
            shown,
            [
                ("s", "str", true),
                ("i", "int", true),
                ("n", "float", false),
                ("b", "bool", false),
                ("o", "dict", false),
                ("a", "list", false),
                ("x", "Any", false),
                ("maybe", "str | None", false)
            ]
        );
        assert_eq!(args[0].description, "a string");
    }

    #[test]
    fn defaults_and_enums_are_kept() {
        let schema = obj(json!({
            "properties": {
                "unit": {"type": "string", "enum": ["c", "f"], "default": "c"},
                "mode": {"enum": [1, 2]},
                "tz": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null}
            }
        }));
        let (args, _) = args_from_schema(&schema);
        let shown: Vec<String> = args.iter().map(ArgSpec::parameter).collect();
        assert_eq!(
            shown,
            [
                "unit: Literal['c', 'f'] = 'c'",
                "mode: Literal[1, 2] = None",
                "tz: str | None = None"
            ]
        );
        assert_eq!(args[0].type_name, "str");
        assert_eq!(args[1].type_name, "int");
    }

    #[test]
    fn returns_from_output_schemas() {
        assert_eq!(returns_from_schema(None), "Any");
        let wrapped = obj(
            json!({"type": "object", "properties": {"result": {"type": "integer"}}, "required": ["result"]}),
        );
        assert_eq!(returns_from_schema(Some(&wrapped)), "int");
        let fields = obj(
            json!({"type": "object", "properties": {"time": {"type": "string"}, "zone": {"type": "string"}}}),
        );
        assert_eq!(
            returns_from_schema(Some(&fields)),
            "{'time': str, 'zone': str}"
        );
        assert_eq!(
            returns_from_schema(Some(&obj(json!({"type": "object"})))),
            "dict"
        );
    }

    #[test]
    fn the_sdks_types_keep_document_order() {
        // Neither sorted (alpha, mid, zeta) nor required first (zeta, …):
        // only document order gives mid, zeta, alpha.
        let text = r#"{"tools": [{"name": "t", "inputSchema": {"type": "object",
            "properties": {"mid": {}, "zeta": {}, "alpha": {}}, "required": ["zeta"]}}]}"#;
        let listed: rmcp::model::ListToolsResult =
            serde_json::from_str(text).expect("a tools/list result");
        let (args, _) = args_from_schema(&listed.tools[0].input_schema);
        let names: Vec<&str> = args.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["mid", "zeta", "alpha"]);
    }

    #[test]
    fn no_properties_means_open() {
        let (args, open) = args_from_schema(&obj(json!({"type": "object"})));
        assert!(args.is_empty() && open);
        let (args, open) = args_from_schema(&obj(json!({"properties": 3})));
        assert!(args.is_empty() && open);
    }
}
