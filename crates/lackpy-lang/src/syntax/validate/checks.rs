//! The built-in checks.
//!
//! One depth-first pass over the tree ([`Index::build`]) runs the checks
//! that look at one node at a time, each into its own list, and gathers the
//! nodes the other checks need (calls, assignments, lambdas, stored names);
//! those then run over the gathered lists, put into breadth-first order.
//! One pass, in the order the tree lies in memory, because a large
//! program's tree does not fit in the cache: a breadth-first pass per check
//! swept all of it once per level and per check, and made validation grow
//! faster than the program.

use std::collections::{HashMap, HashSet};

use crate::fnv::FnvBuild;
use crate::syntax::ast::{
    Col, Constant, Expr, ExprContext, ExprKind, Keyword, Line, Module, Stmt, StmtKind,
};
use crate::syntax::walk::{NodeRef, depth_first, in_walk_order};

use super::Diagnostic;
use super::names::{is_allowed_builtin, is_allowed_node, is_denied_attribute, is_forbidden_name};
use super::suggest::suggest;

/// What one pass over the tree found, each list in breadth-first order
/// (CPython's `ast.walk`, the order the reference reports in).
pub(super) struct Index<'a> {
    /// Check 1's errors: node kinds outside the whitelist.
    pub whitelist: Vec<Diagnostic>,
    /// Check 2's errors: forbidden names.
    pub names: Vec<Diagnostic>,
    /// Check 3's errors: denied attributes.
    pub attributes: Vec<Diagnostic>,
    /// Check 5's errors: `for` loops over something else than a call or name.
    pub fors: Vec<Diagnostic>,
    /// Check 7's errors: string constants containing `__`.
    pub dunders: Vec<Diagnostic>,
    /// Every call expression.
    pub calls: Vec<&'a Expr>,
    /// Every plain (`=`) assignment.
    pub assigns: Vec<&'a Stmt>,
    /// Every `for` statement.
    pub for_stmts: Vec<&'a Stmt>,
    /// Every lambda.
    pub lambdas: Vec<&'a Expr>,
    /// The lambdas given as a `key=` argument.
    pub key_lambdas: HashSet<*const Expr, FnvBuild>,
    /// How often each name is stored to (assigned, bound, deleted).
    pub stores: HashMap<&'a str, usize, FnvBuild>,
}

