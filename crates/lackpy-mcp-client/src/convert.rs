//! Values across the MCP boundary: call arguments to JSON, call results to
//! [`Data`].
//!
//! A result becomes a value in the order `tools.md` fixes:
//! 1. `structuredContent` that is exactly `{"result": v}` → `v`;
//! 2. any other `structuredContent` object → that dict;
//! 3. one text block → `str` (JSON text stays a string), several → list of str;
//! 4. no text but other blocks → list of dicts `{type, mimeType, data | uri | text}`;
//! 5. nothing → `None`.
//!
//! `isError` results become a tool error whose message is the text blocks
//! joined by `"; "`, or `MCP tool returned an error` when there are none.

use lackpy_lang::Data;
use lackpy_sources::ToolError;
use num_bigint::BigInt;
use num_traits::ToPrimitive;
use rmcp::model::{CallToolResult, ContentBlock, ResourceContents};
use serde_json::{Map, Number, Value};

/// Nesting deeper than this is refused on both sides.
const MAX_DEPTH: usize = 256;

/// A JSON value as a program value: objects become dicts in their
/// iteration order, integers keep every digit serde kept.
pub fn json_to_data(v: &Value) -> Data {
    json_to_data_at(v, 0)
}

fn json_to_data_at(v: &Value, depth: usize) -> Data {
    if depth > MAX_DEPTH {
        return Data::None;
    }
    match v {
        Value::Null => Data::None,
        Value::Bool(b) => Data::Bool(*b),
        Value::Number(n) => number_to_data(n),
        Value::String(s) => Data::Str(s.clone()),
        Value::Array(items) => Data::List(
            items
                .iter()
                .map(|i| json_to_data_at(i, depth + 1))
                .collect(),
        ),
        Value::Object(map) => Data::Dict(
            map.iter()
                .map(|(k, v)| (Data::Str(k.clone()), json_to_data_at(v, depth + 1)))
                .collect(),
        ),
    }
}

fn number_to_data(n: &Number) -> Data {
    if let Some(i) = n.as_i64() {
        Data::Int(BigInt::from(i))
    } else if let Some(u) = n.as_u64() {
        Data::Int(BigInt::from(u))
    } else {
        Data::Float(n.as_f64().unwrap_or(f64::NAN))
    }
}

/// A dict key as JSON writes it (Python's `json.dumps` rules).
fn key_text(k: &Data) -> Result<String, ToolError> {
    Ok(match k {
        Data::Str(s) => s.clone(),
        Data::Int(i) => i.to_string(),
        Data::Bool(true) => "true".into(),
        Data::Bool(false) => "false".into(),
        Data::None => "null".into(),
        Data::Float(_) => k.py_repr(),
        _ => {
            return Err(ToolError::type_error(format!(
                "keys must be str, int, float, bool or None, not {}",
                type_name(k)
            )));
        }
    })
}

fn type_name(d: &Data) -> &'static str {
    match d {
        Data::None => "NoneType",
        Data::Bool(_) => "bool",
        Data::Int(_) => "int",
        Data::Float(_) => "float",
        Data::Str(_) => "str",
        Data::List(_) => "list",
        Data::Tuple(_) => "tuple",
        Data::Dict(_) => "dict",
        Data::Set(_) => "set",
    }
}

/// A program value as JSON for a call's arguments. Tuples and sets become
/// arrays; non-finite floats and integers JSON cannot carry are errors.
pub fn data_to_json(d: &Data) -> Result<Value, ToolError> {
    data_to_json_at(d, 0)
}

fn data_to_json_at(d: &Data, depth: usize) -> Result<Value, ToolError> {
    if depth > MAX_DEPTH {
        return Err(ToolError::value_error(
            "argument nested too deeply for JSON",
        ));
    }
    Ok(match d {
        Data::None => Value::Null,
        Data::Bool(b) => Value::Bool(*b),
        Data::Int(i) => match (i.to_i64(), i.to_u64()) {
            (Some(v), _) => Value::from(v),
            (None, Some(v)) => Value::from(v),
            _ => {
                return Err(ToolError::value_error(format!(
                    "integer {i} is too large for JSON"
                )));
            }
        },
        Data::Float(f) => match Number::from_f64(*f) {
            Some(n) => Value::Number(n),
            None => {
                return Err(ToolError::value_error(
                    "Out of range float values are not JSON compliant",
                ));
            }
        },
        Data::Str(s) => Value::String(s.clone()),
        Data::List(items) | Data::Tuple(items) | Data::Set(items) => Value::Array(
            items
                .iter()
                .map(|i| data_to_json_at(i, depth + 1))
                .collect::<Result<_, _>>()?,
        ),
        Data::Dict(pairs) => {
            let mut map = Map::new();
            for (k, v) in pairs {
                map.insert(key_text(k)?, data_to_json_at(v, depth + 1)?);
            }
            Value::Object(map)
        }
    })
}

