//! Conversion between interpreter values and [`Data`].
//!
//! Outward, values become what `json.dumps(v, default=str)` would make of
//! them: tuples stay tuples (the JSON writer writes them as arrays), sets
//! stay sets (written as their `str()`), and ranges, views, functions, type
//! objects and iterators become the string of their `str()`. Like
//! `json.dumps`, a container that contains itself is a ValueError and very
//! deep nesting a RecursionError. Inward, data becomes fresh values.

use num_bigint::BigInt;

use super::json_out::JsonOut;
use super::{Dict, Set, Value, json, repr};
use crate::data::Data;
use crate::interp::errors::{Exc, R};
use crate::json_text::JsonText;

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

/// Writes a value as JSON text, exactly as `to_data(v)?.to_json()` would
/// but without the intermediate tree.
pub(crate) fn to_json_text(v: &Value) -> R<JsonText> {
    let mut out = JsonOut::new();
    let mut active = Vec::new();
    match write_json_at(v, &mut active, &mut out) {
        Err(e) if e.msg == CIRCULAR => {
            out.truncate(0);
            out.string(&repr::repr(v)?);
        }
        other => other?,
    }
    Ok(JsonText::from_written(out.finish()))
}

/// Enters a container while encoding: a container already being encoded
/// (it contains itself) is `json.dumps`'s ValueError, very deep nesting its
/// RecursionError. The caller pops `active` when done.
fn enter(v: &Value, active: &mut Vec<usize>) -> R<()> {
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
    Ok(())
}

fn write_json_at(v: &Value, active: &mut Vec<usize>, out: &mut JsonOut) -> R<()> {
    match v {
        Value::None => out.lit("null"),
        Value::Bool(true) => out.lit("true"),
        Value::Bool(false) => out.lit("false"),
        Value::Int(i) => out.int(*i),
        Value::Big(b) => out.big(&b.0),
        Value::Float(f) => out.float(*f),
        Value::Str(s) => out.string(s.as_str()),
        Value::List(_) | Value::Tuple(_) | Value::Dict(_) => {
            enter(v, active)?;
            match v {
                Value::List(l) => match l.try_borrow() {
                    Ok(l) => write_json_items(&l.items, active, out)?,
                    Err(_) => out.lit("[]"),
                },
                Value::Tuple(t) => write_json_items(&t.items, active, out)?,
                Value::Dict(d) => match d.try_borrow() {
                    Ok(d) => {
                        out.lit("{");
                        for (n, (k, val)) in d.iter().enumerate() {
                            if n > 0 {
                                out.lit(", ");
                            }
                            match k {
                                Value::Str(s) => out.string(s.as_str()),
                                Value::Int(i) => {
                                    out.lit("\"");
                                    out.int(*i);
                                    out.lit("\"");
                                }
                                other => json::write_json_key(&to_data_at(other, active)?, out),
                            }
                            out.lit(": ");
                            write_json_item(val, active, out)?;
                        }
                        out.lit("}");
                    }
                    Err(_) => out.lit("{}"),
                },
                _ => {}
            }
            active.pop();
        }
        // Sets (and everything JSON cannot hold) are written as their str().
        other => out.string(&repr::to_str(other)?),
    }
    Ok(())
}

/// An element: ints and strings (most elements) without the recursive call.
#[inline(always)]
fn write_json_item(v: &Value, active: &mut Vec<usize>, out: &mut JsonOut) -> R<()> {
    match v {
        Value::Int(i) => out.int(*i),
        Value::Str(s) => out.string(s.as_str()),
        other => write_json_at(other, active, out)?,
    }
    Ok(())
}

fn write_json_items(items: &[Value], active: &mut Vec<usize>, out: &mut JsonOut) -> R<()> {
    out.lit("[");
    for (n, item) in items.iter().enumerate() {
        if n > 0 {
            out.lit(", ");
        }
        write_json_item(item, active, out)?;
    }
    out.lit("]");
    Ok(())
}

fn to_data_at(v: &Value, active: &mut Vec<usize>) -> R<Data> {
    Ok(match v {
        Value::None => Data::None,
        Value::Bool(b) => Data::Bool(*b),
        Value::Int(i) => Data::Int(BigInt::from(*i)),
        Value::Big(b) => Data::Int(b.0.clone()),
        Value::Float(f) => Data::Float(*f),
        Value::Str(s) => Data::Str(s.as_str().to_owned()),
        Value::List(_) | Value::Tuple(_) | Value::Dict(_) | Value::Set(_) => {
            enter(v, active)?;
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
