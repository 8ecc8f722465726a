//! A JSON Schema as a Python type: `str`, `list[int]`, `str | None`,
//! `Literal['a', 'b']`, `{'time': str, 'zone': str}`.
//!
//! Servers write schemas we do not control, so the walk is bounded in
//! depth, in `$ref` hops and in output length; whatever it cannot show in
//! full it summarises (`dict`, `list`, `Any`) rather than drop.

use lackpy_sources::{MAX_TYPE, literal};
use serde_json::{Map, Value};

/// How deep nested schemas are rendered before they are summarised.
const MAX_DEPTH: usize = 4;
/// The most fields an object shows as `{'name': type, …}`.
const MAX_FIELDS: usize = 4;

/// The Python type of `schema`; `root` resolves local `$ref`s
/// (`#/$defs/X`, `#/definitions/X`).
pub fn python_type(schema: &Value, root: &Map<String, Value>) -> String {
    let t = walk(schema, root, 0);
    if t.len() <= MAX_TYPE {
        t
    } else {
        coarse(schema, root).to_string()
    }
}

/// The outer kind of a schema, for when its full type is too long.
fn coarse(schema: &Value, root: &Map<String, Value>) -> &'static str {
    let schema = resolve(schema, root).unwrap_or(schema);
    match schema.get("type").and_then(Value::as_str) {
        Some("object") => "dict",
        Some("array") => "list",
        Some("string") => "str",
        Some("integer") => "int",
        Some("number") => "float",
        Some("boolean") => "bool",
        _ if schema.get("properties").is_some() => "dict",
        _ => "Any",
    }
}

/// The schema a local `$ref` points at.
fn resolve<'a>(schema: &'a Value, root: &'a Map<String, Value>) -> Option<&'a Value> {
    let r = schema.get("$ref")?.as_str()?;
    let path = r.strip_prefix("#/")?;
    let mut parts = path.split('/');
    let mut at = root.get(parts.next()?)?;
    for p in parts {
        at = at.get(p.replace("~1", "/").replace("~0", "~"))?;
    }
    Some(at)
}

fn walk(schema: &Value, root: &Map<String, Value>, depth: usize) -> String {
    if depth > MAX_DEPTH {
        return coarse(schema, root).to_string();
    }
    let Some(obj) = schema.as_object() else {
        // `true` (anything) or a malformed schema.
        return "Any".to_string();
    };
    if obj.contains_key("$ref") {
        return match resolve(schema, root) {
            Some(target) => walk(target, root, depth + 1),
            None => "Any".to_string(),
        };
    }
    if let Some(c) = obj.get("const") {
        return literal(std::slice::from_ref(c));
    }
    if let Some(Value::Array(values)) = obj.get("enum") {
        return union(values_union(values));
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(members)) = obj.get(key) {
            let types = members.iter().map(|m| walk(m, root, depth + 1)).collect();
            return union(types);
        }
    }
    if let Some(Value::Array(all)) = obj.get("allOf") {
        // An intersection: its one member, else the object it builds.
        return match all.as_slice() {
            [one] => walk(one, root, depth + 1),
            _ => "dict".to_string(),
        };
    }
    match obj.get("type") {
        Some(Value::String(t)) => of_kind(t, obj, root, depth),
        Some(Value::Array(kinds)) => union(
            kinds
                .iter()
                .filter_map(Value::as_str)
                .map(|t| of_kind(t, obj, root, depth))
                .collect(),
        ),
        _ if obj.contains_key("properties") => of_kind("object", obj, root, depth),
        _ if obj.contains_key("items") => of_kind("array", obj, root, depth),
        _ => "Any".to_string(),
    }
}

/// `enum` values: one `Literal[...]`, plus `None` apart when `null` is
/// among them (so `str | None` style reads the same).
fn values_union(values: &[Value]) -> Vec<String> {
    let non_null: Vec<Value> = values.iter().filter(|v| !v.is_null()).cloned().collect();
    let mut types = Vec::new();
    if !non_null.is_empty() {
        types.push(literal(&non_null));
    }
    if non_null.len() < values.len() {
        types.push("None".to_string());
    }
    types
}

fn of_kind(
    kind: &str,
    obj: &Map<String, Value>,
    root: &Map<String, Value>,
    depth: usize,
) -> String {
    match kind {
        "string" => "str".to_string(),
        "integer" => "int".to_string(),
        "number" => "float".to_string(),
        "boolean" => "bool".to_string(),
        "null" => "None".to_string(),
        "array" => match obj.get("items") {
            Some(items @ Value::Object(_)) => format!("list[{}]", walk(items, root, depth + 1)),
            _ => "list".to_string(),
        },
        "object" => object_type(obj, root, depth),
        _ => "Any".to_string(),
    }
}

/// `{'a': str, 'b': int}` for an object with a few simply typed
/// properties; `dict[str, T]` for a map; `dict` otherwise.
fn object_type(obj: &Map<String, Value>, root: &Map<String, Value>, depth: usize) -> String {
    if let Some(Value::Object(props)) = obj.get("properties")
        && !props.is_empty()
    {
        if props.len() > MAX_FIELDS {
            return "dict".to_string();
        }
        let mut fields = Vec::new();
        for (name, prop) in props {
            let t = walk(prop, root, depth + 1);
            // Only simple fields: a nested shape would make the line unreadable.
            if t.contains(['[', '{']) || name.len() > 40 {
                return "dict".to_string();
            }
            fields.push(format!(
                "{}: {t}",
                lackpy_sources::py_repr(&Value::String(name.clone()))
            ));
        }
        return format!("{{{}}}", fields.join(", "));
    }
    match obj.get("additionalProperties") {
        Some(v @ Value::Object(m)) if !m.is_empty() => {
            format!("dict[str, {}]", walk(v, root, depth + 1))
        }
        _ => "dict".to_string(),
    }
}

