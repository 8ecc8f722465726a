//! `abs(x)`.

use crate::runtime::error::{Exc, R};
use crate::types::args::{Kw, no_kwargs};
use crate::types::int::{as_int, int_abs};
use crate::value::Value;

/// `abs(x)`.
pub(super) fn abs(args: &[Value], kwargs: Kw) -> R<Value> {
    no_kwargs("abs", kwargs)?;
    let [x] = args else {
        return Err(Exc::type_error(format!(
            "abs() takes exactly one argument ({} given)",
            args.len()
        )));
    };
    match x {
        // A non-negative int is its own absolute value (the same object).
        Value::Int(_, i) if *i >= 0 => Ok(x.clone()),
        Value::Big(b) if b.0.sign() != num_bigint::Sign::Minus => Ok(x.clone()),
        Value::Float(_, f) => Ok(Value::float(f.get().abs())),
        Value::Complex(c) => Ok(Value::float(c.0.hypot(c.1))),
        _ => match as_int(x) {
            Some(i) => Ok(int_abs(&i)),
            None => Err(Exc::type_error(format!(
                "bad operand type for abs(): '{}'",
                x.type_name()
            ))),
        },
    }
}
