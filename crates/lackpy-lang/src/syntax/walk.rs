//! Breadth-first traversal in the order of CPython's `ast.walk`.
//!
//! `ast.walk` pops nodes from the front of a queue and appends each node's
//! children in field order (`ast.iter_child_nodes`). Operators and
//! contexts are nodes too. The validator's error order depends on this
//! exact order, so it lives in one place.

use std::collections::VecDeque;

use crate::syntax::ast::*;

/// A reference to any node of the tree, for uniform traversal.
#[derive(Debug, Clone, Copy)]
pub enum NodeRef<'a> {
    /// The module.
    Module(&'a Module),
    /// A statement.
    Stmt(&'a Stmt),
    /// An expression.
    Expr(&'a Expr),
    /// An `except` clause.
    ExceptHandler(&'a ExceptHandler),
    /// A parameter list.
    Arguments(&'a Arguments),
    /// A parameter.
    Arg(&'a Arg),
    /// A keyword argument.
    Keyword(&'a Keyword),
    /// An import name.
    Alias(&'a Alias),
    /// A `with` item.
    WithItem(&'a WithItem),
    /// A `match` case.
    MatchCase(&'a MatchCase),
    /// A pattern.
    Pattern(&'a Pattern),
    /// A comprehension clause.
    Comprehension(&'a Comprehension),
    /// An expression context.
    Ctx(ExprContext),
    /// A boolean operator.
    BoolOp(BoolOp),
    /// A binary operator.
    Operator(Operator),
    /// A unary operator.
    UnaryOp(UnaryOp),
    /// A comparison operator.
    CmpOp(CmpOp),
}

impl<'a> NodeRef<'a> {
    /// The CPython class name of the node (`"BinOp"`, `"Load"`, `"arg"`, …).
    pub fn kind(&self) -> &'static str {
        match self {
            NodeRef::Module(_) => "Module",
            NodeRef::Stmt(s) => stmt_kind_name(&s.kind),
            NodeRef::Expr(e) => expr_kind_name(&e.kind),
            NodeRef::ExceptHandler(_) => "ExceptHandler",
            NodeRef::Arguments(_) => "arguments",
            NodeRef::Arg(_) => "arg",
            NodeRef::Keyword(_) => "keyword",
            NodeRef::Alias(_) => "alias",
            NodeRef::WithItem(_) => "withitem",
            NodeRef::MatchCase(_) => "match_case",
            NodeRef::Pattern(p) => pattern_kind_name(&p.kind),
            NodeRef::Comprehension(_) => "comprehension",
            NodeRef::Ctx(c) => match c {
                ExprContext::Load => "Load",
                ExprContext::Store => "Store",
                ExprContext::Del => "Del",
            },
            NodeRef::BoolOp(o) => match o {
                BoolOp::And => "And",
                BoolOp::Or => "Or",
            },
            NodeRef::Operator(o) => operator_name(*o),
            NodeRef::UnaryOp(o) => match o {
                UnaryOp::Invert => "Invert",
                UnaryOp::Not => "Not",
                UnaryOp::UAdd => "UAdd",
                UnaryOp::USub => "USub",
            },
            NodeRef::CmpOp(o) => cmpop_name(*o),
        }
    }

    /// The node's line, for the kinds that carry one in CPython.
    pub fn line(&self) -> Option<Line> {
        match self {
            NodeRef::Stmt(s) => Some(s.line),
            NodeRef::Expr(e) => Some(e.line),
            NodeRef::ExceptHandler(h) => Some(h.line),
            NodeRef::Arg(a) => Some(a.line),
            NodeRef::Keyword(k) => Some(k.line),
            NodeRef::Alias(a) => Some(a.line),
            NodeRef::Pattern(p) => Some(p.line),
            _ => None,
        }
    }

    /// The node's column (CPython's 0-based `col_offset`), for the kinds
    /// that carry one.
    pub fn col(&self) -> Option<Col> {
        match self {
            NodeRef::Stmt(s) => Some(s.col),
            NodeRef::Expr(e) => Some(e.col),
            NodeRef::ExceptHandler(h) => Some(h.col),
            NodeRef::Arg(a) => Some(a.col),
            NodeRef::Keyword(k) => Some(k.col),
            NodeRef::Alias(a) => Some(a.col),
            NodeRef::Pattern(p) => Some(p.col),
            _ => None,
        }
    }

    /// Appends the node's direct children, in CPython field order.
    pub fn push_children(&self, out: &mut impl Extend<NodeRef<'a>>) {
        match *self {
            NodeRef::Module(m) => out.extend(m.body.iter().map(NodeRef::Stmt)),
            NodeRef::Stmt(s) => stmt_children(s, out),
            NodeRef::Expr(e) => expr_children(e, out),
            NodeRef::ExceptHandler(h) => {
                if let Some(t) = &h.type_ {
                    out.extend([NodeRef::Expr(t)]);
                }
                out.extend(h.body.iter().map(NodeRef::Stmt));
            }
            NodeRef::Arguments(a) => {
                out.extend(a.posonlyargs.iter().map(NodeRef::Arg));
                out.extend(a.args.iter().map(NodeRef::Arg));
                out.extend(a.vararg.iter().map(NodeRef::Arg));
                out.extend(a.kwonlyargs.iter().map(NodeRef::Arg));
                out.extend(a.kw_defaults.iter().flatten().map(NodeRef::Expr));
                out.extend(a.kwarg.iter().map(NodeRef::Arg));
                out.extend(a.defaults.iter().map(NodeRef::Expr));
            }
            NodeRef::Arg(a) => out.extend(a.annotation.iter().map(|e| NodeRef::Expr(e))),
            NodeRef::Keyword(k) => out.extend([NodeRef::Expr(&k.value)]),
            NodeRef::Alias(_) => {}
            NodeRef::WithItem(w) => {
                out.extend([NodeRef::Expr(&w.context_expr)]);
                out.extend(w.optional_vars.iter().map(|e| NodeRef::Expr(e)));
            }
            NodeRef::MatchCase(c) => {
                out.extend([NodeRef::Pattern(&c.pattern)]);
                out.extend(c.guard.iter().map(|e| NodeRef::Expr(e)));
                out.extend(c.body.iter().map(NodeRef::Stmt));
            }
            NodeRef::Pattern(p) => pattern_children(p, out),
            NodeRef::Comprehension(c) => {
                out.extend([NodeRef::Expr(&c.target), NodeRef::Expr(&c.iter)]);
                out.extend(c.ifs.iter().map(NodeRef::Expr));
            }
            NodeRef::Ctx(_)
            | NodeRef::BoolOp(_)
            | NodeRef::Operator(_)
            | NodeRef::UnaryOp(_)
            | NodeRef::CmpOp(_) => {}
        }
    }
}

fn opt<'a>(e: &'a Option<Box<Expr>>) -> impl Iterator<Item = NodeRef<'a>> {
    e.iter().map(|e| NodeRef::Expr(e))
}

fn stmts(body: &[Stmt]) -> impl Iterator<Item = NodeRef<'_>> {
    body.iter().map(NodeRef::Stmt)
}

fn exprs(es: &[Expr]) -> impl Iterator<Item = NodeRef<'_>> {
    es.iter().map(NodeRef::Expr)
}

fn stmt_children<'a>(s: &'a Stmt, out: &mut impl Extend<NodeRef<'a>>) {
    match &s.kind {
        StmtKind::FunctionDef(f) | StmtKind::AsyncFunctionDef(f) => {
            out.extend([NodeRef::Arguments(&f.args)]);
            out.extend(stmts(&f.body));
            out.extend(exprs(&f.decorator_list));
            out.extend(opt(&f.returns));
        }
        StmtKind::ClassDef {
            bases,
            keywords,
            body,
            decorator_list,
            ..
        } => {
            out.extend(exprs(bases));
            out.extend(keywords.iter().map(NodeRef::Keyword));
            out.extend(stmts(body));
            out.extend(exprs(decorator_list));
        }
        StmtKind::Return(v) => out.extend(opt(v)),
        StmtKind::Delete(ts) => out.extend(exprs(ts)),
        StmtKind::Assign { targets, value } => {
            out.extend(exprs(targets));
            out.extend([NodeRef::Expr(value)]);
        }
        StmtKind::AugAssign { target, op, value } => out.extend([
            NodeRef::Expr(target),
            NodeRef::Operator(*op),
            NodeRef::Expr(value),
        ]),
        StmtKind::AnnAssign {
            target,
            annotation,
            value,
            ..
        } => {
            out.extend([NodeRef::Expr(target), NodeRef::Expr(annotation)]);
            out.extend(opt(value));
        }
        StmtKind::For(f) | StmtKind::AsyncFor(f) => {
            out.extend([NodeRef::Expr(&f.target), NodeRef::Expr(&f.iter)]);
            out.extend(stmts(&f.body));
            out.extend(stmts(&f.orelse));
        }
        StmtKind::While { test, body, orelse } | StmtKind::If { test, body, orelse } => {
            out.extend([NodeRef::Expr(test)]);
            out.extend(stmts(body));
            out.extend(stmts(orelse));
        }
        StmtKind::With { items, body } | StmtKind::AsyncWith { items, body } => {
            out.extend(items.iter().map(NodeRef::WithItem));
            out.extend(stmts(body));
        }
        StmtKind::Match { subject, cases } => {
            out.extend([NodeRef::Expr(subject)]);
            out.extend(cases.iter().map(NodeRef::MatchCase));
        }
        StmtKind::Raise { exc, cause } => {
            out.extend(opt(exc));
            out.extend(opt(cause));
        }
        StmtKind::Try(t) | StmtKind::TryStar(t) => {
            out.extend(stmts(&t.body));
            out.extend(t.handlers.iter().map(NodeRef::ExceptHandler));
            out.extend(stmts(&t.orelse));
            out.extend(stmts(&t.finalbody));
        }
        StmtKind::Assert { test, msg } => {
            out.extend([NodeRef::Expr(test)]);
            out.extend(opt(msg));
        }
        StmtKind::Import(names) | StmtKind::ImportFrom { names, .. } => {
            out.extend(names.iter().map(NodeRef::Alias))
        }
        StmtKind::Expr(e) => out.extend([NodeRef::Expr(e)]),
        StmtKind::Global(_)
        | StmtKind::Nonlocal(_)
        | StmtKind::Pass
        | StmtKind::Break
        | StmtKind::Continue => {}
    }
}

fn comps(gens: &[Comprehension]) -> impl Iterator<Item = NodeRef<'_>> {
    gens.iter().map(NodeRef::Comprehension)
}

fn expr_children<'a>(e: &'a Expr, out: &mut impl Extend<NodeRef<'a>>) {
    match &e.kind {
        ExprKind::BoolOp { op, values } => {
            out.extend([NodeRef::BoolOp(*op)]);
            out.extend(exprs(values));
        }
        ExprKind::NamedExpr { target, value } => {
            out.extend([NodeRef::Expr(target), NodeRef::Expr(value)])
        }
        ExprKind::BinOp { left, op, right } => out.extend([
            NodeRef::Expr(left),
            NodeRef::Operator(*op),
            NodeRef::Expr(right),
        ]),
        ExprKind::UnaryOp { op, operand } => {
            out.extend([NodeRef::UnaryOp(*op), NodeRef::Expr(operand)])
        }
        ExprKind::Lambda { args, body } => {
            out.extend([NodeRef::Arguments(args), NodeRef::Expr(body)])
        }
        ExprKind::IfExp { test, body, orelse } => out.extend([
            NodeRef::Expr(test),
            NodeRef::Expr(body),
            NodeRef::Expr(orelse),
        ]),
        ExprKind::Dict { keys, values } => {
            out.extend(keys.iter().flatten().map(NodeRef::Expr));
            out.extend(exprs(values));
        }
        ExprKind::Set(elts) => out.extend(exprs(elts)),
        ExprKind::ListComp { elt, generators }
        | ExprKind::SetComp { elt, generators }
        | ExprKind::GeneratorExp { elt, generators } => {
            out.extend([NodeRef::Expr(elt)]);
            out.extend(comps(generators));
        }
        ExprKind::DictComp {
            key,
            value,
            generators,
        } => {
            out.extend([NodeRef::Expr(key), NodeRef::Expr(value)]);
            out.extend(comps(generators));
        }
        ExprKind::Await(v) | ExprKind::YieldFrom(v) => out.extend([NodeRef::Expr(v)]),
        ExprKind::Yield(v) => out.extend(opt(v)),
        ExprKind::Compare {
            left,
            ops,
            comparators,
        } => {
            out.extend([NodeRef::Expr(left)]);
            out.extend(ops.iter().map(|o| NodeRef::CmpOp(*o)));
            out.extend(exprs(comparators));
        }
        ExprKind::Call {
            func,
            args,
            keywords,
        } => {
            out.extend([NodeRef::Expr(func)]);
            out.extend(exprs(args));
            out.extend(keywords.iter().map(NodeRef::Keyword));
        }
        ExprKind::FormattedValue {
            value, format_spec, ..
        } => {
            out.extend([NodeRef::Expr(value)]);
            out.extend(opt(format_spec));
        }
        ExprKind::JoinedStr(values) => out.extend(exprs(values)),
        ExprKind::Constant(_) => {}
        ExprKind::Attribute { value, ctx, .. } | ExprKind::Starred { value, ctx } => {
            out.extend([NodeRef::Expr(value), NodeRef::Ctx(*ctx)])
        }
        ExprKind::Subscript { value, slice, ctx } => out.extend([
            NodeRef::Expr(value),
            NodeRef::Expr(slice),
            NodeRef::Ctx(*ctx),
        ]),
        ExprKind::Name { ctx, .. } => out.extend([NodeRef::Ctx(*ctx)]),
        ExprKind::List { elts, ctx } | ExprKind::Tuple { elts, ctx } => {
            out.extend(exprs(elts));
            out.extend([NodeRef::Ctx(*ctx)]);
        }
        ExprKind::Slice { lower, upper, step } => {
            out.extend(opt(lower));
            out.extend(opt(upper));
            out.extend(opt(step));
        }
    }
}

fn pattern_children<'a>(p: &'a Pattern, out: &mut impl Extend<NodeRef<'a>>) {
    match &p.kind {
        PatternKind::MatchValue(v) => out.extend([NodeRef::Expr(v)]),
        PatternKind::MatchSingleton(_) | PatternKind::MatchStar(_) => {}
        PatternKind::MatchSequence(ps) | PatternKind::MatchOr(ps) => {
            out.extend(ps.iter().map(NodeRef::Pattern))
        }
        PatternKind::MatchMapping { keys, patterns, .. } => {
            out.extend(exprs(keys));
            out.extend(patterns.iter().map(NodeRef::Pattern));
        }
        PatternKind::MatchClass {
            cls,
            patterns,
            kwd_patterns,
            ..
        } => {
            out.extend([NodeRef::Expr(cls)]);
            out.extend(patterns.iter().map(NodeRef::Pattern));
            out.extend(kwd_patterns.iter().map(NodeRef::Pattern));
        }
        PatternKind::MatchAs { pattern, .. } => {
            out.extend(pattern.iter().map(|p| NodeRef::Pattern(p)))
        }
    }
}

/// The CPython class name of a statement kind.
pub fn stmt_kind_name(k: &StmtKind) -> &'static str {
    match k {
        StmtKind::FunctionDef(_) => "FunctionDef",
        StmtKind::AsyncFunctionDef(_) => "AsyncFunctionDef",
        StmtKind::ClassDef { .. } => "ClassDef",
        StmtKind::Return(_) => "Return",
        StmtKind::Delete(_) => "Delete",
        StmtKind::Assign { .. } => "Assign",
        StmtKind::AugAssign { .. } => "AugAssign",
        StmtKind::AnnAssign { .. } => "AnnAssign",
        StmtKind::For(_) => "For",
        StmtKind::AsyncFor(_) => "AsyncFor",
        StmtKind::While { .. } => "While",
        StmtKind::If { .. } => "If",
        StmtKind::With { .. } => "With",
        StmtKind::AsyncWith { .. } => "AsyncWith",
        StmtKind::Match { .. } => "Match",
        StmtKind::Raise { .. } => "Raise",
        StmtKind::Try(_) => "Try",
        StmtKind::TryStar(_) => "TryStar",
        StmtKind::Assert { .. } => "Assert",
        StmtKind::Import(_) => "Import",
        StmtKind::ImportFrom { .. } => "ImportFrom",
        StmtKind::Global(_) => "Global",
        StmtKind::Nonlocal(_) => "Nonlocal",
        StmtKind::Expr(_) => "Expr",
        StmtKind::Pass => "Pass",
        StmtKind::Break => "Break",
        StmtKind::Continue => "Continue",
    }
}

/// The CPython class name of an expression kind.
pub fn expr_kind_name(k: &ExprKind) -> &'static str {
    match k {
        ExprKind::BoolOp { .. } => "BoolOp",
        ExprKind::NamedExpr { .. } => "NamedExpr",
        ExprKind::BinOp { .. } => "BinOp",
        ExprKind::UnaryOp { .. } => "UnaryOp",
        ExprKind::Lambda { .. } => "Lambda",
        ExprKind::IfExp { .. } => "IfExp",
        ExprKind::Dict { .. } => "Dict",
        ExprKind::Set(_) => "Set",
        ExprKind::ListComp { .. } => "ListComp",
        ExprKind::SetComp { .. } => "SetComp",
        ExprKind::DictComp { .. } => "DictComp",
        ExprKind::GeneratorExp { .. } => "GeneratorExp",
        ExprKind::Await(_) => "Await",
        ExprKind::Yield(_) => "Yield",
        ExprKind::YieldFrom(_) => "YieldFrom",
        ExprKind::Compare { .. } => "Compare",
        ExprKind::Call { .. } => "Call",
        ExprKind::FormattedValue { .. } => "FormattedValue",
        ExprKind::JoinedStr(_) => "JoinedStr",
        ExprKind::Constant(_) => "Constant",
        ExprKind::Attribute { .. } => "Attribute",
        ExprKind::Subscript { .. } => "Subscript",
        ExprKind::Starred { .. } => "Starred",
        ExprKind::Name { .. } => "Name",
        ExprKind::List { .. } => "List",
        ExprKind::Tuple { .. } => "Tuple",
        ExprKind::Slice { .. } => "Slice",
    }
}

