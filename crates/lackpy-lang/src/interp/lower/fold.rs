//! Constants: the value of a literal, and the constants CPython 3.11's
//! compiler folds (a folded number is one object, as a literal is:
//! [`ident::Id::CONST`]).

use std::rc::Rc;

use crate::syntax::ast;
use crate::types::bytes::PyBytes;
use crate::value::Value;
use crate::value::ident;

/// The value of a literal.
pub(crate) fn constant(c: &ast::Constant) -> Value {
    match c {
        ast::Constant::None => Value::None,
        ast::Constant::Bool(b) => Value::Bool(*b),
        ast::Constant::Int(i) => as_constant(Value::from_big(i.clone())),
        ast::Constant::Float(f) => Value::Float(ident::Id::CONST, ident::F::new(*f)),
        ast::Constant::Complex(im) => Value::Complex(Rc::new((0.0, *im))),
        ast::Constant::Str(s) => Value::str(s.as_str()),
        ast::Constant::Bytes(b) => Value::Bytes(Rc::new(PyBytes::new(b.clone()))),
        ast::Constant::Ellipsis => Value::Ellipsis,
    }
}

/// CPython folds `-1`, `+1.5` and `~7` into constants; so do we (a
/// folded number is a constant: one object, [`ident::Id::CONST`]).
pub(super) fn fold_unary(op: ast::UnaryOp, v: &Value) -> Option<Value> {
    use crate::types::int::{IntRef, int_neg};
    match (op, v) {
        (ast::UnaryOp::USub, Value::Int(_, i)) => Some(as_constant(int_neg(&IntRef::Small(*i)))),
        (ast::UnaryOp::USub, Value::Big(b)) => Some(int_neg(&IntRef::Big(&b.0))),
        (ast::UnaryOp::Invert, Value::Int(..) | Value::Big(_) | Value::Bool(_)) => {
            crate::types::ops::unary(ast::UnaryOp::Invert, v.clone())
                .ok()
                .map(as_constant)
        }
        (ast::UnaryOp::USub, Value::Float(_, f)) => {
            Some(Value::Float(ident::Id::CONST, ident::F::new(-f.get())))
        }
        (ast::UnaryOp::USub, Value::Complex(c)) => Some(Value::Complex(Rc::new((-c.0, -c.1)))),
        (
            ast::UnaryOp::UAdd,
            Value::Int(_, _) | Value::Big(_) | Value::Float(..) | Value::Complex(_),
        ) => Some(v.clone()),
        _ => None,
    }
}

/// The largest int operand or result, in bits, that CPython 3.11's
/// constant folder lets `*`, `**` and `<<` make.
const FOLD_MAX_INT_BITS: u64 = 128;

/// The longest text CPython 3.11's constant folder makes by `*`.
const FOLD_MAX_STR_LEN: u64 = 4096;

/// CPython folds a binary operator on two number constants into one
/// constant when it succeeds and its result stays small (its folder's
/// limits); so do we, so that a folded number is one object as there
/// (`0.1 + 0.2 is 0.1 + 0.2`). The value is what the operator computes
/// at run time; one that raises is left to raise then.
pub(super) fn fold_binary(op: ast::Operator, a: &Value, b: &Value) -> Option<Value> {
    use crate::types::int::as_int;
    use ast::Operator as O;
    let number = |v: &Value| {
        matches!(
            v,
            Value::Int(..) | Value::Big(_) | Value::Bool(_) | Value::Float(..)
        )
    };
    let text_len = |v: &Value| match v {
        Value::Str(s) => Some(s.char_len()),
        Value::Bytes(b) => Some(b.len()),
        _ => None,
    };
    if op == O::MatMult {
        return None;
    }
    if !number(a) || !number(b) {
        // Text: `+` of two, or `*` by an int while the result stays within
        // the folder's 4,096 characters; `%` is never folded.
        let ok = match (op, text_len(a), text_len(b)) {
            (O::Add, Some(_), Some(_)) => true,
            (O::Mult, Some(size), None) | (O::Mult, None, Some(size)) => {
                let times = if text_len(a).is_some() { b } else { a };
                size == 0
                    || as_int(times)
                        .and_then(|n| n.to_i64())
                        .is_some_and(|n| n >= 0 && n as u64 <= FOLD_MAX_STR_LEN / size as u64)
            }
            _ => false,
        };
        if !ok {
            return None;
        }
    }
    if let (Some(x), Some(y)) = (as_int(a), as_int(b))
        && !x.is_zero()
    {
        let (xb, y_pos) = (x.bits(), !y.is_zero() && !y.is_negative());
        let too_big = match op {
            O::Mult => !y.is_zero() && xb + y.bits() > FOLD_MAX_INT_BITS,
            O::Pow => {
                y_pos
                    && y.to_i64()
                        .is_none_or(|w| xb.saturating_mul(w as u64) > FOLD_MAX_INT_BITS)
            }
            O::LShift => {
                y_pos
                    && y.to_i64().is_none_or(|w| {
                        w as u64 > FOLD_MAX_INT_BITS || xb > FOLD_MAX_INT_BITS - w as u64
                    })
            }
            _ => false,
        };
        if too_big {
            return None;
        }
    }
    // Under the run's scope (its clock and memory limit), but no step
    // counted: folding is not the program's work.
    let mut budget = crate::runtime::Budget::new(&crate::runtime::Limits::default(), None);
    crate::types::ops::binop(&mut budget, op, a.clone(), b.clone())
        .ok()
        .map(as_constant)
}

/// A number made while lowering, as the program's constant.
pub(super) fn as_constant(v: Value) -> Value {
    match v {
        Value::Int(_, i) => Value::Int(ident::Id::CONST, i),
        Value::Float(_, f) => Value::Float(ident::Id::CONST, f),
        other => other,
    }
}
