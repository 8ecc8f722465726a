//! Arguments from a tool's `inputSchema`: names in the schema's order,
//! display types, required flags.
//!
//! Order matters (positional arguments map onto properties in order). The
//! SDK hands the schema over as a `serde_json::Map`, which keeps document
//! order because the workspace builds `serde_json` with `preserve_order`
//! (this crate's own dependency asks for it too, so it holds wherever the
//! crate is built; a test below proves it on the SDK's own types).

use lackpy_sources::ArgSpec;
use serde_json::{Map, Value};

/// The display type for a JSON Schema `type`.
fn display_type(prop: &Value) -> String {
    let kind = match prop.get("type") {
        Some(Value::String(t)) => Some(t.as_str()),
        // `["string", "null"]`: the one non-null type, if there is one.
        Some(Value::Array(ts)) => {
            let non_null: Vec<&str> = ts
                .iter()
                .filter_map(Value::as_str)
                .filter(|t| *t != "null")
                .collect();
            if non_null.len() == 1 {
                non_null.first().copied()
            } else {
                None
            }
        }
        _ => None,
    };
    match kind {
        Some("string") => "str",
        Some("integer") => "int",
        Some("number") => "float",
        Some("boolean") => "bool",
        Some("object") => "dict",
        Some("array") => "list",
        _ => "Any",
    }
    .to_string()
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
                type_name: display_type(prop),
                description,
                name: name.clone(),
                default: None,
                choices: Vec::new(),
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
                ("maybe", "str", false)
            ]
        );
        assert_eq!(args[0].description, "a string");
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
