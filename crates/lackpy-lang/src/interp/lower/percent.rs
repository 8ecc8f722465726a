//! `'template' % args` with a constant template, lowered to one
//! [`PercentCall`] node (`eval/percent.rs` runs it).

use std::cell::OnceCell;

use crate::interp::ir::{Elt, Expr, ExprKind, PercentArgs, PercentCall};
use crate::syntax::ast::Operator;
use crate::value::Value;

/// `left % right` (the general, not numerically lowered form), as a
/// [`PercentCall`] when `left` is a str constant.
pub(crate) fn lower_mod(left: Expr, right: Expr) -> ExprKind {
    let template = match &left.kind {
        ExprKind::Const(Value::Str(s)) => s.clone(),
        _ => return ExprKind::BinOp(Box::new(left), Operator::Mod, Box::new(right)),
    };
    let args = match right.kind {
        ExprKind::Tuple(elts) if elts.iter().all(|e| matches!(e, Elt::One(_))) => {
            PercentArgs::Items(
                elts.into_iter()
                    .filter_map(|e| match e {
                        Elt::One(e) => Some(e),
                        Elt::Star(_) => None,
                    })
                    .collect(),
            )
        }
        kind => PercentArgs::One(Expr {
            line: right.line,
            kind,
        }),
    };
    ExprKind::Percent(Box::new(PercentCall {
        template,
        parsed: OnceCell::new(),
        args,
    }))
}
