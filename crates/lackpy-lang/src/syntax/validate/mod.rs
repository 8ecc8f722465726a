//! The validator: checks a program against lackpy's syntax whitelist.
//!
//! Only a parse error stops early. Every other check runs over the whole
//! tree and appends all it finds, in a fixed check order, and within one
//! check in breadth-first order (CPython's `ast.walk`), so error lists are
//! identical to the reference implementation's. Each error also comes as a
//! [`Diagnostic`] with the line and column of the node it reports.

mod builtin_sigs;
mod calls;
mod checks;
mod diagnostic;
pub mod names;
mod rules;
mod signature;
mod suggest;

use crate::syntax::ast::Module;
use crate::syntax::parse::parse;

pub use builtin_sigs::{builtin_signature, builtin_signatures};
pub use diagnostic::{Diagnostic, Validation};
pub use rules::{KNOWN_RULES, Rule, RuleParseError};
pub use signature::{CallSignature, Lit, ParamSig, TypeHint};

/// Parses and validates `source`.
///
/// `allowed_names` are the callable names besides the builtins: the tools
/// and the params of the run. `rules` are extra rules, applied in order.
/// Calls are not checked against signatures: a builtin's wrong call is
/// CPython's error at run time ([`validate_with`] checks them first).
pub fn validate<S: AsRef<str>>(source: &str, allowed_names: &[S], rules: &[Rule]) -> Validation {
    match parse(source) {
        Ok(module) => validate_module(&module, allowed_names, rules),
        Err(e) => Validation::unparsed(&e),
    }
}

/// [`validate`], also checking every call to a builtin or to a callable
/// of `signatures` (the tools') against its signature, before anything
/// runs.
pub fn validate_with<S: AsRef<str>>(
    source: &str,
    allowed_names: &[S],
    rules: &[Rule],
    signatures: &[CallSignature],
) -> Validation {
    match parse(source) {
        Ok(module) => validate_module_with(&module, allowed_names, rules, signatures),
        Err(e) => Validation::unparsed(&e),
    }
}

/// Validates an already parsed module (see [`validate`]).
pub fn validate_module<S: AsRef<str>>(
    module: &Module,
    allowed_names: &[S],
    rules: &[Rule],
) -> Validation {
    check_module(module, allowed_names, rules, None)
}

/// Validates an already parsed module (see [`validate_with`]).
pub fn validate_module_with<S: AsRef<str>>(
    module: &Module,
    allowed_names: &[S],
    rules: &[Rule],
    signatures: &[CallSignature],
) -> Validation {
    check_module(module, allowed_names, rules, Some(signatures))
}

/// Validates `module`; `signatures`: check calls, to builtins and these.
fn check_module<S: AsRef<str>>(
    module: &Module,
    allowed_names: &[S],
    rules: &[Rule],
    signatures: Option<&[CallSignature]>,
) -> Validation {
    let mut ix = checks::Index::build(module);
    let allowed = |name: &str| allowed_names.iter().any(|a| a.as_ref() == name);
    let mut errors = std::mem::take(&mut ix.whitelist);
    errors.append(&mut ix.names);
    errors.append(&mut ix.attributes);
    let candidates: Vec<&str> = allowed_names
        .iter()
        .map(AsRef::as_ref)
        .chain(names::ALLOWED_BUILTINS.iter().copied())
        .collect();
    let calls = checks::call_targets(&ix, &allowed, &candidates, &mut errors);
    let reported = match signatures {
        Some(signatures) => {
            let builtins = builtin_sigs::builtin_sigs_static();
            let lookup = |name: &str| -> Option<&CallSignature> {
                if ix.stores.contains_key(name) {
                    return None;
                }
                match signatures.iter().find(|s| s.name == name) {
                    Some(s) if allowed(name) => Some(s),
                    _ if allowed(name) => None,
                    _ => builtins.iter().find(|s| s.name == name),
                }
            };
            calls::check_calls(&ix, &lookup, &allowed, &mut errors)
        }
        None => Vec::new(),
    };
    errors.append(&mut ix.fors);
    checks::lambdas(&ix, &reported, &mut errors);
    errors.append(&mut ix.dunders);
    for rule in rules {
        rule.check(module, &ix, &mut errors);
    }
    let variables = checks::assigned_names(&ix);
    Validation::from_diagnostics(errors, calls, variables)
}
