//! Ints as values: reading an int operand, making an int from a float,
//! `abs` and negation, and retiring a big int's box.

use num_bigint::BigInt;
use num_traits::{FromPrimitive, Signed};

use super::{IntRef, retire_big};
use crate::value::Value;

/// Borrows an int (or bool) operand.
#[inline]
pub(crate) fn as_int(v: &Value) -> Option<IntRef<'_>> {
    match v {
        Value::Int(_, i) => Some(IntRef::Small(*i)),
        Value::Bool(b) => Some(IntRef::Small(*b as i64)),
        Value::Big(b) => Some(IntRef::Big(&b.0)),
        _ => None,
    }
}

/// Drops a value, keeping its box when it is a big int held by nothing
/// else (see [`SPARE`]).
#[inline]
pub(crate) fn retire(v: Value) {
    if let Value::Big(rc) = v {
        retire_big(rc);
    }
}

/// Converts a finite float to an int, truncating toward zero.
pub(crate) fn f64_to_int(f: f64) -> Option<Value> {
    if !f.is_finite() {
        return None;
    }
    let t = f.trunc();
    if t.abs() < 9.0e18 {
        return Some(Value::int(t as i64));
    }
    BigInt::from_f64(t).map(Value::from_big)
}

/// `abs()` of an int value.
pub(crate) fn int_abs(i: &IntRef) -> Value {
    match i {
        IntRef::Small(i) => match i.checked_abs() {
            Some(a) => Value::int(a),
            None => Value::from_big(BigInt::from(*i).abs()),
        },
        IntRef::Big(b) => Value::from_big(b.abs()),
    }
}

/// Negation of an int value.
pub(crate) fn int_neg(i: &IntRef) -> Value {
    match i {
        IntRef::Small(i) => match i.checked_neg() {
            Some(a) => Value::int(a),
            None => Value::from_big(-BigInt::from(*i)),
        },
        IntRef::Big(b) => Value::from_big(-(*b).clone()),
    }
}
