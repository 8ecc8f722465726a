//! The unary operators.

use std::rc::Rc;

use crate::runtime::error::{Exc, R};
use crate::syntax::ast::UnaryOp;
use crate::value::Value;

/// `-v`, `+v` and `not v` (`~` is not in the language).
pub(crate) fn unary(op: UnaryOp, v: Value) -> R<Value> {
    use crate::types::int::{as_int, int_neg};
    match op {
        UnaryOp::Not => Ok(Value::Bool(!v.truthy())),
        UnaryOp::USub => match &v {
            Value::Float(_, f) => Ok(Value::float(-f.get())),
            Value::Complex(c) => Ok(Value::Complex(Rc::new((-c.0, -c.1)))),
            _ => match as_int(&v) {
                Some(i) => Ok(int_neg(&i)),
                None => Err(Exc::type_error(format!(
                    "bad operand type for unary -: '{}'",
                    v.type_name()
                ))),
            },
        },
        UnaryOp::UAdd => match &v {
            Value::Bool(b) => Ok(Value::int(*b as i64)),
            Value::Int(_, _) | Value::Big(_) | Value::Float(..) | Value::Complex(_) => Ok(v),
            _ => Err(Exc::type_error(format!(
                "bad operand type for unary +: '{}'",
                v.type_name()
            ))),
        },
        UnaryOp::Invert => Err(Exc::forbidden("Invert", 0)),
    }
}
