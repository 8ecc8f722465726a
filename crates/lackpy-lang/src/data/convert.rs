//! Conversion between interpreter values and [`Data`].
//!
//! Outward, values become what `json.dumps(v, default=str)` would make of
//! them: tuples stay tuples (the JSON writer writes them as arrays), sets
//! stay sets (written as their `str()`), and ranges, views, functions, type
//! objects and iterators become the string of their `str()`. Like
//! `json.dumps`, a container that contains itself is a ValueError and very
//! deep nesting a RecursionError. Inward, data becomes fresh values.

use num_bigint::BigInt;

use super::json;
use super::json_out::{JsonOut, is_spill};
use crate::data::Data;
use crate::data::json_text::JsonText;
use crate::runtime::error::{Exc, R};
use crate::runtime::growth::Growth;
use crate::runtime::meter::ensure as check_alloc;
use crate::types::int::{IntRef, int_to_string, str_limit_message};
use crate::value::{Dict, Set, Value, repr};

const MAX_DEPTH: usize = 900;

/// What one [`Data`] node is charged, besides the text it owns: the node
/// itself in its parent's vector, plus the allocator's share of the heap
/// block a string or container has (measured: a tree of one-letter strings
/// takes about 80 bytes a node).
const NODE_BYTES: usize = std::mem::size_of::<Data>() + 48;

/// Converts a value to data, charging the estimated bytes of the data
/// built to `g`: shared structure (the same list at every level of a deep
/// DAG) is copied once per reference, and the guard stops the copy before
/// it outgrows the limit. A container that contains itself (where
/// `json.dumps` would fail) becomes the string of its repr, `[[...]]`.
pub(crate) fn to_data_with(v: &Value, g: &mut Growth) -> R<Data> {
    let mut active = Vec::new();
    match to_data_at(v, &mut active, g) {
        Err(e) if e.msg == CIRCULAR => Ok(Data::Str(repr::repr_with(v, g)?)),
        other => other,
    }
}

const CIRCULAR: &str = "Circular reference detected";

/// Writes a value as JSON text, exactly as `to_data(v)?.to_json()` would
/// but without the intermediate tree, charging the bytes written to `g`.
/// An int over 4300 digits has no JSON form: ValueError, as `json.dumps`.
///
/// A text longer than [`SPILL_PAST`] is measured first and written once
/// into a buffer of exactly its length (see [`super::json_out`]): the
/// guard sees the same charges, in the same order, on every pass, so a
/// value that is too large fails the same way.
pub(crate) fn to_json_text_with(v: &Value, g: &mut Growth) -> R<JsonText> {
    let before = g.used();
    let mut out = JsonOut::new().spill_past(SPILL_PAST);
    match write_json(v, &mut out, g) {
        Err(e) if is_spill(&e) => {}
        other => {
            other?;
            return Ok(JsonText::from_written(out.finish()));
        }
    }
    drop(out);
    g.rewind(before);
    let mut measure = JsonOut::measuring();
    write_json(v, &mut measure, g)?;
    let len = measure.len();
    g.rewind(before);
    // A short string is copied as a fixed-size block and cut back: room
    // for that past the end, and the room given back (in place) after.
    let mut out = JsonOut::with_capacity(len + JsonOut::OVERSHOOT);
    write_json(v, &mut out, g)?;
    let mut text = out.finish();
    text.shrink_to_fit();
    Ok(JsonText::from_written(text))
}

/// The JSON text past which [`to_json_text_with`] measures before it
/// writes (below it, what doubling leaves behind is small).
const SPILL_PAST: usize = 64 * 1024;

/// One pass of [`to_json_text_with`]: a container that contains itself is
/// written as the string of its repr.
fn write_json(v: &Value, out: &mut JsonOut, g: &mut Growth) -> R<()> {
    let mut active = Vec::new();
    match write_json_at(v, &mut active, out, g) {
        Err(e) if e.msg == CIRCULAR => {
            out.truncate(0);
            let text = repr::repr_with(v, g)?;
            out.string_in(&text, g)?;
        }
        other => other?,
    }
    out.sync(g)
}

