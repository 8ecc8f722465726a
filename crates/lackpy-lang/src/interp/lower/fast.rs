//! Numeric fast paths, lowered: a binary operation (`+ - * / // %`) or a
//! single comparison whose operands are names, number constants and items
//! of named lists or tuples (`row[0]`, `xs[i]`), or such operations a few
//! levels deep, gets a [`Fast`] tree kept beside its general form
//! (`eval/fast.rs` reads it, and says when it answers).

use crate::interp::ir::{Expr, ExprKind, Fast, FastBin, FastCmp, NameRef};
use crate::syntax::ast::{CmpOp, Operator};
use crate::value::Value;

/// Deepest [`Fast`] tree lowered (bounds the evaluator's recursion).
const MAX_DEPTH: u32 = 4;

/// The fast operand of an already resolved expression, if it has one.
fn operand(e: &Expr) -> Option<Fast> {
    match &e.kind {
        ExprKind::Const(Value::Int(_, i)) => Some(Fast::Int(*i)),
        ExprKind::Const(Value::Bool(b)) => Some(Fast::Int(*b as i64)),
        ExprKind::Const(Value::Float(_, x)) => Some(Fast::Float(x.get())),
        ExprKind::Name(NameRef::Local(s), _) => Some(Fast::Local(*s)),
        ExprKind::Name(NameRef::Global(s), _) => Some(Fast::Global(*s)),
        ExprKind::Subscript(obj, idx)
            if matches!(
                obj.kind,
                ExprKind::Name(NameRef::Local(_) | NameRef::Global(_), _)
            ) =>
        {
            let (c, i) = (operand(obj)?, operand(idx)?);
            if matches!(i, Fast::Float(_)) {
                return None;
            }
            let f = Fast::Item(Box::new((c, i)));
            (depth(&f) <= MAX_DEPTH).then_some(f)
        }
        ExprKind::FastBin(b) => {
            let f = Fast::Bin(Box::new((b.l.clone(), b.op, b.r.clone())));
            (depth(&f) <= MAX_DEPTH).then_some(f)
        }
        _ => None,
    }
}

fn depth(f: &Fast) -> u32 {
    match f {
        Fast::Bin(b) => 1 + depth(&b.0).max(depth(&b.2)),
        Fast::Item(b) => 1 + depth(&b.1),
        _ => 0,
    }
}

/// `left op right`: a [`FastBin`] when both operands have fast forms.
pub(crate) fn lower_bin(left: Expr, op: Operator, right: Expr) -> ExprKind {
    if crate::types::ops::is_numeric_op(op)
        && let (Some(l), Some(r)) = (operand(&left), operand(&right))
        && depth(&l).max(depth(&r)) < MAX_DEPTH
    {
        return ExprKind::FastBin(Box::new(FastBin {
            op,
            l,
            r,
            left,
            right,
        }));
    }
    ExprKind::BinOp(Box::new(left), op, Box::new(right))
}

/// `left op right …`: a [`FastCmp`] for one ordering or equality
/// comparison of fast operands.
pub(crate) fn lower_compare(left: Expr, rest: Vec<(CmpOp, Expr)>) -> ExprKind {
    if let [(op, right)] = rest.as_slice()
        && matches!(
            op,
            CmpOp::Eq | CmpOp::NotEq | CmpOp::Lt | CmpOp::LtE | CmpOp::Gt | CmpOp::GtE
        )
        && let (Some(l), Some(r)) = (operand(&left), operand(right))
    {
        return ExprKind::FastCmp(Box::new(FastCmp {
            op: *op,
            l,
            r,
            left,
            rest,
        }));
    }
    ExprKind::Compare(Box::new(left), rest)
}
