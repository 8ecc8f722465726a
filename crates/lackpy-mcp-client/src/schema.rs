//! Arguments from a tool's `inputSchema`: names in the schema's order,
//! display types, required flags.
//!
//! Order matters (positional arguments map onto properties in order), but
//! `serde_json::Map` keeps keys sorted unless its `preserve_order` feature is
//! on. So the order is taken, best first, from the raw `tools/list` text when
//! the transport could keep it ([`raw_property_orders`]), from the map when
//! the map keeps document order, and otherwise the `required` list first (in
//! its order: required parameters usually come first) and the rest sorted.

use std::collections::HashMap;
use std::fmt;
use std::sync::LazyLock;

use lackpy_sources::ArgSpec;
use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::{Map, Value};

/// Whether `serde_json::Map` iterates in document order in this build.
static MAP_KEEPS_ORDER: LazyLock<bool> = LazyLock::new(|| {
    serde_json::from_str::<Map<String, Value>>(r#"{"b":0,"a":0}"#)
        .ok()
        .and_then(|m| m.keys().next().map(|k| k == "b"))
        .unwrap_or(false)
});

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

/// The names of the schema's properties in the best order available.
fn property_order(
    props: &Map<String, Value>,
    required: &[&str],
    raw: Option<&[String]>,
) -> Vec<String> {
    if let Some(raw) = raw {
        let mut out: Vec<String> = raw
            .iter()
            .filter(|k| props.contains_key(k.as_str()))
            .cloned()
            .collect();
        // Anything the raw text missed (it should not) goes last.
        out.extend(props.keys().filter(|k| !raw.contains(k)).cloned());
        return out;
    }
    if *MAP_KEEPS_ORDER {
        return props.keys().cloned().collect();
    }
    let mut out: Vec<String> = Vec::new();
    for r in required {
        if props.contains_key(*r) && !out.iter().any(|o| o == r) {
            out.push((*r).to_string());
        }
    }
    out.extend(
        props
            .keys()
            .filter(|k| !required.contains(&k.as_str()))
            .cloned(),
    );
    out
}

/// A tool's arguments from its `inputSchema`, and whether the schema lists
/// no properties at all (then keyword arguments pass through unchecked).
pub fn args_from_schema(
    schema: &Map<String, Value>,
    raw_order: Option<&[String]>,
) -> (Vec<ArgSpec>, bool) {
    let required: Vec<&str> = match schema.get("required") {
        Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let Some(Value::Object(props)) = schema.get("properties") else {
        return (Vec::new(), true);
    };
    let args = property_order(props, &required, raw_order)
        .into_iter()
        .map(|name| {
            let prop = props.get(&name).cloned().unwrap_or(Value::Null);
            let description = prop
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            ArgSpec {
                required: required.contains(&name.as_str()),
                type_name: display_type(&prop),
                description,
                name,
            }
        })
        .collect::<Vec<_>>();
    let open = args.is_empty();
    (args, open)
}

/// Keys of a JSON object in document order; values skipped.
struct KeyOrder(Vec<String>);

impl<'de> Deserialize<'de> for KeyOrder {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<KeyOrder, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = KeyOrder;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<KeyOrder, A::Error> {
                let mut keys = Vec::new();
                while let Some(k) = map.next_key::<String>()? {
                    map.next_value::<IgnoredAny>()?;
                    keys.push(k);
                }
                Ok(KeyOrder(keys))
            }
            // Anything else (a hostile `properties: 3`) counts as no keys.
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<KeyOrder, E> {
                Ok(KeyOrder(Vec::new()))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<KeyOrder, E> {
                Ok(KeyOrder(Vec::new()))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<KeyOrder, E> {
                Ok(KeyOrder(Vec::new()))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<KeyOrder, E> {
                Ok(KeyOrder(Vec::new()))
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<KeyOrder, E> {
                Ok(KeyOrder(Vec::new()))
            }
            fn visit_unit<E: de::Error>(self) -> Result<KeyOrder, E> {
                Ok(KeyOrder(Vec::new()))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<KeyOrder, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(KeyOrder(Vec::new()))
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Deserialize)]
struct RawSchema {
    #[serde(default)]
    properties: Option<KeyOrder>,
}

#[derive(Deserialize)]
struct RawTool {
    name: String,
    #[serde(rename = "inputSchema", default)]
    input_schema: Option<RawSchema>,
}

#[derive(Deserialize)]
struct RawResult {
    #[serde(default)]
    tools: Vec<RawTool>,
}

#[derive(Deserialize)]
struct RawMessage {
    #[serde(default)]
    result: Option<RawResult>,
}

/// Property order per tool name, read from raw `tools/list` response
/// lines. Lines that are not such responses are ignored.
pub fn raw_property_orders(lines: &[Vec<u8>]) -> HashMap<String, Vec<String>> {
    let mut out = HashMap::new();
    for line in lines {
        let Ok(msg) = serde_json::from_slice::<RawMessage>(line) else {
            continue;
        };
        for tool in msg.result.map(|r| r.tools).unwrap_or_default() {
            if let Some(KeyOrder(keys)) = tool.input_schema.and_then(|s| s.properties) {
                out.insert(tool.name, keys);
            }
        }
    }
    out
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
        let raw = ["s", "i", "n", "b", "o", "a", "x", "maybe"].map(String::from);
        let (args, open) = args_from_schema(&schema, Some(&raw));
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
    fn without_raw_order_required_come_first() {
        let schema =
            obj(json!({"properties": {"zeta": {}, "alpha": {}, "mid": {}}, "required": ["zeta"]}));
        let (args, _) = args_from_schema(&schema, None);
        let names: Vec<&str> = args.iter().map(|a| a.name.as_str()).collect();
        // Document order and the fallback (required first, then sorted) agree here.
        assert_eq!(names, ["zeta", "alpha", "mid"]);
    }

    #[test]
    fn no_properties_means_open() {
        let (args, open) = args_from_schema(&obj(json!({"type": "object"})), None);
        assert!(args.is_empty() && open);
    }

    #[test]
    fn raw_lines_give_document_order() {
        let line = br#"{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"t","inputSchema":{"type":"object","properties":{"z":{"type":"string"},"a":{}}}},{"name":"u","inputSchema":{"properties":3}}]}}"#;
        let orders = raw_property_orders(&[line.to_vec(), b"garbage".to_vec()]);
        assert_eq!(
            orders.get("t"),
            Some(&vec!["z".to_string(), "a".to_string()])
        );
        assert_eq!(orders.get("u"), Some(&Vec::new()));
    }
}
