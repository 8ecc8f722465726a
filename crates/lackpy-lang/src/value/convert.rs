//! Conversion between interpreter values and [`Data`].
//!
//! Outward, values become what `json.dumps(v, default=str)` would make of
//! them: tuples stay tuples (the JSON writer writes them as arrays), sets
//! stay sets (written as their `str()`), and ranges, views, functions, type
//! objects and iterators become the string of their `str()`. Like
//! `json.dumps`, a container that contains itself is a ValueError and very
//! deep nesting a RecursionError. Inward, data becomes fresh values.

use num_bigint::BigInt;

use super::{Dict, Set, Value, repr};
use crate::data::Data;
use crate::interp::errors::{Exc, R};

const MAX_DEPTH: usize = 900;

/// Converts a value to data. A container that contains itself (where
/// `json.dumps` would fail) becomes the string of its repr, `[[...]]`.
pub(crate) fn to_data(v: &Value) -> R<Data> {
    let mut active = Vec::new();
    match to_data_at(v, &mut active) {
        Err(e) if e.msg == CIRCULAR => Ok(Data::Str(repr::repr(v)?)),
        other => other,
    }
}

const CIRCULAR: &str = "Circular reference detected";

fn to_data_at(v: &Value, active: &mut Vec<usize>) -> R<Data> {
    Ok(match v {
        Value::None => Data::None,
        Value::Bool(b) => Data::Bool(*b),
        Value::Int(i) => Data::Int(BigInt::from(*i)),
        Value::Big(b) => Data::Int(b.0.clone()),
        Value::Float(f) => Data::Float(*f),
        Value::Str(s) => Data::Str(s.as_str().to_owned()),
        Value::List(_) | Value::Tuple(_) | Value::Dict(_) | Value::Set(_) => {
            let addr = v.address();
            if active.contains(&addr) {
                return Err(Exc::value_error(CIRCULAR));
            }
            if active.len() >= MAX_DEPTH || super::stack::exhausted() {
                return Err(Exc::recursion(
                    "maximum recursion depth exceeded while encoding a JSON object",
                ));
            }
            active.push(addr);
            let out = match v {
                Value::List(l) => match l.try_borrow() {
                    Ok(l) => Data::List(
                        l.items
                            .iter()
                            .map(|i| to_data_at(i, active))
                            .collect::<R<_>>()?,
                    ),
                    Err(_) => Data::List(Vec::new()),
                },
                Value::Tuple(t) => Data::Tuple(
                    t.items
                        .iter()
                        .map(|i| to_data_at(i, active))
                        .collect::<R<_>>()?,
                ),
                Value::Dict(d) => match d.try_borrow() {
                    Ok(d) => {
                        let mut out = Vec::with_capacity(d.len());
                        for (k, val) in d.iter() {
                            out.push((to_data_at(k, active)?, to_data_at(val, active)?));
                        }
                        Data::Dict(out)
                    }
                    Err(_) => Data::Dict(Vec::new()),
                },
                Value::Set(s) => match s.try_borrow() {
                    Ok(s) => Data::Set(s.iter().map(|i| to_data_at(i, active)).collect::<R<_>>()?),
                    Err(_) => Data::Set(Vec::new()),
                },
                _ => Data::None,
            };
            active.pop();
            out
        }
        other => Data::Str(repr::to_str(other)?),
    })
}

/// Converts data to a fresh value.
pub(crate) fn from_data(d: &Data) -> R<Value> {
    from_data_at(d, 0)
}

fn from_data_at(d: &Data, depth: usize) -> R<Value> {
    if depth > MAX_DEPTH || super::stack::exhausted() {
        return Err(Exc::recursion(
            "maximum recursion depth exceeded while converting data",
        ));
    }
    Ok(match d {
        Data::None => Value::None,
        Data::Bool(b) => Value::Bool(*b),
        Data::Int(i) => Value::from_big(i.clone()),
        Data::Float(f) => Value::Float(*f),
        Data::Str(s) => Value::str(s.clone()),
        Data::List(items) => Value::list(
            items
                .iter()
                .map(|i| from_data_at(i, depth + 1))
                .collect::<R<_>>()?,
        ),
        Data::Tuple(items) => Value::tuple(
            items
                .iter()
                .map(|i| from_data_at(i, depth + 1))
                .collect::<R<_>>()?,
        ),
        Data::Dict(items) => {
            let mut dict = Dict::new();
            for (k, v) in items {
                dict.insert(from_data_at(k, depth + 1)?, from_data_at(v, depth + 1)?)?;
            }
            Value::dict(dict)
        }
        Data::Set(items) => {
            let mut set = Set::new();
            for i in items {
                set.add(from_data_at(i, depth + 1)?)?;
            }
            Value::set(set)
        }
    })
}
