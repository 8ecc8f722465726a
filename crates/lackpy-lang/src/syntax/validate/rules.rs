//! Extra validation rules a caller can select by name.

use std::fmt;
use std::str::FromStr;

use crate::syntax::ast::{ExprKind, Module, StmtKind};
use crate::syntax::walk::NodeRef;

use super::Diagnostic;
use super::checks::Index;

/// The rule names accepted by [`Rule::from_str`], for help texts.
pub const KNOWN_RULES: &[&str] = &["max_calls:N", "max_depth:N", "no_loops", "no_nested_calls"];

/// An extra rule, applied after the built-in checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// `no_loops`: no `for` statement at all.
    NoLoops,
    /// `max_depth:N`: `if`/`for`/`with` nested at most N deep.
    MaxDepth(u32),
    /// `max_calls:N`: at most N calls in the whole program.
    MaxCalls(u32),
    /// `no_nested_calls`: call arguments may not be calls themselves.
    NoNestedCalls,
}

/// A rule name that could not be understood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleParseError {
    /// The text that was given.
    pub given: String,
}

impl fmt::Display for RuleParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown rule '{}': known rules are {}",
            self.given,
            KNOWN_RULES.join(", ")
        )
    }
}

impl std::error::Error for RuleParseError {}

impl FromStr for Rule {
    type Err = RuleParseError;

    fn from_str(s: &str) -> Result<Rule, RuleParseError> {
        let err = || RuleParseError {
            given: s.to_string(),
        };
        let number = |n: &str| n.trim().parse::<u32>().map_err(|_| err());
        match s.trim().split_once(':') {
            None => match s.trim() {
                "no_loops" => Ok(Rule::NoLoops),
                "no_nested_calls" => Ok(Rule::NoNestedCalls),
                _ => Err(err()),
            },
            Some(("max_depth", n)) => Ok(Rule::MaxDepth(number(n)?)),
            Some(("max_calls", n)) => Ok(Rule::MaxCalls(number(n)?)),
            Some(_) => Err(err()),
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rule::NoLoops => f.write_str("no_loops"),
            Rule::MaxDepth(n) => write!(f, "max_depth:{n}"),
            Rule::MaxCalls(n) => write!(f, "max_calls:{n}"),
            Rule::NoNestedCalls => f.write_str("no_nested_calls"),
        }
    }
}

impl Rule {
    /// Appends this rule's errors for `module`; `ix` is what its
    /// breadth-first walk found.
    pub(super) fn check(&self, module: &Module, ix: &Index<'_>, errors: &mut Vec<Diagnostic>) {
        match *self {
            Rule::NoLoops => {
                for s in &ix.for_stmts {
                    let message = format!("For-loop forbidden (line {})", s.line);
                    errors.push(Diagnostic::at(s.line, s.col, message));
                }
            }
            Rule::MaxDepth(limit) => max_depth(module, limit, errors),
            Rule::MaxCalls(limit) => {
                let count = ix.calls.len();
                if count > limit as usize {
                    errors.push(Diagnostic::new(format!(
                        "Too many calls: {count} exceeds limit {limit}"
                    )));
                }
            }
            Rule::NoNestedCalls => no_nested_calls(ix, errors),
        }
    }
}

/// Depth counts `if`/`for`/`with` statements (an `elif` is a nested `if`,
/// as in the tree). The walk is depth-first in source order and does not
/// descend below a violation, so each too-deep branch is reported once.
fn max_depth(module: &Module, limit: u32, errors: &mut Vec<Diagnostic>) {
    // An explicit stack: deep trees must not recurse on the Rust stack.
    let mut stack: Vec<(NodeRef<'_>, u32)> = vec![(NodeRef::Module(module), 0)];
    let mut children = Vec::new();
    while let Some((node, depth)) = stack.pop() {
        let depth = match node {
            NodeRef::Stmt(s)
                if matches!(
                    s.kind,
                    StmtKind::If { .. } | StmtKind::For(_) | StmtKind::With { .. }
                ) =>
            {
                let d = depth + 1;
                if d > limit {
                    let message =
                        format!("Nesting depth {d} exceeds limit {limit} (line {})", s.line);
                    errors.push(Diagnostic::at(s.line, s.col, message));
                    continue;
                }
                d
            }
            _ => depth,
        };
        children.clear();
        node.push_children(&mut children);
        stack.extend(children.iter().rev().map(|c| (*c, depth)));
    }
}

/// Each nested call is reported at its outer call, the line the message
/// names.
fn no_nested_calls(ix: &Index<'_>, errors: &mut Vec<Diagnostic>) {
    let is_call = |e: &crate::syntax::ast::Expr| matches!(e.kind, ExprKind::Call { .. });
    for e in &ix.calls {
        let ExprKind::Call { args, keywords, .. } = &e.kind else {
            continue;
        };
        for _ in args.iter().filter(|a| is_call(a)) {
            let message = format!(
                "Nested call at line {}: assign inner call to a variable first",
                e.line
            );
            errors.push(Diagnostic::at(e.line, e.col, message));
        }
        for _ in keywords.iter().filter(|k| is_call(&k.value)) {
            let message = format!(
                "Nested call in keyword arg at line {}: assign inner call to a variable first",
                e.line
            );
            errors.push(Diagnostic::at(e.line, e.col, message));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_rule_names() {
        assert_eq!("no_loops".parse::<Rule>(), Ok(Rule::NoLoops));
        assert_eq!("max_depth:3".parse::<Rule>(), Ok(Rule::MaxDepth(3)));
        assert_eq!("max_calls: 10".parse::<Rule>(), Ok(Rule::MaxCalls(10)));
        assert_eq!("no_nested_calls".parse::<Rule>(), Ok(Rule::NoNestedCalls));
        for r in [
            Rule::NoLoops,
            Rule::MaxDepth(2),
            Rule::MaxCalls(0),
            Rule::NoNestedCalls,
        ] {
            assert_eq!(r.to_string().parse::<Rule>(), Ok(r));
        }
    }

    #[test]
    fn unknown_rule_lists_the_known_ones() {
        let e = "max_depth:x".parse::<Rule>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown rule 'max_depth:x': known rules are max_calls:N, max_depth:N, no_loops, no_nested_calls"
        );
        assert!("loops".parse::<Rule>().is_err());
        assert!("max_depth:-1".parse::<Rule>().is_err());
    }
}