/// What the pass gathers, in depth-first order with each item's depth
/// (put into breadth-first order by [`in_walk_order`] at the end).
#[derive(Default)]
struct Gathered<'a> {
    whitelist: Vec<(u32, Diagnostic)>,
    names: Vec<(u32, Diagnostic)>,
    attributes: Vec<(u32, Diagnostic)>,
    fors: Vec<(u32, Diagnostic)>,
    dunders: Vec<(u32, Diagnostic)>,
    calls: Vec<(u32, &'a Expr)>,
    assigns: Vec<(u32, &'a Stmt)>,
    for_stmts: Vec<(u32, &'a Stmt)>,
    lambdas: Vec<(u32, &'a Expr)>,
    key_lambdas: HashSet<*const Expr, FnvBuild>,
    stores: HashMap<&'a str, usize, FnvBuild>,
}

/// Check 1's state across the pass.
#[derive(Default)]
struct Whitelist {
    /// Where the expressions whose operator nodes are still to come start.
    /// Depth-first, an expression's operators come after the whole of the
    /// subtrees before them, so a stack pairs each with its expression.
    op_starts: Vec<(Line, Col)>,
    /// The `pass` bodies of forbidden statements, not reported again.
    echoes: HashSet<*const Stmt, FnvBuild>,
    /// Whether node kinds seen so far are allowed.
    kinds: KindCache,
}

/// Whether node kinds are allowed, remembered by the address and length of
/// their static names in a small direct-mapped table: a program has a few
/// dozen kinds and many thousand nodes, so a kind's name is looked up in
/// the whitelist about once, not once per node.
struct KindCache([(usize, usize, bool); 128]);

impl Default for KindCache {
    fn default() -> Self {
        KindCache([(0, 0, false); 128])
    }
}

impl KindCache {
    fn allowed(&mut self, kind: &'static str) -> bool {
        let key = (kind.as_ptr() as usize, kind.len());
        let slot = &mut self.0[(key.0 >> 2 ^ key.1) % 128];
        if (slot.0, slot.1) != key {
            *slot = (key.0, key.1, is_allowed_node(kind));
        }
        slot.2
    }
}

impl<'a> Index<'a> {
    /// Walks `module` once. The walk is depth-first, which follows the
    /// tree's layout in memory, and the lists are put into breadth-first
    /// order afterwards.
    pub(super) fn build(module: &'a Module) -> Index<'a> {
        let mut g = Gathered::default();
        let mut whitelist = Whitelist::default();
        for (node, depth) in depth_first(NodeRef::Module(module)) {
            if let Some(error) = whitelist.visit(node) {
                g.whitelist.push((depth, error));
            }
            match node {
                NodeRef::Expr(e) => g.expr(e, depth),
                NodeRef::Stmt(s) => g.stmt(s, depth),
                NodeRef::Keyword(k) => g.keyword(k),
                _ => {}
            }
        }
        Index {
            whitelist: in_walk_order(g.whitelist),
            names: in_walk_order(g.names),
            attributes: in_walk_order(g.attributes),
            fors: in_walk_order(g.fors),
            dunders: in_walk_order(g.dunders),
            calls: in_walk_order(g.calls),
            assigns: in_walk_order(g.assigns),
            for_stmts: in_walk_order(g.for_stmts),
            lambdas: in_walk_order(g.lambdas),
            key_lambdas: g.key_lambdas,
            stores: g.stores,
        }
    }
}

impl<'a> Gathered<'a> {
    fn expr(&mut self, e: &'a Expr, depth: u32) {
        match &e.kind {
            ExprKind::Name { id, ctx } => {
                // Check 2: no forbidden name, read or written.
                if is_forbidden_name(id) {
                    let message = format!("Forbidden name: '{id}' at line {}", e.line);
                    self.names
                        .push((depth, Diagnostic::at(e.line, e.col, message)));
                }
                if *ctx != ExprContext::Load {
                    *self.stores.entry(id.as_str()).or_default() += 1;
                }
            }
            // Check 3: no private, dunder or internal attribute.
            ExprKind::Attribute { attr, .. } if is_denied_attribute(attr) => {
                let message = format!(
                    "Forbidden attribute access: '.{attr}' at line {} \
                     (private/dunder/internal attribute access is not permitted)",
                    e.line
                );
                self.attributes
                    .push((depth, Diagnostic::at(e.line, e.col, message)));
            }
            ExprKind::Call { .. } => self.calls.push((depth, e)),
            ExprKind::Lambda { .. } => self.lambdas.push((depth, e)),
            // Check 7: no string constant containing `__` (f-string parts
            // included).
            ExprKind::Constant(Constant::Str(s)) if s.contains("__") => {
                let message = format!(
                    "String containing '__' at line {}: dunder access via string is forbidden",
                    e.line
                );
                self.dunders
                    .push((depth, Diagnostic::at(e.line, e.col, message)));
            }
            _ => {}
        }
    }

    fn stmt(&mut self, s: &'a Stmt, depth: u32) {
        match &s.kind {
            StmtKind::For(f) => {
                self.for_stmts.push((depth, s));
                // Check 5: a `for` statement iterates over a call or a name.
                if !matches!(f.iter.kind, ExprKind::Call { .. } | ExprKind::Name { .. }) {
                    let message = format!(
                        "For-loop at line {} must iterate over a function call or variable",
                        s.line
                    );
                    self.fors
                        .push((depth, Diagnostic::at(s.line, s.col, message)));
                }
            }
            StmtKind::Assign { .. } => self.assigns.push((depth, s)),
            _ => {}
        }
    }

    fn keyword(&mut self, k: &'a Keyword) {
        if k.arg.as_deref() == Some("key") && matches!(k.value.kind, ExprKind::Lambda { .. }) {
            self.key_lambdas.insert(&k.value as *const Expr);
        }
    }
}

impl Whitelist {
    /// Check 1: every node kind must be whitelisted. An operator is
    /// reported at its expression's line (and column); an import's names
    /// and the `pass` body of a forbidden definition or loop are not
    /// reported again.
    fn visit(&mut self, node: NodeRef<'_>) -> Option<Diagnostic> {
        match node {
            NodeRef::Expr(e) => match &e.kind {
                ExprKind::BinOp { .. } | ExprKind::UnaryOp { .. } | ExprKind::BoolOp { .. } => {
                    self.op_starts.push((e.line, e.col));
                }
                ExprKind::Compare { ops, .. } => {
                    self.op_starts.extend(ops.iter().map(|_| (e.line, e.col)));
                }
                _ => {}
            },
            NodeRef::Stmt(s) => match &s.kind {
                StmtKind::AugAssign { .. } => self.op_starts.push((s.line, s.col)),
                StmtKind::ClassDef { body, .. } | StmtKind::While { body, .. } => {
                    push_passes(&[body], &mut self.echoes);
                }
                StmtKind::FunctionDef(f) | StmtKind::AsyncFunctionDef(f) => {
                    push_passes(&[&f.body], &mut self.echoes);
                }
                StmtKind::Try(t) | StmtKind::TryStar(t) => {
                    push_passes(&[&t.body, &t.orelse, &t.finalbody], &mut self.echoes);
                }
                _ => {}
            },
            NodeRef::ExceptHandler(h) => push_passes(&[&h.body], &mut self.echoes),
            _ => {}
        }
        let is_op = matches!(
            node,
            NodeRef::Operator(_) | NodeRef::UnaryOp(_) | NodeRef::BoolOp(_) | NodeRef::CmpOp(_)
        );
        // Popped for every operator, to keep the stack paired; other nodes'
        // positions are read only for an error.
        let op_start = if is_op { self.op_starts.pop() } else { None };
        let kind = node.kind();
        if self.kinds.allowed(kind) || matches!(node, NodeRef::Alias(_)) {
            return None;
        }
        if let NodeRef::Stmt(s) = node
            && self.echoes.contains(&(s as *const Stmt))
        {
            return None;
        }
        let start = if is_op {
            op_start
        } else {
            node.line().zip(node.col())
        };
        Some(match start {
            Some((line, col)) => Diagnostic::at(
                line,
                col,
                format!("Forbidden AST node: {kind} at line {line}"),
            ),
            None => Diagnostic::new(format!("Forbidden AST node: {kind}")),
        })
    }
}

/// The `pass` statements of `bodies`: placeholders of a forbidden
/// statement, not a cause of their own.
fn push_passes(bodies: &[&[Stmt]], echoes: &mut HashSet<*const Stmt, FnvBuild>) {
    for body in bodies {
        echoes.extend(
            body.iter()
                .filter(|b| matches!(b.kind, StmtKind::Pass))
                .map(|b| b as *const Stmt),
        );
    }
}

/// Check 4: call targets. Returns the plainly called names.
pub(super) fn call_targets(
    ix: &Index<'_>,
    allowed: &dyn Fn(&str) -> bool,
    candidates: &[&str],
    errors: &mut Vec<Diagnostic>,
) -> Vec<String> {
    // A name bound to a lambda: the lambda is the error (check 6).
    let lambda_names: HashSet<&str, FnvBuild> = ix
        .assigns
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Assign { targets, value, .. }
                if matches!(value.kind, ExprKind::Lambda { .. }) =>
            {
                Some(targets.iter().filter_map(|t| match &t.kind {
                    ExprKind::Name { id, .. } => Some(id.as_str()),
                    _ => None,
                }))
            }
            _ => None,
        })
        .flatten()
        .collect();
    let mut calls = Vec::new();
    for e in &ix.calls {
        let ExprKind::Call { func, .. } = &e.kind else {
            continue;
        };
        match &func.kind {
            ExprKind::Name { id, .. } => {
                calls.push(id.to_string());
                if !is_allowed_builtin(id)
                    && !allowed(id)
                    && !is_forbidden_name(id)
                    && !lambda_names.contains(id.as_str())
                {
                    let mut message = format!(
                        "Unknown function: '{id}' at line {} \
                         (not a tool of this namespace or a builtin)",
                        e.line
                    );
                    if let Some(s) = suggest(id, candidates.iter().copied()) {
                        message.push_str(&format!(". Did you mean '{s}'?"));
                    }
                    errors.push(Diagnostic::at(e.line, e.col, message));
                }
            }
            ExprKind::Attribute { .. } => {}
            other => {
                let message = format!(
                    "Unsupported call target ({}) at line {}: \
                     only named functions and method calls are allowed",
                    crate::syntax::walk::expr_kind_name(other),
                    e.line
                );
                errors.push(Diagnostic::at(e.line, e.col, message));
            }
        }
    }
    calls
}

/// Check 6: a lambda only as the value of a `key=` keyword argument
/// (but for those the call check already reported, in `reported`).
pub(super) fn lambdas(ix: &Index<'_>, reported: &[*const Expr], errors: &mut Vec<Diagnostic>) {
    let reported: HashSet<*const Expr, FnvBuild> = reported.iter().copied().collect();
    for e in &ix.lambdas {
        let p = *e as *const Expr;
        if !ix.key_lambdas.contains(&p) && !reported.contains(&p) {
            let message = format!(
                "Lambda at line {} is only allowed as key= argument \
                 (e.g., key=lambda x: x['field'])",
                e.line
            );
            errors.push(Diagnostic::at(e.line, e.col, message));
        }
    }
}

/// The direct `Name` targets of plain (`=`) assignments, breadth-first.
pub(super) fn assigned_names(ix: &Index<'_>) -> Vec<String> {
    let mut names = Vec::new();
    for s in &ix.assigns {
        if let StmtKind::Assign { targets, .. } = &s.kind {
            for t in targets {
                if let ExprKind::Name { id, .. } = &t.kind {
                    names.push(id.to_string());
                }
            }
        }
    }
    names
}
