//! [`Data`] as JSON that reads back as the same value.
//!
//! Python's JSON (what results show) loses types: a tuple, a set and a
//! list all become arrays, dict keys become strings, a big int may become a
//! float in another reader. A journal must answer a replayed call with
//! exactly what the tool gave, so it writes the types that JSON lacks as
//! one-key objects: `{"$tuple": [...]}`, `{"$set": [...]}`,
//! `{"$dict": [[k, v], ...]}` (every dict, so any key type survives),
//! `{"$int": "digits"}` past `i64`, `{"$float": "nan"|"inf"|"-inf"}`.
//! A float is always written with a fraction or exponent, so it reads back
//! as a float.

use lackpy_lang::Data;
use num_bigint::BigInt;
use serde_json::{Map, Number, Value};

/// Values nested deeper than this are not journaled: a level of a dict is
/// three levels of JSON, and a journal line must read back under
/// serde_json's limit of 128.
pub const MAX_DEPTH: usize = 40;

/// Why a value could not be written or read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodecError(pub String);

impl std::fmt::Display for CodecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Writes a value.
pub fn encode(d: &Data) -> Result<Value, CodecError> {
    enc(d, 0)
}

fn enc(d: &Data, depth: usize) -> Result<Value, CodecError> {
    if depth > MAX_DEPTH {
        return Err(CodecError(format!(
            "a value nested more than {MAX_DEPTH} levels deep cannot be journaled"
        )));
    }
    let list = |items: &[Data]| -> Result<Value, CodecError> {
        items
            .iter()
            .map(|i| enc(i, depth + 1))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array)
    };
    Ok(match d {
        Data::None => Value::Null,
        Data::Bool(b) => Value::Bool(*b),
        Data::Int(i) => match i64::try_from(i) {
            Ok(n) => Value::Number(n.into()),
            Err(_) => tagged("$int", Value::String(i.to_string())),
        },
        Data::Float(f) => match Number::from_f64(*f) {
            // serde_json writes a float with a fraction or an exponent.
            Some(n) => Value::Number(n),
            None => {
                let name = if f.is_nan() {
                    "nan"
                } else if *f > 0.0 {
                    "inf"
                } else {
                    "-inf"
                };
                tagged("$float", Value::String(name.into()))
            }
        },
        Data::Str(s) => Value::String(s.clone()),
        Data::List(items) => list(items)?,
        Data::Tuple(items) => tagged("$tuple", list(items)?),
        Data::Set(items) => tagged("$set", list(items)?),
        Data::Dict(pairs) => {
            let mut out = Vec::with_capacity(pairs.len());
            for (k, v) in pairs {
                out.push(Value::Array(vec![enc(k, depth + 1)?, enc(v, depth + 1)?]));
            }
            tagged("$dict", Value::Array(out))
        }
    })
}

fn tagged(tag: &str, v: Value) -> Value {
    let mut m = Map::with_capacity(1);
    m.insert(tag.to_string(), v);
    Value::Object(m)
}

/// Reads a value [`encode`] wrote.
pub fn decode(v: &Value) -> Result<Data, CodecError> {
    dec(v, 0)
}

