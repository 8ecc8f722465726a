//! Runs a snippet for the unit tests beside the code they test.

use super::{NoTools, RunOptions, run};

/// Runs `src` (parsed, not validated) and answers what it printed followed
/// by `=> repr` of its last expression, or by `Type: message` on failure.
pub(crate) fn outcome(src: &str) -> String {
    let module = match crate::syntax::parse::parse(src) {
        Ok(m) => m,
        Err(e) => return format!("parse: {e}"),
    };
    let out = run(&module, &mut NoTools, &[], &RunOptions::default());
    let end = match out.error {
        None => format!("=> {}", out.output_repr.unwrap_or_default()),
        Some(e) => format!("{}: {e}", out.error_type.unwrap_or_default()),
    };
    format!("{}{end}", out.stdout)
}
