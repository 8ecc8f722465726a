//! The lackpy language: a tiny restricted Python.
//!
//! This crate is the pure leaf of lackpy-rs. It parses Python 3.11 source
//! into a tree that mirrors CPython's `ast` module ([`parse`] into the
//! [`ast`] types), validates it against lackpy's syntax whitelist
//! ([`validate`]), exports the language spec ([`spec`]), computes tool-set
//! grades ([`compute_grade`]) and runs validated programs ([`run`]) in a
//! sandboxed interpreter whose only powers are the tools a [`Host`] hands
//! it.
//!
//! It performs no I/O, spawns no threads and depends on nothing async:
//! `cargo xtask check-layers` enforces that.
#![forbid(unsafe_code)]

pub mod ast;
mod catalog;
mod data;
mod format;
mod grade;
mod interp;
mod json_text;
mod parse;
mod spec;
mod unicode;
mod validate;
mod value;
mod walk;

pub use data::{Data, str_repr};
pub use grade::{Grade, compute_grade};
pub use interp::{Host, Limits, NoTools, RunOptions, RunOutcome, ToolException, TraceEntry, run};
pub use json_text::JsonText;
pub use parse::{ParseError, parse, parse_bytes};
pub use spec::{Spec, spec};
pub use validate::names::{ALLOWED_BUILTINS, FORBIDDEN_NAMES};
pub use validate::{KNOWN_RULES, Rule, RuleParseError, Validation, validate, validate_module};
pub use value::json::MAX_JSON_DEPTH;
pub use walk::{NodeRef, Walk, walk};
