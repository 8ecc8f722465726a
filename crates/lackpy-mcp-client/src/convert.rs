//! Values across the MCP boundary: call arguments to JSON, call results to
//! [`Data`].
//!
//! A result becomes a value in the order `tools.md` fixes:
//! 1. `structuredContent` that is exactly `{"result": v}` → `v`;
//! 2. any other `structuredContent` object → that dict;
//! 3. one text block → `str` (JSON text stays a string), several → list of str;
//!    text beside other blocks → a list in block order: each text a str, each
//!    other block its dict with its bytes noted, not kept
//!    (`{type: "image", mimeType, omitted_bytes: N}`), so no part is lost
//!    silently;
//! 4. no text but other blocks → list of dicts `{type, mimeType, data | uri | text}`;
//! 5. nothing → `None`.
//!
//! With `structuredContent`, other blocks (an image beside the structured
//! answer) are logged at INFO as omitted.
//!
//! `isError` results become a tool error whose message is the text blocks
//! joined by `"; "`, or `MCP tool returned an error` when there are none.

use lackpy_lang::{Data, MAX_JSON_DEPTH};
use lackpy_sources::ToolError;
use num_traits::ToPrimitive;
use rmcp::model::{CallToolResult, ContentBlock, ResourceContents};
use serde_json::{Map, Number, Value};

/// A JSON value as a program value, by lackpy-lang's rules for reading
/// JSON (objects become dicts in document order, integers keep every digit
/// serde kept); nesting past [`MAX_JSON_DEPTH`] is a tool error.
pub fn json_to_data(v: &Value) -> Result<Data, ToolError> {
    Data::from_json_value(v).map_err(|e| ToolError::value_error(format!("result: {e}")))
}

/// A program value as JSON for a call's arguments. The protocol needs
/// strict JSON, so this is not `json.dumps`' text: tuples and sets become
/// arrays (as the Python MCP SDK sends them), and non-finite floats,
/// integers past 64 bits and keys `json.dumps` refuses are errors. Keys are
/// turned into strings by `json.dumps`' rule ([`Data::json_key`]).
pub fn data_to_json(d: &Data) -> Result<Value, ToolError> {
    // A loop over an explicit stack of open containers rather than
    // recursion: an argument nested as deep as the limit needs no more of
    // the caller's thread stack than a flat one.
    let mut open: Vec<Open<'_>> = Vec::new();
    let mut next = d;
    loop {
        let mut done = match next {
            Data::List(items) | Data::Tuple(items) | Data::Set(items) => {
                nest(open.len())?;
                open.push(Open::Array(items.iter(), Vec::with_capacity(items.len())));
                None
            }
            Data::Dict(pairs) => {
                nest(open.len())?;
                open.push(Open::Object(pairs.iter(), Map::new(), String::new()));
                None
            }
            scalar => Some(scalar_to_json(scalar)?),
        };
        // Hand finished values to their container until one has more to do.
        next = loop {
            let Some(top) = open.last_mut() else {
                return Ok(done.unwrap_or(Value::Null));
            };
            match top {
                Open::Array(items, out) => {
                    out.extend(done.take());
                    if let Some(item) = items.next() {
                        break item;
                    }
                }
                Open::Object(pairs, out, key_of_done) => {
                    if let Some(v) = done.take() {
                        out.insert(std::mem::take(key_of_done), v);
                    }
                    if let Some((k, v)) = pairs.next() {
                        *key_of_done = key(k)?;
                        break v;
                    }
                }
            }
            done = open.pop().map(Open::finish);
        };
    }
}

/// A container being converted: what is left of it and what is done.
enum Open<'a> {
    Array(std::slice::Iter<'a, Data>, Vec<Value>),
    /// The last field is the key of the value being converted.
    Object(
        std::slice::Iter<'a, (Data, Data)>,
        Map<String, Value>,
        String,
    ),
}

impl Open<'_> {
    fn finish(self) -> Value {
        match self {
            Open::Array(_, out) => Value::Array(out),
            Open::Object(_, out, _) => Value::Object(out),
        }
    }
}

/// Refuses one more level of nesting past the limit.
fn nest(depth: usize) -> Result<(), ToolError> {
    if depth < MAX_JSON_DEPTH {
        Ok(())
    } else {
        Err(ToolError::value_error(format!(
            "argument nested too deeply for JSON (more than {MAX_JSON_DEPTH} levels)"
        )))
    }
}

/// A dict key by `json.dumps`' rule; other types are refused as Python
/// refuses them.
fn key(k: &Data) -> Result<String, ToolError> {
    k.json_key().ok_or_else(|| {
        ToolError::type_error(format!(
            "keys must be str, int, float, bool or None, not {}",
            k.type_name()
        ))
    })
}

