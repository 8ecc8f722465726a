//! `round()`: ints and floats, half to even, correctly rounded.

use num_bigint::BigInt;
use num_integer::Integer;

use crate::runtime::error::{Exc, R};
use crate::types::args::{self, Kw, bind_req};
use crate::types::int::{IntRef, as_int, f64_to_int};
use crate::types::int::{big_cost, big_div, big_mul};
use crate::value::Value;

pub(super) fn round(args: &[Value], kwargs: Kw) -> R<Value> {
    let bound = bind_req("round", args, kwargs, &["number", "ndigits"], 0, 1)?;
    let Some(x) = bound.first().cloned().flatten() else {
        return Err(Exc::type_error(
            "round() missing required argument 'number' (pos 1)",
        ));
    };
    let nd = bound
        .get(1)
        .cloned()
        .flatten()
        .filter(|v| !matches!(v, Value::None));
    match &x {
        Value::Float(_, f) => match nd {
            None => {
                if f.get().is_nan() {
                    return Err(Exc::value_error("cannot convert float NaN to integer"));
                }
                if f.get().is_infinite() {
                    return Err(Exc::overflow("cannot convert float infinity to integer"));
                }
                f64_to_int(f.get().round_ties_even())
                    .ok_or_else(|| Exc::overflow("cannot convert float infinity to integer"))
            }
            Some(n) => {
                let n = args::index_clamped(&n)?;
                round_float(f.get(), n).map(Value::float)
            }
        },
        _ => match as_int(&x) {
            Some(i) => match nd {
                None => Ok(match &x {
                    Value::Bool(b) => Value::int(*b as i64),
                    _ => x.clone(),
                }),
                Some(n) => {
                    let n = args::index_clamped(&n)?;
                    round_int(&i, n)
                }
            },
            None => Err(Exc::type_error(format!(
                "type {} doesn't define __round__ method",
                x.type_name()
            ))),
        },
    }
}

/// `round(int, n)`: half to even at a multiple of `10**-n`.
fn round_int(i: &IntRef, n: i64) -> R<Value> {
    if n >= 0 {
        return Ok(Value::from_big(i.to_big()));
    }
    let x = i.to_big();
    // |x| < 2**bits <= 10**k / 2: a multiple of 10**k that near x is 0
    // (and 10**k is never built for a k past what x could reach).
    let k = n.unsigned_abs();
    let bits = x.bits();
    if (bits as f64) + 1.0 < k as f64 * std::f64::consts::LOG2_10 - 1e-9 {
        return Ok(Value::int(0));
    }
    // 10**k and the division are big-int work: charged before they run.
    let pow_bits = (k as f64 * std::f64::consts::LOG2_10) as u64 + 1;
    let cost = big_cost::mul_then_div(pow_bits / 2, bits, pow_bits)?;
    // Each in pieces that a cancel or the deadline can interrupt.
    let pow = big_mul::power(&BigInt::from(10), k)?;
    let (q, r) = big_div::div_mod_floor(&x, &pow)?;
    let twice: BigInt = &r * 2;
    let up = twice > pow || (twice == pow && q.is_odd());
    let q = if up { q + 1 } else { q };
    let rounded = big_mul::product(&q, &pow)?;
    cost.done();
    Ok(Value::from_big(rounded))
}

/// `round(float, n)`: the correctly rounded decimal, half to even.
fn round_float(x: f64, n: i64) -> R<f64> {
    if !x.is_finite() || n > 330 {
        return Ok(x);
    }
    if n < -330 {
        return Ok(0.0f64.copysign(x));
    }
    let r = if let Some(r) = round_float_fast(x, n) {
        r
    } else if n >= 0 {
        format!("{:.*}", n as usize, x).parse::<f64>().unwrap_or(x)
    } else {
        // Exact: x = m * 2**e, rounded to a multiple of 10**k.
        let k = (-n) as u32;
        let (m, e) = crate::types::float::decompose(x);
        let (num, den) = if e >= 0 {
            (
                m << e as usize,
                num_traits::pow(BigInt::from(10), k as usize),
            )
        } else {
            (
                m,
                num_traits::pow(BigInt::from(10), k as usize) << (-e) as usize,
            )
        };
        let (q, rem) = num.div_mod_floor(&den);
        let twice: BigInt = &rem * 2;
        let q = if twice > den || (twice == den && q.is_odd()) {
            q + 1
        } else {
            q
        };
        format!("{q}e{k}").parse::<f64>().unwrap_or(x)
    };
    if r.is_infinite() {
        return Err(Exc::overflow("rounded value too large to represent"));
    }
    Ok(if r == 0.0 { 0.0f64.copysign(x) } else { r })
}

/// `round(x, n)` without writing decimals, when `10**n` is exact and
/// `x * 10**n` is well inside the integers a float holds exactly: the
/// product's rounding error is recovered exactly (a fused multiply-add), so
/// the half-even decision is taken on the exact product `x * 10**n`, and
/// the rounded integer divided by `10**n` is the float nearest the decimal,
/// as CPython's correctly rounded path gives. `None` outside that range.
fn round_float_fast(x: f64, n: i64) -> Option<f64> {
    const POW10: [f64; 23] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
        1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ];
    let p = *POW10.get(usize::try_from(n).ok()?)?;
    let y = x * p;
    // Below 2**52 the product's integer part and fraction are exact; above
    // 2**-900 its rounding error is not lost to underflow.
    if !(y.abs() < 4_503_599_627_370_496.0 && (y == 0.0 || y.abs() > 1e-270)) {
        return None;
    }
    let err = x.mul_add(p, -y); // x * p == y + err, exactly
    let q = y.round_ties_even();
    let frac = y - q; // exact, in [-0.5, 0.5]
    let q = if frac == 0.5 {
        // A tie in the rounded product: the exact one decides.
        if err > 0.0 || (err == 0.0 && q % 2.0 != 0.0) {
            q + 1.0
        } else {
            q
        }
    } else if frac == -0.5 {
        if err < 0.0 || (err == 0.0 && q % 2.0 != 0.0) {
            q - 1.0
        } else {
            q
        }
    } else {
        q
    };
    Some(q / p)
}

#[cfg(test)]
mod tests {
    use crate::interp::{NoTools, RunOptions, Variables, run};

    #[test]
    fn rounding_a_long_int_far_left_keeps_its_leading_digits() {
        // 3**16384 has 7818 digits; past 4400 places it was answered 0.
        let src = "x = 3\nfor _ in range(14):\n    x = x * x\np = 1\n\
                   for _ in range(5000):\n    p = p * 10\n\
                   print(round(x, -5000) // p % 1000000, round(x, -9000), round(x, -7818), round(x, -7817) > 0)";
        let module = crate::syntax::parse::parse(src).expect("parses");
        let opts = RunOptions {
            variables: Variables::Omit,
            ..RunOptions::default()
        };
        let out = run(&module, &mut NoTools, &[], &opts);
        assert_eq!(out.error, None);
        // CPython 3.11.
        assert_eq!(out.stdout, "892325 0 0 True\n");
    }
}