/// `a | b` over distinct types, `None` last; `Any` swallows the rest.
fn union(types: Vec<String>) -> String {
    let mut seen: Vec<String> = Vec::new();
    for t in types {
        if t == "Any" {
            return t;
        }
        if !seen.contains(&t) {
            seen.push(t);
        }
    }
    if let Some(i) = seen.iter().position(|t| t == "None") {
        let none = seen.remove(i);
        seen.push(none);
    }
    if seen.is_empty() {
        "Any".to_string()
    } else {
        seen.join(" | ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ty(schema: Value) -> String {
        let root = match &schema {
            Value::Object(m) => m.clone(),
            _ => Map::new(),
        };
        python_type(&schema, &root)
    }

    #[test]
    fn scalars() {
        assert_eq!(ty(json!({"type": "string"})), "str");
        assert_eq!(ty(json!({"type": "integer"})), "int");
        assert_eq!(ty(json!({"type": "number"})), "float");
        assert_eq!(ty(json!({"type": "boolean"})), "bool");
        assert_eq!(ty(json!({"type": "null"})), "None");
        assert_eq!(ty(json!({})), "Any");
        assert_eq!(ty(json!(true)), "Any");
        assert_eq!(ty(json!({"type": "weird"})), "Any");
    }

    #[test]
    fn containers() {
        assert_eq!(ty(json!({"type": "array"})), "list");
        assert_eq!(
            ty(json!({"type": "array", "items": {"type": "string"}})),
            "list[str]"
        );
        assert_eq!(
            ty(json!({"type": "array", "items": {"type": "array", "items": {"type": "integer"}}})),
            "list[list[int]]"
        );
        assert_eq!(ty(json!({"type": "object"})), "dict");
        assert_eq!(
            ty(json!({"type": "object", "additionalProperties": {"type": "number"}})),
            "dict[str, float]"
        );
        assert_eq!(
            ty(
                json!({"type": "object", "properties": {"time": {"type": "string"}, "dst": {"type": "boolean"}}})
            ),
            "{'time': str, 'dst': bool}"
        );
        let five: Map<String, Value> = (0..5)
            .map(|i| (format!("f{i}"), json!({"type": "string"})))
            .collect();
        assert_eq!(ty(json!({"type": "object", "properties": five})), "dict");
        assert_eq!(
            ty(json!({"type": "object", "properties": {"xs": {"type": "array", "items": {}}}})),
            "dict"
        );
    }

    #[test]
    fn unions_and_literals() {
        assert_eq!(ty(json!({"type": ["string", "null"]})), "str | None");
        assert_eq!(
            ty(json!({"anyOf": [{"type": "null"}, {"type": "integer"}, {"type": "integer"}]})),
            "int | None"
        );
        assert_eq!(ty(json!({"oneOf": [{"type": "string"}, {}]})), "Any");
        assert_eq!(ty(json!({"anyOf": []})), "Any");
        assert_eq!(
            ty(json!({"enum": ["a", "b", null]})),
            "Literal['a', 'b'] | None"
        );
        assert_eq!(ty(json!({"const": 3})), "Literal[3]");
        assert_eq!(ty(json!({"allOf": [{"type": "string"}]})), "str");
    }

    #[test]
    fn refs_resolve_and_bad_refs_are_any() {
        let schema = json!({
            "$defs": {"Unit": {"enum": ["c", "f"]}, "Loop": {"$ref": "#/$defs/Loop"}},
            "type": "array", "items": {"$ref": "#/$defs/Unit"}
        });
        assert_eq!(ty(schema), "list[Literal['c', 'f']]");
        let looped = json!({"$defs": {"Loop": {"$ref": "#/$defs/Loop"}}, "$ref": "#/$defs/Loop"});
        assert_eq!(ty(looped), "Any");
        assert_eq!(ty(json!({"$ref": "https://example.com/s.json"})), "Any");
    }

    #[test]
    fn hostile_schemas_stay_bounded() {
        let mut deep = json!({"type": "string"});
        // Deeper than serde_json parses off the wire (128).
        for _ in 0..120 {
            deep = json!({"type": "array", "items": deep});
        }
        let t = ty(deep);
        assert!(t.len() <= MAX_TYPE, "{t}");
        assert!(t.starts_with("list[list[list["), "{t}");

        let values: Vec<Value> = (0..1000).map(|i| json!(i)).collect();
        let t = ty(json!({"enum": values}));
        assert_eq!(t, "Literal[0, 1, 2, 3, 4, 5, 6, 7, ...]");

        let members: Vec<Value> = (0..500)
            .map(|i| json!({"type": "array", "items": {"const": format!("member{i}")}}))
            .collect();
        let t = ty(json!({"type": "array", "anyOf": members}));
        assert_eq!(t, "list");

        let long = "n".repeat(10_000);
        let t = ty(json!({"type": "object", "properties": {long: {"type": "string"}}}));
        assert_eq!(t, "dict");
        let t = ty(json!({"const": "x".repeat(10_000)}));
        assert!(t.len() <= MAX_TYPE, "{t}");
    }
}
