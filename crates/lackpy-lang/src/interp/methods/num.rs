//! Methods and data attributes of numbers, bytes and ranges.

use std::rc::Rc;

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Zero};

use crate::catalog::MethodId as M;
use crate::interp::Interp;
use crate::interp::args::{Kw, bind, none};
use crate::value::Value;
use crate::value::errors::{Exc, R};
use crate::value::int::as_int;

/// A data attribute (`x.real`, `r.start`, …), or `None` if there is none.
pub(crate) fn data_attr(obj: &Value, name: &str) -> Option<R<Value>> {
    match (obj, name) {
        (Value::Int(_) | Value::Big(_), "real" | "numerator") => Some(Ok(obj.clone())),
        (Value::Bool(b), "real" | "numerator") => Some(Ok(Value::Int(*b as i64))),
        (Value::Int(_) | Value::Big(_) | Value::Bool(_), "imag") => Some(Ok(Value::Int(0))),
        (Value::Int(_) | Value::Big(_) | Value::Bool(_), "denominator") => Some(Ok(Value::Int(1))),
        (Value::Float(_), "real") => Some(Ok(obj.clone())),
        (Value::Float(_), "imag") => Some(Ok(Value::Float(0.0))),
        (Value::Complex(c), "real") => Some(Ok(Value::Float(c.0))),
        (Value::Complex(c), "imag") => Some(Ok(Value::Float(c.1))),
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

/// Calls a method of a number, bytes or other value.
pub(crate) fn call(_it: &mut Interp, recv: &Value, id: M, args: &[Value], kwargs: Kw) -> R<Value> {
    let tname = recv.type_name();
    let q = |n: &str| format!("{tname}.{n}");
    match (recv, id) {
        (Value::Float(f), M::IsInteger) => {
            none(&q("is_integer"), args, kwargs)?;
            Ok(Value::Bool(f.is_finite() && f.fract() == 0.0))
        }
        (Value::Float(f), M::AsIntegerRatio) => {
            none(&q("as_integer_ratio"), args, kwargs)?;
            let (n, d) = float_ratio(*f)?;
            Ok(Value::tuple(vec![Value::from_big(n), Value::from_big(d)]))
        }
        (Value::Float(f), M::Hex) => {
            none(&q("hex"), args, kwargs)?;
            Ok(Value::str(float_hex(*f)))
        }
        (Value::Float(_), M::Conjugate) => {
            none(&q("conjugate"), args, kwargs)?;
            Ok(recv.clone())
        }
        (Value::Complex(c), M::Conjugate) => {
            none(&q("conjugate"), args, kwargs)?;
            Ok(Value::Complex(Rc::new((c.0, -c.1))))
        }
        (Value::Int(_) | Value::Big(_) | Value::Bool(_), _) => {
            let Some(i) = as_int(recv) else {
                return Err(Exc::no_attr(recv, id.name()));
            };
            match id {
                M::BitLength => {
                    none(&q("bit_length"), args, kwargs)?;
                    Ok(Value::Int(i.bits() as i64))
                }
                M::BitCount => {
                    none(&q("bit_count"), args, kwargs)?;
                    let b = i.to_big();
                    let ones: u64 = b
                        .magnitude()
                        .to_u64_digits()
                        .iter()
                        .map(|d| d.count_ones() as u64)
                        .sum();
                    Ok(Value::Int(ones as i64))
                }
                M::Conjugate => {
                    none(&q("conjugate"), args, kwargs)?;
                    Ok(Value::from_big(i.to_big()))
                }
                M::AsIntegerRatio => {
                    none(&q("as_integer_ratio"), args, kwargs)?;
                    Ok(Value::tuple(vec![
                        Value::from_big(i.to_big()),
                        Value::Int(1),
                    ]))
                }
                _ => Err(Exc::no_attr(recv, id.name())),
            }
        }
        (Value::Bytes(b), M::Decode) => {
            let bound = bind("decode", args, kwargs, &["encoding", "errors"], 0)?;
            let _ = bound;
            match String::from_utf8(b.to_vec()) {
                Ok(s) => Ok(Value::str(s)),
                Err(e) => Err(Exc::new(
                    crate::value::errors::ExcKind::Other("UnicodeDecodeError".to_owned()),
                    format!(
                        "'utf-8' codec can't decode byte 0x{:02x} in position {}: invalid start byte",
                        b.get(e.utf8_error().valid_up_to()).copied().unwrap_or(0),
                        e.utf8_error().valid_up_to()
                    ),
                )),
            }
        }
        (Value::Bytes(b), M::Hex) => {
            none("bytes.hex", args, kwargs)?;
            Ok(Value::str(
                b.iter().map(|x| format!("{x:02x}")).collect::<String>(),
            ))
        }
        (Value::Bytes(b), M::Startswith | M::Endswith | M::Count) => {
            let Some(Value::Bytes(p)) = args.first() else {
                return Err(Exc::type_error(format!(
                    "a bytes-like object is required, not '{}'",
                    args.first().map(|a| a.type_name()).unwrap_or("NoneType")
                )));
            };
            Ok(match id {
                M::Startswith => Value::Bool(b.starts_with(p)),
                M::Endswith => Value::Bool(b.ends_with(p)),
                _ => Value::Int(if p.is_empty() {
                    b.len() as i64 + 1
                } else {
                    let mut n = 0;
                    let mut i = 0;
                    while i + p.len() <= b.len() {
                        if b.get(i..i + p.len()) == Some(p.as_slice()) {
                            n += 1;
                            i += p.len();
                        } else {
                            i += 1;
                        }
                    }
                    n
                }),
            })
        }
        (Value::View(v), M::Isdisjoint) => {
            let other = crate::interp::args::one("isdisjoint", args, kwargs)?;
            let mine = crate::value::Set::from_view(v)?;
            let mut iter = crate::value::iter::PyIter::of(other)?;
            while let Some(x) = iter.next()? {
                if mine.contains(&x)? {
                    return Ok(Value::Bool(false));
                }
            }
            Ok(Value::Bool(true))
        }
        _ => Err(Exc::no_attr(recv, id.name())),
    }
}
