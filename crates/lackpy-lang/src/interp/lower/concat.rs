//! Chains of `+` lowered to one [`AddChain`] node (`eval/concat.rs` says
//! how it runs, and why it is the nested operations' equal).

use crate::interp::ir::{AddChain, Expr, ExprKind};
use crate::syntax::ast::Operator;

/// `left + right` (the general, not numerically lowered form), flattened
/// into an [`AddChain`] when `left` is itself an addition.
pub(crate) fn lower_add(left: Expr, right: Expr, line: u32) -> ExprKind {
    let Expr {
        line: left_line,
        kind,
    } = left;
    match kind {
        ExprKind::BinOp(ll, Operator::Add, lr) => ExprKind::AddChain(Box::new(AddChain {
            first: *ll,
            rest: vec![(*lr, left_line), (right, line)],
        })),
        ExprKind::AddChain(mut c) => {
            c.rest.push((right, line));
            ExprKind::AddChain(c)
        }
        kind => ExprKind::BinOp(
            Box::new(Expr {
                line: left_line,
                kind,
            }),
            Operator::Add,
            Box::new(right),
        ),
    }
}
