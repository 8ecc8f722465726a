//! Floats: their methods. A float is held in the value itself
//! ([`crate::value::Value::Float`]); its repr and formatting are the text
//! layer's ([`crate::text::format`]).

pub(crate) mod methods;

use num_bigint::BigInt;

/// `x == m * 2**e` exactly, `m` an integer carrying the sign.
pub(crate) fn decompose(x: f64) -> (BigInt, i64) {
    let bits = x.to_bits();
    let sign = if bits >> 63 == 1 { -1 } else { 1 };
    let exp = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & ((1u64 << 52) - 1);
    let (m, e) = if exp == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), exp - 1075)
    };
    (BigInt::from(m) * sign, e)
}
