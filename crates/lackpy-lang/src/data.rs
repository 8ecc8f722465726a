//! Plain owned values that cross the boundary between a run and its tools.
//!
//! The interpreter's own values share structure (lists and dicts are
//! reference types inside a run) and never leave the interpreter thread.
//! Tools receive and return [`Data`]: a tree of owned values that is `Send`,
//! so a tool may run on another thread or inside an async runtime.

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
