//! The methods of `float`: their table and one function per method.

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Zero};

use crate::runtime::error::{Exc, R};
use crate::syntax::catalog::MethodId as M;
use crate::types::args::{Kw, none};
use crate::types::table::{Methods, m};
use crate::value::Value;

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
    let (num, e) = super::decompose(f);
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