fn dict(pairs: Vec<(&str, Option<&str>)>) -> Data {
    Data::Dict(
        pairs
            .into_iter()
            .filter_map(|(k, v)| v.map(|v| (Data::Str(k.to_string()), Data::Str(v.to_string()))))
            .collect(),
    )
}

/// A non-text block as `{type, mimeType, data | uri | text}`.
fn block_dict(block: &ContentBlock) -> Data {
    match block {
        ContentBlock::Text(t) => dict(vec![("type", Some("text")), ("text", Some(&t.text))]),
        ContentBlock::Image(i) => dict(vec![
            ("type", Some("image")),
            ("mimeType", Some(&i.mime_type)),
            ("data", Some(&i.data)),
        ]),
        ContentBlock::Audio(a) => dict(vec![
            ("type", Some("audio")),
            ("mimeType", Some(&a.mime_type)),
            ("data", Some(&a.data)),
        ]),
        ContentBlock::ResourceLink(r) => dict(vec![
            ("type", Some("resource_link")),
            ("mimeType", r.mime_type.as_deref()),
            ("uri", Some(&r.uri)),
        ]),
        ContentBlock::Resource(e) => match &e.resource {
            ResourceContents::TextResourceContents {
                uri,
                mime_type,
                text,
                ..
            } => dict(vec![
                ("type", Some("resource")),
                ("mimeType", mime_type.as_deref()),
                ("uri", Some(uri)),
                ("text", Some(text)),
            ]),
            ResourceContents::BlobResourceContents {
                uri,
                mime_type,
                blob,
                ..
            } => dict(vec![
                ("type", Some("resource")),
                ("mimeType", mime_type.as_deref()),
                ("uri", Some(uri)),
                ("data", Some(blob)),
            ]),
            _ => dict(vec![("type", Some("resource"))]),
        },
        _ => dict(vec![("type", Some("unknown"))]),
    }
}

fn texts(result: &CallToolResult) -> Vec<&str> {
    result
        .content
        .iter()
        .filter_map(|b| match b {
            ContentBlock::Text(t) => Some(t.text.as_str()),
            _ => None,
        })
        .collect()
}

