#![doc = include_str!("../README.md")]
//!
//! # Map
//!
//! [`parse`] turns source into the [`ast`] types; [`validate`] checks a
//! program against the whitelist ([`Validation`], extra [`Rule`]s); [`run`]
//! executes it with a [`Host`] under [`Limits`] ([`RunOptions`],
//! [`RunOutcome`], [`TraceEntry`]); values cross the boundary as [`Data`];
//! [`spec`] exports the language spec and [`compute_grade`] joins tool
//! [`Grade`]s.
//!
//! It performs no I/O, spawns no threads and depends on nothing async:
//! `cargo xtask check-layers` enforces that.
#![forbid(unsafe_code)]

mod builtins;
mod data;
mod fnv;
mod interp;
mod runtime;
mod syntax;
mod text;
mod types;
mod value;

pub use syntax::ast;

pub use data::json::MAX_JSON_DEPTH;
pub use data::json_text::JsonText;
pub use data::{Data, str_repr};
pub use interp::{
    DroppedCalls, Host, Limits, NoTools, RunOptions, RunOutcome, Teardown, ToolException,
    TraceDropped, TraceEntry, Variables, preview_args, run,
};
pub use runtime::error::ExceptionKind;
pub use syntax::grade::{Grade, compute_grade};
pub use syntax::lang_spec::{Spec, spec};
pub use syntax::parse::{
    ParseError, SourcePart, SourceRegion, StringKind, parse, parse_bytes, source_regions,
};
pub use syntax::validate::names::{ALLOWED_BUILTINS, FORBIDDEN_NAMES};
pub use syntax::validate::{
    CallSignature, Diagnostic, KNOWN_RULES, Lit, ParamSig, Rule, RuleParseError, TypeHint,
    Validation, builtin_signature, builtin_signatures, validate, validate_module,
    validate_module_with, validate_with,
};
pub use syntax::walk::{DepthFirst, NodeRef, Walk, depth_first, in_walk_order, walk};
