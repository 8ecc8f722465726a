//! `+` and `*` on sequences: which type's concatenation or repetition
//! runs (each in its type's `ops.rs`), and the TypeErrors of mixed
//! operands; numbers fall through to [`crate::types::ops::arith`].

use crate::runtime::Budget;
use crate::runtime::error::{Exc, R};
use crate::syntax::ast::Operator;
use crate::types::int::as_int;
use crate::types::ops::arith::{arith, unsupported};
use crate::value::Value;

/// `a + b`: concatenation of two sequences of one type (each type's own
/// `concat`), the TypeError of a sequence and anything else, arithmetic
/// for the rest.
pub(super) fn add(budget: &mut Budget, a: Value, b: Value) -> R<Value> {
    match (a, b) {
        (Value::Str(x), Value::Str(y)) => crate::types::str::ops::concat(budget, x, y),
        (Value::Str(_), other) => Err(Exc::type_error(format!(
            "can only concatenate str (not \"{}\") to str",
            other.type_name()
        ))),
        (Value::List(x), Value::List(y)) => crate::types::list::ops::concat(budget, x, y),
        (Value::List(_), other) => Err(Exc::type_error(format!(
            "can only concatenate list (not \"{}\") to list",
            other.type_name()
        ))),
        (Value::Tuple(x), Value::Tuple(y)) => crate::types::tuple::ops::concat(budget, &x, &y),
        (Value::Tuple(_), other) => Err(Exc::type_error(format!(
            "can only concatenate tuple (not \"{}\") to tuple",
            other.type_name()
        ))),
        (Value::Bytes(x), Value::Bytes(y)) => Ok(crate::types::bytes::ops::concat(&x, &y)),
        (Value::Bytes(_), other) => Err(Exc::type_error(format!(
            "can't concat {} to bytes",
            other.type_name()
        ))),
        (a, b) => arith(Operator::Add, &a, &b),
    }
}

/// The count of a sequence repetition (`seq * n`).
pub(super) fn repeat_count(n: &Value) -> R<usize> {
    match as_int(n) {
        Some(i) => match i.to_i64() {
            Some(k) => Ok(if k < 0 { 0 } else { k as usize }),
            None => Err(Exc::overflow(
                "cannot fit 'int' into an index-sized integer",
            )),
        },
        None => Err(Exc::type_error(format!(
            "can't multiply sequence by non-int of type '{}'",
            n.type_name()
        ))),
    }
}

/// `a * b`: a sequence repeated (each type's own `repeat`), else arithmetic.
pub(super) fn mul(budget: &mut Budget, a: Value, b: Value) -> R<Value> {
    let (seq, n) = match (&a, &b) {
        (Value::Str(_) | Value::List(_) | Value::Tuple(_) | Value::Bytes(_), _) => (&a, &b),
        (_, Value::Str(_) | Value::List(_) | Value::Tuple(_) | Value::Bytes(_))
            if as_int(&a).is_some() =>
        {
            (&b, &a)
        }
        (_, Value::Str(_) | Value::List(_) | Value::Tuple(_) | Value::Bytes(_)) => {
            return Err(Exc::type_error(format!(
                "can't multiply sequence by non-int of type '{}'",
                a.type_name()
            )));
        }
        _ => return arith(Operator::Mult, &a, &b),
    };
    let n = repeat_count(n)?;
    match seq {
        Value::Str(s) => crate::types::str::ops::repeat(budget, s, seq, n),
        Value::List(l) => crate::types::list::ops::repeat(budget, l, n),
        Value::Tuple(t) => crate::types::tuple::ops::repeat(budget, t, seq, n),
        Value::Bytes(b) => crate::types::bytes::ops::repeat(budget, b, n),
        _ => Err(unsupported(Operator::Mult, &a, &b)),
    }
}