/// Enters a container while encoding: a container already being encoded
/// (it contains itself) is `json.dumps`'s ValueError, very deep nesting its
/// RecursionError. The caller pops `active` when done.
fn enter(v: &Value, active: &mut Vec<usize>) -> R<()> {
    let addr = v.address();
    if active.contains(&addr) {
        return Err(Exc::value_error(CIRCULAR));
    }
    if active.len() >= MAX_DEPTH || crate::runtime::stack::exhausted() {
        return Err(Exc::recursion(
            "maximum recursion depth exceeded while encoding a JSON object",
        ));
    }
    active.push(addr);
    Ok(())
}

/// The digits of a big int, or `json.dumps`'s ValueError past 4300 digits.
fn big_digits(b: &BigInt) -> R<String> {
    int_to_string(&IntRef::Big(b)).ok_or_else(|| Exc::value_error(str_limit_message()))
}

fn write_json_at(v: &Value, active: &mut Vec<usize>, out: &mut JsonOut, g: &mut Growth) -> R<()> {
    out.sync(g)?;
    match v {
        Value::None => out.lit("null"),
        Value::Bool(true) => out.lit("true"),
        Value::Bool(false) => out.lit("false"),
        Value::Int(_, i) => out.int(*i),
        Value::Big(b) => out.lit(&big_digits(&b.0)?),
        Value::Float(_, f) => out.float(f.get()),
        Value::Str(s) => out.string_in(s.as_str(), g)?,
        Value::List(_) | Value::Tuple(_) | Value::Dict(_) => {
            enter(v, active)?;
            match v {
                Value::List(l) => match l.try_borrow() {
                    Ok(l) => write_json_items(&l.items, active, out, g)?,
                    Err(_) => out.lit("[]"),
                },
                Value::Tuple(t) => write_json_items(&t.items, active, out, g)?,
                Value::Dict(d) => match d.try_borrow() {
                    Ok(d) => {
                        out.lit("{");
                        for (n, (k, val)) in d.iter().enumerate() {
                            if n > 0 {
                                out.lit(", ");
                            }
                            match k {
                                Value::Str(s) => out.string_in(s.as_str(), g)?,
                                Value::Int(_, i) => {
                                    out.lit("\"");
                                    out.int(*i);
                                    out.lit("\"");
                                }
                                Value::Big(b) => out.string(&big_digits(&b.0)?),
                                other => json::write_json_key(&to_data_at(other, active, g)?, out),
                            }
                            out.lit(": ");
                            write_json_item(val, active, out, g)?;
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
        other => {
            let text = repr::to_str_with(other, g)?;
            out.string(&text);
            out.sync(g)?;
        }
    }
    Ok(())
}

/// An element: ints and short strings (most elements) without the
/// recursive call.
#[inline(always)]
fn write_json_item(v: &Value, active: &mut Vec<usize>, out: &mut JsonOut, g: &mut Growth) -> R<()> {
    match v {
        Value::Int(_, i) => out.int(*i),
        Value::Str(s) => out.string_in(s.as_str(), g)?,
        other => write_json_at(other, active, out, g)?,
    }
    out.sync(g)
}

fn write_json_items(
    items: &[Value],
    active: &mut Vec<usize>,
    out: &mut JsonOut,
    g: &mut Growth,
) -> R<()> {
    out.lit("[");
    for (n, item) in items.iter().enumerate() {
        if n > 0 {
            out.lit(", ");
        }
        write_json_item(item, active, out, g)?;
    }
    out.lit("]");
    Ok(())
}

fn to_data_at(v: &Value, active: &mut Vec<usize>, g: &mut Growth) -> R<Data> {
    g.add(NODE_BYTES)?;
    Ok(match v {
        Value::None => Data::None,
        Value::Bool(b) => Data::Bool(*b),
        Value::Int(_, i) => Data::Int(BigInt::from(*i)),
        Value::Big(b) => {
            g.add((b.0.bits() / 8) as usize)?;
            Data::Int(b.0.clone())
        }
        Value::Float(_, f) => Data::Float(f.get()),
        Value::Str(s) => {
            // Refused before the copy is made.
            g.fits(s.as_str().len())?;
            g.add(s.as_str().len())?;
            Data::Str(s.as_str().to_owned())
        }
        Value::List(_) | Value::Tuple(_) | Value::Dict(_) | Value::Set(_) => {
            enter(v, active)?;
            let out = match v {
                Value::List(l) => match l.try_borrow() {
                    Ok(l) => Data::List(
                        l.items
                            .iter()
                            .map(|i| to_data_at(i, active, g))
                            .collect::<R<_>>()?,
                    ),
                    Err(_) => Data::List(Vec::new()),
                },
                Value::Tuple(t) => Data::Tuple(
                    t.items
                        .iter()
                        .map(|i| to_data_at(i, active, g))
                        .collect::<R<_>>()?,
                ),
                Value::Dict(d) => match d.try_borrow() {
                    Ok(d) => {
                        let mut out = Vec::with_capacity(d.len());
                        for (k, val) in d.iter() {
                            out.push((to_data_at(k, active, g)?, to_data_at(val, active, g)?));
                        }
                        Data::Dict(out)
                    }
                    Err(_) => Data::Dict(Vec::new()),
                },
                Value::Set(s) => match s.try_borrow() {
                    Ok(s) => Data::Set(
                        s.iter()
                            .map(|i| to_data_at(i, active, g))
                            .collect::<R<_>>()?,
                    ),
                    Err(_) => Data::Set(Vec::new()),
                },
                _ => Data::None,
            };
            active.pop();
            out
        }
        other => Data::Str(repr::to_str_with(other, g)?),
    })
}

/// Converts data to a fresh value (params: the caller keeps its data).
pub(crate) fn from_data(d: &Data) -> R<Value> {
    from_data_owned(d.clone())
}

/// Converts data the caller gives up (a tool's result) to a fresh value:
/// strings move instead of being copied, and every allocation is checked
/// against the run's memory first, so a result too large for what the run
/// has left is a MemoryError before it is built, not after.
pub(crate) fn from_data_owned(d: Data) -> R<Value> {
    from_data_at(d, 0, &mut Growth::in_run())
}

fn from_data_at(d: Data, depth: usize, g: &mut Growth) -> R<Value> {
    if depth > MAX_DEPTH || crate::runtime::stack::exhausted() {
        return Err(Exc::recursion(
            "maximum recursion depth exceeded while converting data",
        ));
    }
    // One unit per node: the guard reads the clock as conversion goes on;
    // memory is checked against the live count before each allocation.
    g.add(1)?;
    let slots = |n: usize| check_alloc(n.saturating_mul(std::mem::size_of::<Value>()));
    Ok(match d {
        Data::None => Value::None,
        Data::Bool(b) => Value::Bool(b),
        Data::Int(i) => {
            check_alloc((i.bits() / 8) as usize)?;
            Value::from_big(i)
        }
        Data::Float(f) => Value::float(f),
        Data::Str(s) => {
            check_alloc(s.len())?;
            Value::str(s)
        }
        Data::List(items) => {
            slots(items.len())?;
            Value::list(
                items
                    .into_iter()
                    .map(|i| from_data_at(i, depth + 1, g))
                    .collect::<R<_>>()?,
            )
        }
        Data::Tuple(items) => {
            slots(items.len())?;
            Value::tuple(
                items
                    .into_iter()
                    .map(|i| from_data_at(i, depth + 1, g))
                    .collect::<R<_>>()?,
            )
        }
        Data::Dict(items) => {
            slots(items.len().saturating_mul(3))?;
            let mut dict = Dict::new();
            for (k, v) in items {
                dict.insert(
                    from_data_at(k, depth + 1, g)?,
                    from_data_at(v, depth + 1, g)?,
                )?;
            }
            Value::dict(dict)
        }
        Data::Set(items) => {
            slots(items.len().saturating_mul(2))?;
            let mut set = Set::new();
            for i in items {
                set.add(from_data_at(i, depth + 1, g)?)?;
            }
            Value::set(set)
        }
    })
}