/// The value (or the tool error) a call result stands for.
pub fn result_to_data(result: &CallToolResult) -> Result<Data, ToolError> {
    if result.is_error == Some(true) {
        // Blank texts say nothing: a program must still see why it failed.
        let texts: Vec<&str> = texts(result)
            .into_iter()
            .filter(|t| !t.trim().is_empty())
            .collect();
        let message = if texts.is_empty() {
            "MCP tool returned an error".to_string()
        } else {
            texts.join("; ")
        };
        return Err(ToolError::failed(message).with_type("RuntimeError"));
    }
    match &result.structured_content {
        Some(Value::Object(map)) => {
            if map.len() == 1
                && let Some(v) = map.get("result")
            {
                return Ok(json_to_data(v));
            }
            return Ok(json_to_data(&Value::Object(map.clone())));
        }
        // Newer servers may return any JSON value; use it rather than its text.
        Some(v @ (Value::Array(_) | Value::String(_) | Value::Number(_) | Value::Bool(_))) => {
            return Ok(json_to_data(v));
        }
        _ => {}
    }
    let texts = texts(result);
    match texts.len() {
        0 if result.content.is_empty() => Ok(Data::None),
        0 => Ok(Data::List(result.content.iter().map(block_dict).collect())),
        1 => Ok(Data::Str(
            texts.first().copied().unwrap_or_default().to_string(),
        )),
        _ => Ok(Data::List(
            texts
                .into_iter()
                .map(|t| Data::Str(t.to_string()))
                .collect(),
        )),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use serde_json::json;

    fn result(v: Value) -> CallToolResult {
        serde_json::from_value(v).unwrap_or_default()
    }

    fn s(x: &str) -> Data {
        Data::Str(x.to_string())
    }

    #[test]
    fn structured_result_wrapper_is_unwrapped() {
        let r = result(
            json!({"content": [{"type": "text", "text": "7"}], "structuredContent": {"result": 7}}),
        );
        assert_eq!(result_to_data(&r), Ok(Data::Int(7.into())));
    }

    #[test]
    fn other_structured_objects_are_dicts_in_order() {
        let r = result(json!({"content": [], "structuredContent": {"a": 1, "b": [true, null]}}));
        let Ok(Data::Dict(pairs)) = result_to_data(&r) else {
            panic!("not a dict");
        };
        assert_eq!(pairs.len(), 2);
        assert!(pairs.contains(&(s("b"), Data::List(vec![Data::Bool(true), Data::None]))));
    }

    #[test]
    fn text_blocks() {
        let one = result(json!({"content": [{"type": "text", "text": "{\"a\": 1}"}]}));
        assert_eq!(result_to_data(&one), Ok(s("{\"a\": 1}")));
        let two = result(json!({"content": [
            {"type": "text", "text": "x"}, {"type": "image", "data": "AA==", "mimeType": "image/png"},
            {"type": "text", "text": "y"}]}));
        assert_eq!(result_to_data(&two), Ok(Data::List(vec![s("x"), s("y")])));
    }

    #[test]
    fn non_text_blocks_become_dicts() {
        let r = result(json!({"content": [
            {"type": "image", "data": "AA==", "mimeType": "image/png"},
            {"type": "audio", "data": "BB==", "mimeType": "audio/wav"},
            {"type": "resource_link", "uri": "file:///a", "name": "a", "mimeType": "text/plain"},
            {"type": "resource", "resource": {"uri": "file:///b", "text": "hi", "mimeType": "text/plain"}},
            {"type": "resource", "resource": {"uri": "file:///c", "blob": "CC=="}}
        ]}));
        let want = Data::List(vec![
            Data::Dict(vec![
                (s("type"), s("image")),
                (s("mimeType"), s("image/png")),
                (s("data"), s("AA==")),
            ]),
            Data::Dict(vec![
                (s("type"), s("audio")),
                (s("mimeType"), s("audio/wav")),
                (s("data"), s("BB==")),
            ]),
            Data::Dict(vec![
                (s("type"), s("resource_link")),
                (s("mimeType"), s("text/plain")),
                (s("uri"), s("file:///a")),
            ]),
            Data::Dict(vec![
                (s("type"), s("resource")),
                (s("mimeType"), s("text/plain")),
                (s("uri"), s("file:///b")),
                (s("text"), s("hi")),
            ]),
            Data::Dict(vec![
                (s("type"), s("resource")),
                (s("uri"), s("file:///c")),
                (s("data"), s("CC==")),
            ]),
        ]);
        assert_eq!(result_to_data(&r), Ok(want));
    }

    #[test]
    fn nothing_is_none() {
        assert_eq!(
            result_to_data(&result(json!({"content": []}))),
            Ok(Data::None)
        );
    }

    #[test]
    fn errors_join_their_texts() {
        let r = result(
            json!({"isError": true, "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}),
        );
        let e = result_to_data(&r).unwrap_err();
        assert_eq!((e.message(), e.error_type()), ("a; b", "RuntimeError"));
        let bare = result(json!({"isError": true, "content": []}));
        assert_eq!(
            result_to_data(&bare).unwrap_err().message(),
            "MCP tool returned an error"
        );
    }

    #[test]
    fn arguments_to_json() {
        let d = Data::Dict(vec![
            (
                s("t"),
                Data::Tuple(vec![Data::Int(1.into()), Data::Float(2.5)]),
            ),
            (Data::Int(3.into()), Data::None),
        ]);
        assert_eq!(data_to_json(&d), Ok(json!({"t": [1, 2.5], "3": null})));
        assert!(data_to_json(&Data::Float(f64::NAN)).is_err());
        let big: BigInt = BigInt::from(u64::MAX) * 4;
        assert!(data_to_json(&Data::Int(big)).is_err());
    }
}