fn pattern_kind_name(k: &PatternKind) -> &'static str {
    match k {
        PatternKind::MatchValue(_) => "MatchValue",
        PatternKind::MatchSingleton(_) => "MatchSingleton",
        PatternKind::MatchSequence(_) => "MatchSequence",
        PatternKind::MatchMapping { .. } => "MatchMapping",
        PatternKind::MatchClass { .. } => "MatchClass",
        PatternKind::MatchStar(_) => "MatchStar",
        PatternKind::MatchAs { .. } => "MatchAs",
        PatternKind::MatchOr(_) => "MatchOr",
    }
}

/// The CPython class name of a binary operator.
pub fn operator_name(o: Operator) -> &'static str {
    match o {
        Operator::Add => "Add",
        Operator::Sub => "Sub",
        Operator::Mult => "Mult",
        Operator::MatMult => "MatMult",
        Operator::Div => "Div",
        Operator::Mod => "Mod",
        Operator::Pow => "Pow",
        Operator::LShift => "LShift",
        Operator::RShift => "RShift",
        Operator::BitOr => "BitOr",
        Operator::BitXor => "BitXor",
        Operator::BitAnd => "BitAnd",
        Operator::FloorDiv => "FloorDiv",
    }
}

/// The CPython class name of a comparison operator.
pub fn cmpop_name(o: CmpOp) -> &'static str {
    match o {
        CmpOp::Eq => "Eq",
        CmpOp::NotEq => "NotEq",
        CmpOp::Lt => "Lt",
        CmpOp::LtE => "LtE",
        CmpOp::Gt => "Gt",
        CmpOp::GtE => "GtE",
        CmpOp::Is => "Is",
        CmpOp::IsNot => "IsNot",
        CmpOp::In => "In",
        CmpOp::NotIn => "NotIn",
    }
}

