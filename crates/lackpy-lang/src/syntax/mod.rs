//! The syntax layer: source text to a checked tree, and the facts about the
//! language that the validator, the interpreter and the tooling share.
//!
//! * [`parse`] turns source into the [`ast`] types; [`walk`] visits them.
//! * [`validate`] checks a tree against the whitelist and the extra rules.
//! * [`catalog`] is the one table of builtins, types and methods (their
//!   names and arities) that validation and evaluation both read.
//! * [`lang_spec`] exports the language as data; [`grade`] joins tool grades.
//!
//! Nothing here knows about values or running a program.

pub mod ast;
pub(crate) mod catalog;
pub(crate) mod grade;
pub(crate) mod lang_spec;
pub(crate) mod parse;
pub(crate) mod validate;
pub(crate) mod walk;
