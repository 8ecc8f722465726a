//! The eight built-in checks, each a pass over the breadth-first node list.

use std::collections::{HashSet, VecDeque};

use crate::ast::{Constant, Expr, ExprContext, ExprKind, Stmt, StmtKind};
use crate::walk::NodeRef;

use super::names::{is_allowed_builtin, is_allowed_node, is_denied_attribute, is_forbidden_name};
use super::suggest::suggest;

/// Check 1: every node kind must be whitelisted. An operator is reported
/// at its expression's line; an import's names and the `pass` body of a
/// forbidden definition or loop are not reported again.
pub(super) fn node_whitelist(nodes: &[NodeRef<'_>], errors: &mut Vec<String>) {
    // Breadth-first, an operator comes after its expression, and operators
    // come in the order of their expressions: a queue pairs them.
    let mut op_lines = VecDeque::new();
    let mut echoes: Vec<*const Stmt> = Vec::new();
    for node in nodes {
        match node {
            NodeRef::Expr(e) => match &e.kind {
                ExprKind::BinOp { .. } | ExprKind::UnaryOp { .. } | ExprKind::BoolOp { .. } => {
                    op_lines.push_back(e.line);
                }
                ExprKind::Compare { ops, .. } => op_lines.extend(ops.iter().map(|_| e.line)),
                _ => {}
            },
            NodeRef::Stmt(s) => {
                if let StmtKind::AugAssign { .. } = &s.kind {
                    op_lines.push_back(s.line);
                }
                let bodies: Vec<&[Stmt]> = match &s.kind {
                    StmtKind::ClassDef { body, .. } | StmtKind::While { body, .. } => vec![body],
                    StmtKind::FunctionDef(f) | StmtKind::AsyncFunctionDef(f) => vec![&f.body],
                    StmtKind::Try(t) | StmtKind::TryStar(t) => {
                        vec![&t.body, &t.orelse, &t.finalbody]
                    }
                    _ => Vec::new(),
                };
                push_passes(&bodies, &mut echoes);
            }
            NodeRef::ExceptHandler(h) => push_passes(&[&h.body], &mut echoes),
            _ => {}
        }
        let is_op = matches!(
            node,
            NodeRef::Operator(_) | NodeRef::UnaryOp(_) | NodeRef::BoolOp(_) | NodeRef::CmpOp(_)
        );
        let line = if is_op {
            op_lines.pop_front()
        } else {
            node.line()
        };
        let kind = node.kind();
        if is_allowed_node(kind) || matches!(node, NodeRef::Alias(_)) {
            continue;
        }
        if let NodeRef::Stmt(s) = node
            && echoes.iter().any(|p| std::ptr::eq(*p, *s))
        {
            continue;
        }
        errors.push(match line {
            Some(line) => format!("Forbidden AST node: {kind} at line {line}"),
            None => format!("Forbidden AST node: {kind}"),
        });
    }
}

/// The `pass` statements of `bodies`: placeholders of a forbidden
/// statement, not a cause of their own.
fn push_passes(bodies: &[&[Stmt]], echoes: &mut Vec<*const Stmt>) {
    for body in bodies {
        echoes.extend(
            body.iter()
                .filter(|b| matches!(b.kind, StmtKind::Pass))
                .map(|b| b as *const Stmt),
        );
    }
}

/// Check 2: no `Name` may be a forbidden name, read or written.
pub(super) fn forbidden_names(nodes: &[NodeRef<'_>], errors: &mut Vec<String>) {
    for node in nodes {
        if let NodeRef::Expr(e) = node
            && let ExprKind::Name { id, .. } = &e.kind
            && is_forbidden_name(id)
        {
            errors.push(format!("Forbidden name: '{id}' at line {}", e.line));
        }
    }
}

/// Check 3: no private, dunder or internal attribute.
pub(super) fn attributes(nodes: &[NodeRef<'_>], errors: &mut Vec<String>) {
    for node in nodes {
        if let NodeRef::Expr(e) = node
            && let ExprKind::Attribute { attr, .. } = &e.kind
            && is_denied_attribute(attr)
        {
            errors.push(format!(
                "Forbidden attribute access: '.{attr}' at line {} \
                 (private/dunder/internal attribute access is not permitted)",
                e.line
            ));
        }
    }
}

/// Check 4: call targets. Returns the plainly called names.
pub(super) fn call_targets(
    nodes: &[NodeRef<'_>],
    allowed: &dyn Fn(&str) -> bool,
    candidates: &[&str],
    errors: &mut Vec<String>,
) -> Vec<String> {
    // A name bound to a lambda: the lambda is the error (check 6).
    let lambda_names: Vec<&str> = nodes
        .iter()
        .filter_map(|node| match node {
            NodeRef::Stmt(s) => match &s.kind {
                StmtKind::Assign { targets, value, .. }
                    if matches!(value.kind, ExprKind::Lambda { .. }) =>
                {
                    Some(targets.iter().filter_map(|t| match &t.kind {
                        ExprKind::Name { id, .. } => Some(id.as_str()),
                        _ => None,
                    }))
                }
                _ => None,
            },
            _ => None,
        })
        .flatten()
        .collect();
    let mut calls = Vec::new();
    for node in nodes {
        let NodeRef::Expr(e) = node else { continue };
        let ExprKind::Call { func, .. } = &e.kind else {
            continue;
        };
        match &func.kind {
            ExprKind::Name { id, .. } => {
                calls.push(id.clone());
                if !is_allowed_builtin(id)
                    && !allowed(id)
                    && !is_forbidden_name(id)
                    && !lambda_names.contains(&id.as_str())
                {
                    let mut message = format!(
                        "Unknown function: '{id}' at line {} \
                         (not a tool of this namespace or a builtin)",
                        e.line
                    );
                    if let Some(s) = suggest(id, candidates.iter().copied()) {
                        message.push_str(&format!(". Did you mean '{s}'?"));
                    }
                    errors.push(message);
                }
            }
            ExprKind::Attribute { .. } => {}
            other => errors.push(format!(
                "Unsupported call target ({}) at line {}: \
                 only named functions and method calls are allowed",
                crate::walk::expr_kind_name(other),
                e.line
            )),
        }
    }
    calls
}

/// Check 5: a `for` statement iterates over a call or a name.
pub(super) fn for_iterators(nodes: &[NodeRef<'_>], errors: &mut Vec<String>) {
    for node in nodes {
        if let NodeRef::Stmt(s) = node
            && let StmtKind::For(f) = &s.kind
            && !matches!(f.iter.kind, ExprKind::Call { .. } | ExprKind::Name { .. })
        {
            errors.push(format!(
                "For-loop at line {} must iterate over a function call or variable",
                s.line
            ));
        }
    }
}

/// Check 6: a lambda only as the value of a `key=` keyword argument
/// (but for those the call check already reported, in `reported`).
pub(super) fn lambdas(nodes: &[NodeRef<'_>], reported: &[*const Expr], errors: &mut Vec<String>) {
    let key_lambdas: Vec<*const crate::ast::Expr> = nodes
        .iter()
        .filter_map(|node| match node {
            NodeRef::Keyword(k)
                if k.arg.as_deref() == Some("key")
                    && matches!(k.value.kind, ExprKind::Lambda { .. }) =>
            {
                Some(&k.value as *const _)
            }
            _ => None,
        })
        .collect();
    for node in nodes {
        if let NodeRef::Expr(e) = node
            && matches!(e.kind, ExprKind::Lambda { .. })
            && !key_lambdas.iter().any(|p| std::ptr::eq(*p, *e))
            && !reported.iter().any(|p| std::ptr::eq(*p, *e))
        {
            errors.push(format!(
                "Lambda at line {} is only allowed as key= argument \
                 (e.g., key=lambda x: x['field'])",
                e.line
            ));
        }
    }
}

/// Check 7: no string constant containing `__` (f-string parts included).
pub(super) fn dunder_strings(nodes: &[NodeRef<'_>], errors: &mut Vec<String>) {
    for node in nodes {
        if let NodeRef::Expr(e) = node
            && let ExprKind::Constant(Constant::Str(s)) = &e.kind
            && s.contains("__")
        {
            errors.push(format!(
                "String containing '__' at line {}: dunder access via string is forbidden",
                e.line
            ));
        }
    }
}

/// The direct `Name` targets of plain (`=`) assignments, breadth-first.
pub(super) fn assigned_names(nodes: &[NodeRef<'_>]) -> Vec<String> {
    let mut names = Vec::new();
    for node in nodes {
        if let NodeRef::Stmt(s) = node
            && let StmtKind::Assign { targets, .. } = &s.kind
        {
            for t in targets {
                if let ExprKind::Name { id, .. } = &t.kind {
                    names.push(id.clone());
                }
            }
        }
    }
    names
}

/// Every name the program stores to (assigns, loops over, binds).
pub(super) fn stored_names<'a>(nodes: &[NodeRef<'a>]) -> HashSet<&'a str> {
    let mut names = HashSet::new();
    for node in nodes {
        if let NodeRef::Expr(e) = node
            && let ExprKind::Name { id, ctx } = &e.kind
            && *ctx != ExprContext::Load
        {
            names.insert(id.as_str());
        }
    }
    names
}