fn dec(v: &Value, depth: usize) -> Result<Data, CodecError> {
    if depth > MAX_DEPTH {
        return Err(CodecError("a journaled value nests too deep".into()));
    }
    let list = |v: &Value| -> Result<Vec<Data>, CodecError> {
        match v {
            Value::Array(items) => items.iter().map(|i| dec(i, depth + 1)).collect(),
            other => Err(CodecError(format!("expected an array, found {other}"))),
        }
    };
    Ok(match v {
        Value::Null => Data::None,
        Value::Bool(b) => Data::Bool(*b),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Data::Int(BigInt::from(i))
            } else if let Some(u) = n.as_u64() {
                Data::Int(BigInt::from(u))
            } else {
                Data::Float(n.as_f64().unwrap_or(f64::NAN))
            }
        }
        Value::String(s) => Data::Str(s.clone()),
        Value::Array(_) => Data::List(list(v)?),
        Value::Object(m) => {
            let (tag, inner) = match m.iter().next() {
                Some(one) if m.len() == 1 => one,
                _ => return Err(CodecError("a journaled object must have one tag".into())),
            };
            match tag.as_str() {
                "$tuple" => Data::Tuple(list(inner)?),
                "$set" => Data::Set(list(inner)?),
                "$dict" => {
                    let Value::Array(pairs) = inner else {
                        return Err(CodecError("$dict holds an array of pairs".into()));
                    };
                    let mut out = Vec::with_capacity(pairs.len());
                    for p in pairs {
                        match p {
                            Value::Array(kv) if kv.len() == 2 => {
                                out.push((dec(&kv[0], depth + 1)?, dec(&kv[1], depth + 1)?));
                            }
                            _ => return Err(CodecError("a $dict pair is [key, value]".into())),
                        }
                    }
                    Data::Dict(out)
                }
                "$int" => match inner.as_str().and_then(|s| s.parse::<BigInt>().ok()) {
                    Some(i) => Data::Int(i),
                    None => return Err(CodecError("$int holds a decimal string".into())),
                },
                "$float" => match inner.as_str() {
                    Some("nan") => Data::Float(f64::NAN),
                    Some("inf") => Data::Float(f64::INFINITY),
                    Some("-inf") => Data::Float(f64::NEG_INFINITY),
                    _ => return Err(CodecError("$float is nan, inf or -inf".into())),
                },
                other => return Err(CodecError(format!("unknown tag {other:?}"))),
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(d: Data) {
        let v = encode(&d).expect("encodes");
        let text = serde_json::to_string(&v).expect("writes");
        let back: Value = serde_json::from_str(&text).expect("parses");
        let got = decode(&back).expect("decodes");
        assert_eq!(format!("{got:?}"), format!("{d:?}"), "{text}");
    }

    #[test]
    fn every_kind_reads_back_as_itself() {
        round(Data::None);
        round(Data::Bool(true));
        round(Data::Int(BigInt::from(-5)));
        round(Data::Int(BigInt::from(u64::MAX)));
        round(Data::Int(
            "123456789012345678901234567890".parse().expect("int"),
        ));
        round(Data::Float(1.0));
        round(Data::Float(-0.0));
        round(Data::Float(f64::INFINITY));
        round(Data::Float(f64::NEG_INFINITY));
        round(Data::Str("$tuple".into()));
        round(Data::Tuple(vec![
            Data::List(vec![]),
            Data::Set(vec![Data::None]),
        ]));
        round(Data::Dict(vec![
            (Data::Int(BigInt::from(1)), Data::Str("a".into())),
            (Data::Tuple(vec![]), Data::Float(2.5)),
        ]));
    }

    #[test]
    fn nan_reads_back_as_nan() {
        let v = encode(&Data::Float(f64::NAN)).expect("encodes");
        assert!(matches!(decode(&v), Ok(Data::Float(f)) if f.is_nan()));
    }

    #[test]
    fn a_dict_that_looks_like_a_tag_is_still_a_dict() {
        let d = Data::Dict(vec![(Data::Str("$int".into()), Data::Str("5".into()))]);
        round(d);
    }

    #[test]
    fn too_deep_is_an_error_not_a_crash() {
        let mut d = Data::None;
        for _ in 0..(MAX_DEPTH + 5) {
            d = Data::List(vec![d]);
        }
        assert!(encode(&d).is_err());
        // Free the deep value without recursing through the stack.
        let mut cur = d;
        while let Data::List(mut v) = cur {
            cur = v.pop().unwrap_or(Data::None);
        }
    }

    #[test]
    fn broken_input_is_an_error() {
        for text in [
            r#"{"$int": 5}"#,
            r#"{"a": 1, "b": 2}"#,
            r#"{"$dict": [[1]]}"#,
            r#"{"$x": 1}"#,
        ] {
            let v: Value = serde_json::from_str(text).expect("json");
            assert!(decode(&v).is_err(), "{text}");
        }
    }
}
