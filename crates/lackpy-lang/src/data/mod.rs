//! Plain owned values that cross the boundary between a run and its tools.
//!
//! The interpreter's own values share structure (lists and dicts are
//! reference types inside a run) and never leave the interpreter thread.
//! Tools receive and return [`Data`]: a tree of owned values that is `Send`,
//! so a tool may run on another thread or inside an async runtime.
//!
//! Every Python form of a [`Data`] lives in this crate, once, for every
//! crate above it: `repr()` ([`Data::py_repr`], [`str_repr`]),
//! `type(v).__name__` ([`Data::type_name`]) and the JSON text
//! `json.dumps(v, default=str)` writes ([`Data::to_json`], read back by
//! [`Data::from_json`] and [`Data::from_json_value`]; the writer and
//! reader are in [`json`]).

pub(crate) mod convert;
pub mod json;
pub(crate) mod json_out;
pub(crate) mod json_text;
mod json_value;

use num_bigint::BigInt;

/// A value passed to or returned by a tool.
#[derive(Debug, Clone, PartialEq)]
pub enum Data {
    /// `None`
    None,
    /// `True` / `False`
    Bool(bool),
    /// An integer of any size.
    Int(BigInt),
    /// A float.
    Float(f64),
    /// A string.
    Str(String),
    /// A list.
    List(Vec<Data>),
    /// A tuple.
    Tuple(Vec<Data>),
    /// A dict, in insertion order.
    Dict(Vec<(Data, Data)>),
    /// A set, in iteration order.
    Set(Vec<Data>),
}

impl Data {
    /// `type(v).__name__`: the class name Python error messages use.
    pub fn type_name(&self) -> &'static str {
        match self {
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
}

/// Python's `repr()` of a string: single quotes unless the text holds a
/// single quote and no double quote; backslash escapes for the quote, the
/// backslash and every character `str.isprintable()` refuses.
pub fn str_repr(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    crate::types::str::repr::push_str_repr(&mut out, s, false);
    out
}