/// Iterates the tree breadth-first from `root`, exactly as `ast.walk`.
///
/// The walk uses a heap-allocated queue, never recursion, so a deeply
/// nested tree cannot overflow the stack here.
pub fn walk(root: NodeRef<'_>) -> Walk<'_> {
    let mut queue = VecDeque::new();
    queue.push_back(root);
    Walk { queue }
}

/// The iterator returned by [`walk`].
#[derive(Debug)]
pub struct Walk<'a> {
    queue: VecDeque<NodeRef<'a>>,
}

impl<'a> Iterator for Walk<'a> {
    type Item = NodeRef<'a>;

    fn next(&mut self) -> Option<NodeRef<'a>> {
        let node = self.queue.pop_front()?;
        node.push_children(&mut self.queue);
        Some(node)
    }
}

/// Iterates the tree depth-first (pre-order, children in field order) from
/// `root`, each node with its depth (the root's is 0).
///
/// This visits nodes in about the order the parser allocated them, so on a
/// tree too large for the cache it costs one sweep, where [`walk`] sweeps
/// the whole tree once per level. The two orders are related exactly:
/// nodes of one depth come in the same relative order in both (each is the
/// order of their paths from the root), so stably sorting this walk's nodes
/// by depth ([`in_walk_order`]) gives [`walk`]'s order.
pub fn depth_first(root: NodeRef<'_>) -> DepthFirst<'_> {
    DepthFirst {
        stack: vec![(root, 0)],
    }
}

/// The iterator returned by [`depth_first`].
#[derive(Debug)]
pub struct DepthFirst<'a> {
    stack: Vec<(NodeRef<'a>, u32)>,
}

/// Pushes children onto the walk's stack with their depth.
struct Push<'s, 'a> {
    stack: &'s mut Vec<(NodeRef<'a>, u32)>,
    depth: u32,
}

