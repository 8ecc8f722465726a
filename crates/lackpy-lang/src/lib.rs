//! The lackpy language: a tiny restricted Python.
//!
//! This crate is the pure leaf of lackpy-rs. It parses Python 3.11 source
//! into a tree that mirrors CPython's `ast` module ([`ast`], [`parse`]),
//! validates it against lackpy's syntax whitelist ([`validate`]), exports the
//! language spec ([`spec`]), computes tool-set grades ([`grade`]) and runs
//! validated programs in a sandboxed interpreter whose only powers are the
//! tools a host hands it.
//!
//! It performs no I/O, spawns no threads and depends on nothing async:
//! `cargo xtask check-layers` enforces that.
#![forbid(unsafe_code)]

pub mod ast;
pub(crate) mod catalog;
pub mod data;
pub mod format;
pub mod grade;
pub mod interp;
pub mod json_text;
pub mod parse;
pub mod spec;
mod unicode;
pub mod validate;
pub mod value;
pub mod walk;

pub use data::{Data, str_repr};
pub use grade::{Grade, compute_grade};
pub use interp::{Host, Limits, RunOptions, RunOutcome, ToolError, TraceEntry, run};
pub use json_text::JsonText;
pub use parse::{ParseError, parse};
pub use validate::{Rule, Validation, validate};
pub use value::json::MAX_JSON_DEPTH;
