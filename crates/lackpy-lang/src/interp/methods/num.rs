//! Methods of numbers and bytes (their tables and one function per
//! method), and the data attributes of numbers and ranges.

use std::rc::Rc;

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Zero};

use super::{Methods, m};
use crate::interp::args::{Kw, none};
use crate::runtime::error::{Exc, R};
use crate::syntax::catalog::MethodId as M;
use crate::value::Value;
use crate::value::int::{IntRef, as_int};

/// A data attribute (`x.real`, `r.start`, …), or `None` if there is none.
pub(crate) fn data_attr(obj: &Value, name: &str) -> Option<R<Value>> {
    match (obj, name) {
        (Value::Int(_, _) | Value::Big(_), "real" | "numerator") => Some(Ok(obj.clone())),
        (Value::Bool(b), "real" | "numerator") => Some(Ok(Value::int(*b as i64))),
        (Value::Int(_, _) | Value::Big(_) | Value::Bool(_), "imag") => Some(Ok(Value::int(0))),
        (Value::Int(_, _) | Value::Big(_) | Value::Bool(_), "denominator") => {
            Some(Ok(Value::int(1)))
        }
        (Value::Float(..), "real") => Some(Ok(obj.clone())),
        (Value::Float(_, _), "imag") => Some(Ok(Value::float(0.0))),
        (Value::Complex(c), "real") => Some(Ok(Value::float(c.0))),
        (Value::Complex(c), "imag") => Some(Ok(Value::float(c.1))),
        (Value::Range(r), "start") => Some(Ok(r.attrs().0)),
        (Value::Range(r), "stop") => Some(Ok(r.attrs().1)),
        (Value::Range(r), "step") => Some(Ok(r.attrs().2)),
        _ => None,
    }
}

/// Exact `(numerator, denominator)` of a finite float.
fn float_ratio(f: f64) -> R<(BigInt, BigInt)> {
    if f.is_nan() {
        return Err(Exc::value_error("cannot convert NaN to integer ratio"));
    }
    if f.is_infinite() {
        return Err(Exc::overflow("cannot convert Infinity to integer ratio"));
    }
    if f == 0.0 {
        return Ok((BigInt::zero(), BigInt::one()));
    }
    let bits = f.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & ((1u64 << 52) - 1);
    let (m, e) = if exp == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), exp - 1075)
    };
    let mut num = BigInt::from(m);
    if f < 0.0 {
        num = -num;
    }
    let (num, den) = if e >= 0 {
        (num << e as usize, BigInt::one())
    } else {
        (num, BigInt::one() << (-e) as usize)
    };
    let g = num.gcd(&den);
    Ok((num / &g, den / g))
}

/// `float.hex()`.
fn float_hex(f: f64) -> String {
    if f.is_nan() {
        return "nan".to_owned();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf" } else { "-inf" }.to_owned();
    }
    let sign = if f.is_sign_negative() { "-" } else { "" };
    let bits = f.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & ((1u64 << 52) - 1);
    if exp == 0 && frac == 0 {
        return format!("{sign}0x0.0p+0");
    }
    let (lead, e) = if exp == 0 {
        (0, -1022)
    } else {
        (1, exp - 1023)
    };
    let esign = if e < 0 { "-" } else { "+" };
    format!("{sign}0x{lead}.{frac:013x}p{esign}{}", e.abs())
}

/// A method of `int` (and `bool`): the receiver, positional and keyword
/// arguments.
pub(crate) type IntMethod = fn(&Value, &[Value], Kw<'_>) -> R<Value>;

/// The methods of `int`, which `bool` inherits.
pub(crate) static INT: Methods<IntMethod> = Methods::new(&[
    m(M::AsIntegerRatio, 0, 0, int_as_integer_ratio),
    m(M::BitCount, 0, 0, bit_count),
    m(M::BitLength, 0, 0, bit_length),
    m(M::Conjugate, 0, 0, int_conjugate),
]);

/// The receiver as an int and `type.method` for messages.
fn int_recv<'v>(recv: &'v Value, id: M) -> R<(IntRef<'v>, String)> {
    match as_int(recv) {
        Some(i) => Ok((i, format!("{}.{}", recv.type_name(), id.name()))),
        None => Err(Exc::no_attr(recv, id.name())),
    }
}

fn bit_length(recv: &Value, args: &[Value], kwargs: Kw) -> R<Value> {
    let (i, qual) = int_recv(recv, M::BitLength)?;
    none(&qual, args, kwargs)?;
    Ok(Value::int(i.bits() as i64))
}

fn bit_count(recv: &Value, args: &[Value], kwargs: Kw) -> R<Value> {
    let (i, qual) = int_recv(recv, M::BitCount)?;
    none(&qual, args, kwargs)?;
    let b = i.to_big();
    let ones: u64 = b
        .magnitude()
        .to_u64_digits()
        .iter()
        .map(|d| d.count_ones() as u64)
        .sum();
    Ok(Value::int(ones as i64))
}

fn int_conjugate(recv: &Value, args: &[Value], kwargs: Kw) -> R<Value> {
    let (i, qual) = int_recv(recv, M::Conjugate)?;
    none(&qual, args, kwargs)?;
    Ok(Value::from_big(i.to_big()))
}

fn int_as_integer_ratio(recv: &Value, args: &[Value], kwargs: Kw) -> R<Value> {
    let (i, qual) = int_recv(recv, M::AsIntegerRatio)?;
    none(&qual, args, kwargs)?;
    Ok(Value::tuple(vec![
        Value::from_big(i.to_big()),
        Value::int(1),
    ]))
}

/// A method of `float`: the receiver, positional and keyword arguments.
pub(crate) type FloatMethod = fn(f64, &[Value], Kw<'_>) -> R<Value>;

/// The methods of `float`.
pub(crate) static FLOAT: Methods<FloatMethod> = Methods::new(&[
    m(M::AsIntegerRatio, 0, 0, float_as_integer_ratio),
    m(M::Conjugate, 0, 0, float_conjugate),
    m(M::Hex, 0, 0, float_hex_of),
    m(M::IsInteger, 0, 0, is_integer),
]);

fn is_integer(f: f64, args: &[Value], kwargs: Kw) -> R<Value> {
    none("float.is_integer", args, kwargs)?;
    Ok(Value::Bool(f.is_finite() && f.fract() == 0.0))
}

fn float_as_integer_ratio(f: f64, args: &[Value], kwargs: Kw) -> R<Value> {
    none("float.as_integer_ratio", args, kwargs)?;
    let (n, d) = float_ratio(f)?;
    Ok(Value::tuple(vec![Value::from_big(n), Value::from_big(d)]))
}

fn float_hex_of(f: f64, args: &[Value], kwargs: Kw) -> R<Value> {
    none("float.hex", args, kwargs)?;
    Ok(Value::str(float_hex(f)))
}

fn float_conjugate(f: f64, args: &[Value], kwargs: Kw) -> R<Value> {
    none("float.conjugate", args, kwargs)?;
    Ok(Value::float(f))
}

/// A method of `complex`: the receiver, positional and keyword arguments.
pub(crate) type ComplexMethod = fn(&(f64, f64), &[Value], Kw<'_>) -> R<Value>;

/// The methods of `complex`.
pub(crate) static COMPLEX: Methods<ComplexMethod> =
    Methods::new(&[m(M::Conjugate, 0, 0, complex_conjugate)]);

fn complex_conjugate(c: &(f64, f64), args: &[Value], kwargs: Kw) -> R<Value> {
    none("complex.conjugate", args, kwargs)?;
    Ok(Value::Complex(Rc::new((c.0, -c.1))))
}