impl<'a> Extend<NodeRef<'a>> for Push<'_, 'a> {
    fn extend<I: IntoIterator<Item = NodeRef<'a>>>(&mut self, iter: I) {
        for node in iter {
            self.stack.push((node, self.depth));
        }
    }
}

impl<'a> Iterator for DepthFirst<'a> {
    type Item = (NodeRef<'a>, u32);

    fn next(&mut self) -> Option<(NodeRef<'a>, u32)> {
        let (node, depth) = self.stack.pop()?;
        let first = self.stack.len();
        node.push_children(&mut Push {
            stack: &mut self.stack,
            depth: depth + 1,
        });
        // The first child is visited first: it goes on top.
        self.stack[first..].reverse();
        Some((node, depth))
    }
}

/// Puts items gathered in [`depth_first`] order, each with its node's
/// depth, into [`walk`]'s (breadth-first) order: a stable counting sort by
/// depth.
pub fn in_walk_order<T>(items: Vec<(u32, T)>) -> Vec<T> {
    let Some(max) = items.iter().map(|(d, _)| *d as usize).max() else {
        return Vec::new();
    };
    // starts[d] is where the next item of depth d goes.
    let mut starts = vec![0usize; max + 2];
    for (d, _) in &items {
        starts[*d as usize + 1] += 1;
    }
    for i in 1..starts.len() {
        starts[i] += starts[i - 1];
    }
    let mut slots: Vec<Option<T>> = std::iter::repeat_with(|| None).take(items.len()).collect();
    for (d, item) in items {
        let at = &mut starts[d as usize];
        slots[*at] = Some(item);
        *at += 1;
    }
    slots.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each node's kind, line and (for statements and expressions) address.
    fn kinds_and_lines(
        nodes: impl Iterator<Item = NodeRef<'static>>,
    ) -> Vec<(String, Option<Line>, usize)> {
        nodes
            .map(|n| {
                let at = match n {
                    NodeRef::Expr(e) => e as *const Expr as usize,
                    NodeRef::Stmt(s) => s as *const Stmt as usize,
                    _ => 0,
                };
                (n.kind().to_string(), n.line(), at)
            })
            .collect()
    }

    #[test]
    fn depth_first_sorted_by_depth_is_the_breadth_first_walk() {
        let sources = [
            "x = 1\nfor a in f(b, c=[d + 2 for d in e if d < 3]):\n    y = -a * (b or c)\n    if y:\n        g(lambda q: q[0], key=lambda r: r)\nz: list[str] = []\n",
            "def f(a, *b, c=1, **d):\n    try:\n        pass\n    except E as e:\n        raise X from e\n    finally:\n        del a\nclass C(B, k=1):\n    x += 1\n",
            "match p:\n    case [1, *r] if r:\n        pass\n    case {'k': v, **rest}:\n        pass\n    case C(a, b=2) | None:\n        pass\nwith a as b, c:\n    assert b, f'{c!r:>{w}}'\n",
        ];
        for source in sources {
            let module: &'static Module = Box::leak(Box::new(
                crate::syntax::parse::parse(source).expect("parses"),
            ));
            let bfs = kinds_and_lines(walk(NodeRef::Module(module)));
            let dfs: Vec<(u32, NodeRef<'static>)> = depth_first(NodeRef::Module(module))
                .map(|(n, d)| (d, n))
                .collect();
            let sorted = kinds_and_lines(in_walk_order(dfs).into_iter());
            assert_eq!(bfs, sorted, "{source}");
        }
    }

    #[test]
    fn in_walk_order_is_stable_and_handles_empty() {
        assert!(in_walk_order::<u8>(Vec::new()).is_empty());
        let items = vec![(2, 'a'), (0, 'b'), (1, 'c'), (2, 'd'), (0, 'e'), (1, 'f')];
        assert_eq!(in_walk_order(items), vec!['b', 'e', 'c', 'f', 'a', 'd']);
    }
}
