//! [`Data`] from a [`serde_json::Value`] that someone else already parsed
//! (an MCP SDK's result, a JSON-RPC argument), by the rules
//! [`Data::from_json`] reads text with: objects become dicts in their
//! order, integers ints, other numbers floats.
//!
//! The order of an object's keys is its document order because the
//! workspace builds `serde_json` with `preserve_order`.

use num_bigint::BigInt;
use serde_json::{Number, Value};

use crate::data::Data;
use crate::data::json::MAX_JSON_DEPTH;

impl Data {
    /// The value a parsed JSON document stands for. Integers keep what
    /// `serde_json` kept (every digit up to 64 bits). Nesting deeper than
    /// [`MAX_JSON_DEPTH`] is refused, as [`Data::from_json`] refuses it.
    pub fn from_json_value(v: &Value) -> Result<Data, String> {
        from_value_at(v, 0)
    }
}

// Plain loops rather than iterator adapters: a level is one small frame,
// so the deepest document fits a 2 MiB thread's stack in a debug build.
fn from_value_at(v: &Value, depth: usize) -> Result<Data, String> {
    Ok(match v {
        Value::Null => Data::None,
        Value::Bool(b) => Data::Bool(*b),
        Value::Number(n) => number(n),
        Value::String(s) => Data::Str(s.clone()),
        Value::Array(items) => {
            let depth = nest(depth)?;
            let mut out = Vec::with_capacity(items.len());
            for item in items {
                out.push(from_value_at(item, depth)?);
            }
            Data::List(out)
        }
        Value::Object(map) => {
            let depth = nest(depth)?;
            let mut out = Vec::with_capacity(map.len());
            for (k, item) in map {
                out.push((Data::Str(k.clone()), from_value_at(item, depth)?));
            }
            Data::Dict(out)
        }
    })
}

fn nest(depth: usize) -> Result<usize, String> {
    if depth >= MAX_JSON_DEPTH {
        Err(format!(
            "Nesting too deep (more than {MAX_JSON_DEPTH} levels)"
        ))
    } else {
        Ok(depth + 1)
    }
}

fn number(n: &Number) -> Data {
    if let Some(i) = n.as_i64() {
        Data::Int(BigInt::from(i))
    } else if let Some(u) = n.as_u64() {
        Data::Int(BigInt::from(u))
    } else {
        Data::Float(n.as_f64().unwrap_or(f64::NAN))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_as_from_json_reads_the_text() {
        let v = json!({"b": [1, -2, 18446744073709551615u64, 2.5, true, null], "a": {"s": "é"}});
        let text = v.to_string();
        assert_eq!(Data::from_json_value(&v), Data::from_json(&text));
    }

    #[test]
    fn keys_keep_document_order() {
        let v: Value = serde_json::from_str(r#"{"z": 1, "a": 2, "m": 3}"#).expect("JSON");
        let Ok(Data::Dict(pairs)) = Data::from_json_value(&v) else {
            panic!("not a dict");
        };
        let keys: Vec<String> = pairs.iter().filter_map(|(k, _)| k.json_key()).collect();
        assert_eq!(keys, ["z", "a", "m"]);
    }

    #[test]
    fn nesting_is_bounded_like_the_text_reader() {
        let mut deep = json!(0);
        for _ in 0..MAX_JSON_DEPTH {
            deep = json!([deep]);
        }
        assert!(Data::from_json_value(&deep).is_ok());
        let text = deep.to_string();
        assert!(Data::from_json(&text).is_ok());
        let deeper = json!([deep]);
        assert!(Data::from_json_value(&deeper).is_err());
        assert!(Data::from_json(&format!("[{text}]")).is_err());
    }
}
