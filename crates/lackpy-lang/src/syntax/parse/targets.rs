//! Assignment, deletion and loop targets: setting `Store`/`Del` contexts
//! the way CPython's target rules produce them, and CPython's messages
//! for expressions that cannot be targets.

use super::error::{PResult, ParseError};
use super::parser::{Parser, mk, starts_expr};
use super::token::Tok;
use crate::syntax::ast::{CmpOp, Constant, Expr, ExprContext, ExprKind};

/// CPython's `_PyPegen_get_expr_name`: how messages name an expression.
pub(crate) fn expr_name(e: &Expr) -> &'static str {
    match &e.kind {
        ExprKind::Attribute { .. } => "attribute",
        ExprKind::Subscript { .. } => "subscript",
        ExprKind::Starred { .. } => "starred",
        ExprKind::Name { .. } => "name",
        ExprKind::List { .. } => "list",
        ExprKind::Tuple { .. } => "tuple",
        ExprKind::Lambda { .. } => "lambda",
        ExprKind::Call { .. } => "function call",
        ExprKind::BoolOp { .. } | ExprKind::BinOp { .. } | ExprKind::UnaryOp { .. } => "expression",
        ExprKind::GeneratorExp { .. } => "generator expression",
        ExprKind::Yield(_) | ExprKind::YieldFrom(_) => "yield expression",
        ExprKind::Await(_) => "await expression",
        ExprKind::ListComp { .. } => "list comprehension",
        ExprKind::SetComp { .. } => "set comprehension",
        ExprKind::DictComp { .. } => "dict comprehension",
        ExprKind::Dict { .. } => "dict literal",
        ExprKind::Set(_) => "set display",
        ExprKind::JoinedStr(_) | ExprKind::FormattedValue { .. } => "f-string expression",
        ExprKind::Constant(c) => match c {
            Constant::None => "None",
            Constant::Bool(true) => "True",
            Constant::Bool(false) => "False",
            Constant::Ellipsis => "ellipsis",
            _ => "literal",
        },
        ExprKind::Compare { .. } => "comparison",
        ExprKind::IfExp { .. } => "conditional expression",
        ExprKind::NamedExpr { .. } => "named expression",
        ExprKind::Slice { .. } => "slice",
    }
}

/// The first node of a would-be target that cannot be one, in CPython's
/// order (`_PyPegen_get_invalid_target`).
pub(crate) fn invalid_target(e: &Expr, ctx: ExprContext) -> Option<&Expr> {
    match &e.kind {
        ExprKind::Name { .. } | ExprKind::Attribute { .. } | ExprKind::Subscript { .. } => None,
        ExprKind::Starred { .. } if ctx == ExprContext::Del => Some(e),
        ExprKind::Starred { value, .. } => invalid_target(value, ctx),
        ExprKind::List { elts, .. } | ExprKind::Tuple { elts, .. } => {
            elts.iter().find_map(|x| invalid_target(x, ctx))
        }
        _ => Some(e),
    }
}

/// `invalid_target` for `for` targets, where CPython looks through a
/// comparison (`for a in b` reads as one) and never blames it.
pub(crate) fn invalid_for_target(e: &Expr) -> Option<&Expr> {
    match &e.kind {
        ExprKind::Compare { left, ops, .. } => match ops.first() {
            Some(CmpOp::In) => invalid_for_target(left),
            _ => None,
        },
        ExprKind::Starred { value, .. } => invalid_for_target(value),
        ExprKind::List { elts, .. } | ExprKind::Tuple { elts, .. } => {
            elts.iter().find_map(invalid_for_target)
        }
        _ => invalid_target(e, ExprContext::Store),
    }
}

/// Sets `ctx` on a valid target and its sub-targets.
fn set_ctx(e: &mut Expr, ctx: ExprContext) {
    match &mut e.kind {
        ExprKind::Name { ctx: c, .. }
        | ExprKind::Attribute { ctx: c, .. }
        | ExprKind::Subscript { ctx: c, .. } => *c = ctx,
        ExprKind::Starred { value, ctx: c } => {
            *c = ctx;
            set_ctx(value, ctx);
        }
        ExprKind::List { elts, ctx: c } | ExprKind::Tuple { elts, ctx: c } => {
            *c = ctx;
            for x in elts {
                set_ctx(x, ctx);
            }
        }
        _ => {}
    }
}

impl<'a> Parser<'a> {
    /// Makes `e` a target with `ctx`, or fails with CPython's message.
    pub fn make_target(&self, mut e: Expr, ctx: ExprContext) -> PResult<Expr> {
        if let Some(bad) = invalid_target(&e, ctx) {
            return Err(self.target_error(bad, ctx));
        }
        set_ctx(&mut e, ctx);
        Ok(e)
    }

    #[cold]
    pub fn target_error(&self, bad: &Expr, ctx: ExprContext) -> ParseError {
        let verb = if ctx == ExprContext::Del {
            "delete"
        } else {
            "assign to"
        };
        self.error_at(format!("cannot {verb} {}", expr_name(bad)), bad.line)
    }

    /// One element of a target list: `*target` or a `bitwise_or`.
    fn target_elem(&mut self) -> PResult<Expr> {
        if self.peek() == Tok::Star {
            return self.starred();
        }
        self.bitwise_or()
    }

    /// The target of `for` (statement or comprehension): a target list
    /// that stops before `in`, with `Store` contexts.
    pub fn for_target(&mut self) -> PResult<Expr> {
        let start = self.pos;
        let at = self.here();
        let first = self.target_elem()?;
        let e = if self.peek() == Tok::Comma {
            let mut elts = vec![first];
            while self.eat(Tok::Comma) {
                let t = self.peek();
                if !(starts_expr(t) || t == Tok::Star) {
                    break;
                }
                elts.push(self.target_elem()?);
            }
            mk(
                at,
                ExprKind::Tuple {
                    elts,
                    ctx: ExprContext::Load,
                },
            )
        } else {
            first
        };
        if invalid_target(&e, ExprContext::Store).is_some() {
            // CPython's `invalid_for_target` re-reads the target as
            // `star_expressions` (so `a in b` is one comparison).
            let end = self.pos;
            self.pos = start;
            let wide = self.probe(|p| p.star_expressions());
            self.pos = end;
            let bad = wide.as_ref().and_then(invalid_for_target);
            return Err(match bad {
                Some(bad) => self.target_error(bad, ExprContext::Store),
                None => self.syntax_error(),
            });
        }
        self.make_target(e, ExprContext::Store)
    }

    /// A single `with ... as` / pattern-free target.
    pub fn star_target(&mut self) -> PResult<Expr> {
        let e = self.target_elem()?;
        self.make_target(e, ExprContext::Store)
    }
}