fn scalar_to_json(d: &Data) -> Result<Value, ToolError> {
    Ok(match d {
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
        // Containers are data_to_json's.
        Data::None | Data::List(_) | Data::Tuple(_) | Data::Set(_) | Data::Dict(_) => Value::Null,
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

/// The bytes a base64 text decodes to (what a dropped part held).
fn decoded_len(b64: &str) -> usize {
    let chars = b64.bytes().filter(|b| !b.is_ascii_whitespace()).count();
    let padding = b64
        .trim_end()
        .bytes()
        .rev()
        .take_while(|b| *b == b'=')
        .count();
    (chars / 4 * 3 + (chars % 4).saturating_sub(1)).saturating_sub(padding.min(2))
}

/// A non-text block beside text: its dict, with `omitted_bytes` in place
/// of its base64 `data` (a program reading text has no use for the bytes,
/// but must be able to see they were there).
fn noted_block(block: &ContentBlock) -> Data {
    let data = match block {
        ContentBlock::Image(i) => Some(i.data.as_str()),
        ContentBlock::Audio(a) => Some(a.data.as_str()),
        ContentBlock::Resource(e) => match &e.resource {
            ResourceContents::BlobResourceContents { blob, .. } => Some(blob.as_str()),
            _ => None,
        },
        _ => None,
    };
    let Data::Dict(pairs) = block_dict(block) else {
        return block_dict(block);
    };
    let mut pairs: Vec<(Data, Data)> = pairs
        .into_iter()
        .filter(|(k, _)| *k != Data::Str("data".to_string()))
        .collect();
    if let Some(d) = data {
        pairs.push((
            Data::Str("omitted_bytes".to_string()),
            Data::Int(decoded_len(d).into()),
        ));
    }
    Data::Dict(pairs)
}

/// Logs the non-text blocks a structured answer leaves out of the value.
fn log_unused_blocks(result: &CallToolResult) {
    for block in &result.content {
        if !matches!(block, ContentBlock::Text(_)) {
            tracing::info!(
                "an MCP result part was omitted (the structured answer is the value): {}",
                noted_block(block).py_repr()
            );
        }
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
    if result.structured_content.is_some() {
        log_unused_blocks(result);
    }
    match &result.structured_content {
        Some(Value::Object(map)) => {
            if map.len() == 1
                && let Some(v) = map.get("result")
            {
                return json_to_data(v);
            }
            return json_to_data(&Value::Object(map.clone()));
        }
        // Newer servers may return any JSON value; use it rather than its text.
        Some(v @ (Value::Array(_) | Value::String(_) | Value::Number(_) | Value::Bool(_))) => {
            return json_to_data(v);
        }
        _ => {}
    }
    let texts = texts(result);
    if !texts.is_empty() && texts.len() < result.content.len() {
        // Text beside other parts: every part in order, none lost.
        return Ok(Data::List(
            result
                .content
                .iter()
                .map(|b| match b {
                    ContentBlock::Text(t) => Data::Str(t.text.clone()),
                    other => noted_block(other),
                })
                .collect(),
        ));
    }
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
            {"type": "text", "text": "x"}, {"type": "text", "text": "y"}]}));
        assert_eq!(result_to_data(&two), Ok(Data::List(vec![s("x"), s("y")])));
    }

    #[test]
    fn parts_beside_text_are_noted_never_lost() {
        let r = result(json!({"content": [
            {"type": "text", "text": "x"},
            {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
            {"type": "audio", "data": "AAAA", "mimeType": "audio/wav"},
            {"type": "resource", "resource": {"uri": "file:///b", "blob": "AA==", "mimeType": "application/octet-stream"}},
            {"type": "resource_link", "uri": "file:///c", "name": "c"}]}));
        let Ok(v) = result_to_data(&r) else {
            panic!("a value");
        };
        assert_eq!(
            v.py_repr(),
            "['x', {'type': 'image', 'mimeType': 'image/png', 'omitted_bytes': 8}, \
             {'type': 'audio', 'mimeType': 'audio/wav', 'omitted_bytes': 3}, \
             {'type': 'resource', 'mimeType': 'application/octet-stream', 'uri': 'file:///b', \
             'omitted_bytes': 1}, {'type': 'resource_link', 'uri': 'file:///c'}]"
        );
        assert_eq!(decoded_len(""), 0);
        assert_eq!(decoded_len("QQ"), 1);
        assert_eq!(decoded_len("QUJD"), 3);
        assert_eq!(decoded_len("QUI="), 2);
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
        let big = num_bigint::BigInt::from(u64::MAX) * 4;
        assert!(data_to_json(&Data::Int(big)).is_err());
        // Keys by json.dumps' rule; a tuple key is refused as Python refuses it.
        let keys = Data::Dict(vec![
            (Data::Float(f64::NAN), Data::None),
            (Data::Bool(true), Data::None),
        ]);
        assert_eq!(data_to_json(&keys), Ok(json!({"NaN": null, "true": null})));
        let tuple_key = Data::Dict(vec![(Data::Tuple(vec![]), Data::None)]);
        assert_eq!(
            data_to_json(&tuple_key).unwrap_err().message(),
            "keys must be str, int, float, bool or None, not tuple"
        );
        // One depth limit for every JSON conversion of a value.
        let mut deep = Data::None;
        for _ in 0..MAX_JSON_DEPTH {
            deep = Data::List(vec![deep]);
        }
        assert!(data_to_json(&deep).is_ok());
        assert!(data_to_json(&Data::List(vec![deep])).is_err());
    }
}
