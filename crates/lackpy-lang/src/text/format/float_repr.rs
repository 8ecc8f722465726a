//! The decimal text of a float: Python's `repr(float)` and the exact,
//! correctly rounded digits behind `'e'`, `'f'`, `'g'` and `%` formatting.
//!
//! A finite f64 is an exact binary fraction `m * 2**e`, so rounding it to a
//! decimal position is exact integer arithmetic: scale by a power of ten,
//! divide, and round half to even on the remainder. That is what CPython's
//! `dtoa` computes, so the digits agree in every case, ties included
//! (`format(2.675, '.2f') == '2.67'` because 2.675 is really 2.67499…).
//!
//! Shortest round-trip digits (`repr`) come from Rust's `{:e}` formatting,
//! which yields the shortest digit string that reads back as the same float,
//! the closest one when several are that short — CPython's `repr` rule.

use std::cmp::Ordering;

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};

/// Fraction digits a finite f64 can have: 2**-1074 has 1074. Rounding at a
/// later position changes nothing, so larger precisions are served by
/// zero padding instead of by arithmetic on huge numbers.
const FIXED_CAP: usize = 1100;

/// Significant digits a finite f64 can have (767 at most); as above.
const SIGNIFICANT_CAP: usize = 800;

/// Python `repr(float)` (== `str(float)`): shortest round-trip digits,
/// `'.0'` appended to integral values, exponent form when the decimal
/// exponent is below -4 or at least 16 (`'1e+16'`, `'1e-05'`,
/// `'1.5e-07'`), and `'inf'`, `'-inf'`, `'nan'`, `'-0.0'`.
pub fn float_repr(x: f64) -> String {
    super::float_text(x).as_str().to_owned()
}

/// Appends `format(x, '.{precision}f')` of a finite `x` (sign included),
/// straight from the rounded integer when it fits 128 bits.
pub fn push_fixed<W: std::fmt::Write>(out: &mut W, x: f64, precision: usize) {
    // Writing to a string cannot fail.
    if x.is_sign_negative() {
        let _ = out.write_char('-');
    }
    let (m, e) = decompose(x);
    let Some(q) = round_scaled_small(m, e, precision) else {
        let p = fixed_parts(x.abs(), precision, false);
        let mut rest = String::new();
        p.write_rest(&mut rest);
        let _ = out.write_str(&p.int_part);
        let _ = out.write_str(&rest);
        return;
    };
    // u128 has at most 39 digits; at least precision + 1 (<= 20) are
    // shown, plus the point: written right to left into a stack buffer,
    // then appended in one piece.
    let mut text = [b'0'; 41];
    let mut at = text.len();
    let mut n = 0;
    let mut digit = |at: &mut usize, n: &mut usize, d: u8| {
        if precision > 0 && *n == precision {
            *at -= 1;
            text[*at] = b'.';
        }
        *at -= 1;
        text[*at] = b'0' + d;
        *n += 1;
    };
    // Most values fit 64 bits, whose division by ten is a multiply; the
    // rest go through 128-bit division.
    let mut rest = q;
    while rest > u128::from(u64::MAX) {
        digit(&mut at, &mut n, (rest % 10) as u8);
        rest /= 10;
    }
    let mut rest = rest as u64;
    while rest > 0 || n <= precision {
        digit(&mut at, &mut n, (rest % 10) as u8);
        rest /= 10;
    }
    // Digits and a point: ASCII.
    let _ = out.write_str(std::str::from_utf8(&text[at..]).unwrap_or_default());
}

/// Which of CPython's float layouts to produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FloatStyle {
    /// `repr`: shortest round-trip digits.
    Repr,
    /// `'f'`: this many digits after the point.
    Fixed(usize),
    /// `'e'`: this many digits after the point of the mantissa.
    Exp(usize),
    /// `'g'`: this many significant digits (0 means 1).
    General(usize),
}

/// Flags that modify a [`FloatStyle`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct FloatOptions {
    /// `#`: always a decimal point; `'g'` keeps trailing zeros.
    pub alt: bool,
    /// Format-spec type omitted: `'.0'` on integral fixed results, and `'g'`
    /// switches to exponent form one digit earlier.
    pub add_dot_0: bool,
    /// `'E'`, `'F'`, `'G'`: upper-case exponent marker.
    pub upper: bool,
}

/// The unsigned text of a finite float, split so that callers can group the
/// integer digits and can measure the length before materialising long runs
/// of zeros.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FloatParts {
    /// Digits before the point (never empty).
    pub int_part: String,
    /// Whether a decimal point follows the integer digits.
    pub point: bool,
    /// Digits after the point.
    pub frac: String,
    /// Zeros after `frac` (precision beyond the exact expansion).
    pub frac_zeros: usize,
    /// `e+05`-style exponent, or empty.
    pub exp: String,
}

impl FloatParts {
    /// Characters after the integer digits.
    pub fn rest_len(&self) -> usize {
        usize::from(self.point)
            .saturating_add(self.frac.len())
            .saturating_add(self.frac_zeros)
            .saturating_add(self.exp.len())
    }

    /// Total characters.
    pub fn len(&self) -> usize {
        self.int_part.len().saturating_add(self.rest_len())
    }

    /// Appends everything after the integer digits.
    pub fn write_rest(&self, out: &mut String) {
        if self.point {
            out.push('.');
        }
        out.push_str(&self.frac);
        super::push_repeated(out, '0', self.frac_zeros);
        out.push_str(&self.exp);
    }

    /// Whether every shown digit is zero (for the `z` flag).
    pub fn is_zero(&self) -> bool {
        self.int_part.bytes().all(|b| b == b'0') && self.frac.bytes().all(|b| b == b'0')
    }
}

/// Lays out `x` (finite, non-negative; `-0.0` is fine) in `style`.
pub(crate) fn float_parts(x: f64, style: FloatStyle, opts: FloatOptions) -> FloatParts {
    match style {
        FloatStyle::Repr => {
            let mut buf = [0u8; 17];
            let (n, decpt) = super::float_text::shortest_digits(x, &mut buf);
            let d = if n == 0 {
                Digits {
                    digits: "0".to_owned(),
                    pad: 0,
                    decpt: 1,
                }
            } else {
                Digits {
                    digits: String::from_utf8_lossy(&buf[..n]).into_owned(),
                    pad: 0,
                    decpt,
                }
            };
            if d.decpt <= -4 || d.decpt > 16 {
                exp_layout(d, opts.alt, opts.upper)
            } else {
                fixed_layout(d, opts.alt, true)
            }
        }
        FloatStyle::Fixed(precision) => fixed_parts(x, precision, opts.alt),
        FloatStyle::Exp(precision) => exp_layout(
            significant(x, precision.saturating_add(1)),
            opts.alt,
            opts.upper,
        ),
        FloatStyle::General(precision) => {
            let precision = precision.max(1);
            let mut d = significant(x, precision);
            // With the type omitted CPython keeps '.0' room: 100.0 with
            // '.3' is '1e+02', not '100.0'.
            let threshold = if opts.add_dot_0 {
                precision - 1
            } else {
                precision
            };
            let use_exp = d.decpt <= -4 || d.decpt > i64::try_from(threshold).unwrap_or(i64::MAX);
            if !opts.alt {
                d.strip_trailing_zeros();
            }
            if use_exp {
                exp_layout(d, opts.alt, opts.upper)
            } else {
                fixed_layout(d, opts.alt, opts.add_dot_0)
            }
        }
    }
}

/// Significant digits `0.DDDD * 10**decpt`, with `pad` implied trailing
/// zeros beyond `digits`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Digits {
    digits: String,
    pad: usize,
    decpt: i64,
}

impl Digits {
    fn strip_trailing_zeros(&mut self) {
        self.pad = 0;
        let kept = self.digits.trim_end_matches('0').len().max(1);
        self.digits.truncate(kept);
    }
}

/// `x == m * 2**e` exactly, for finite `x` (sign ignored).
fn decompose(x: f64) -> (u64, i32) {
    let bits = x.to_bits();
    let frac = bits & ((1u64 << 52) - 1);
    // The exponent field is 11 bits wide, so the cast is lossless.
    let biased = ((bits >> 52) & 0x7ff) as i32;
    if biased == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), biased - 1075)
    }
}

fn pow10(n: u64) -> BigUint {
    // Exponents here stay below a few thousand.
    BigUint::from(10u32).pow(u32::try_from(n).unwrap_or(u32::MAX))
}

/// `m * 2**e` as a fraction `num / den`, multiplied by `10**scale`.
fn scaled_fraction(m: u64, e: i32, scale: i64) -> (BigUint, BigUint) {
    let mut num = BigUint::from(m);
    let mut den = BigUint::one();
    if e >= 0 {
        num <<= e.unsigned_abs();
    } else {
        den <<= e.unsigned_abs();
    }
    if scale >= 0 {
        num *= pow10(scale.unsigned_abs());
    } else {
        den *= pow10(scale.unsigned_abs());
    }
    (num, den)
}

/// `m * 2**e * 10**p` rounded half to even, in 128-bit arithmetic when it
/// fits (the common `'.2f'` of an ordinary float): the same exact rounding
/// as [`round_scaled`] without big ints. `None` when it does not fit.
fn round_scaled_small(m: u64, e: i32, p: usize) -> Option<u128> {
    if p > 19 {
        return None;
    }
    // m < 2**53 and 10**19 < 2**64: the product fits in 117 bits.
    let scaled = u128::from(m) * 10u128.pow(u32::try_from(p).ok()?);
    if e >= 0 {
        let e = e.unsigned_abs();
        return (scaled.leading_zeros() > e).then(|| scaled << e);
    }
    let shift = e.unsigned_abs();
    if shift >= 127 {
        // x * 10**p < 2**117 / 2**127 < 1/2: rounds to zero.
        return Some(0);
    }
    let q = scaled >> shift;
    let r = scaled & ((1u128 << shift) - 1);
    let half = 1u128 << (shift - 1);
    Some(if r > half || (r == half && q & 1 == 1) {
        q + 1
    } else {
        q
    })
}

/// `m * 2**e * 10**scale` rounded half to even to an integer.
fn round_scaled(m: u64, e: i32, scale: i64) -> BigUint {
    let (num, den) = scaled_fraction(m, e, scale);
    let (q, r) = num.div_rem(&den);
    let twice = r << 1u32;
    match twice.cmp(&den) {
        Ordering::Greater => q + 1u32,
        Ordering::Equal if q.is_odd() => q + 1u32,
        _ => q,
    }
}

/// Shortest round-trip digits of `x` (non-negative, finite), the nearest
/// to `x` among equally short candidates, ties to an even last digit, by
/// formatting twice: the slow oracle the one-pass ryu digits are held to.
#[cfg(test)]
fn shortest(x: f64) -> Digits {
    let d = std_shortest(x);
    let n = d.digits.len();
    if x == 0.0 || !is_midpoint_candidate(x, n) {
        return d;
    }
    // `x` lies exactly halfway between two n-digit decimals. Rust picks
    // the upper one; CPython the even one, when it also reads back as `x`.
    let even = significant(x, n);
    if even.digits != d.digits {
        let text = format!("0.{}e{}", even.digits, even.decpt);
        if text.parse::<f64>().is_ok_and(|back| back == x) {
            return even;
        }
    }
    d
}

/// Rust's shortest round-trip digits (`{:e}`: "1.2345e-7", "5e-324", "0e0").
fn std_shortest(x: f64) -> Digits {
    let text = format!("{:e}", x.abs());
    let (mantissa, exponent) = text.split_once('e').unwrap_or((text.as_str(), "0"));
    let exponent: i64 = exponent.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    Digits {
        digits,
        pad: 0,
        decpt: exponent + 1,
    }
}

#[cfg(test)]
/// Cheap filter: a tie at `n` digits needs the exact value to have `n + 1`
/// significant digits ending in 5, which exact `n + 1`-digit formatting
/// then shows unrounded.
fn is_midpoint_candidate(x: f64, n: usize) -> bool {
    let text = format!("{:.*e}", n, x.abs());
    text.split_once('e')
        .is_some_and(|(mantissa, _)| mantissa.ends_with('5'))
}

/// `k` with `10**k <= x < 10**(k+1)`, for finite `x > 0`.
fn floor_log10(x: f64) -> i64 {
    let (m, e) = decompose(x);
    let mut k = std_shortest(x).decpt - 1;
    // The shortest digits can round across a power of ten; settle exactly.
    while compare_pow10(m, e, k) == Ordering::Less {
        k -= 1;
    }
    while compare_pow10(m, e, k + 1) != Ordering::Less {
        k += 1;
    }
    k
}

/// Compares `m * 2**e` with `10**k`.
fn compare_pow10(m: u64, e: i32, k: i64) -> Ordering {
    let (num, den) = scaled_fraction(m, e, -k);
    num.cmp(&den)
}

/// `x` (non-negative, finite) rounded to `n >= 1` significant digits.
fn significant(x: f64, n: usize) -> Digits {
    let n = n.max(1);
    let exact = n.min(SIGNIFICANT_CAP);
    let pad = n - exact;
    if x == 0.0 {
        return Digits {
            digits: "0".repeat(exact),
            pad,
            decpt: 1,
        };
    }
    significant_small(x, exact)
        .map(|d| Digits { pad, ..d })
        .unwrap_or_else(|| significant_big(x, exact, pad))
}

/// [`significant`] of a positive `x` by big-int arithmetic, any length.
fn significant_big(x: f64, exact: usize, pad: usize) -> Digits {
    let (m, e) = decompose(x);
    let k = floor_log10(x);
    // `exact` is at most SIGNIFICANT_CAP, so it fits an i64.
    let exact_i = exact as i64;
    let mut q = round_scaled(m, e, exact_i - 1 - k);
    let mut decpt = k + 1;
    let limit = pow10(exact as u64);
    if q >= limit {
        // Rounded up to the next power of ten (9.99 -> 10.0).
        q = pow10(exact as u64 - 1);
        decpt += 1;
    }
    Digits {
        digits: q.to_str_radix(10),
        pad,
        decpt,
    }
}

/// [`significant`] of a positive `x` to at most 19 digits in 128-bit
/// arithmetic: the decimal exponent is estimated from `log10` and settled
/// exactly from the scaled integer part, which is then rounded half to
/// even. `None` when an intermediate does not fit (huge or tiny `x`).
fn significant_small(x: f64, n: usize) -> Option<Digits> {
    if n > 19 || x <= 0.0 || !x.is_finite() {
        return None;
    }
    let (m, e) = decompose(x);
    // n <= 19: both bounds fit u64.
    let low = 10u128.pow(u32::try_from(n - 1).ok()?);
    let high = low * 10;
    let mut k = x.log10().floor() as i64;
    // The estimate is off by at most one; a third try means it was not.
    for _ in 0..3 {
        let (t, rest) = scaled_floor(m, e, n as i64 - 1 - k)?;
        if t < low {
            k -= 1;
            continue;
        }
        if t >= high {
            k += 1;
            continue;
        }
        let up = match rest {
            Ordering::Greater => true,
            Ordering::Equal => t & 1 == 1,
            Ordering::Less => false,
        };
        let (q, decpt) = match t + u128::from(up) {
            q if q == high => (low, k + 2),
            q => (q, k + 1),
        };
        return Some(Digits {
            digits: q.to_string(),
            pad: 0,
            decpt,
        });
    }
    None
}

/// `floor(m * 2**e * 10**scale)` and how the fraction cut off compares
/// with one half, in 128-bit arithmetic; `None` when it does not fit.
fn scaled_floor(m: u64, e: i32, scale: i64) -> Option<(u128, Ordering)> {
    let p10 = 10u128.checked_pow(u32::try_from(scale.unsigned_abs()).ok()?)?;
    let shift = e.unsigned_abs();
    // num / den == m * 2**e * 10**scale exactly.
    let (mut num, mut den) = (u128::from(m), 1u128);
    if scale >= 0 {
        num = num.checked_mul(p10)?;
    } else {
        den = p10;
    }
    if e >= 0 {
        if shift >= num.leading_zeros() {
            return None;
        }
        num <<= shift;
    } else {
        if shift >= den.leading_zeros() {
            return None;
        }
        den <<= shift;
    }
    let (t, r) = (num / den, num % den);
    // r < den, so den - r cannot underflow; comparing r with den - r
    // avoids doubling r.
    Some((t, r.cmp(&(den - r))))
}

/// `'f'` layout: `x` rounded to `precision` fraction digits.
fn fixed_parts(x: f64, precision: usize, alt: bool) -> FloatParts {
    let exact = precision.min(FIXED_CAP);
    let (m, e) = decompose(x);
    let mut text = match round_scaled_small(m, e, exact) {
        Some(q) => q.to_string(),
        None => {
            let q = round_scaled(m, e, exact as i64);
            if q.is_zero() {
                String::from("0")
            } else {
                q.to_str_radix(10)
            }
        }
    };
    if text.len() <= exact {
        let mut padded = "0".repeat(exact + 1 - text.len());
        padded.push_str(&text);
        text = padded;
    }
    let frac = text.split_off(text.len() - exact);
    FloatParts {
        int_part: text,
        point: precision > 0 || alt,
        frac,
        frac_zeros: precision - exact,
        exp: String::new(),
    }
}

/// Plain positional layout of `d`.
fn fixed_layout(d: Digits, alt: bool, add_dot_0: bool) -> FloatParts {
    let n = d.digits.len() as i64;
    let (int_part, mut frac, frac_zeros) = if d.decpt <= 0 {
        let mut frac = "0".repeat(d.decpt.unsigned_abs() as usize);
        frac.push_str(&d.digits);
        ("0".to_string(), frac, d.pad)
    } else if d.decpt < n {
        let (int_part, frac) = d.digits.split_at(d.decpt as usize);
        (int_part.to_string(), frac.to_string(), d.pad)
    } else {
        // Trailing integer zeros come first out of the implied padding.
        let extra = (d.decpt - n) as usize;
        let mut int_part = d.digits;
        int_part.push_str(&"0".repeat(extra));
        (int_part, String::new(), d.pad.saturating_sub(extra))
    };
    let mut point = alt || !frac.is_empty() || frac_zeros > 0;
    if add_dot_0 && frac.is_empty() && frac_zeros == 0 {
        frac.push('0');
        point = true;
    }
    FloatParts {
        int_part,
        point,
        frac,
        frac_zeros,
        exp: String::new(),
    }
}

/// Scientific layout of `d`: `D.DDDe+XX`, at least two exponent digits.
fn exp_layout(d: Digits, alt: bool, upper: bool) -> FloatParts {
    let mut int_part = d.digits;
    let frac = int_part.split_off(1.min(int_part.len()));
    let exponent = d.decpt - 1;
    let exp = format!(
        "{}{}{:02}",
        if upper { 'E' } else { 'e' },
        if exponent < 0 { '-' } else { '+' },
        exponent.unsigned_abs()
    );
    FloatParts {
        point: alt || !frac.is_empty() || d.pad > 0,
        int_part,
        frac,
        frac_zeros: d.pad,
        exp,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lackpy_test_support::rng::Rng;

    fn render(x: f64, style: FloatStyle, alt: bool, add_dot_0: bool) -> String {
        let p = float_parts(
            x,
            style,
            FloatOptions {
                alt,
                add_dot_0,
                upper: false,
            },
        );
        let mut s = p.int_part.clone();
        p.write_rest(&mut s);
        assert_eq!(s.len(), p.len());
        s
    }

    /// `repr(x)` from CPython 3.11.7.
    const REPR_CASES: &[(f64, &str)] = &[
        (0.1 + 0.2, "0.30000000000000004"),
        (1e16, "1e+16"),
        (1e15, "1000000000000000.0"),
        (9999999999999998.0, "9999999999999998.0"),
        (1e-5, "1e-05"),
        (1e-4, "0.0001"),
        (0.000123, "0.000123"),
        (123456789012345680.0, "1.2345678901234568e+17"),
        (5e-324, "5e-324"),
        (1.7976931348623157e308, "1.7976931348623157e+308"),
        (2.2250738585072014e-308, "2.2250738585072014e-308"),
        (-0.0, "-0.0"),
        (0.0, "0.0"),
        (f64::NAN, "nan"),
        (-f64::NAN, "nan"),
        (f64::INFINITY, "inf"),
        (f64::NEG_INFINITY, "-inf"),
        (1e22, "1e+22"),
        (1e23, "1e+23"),
        (0.1, "0.1"),
        (100.0, "100.0"),
        (2.5e-05, "2.5e-05"),
        (1.5e-07, "1.5e-07"),
        (3.0, "3.0"),
        (-3.5, "-3.5"),
        (1.0 / 3.0, "0.3333333333333333"),
        (2.0 / 3.0, "0.6666666666666666"),
        (10.0 / 3.0, "3.3333333333333335"),
        (1.0 / 7.0, "0.14285714285714285"),
        (0.9999999999999999, "0.9999999999999999"),
        (123456.789, "123456.789"),
        (1e100, "1e+100"),
        (1.234e-300, "1.234e-300"),
        (4.35, "4.35"),
        (2.675, "2.675"),
        (1e-7, "1e-07"),
        (12345678901234567.0, "1.2345678901234568e+16"),
        (0.5, "0.5"),
        (-1e-10, "-1e-10"),
        (9.007199254740993e15, "9007199254740992.0"),
        (1e-323, "1e-323"),
        (f64::MIN_POSITIVE, "2.2250738585072014e-308"),
        (f64::EPSILON, "2.220446049250313e-16"),
        (299792458.0, "299792458.0"),
        (6.02214076e23, "6.02214076e+23"),
        (-1.5e300, "-1.5e+300"),
    ];

    #[test]
    fn repr_matches_cpython() {
        for &(x, want) in REPR_CASES {
            assert_eq!(float_repr(x), want, "repr({x:?})");
        }
    }

    #[test]
    fn fixed_rounds_exactly_half_even() {
        // (value, precision, CPython format(value, f'.{p}f'))
        let cases: &[(f64, usize, &str)] = &[
            (2.675, 2, "2.67"),
            (0.125, 2, "0.12"),
            (0.375, 2, "0.38"),
            (1.5, 0, "2"),
            (2.5, 0, "2"),
            (3.5, 0, "4"),
            (0.5, 0, "0"),
            (1.005, 2, "1.00"),
            (0.25, 1, "0.2"),
            (0.35, 1, "0.3"),
            (0.05, 1, "0.1"),
            (0.15, 1, "0.1"),
            (1e-5, 6, "0.000010"),
            (123.456, 0, "123"),
            (1e22, 0, "10000000000000000000000"),
            (0.1, 20, "0.10000000000000000555"),
            (5e-324, 3, "0.000"),
            (9.995, 2, "9.99"),
            (9.9951, 2, "10.00"),
        ];
        for &(x, p, want) in cases {
            assert_eq!(
                render(x, FloatStyle::Fixed(p), false, false),
                want,
                "{x} .{p}f"
            );
        }
    }

    #[test]
    fn exact_expansion_of_tiny_and_huge() {
        let tiny = render(5e-324, FloatStyle::Fixed(1100), false, false);
        assert!(tiny.starts_with("0.000"));
        // 2**-1074 has exactly 1074 fraction digits, ending in ...625.
        assert_eq!(&tiny[2 + 1074 - 3..2 + 1074], "625");
        assert!(tiny[2 + 1074..].bytes().all(|b| b == b'0'));
        let big = render(f64::MAX, FloatStyle::Fixed(0), false, false);
        assert_eq!(
            big,
            "179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368"
        );
    }

    #[test]
    fn significant_handles_carry_and_boundaries() {
        let cases: &[(f64, FloatStyle, &str)] = &[
            (9.9999995, FloatStyle::General(6), "10"),
            (999999.5, FloatStyle::General(6), "1e+06"),
            (9999995.0, FloatStyle::General(6), "1e+07"),
            (9.5, FloatStyle::Exp(0), "1e+01"),
            (0.95, FloatStyle::General(1), "0.9"),
            (1e23, FloatStyle::Exp(20), "9.99999999999999916114e+22"),
            (0.0001234, FloatStyle::General(2), "0.00012"),
            (1234.5, FloatStyle::General(3), "1.23e+03"),
            (0.0, FloatStyle::Exp(3), "0.000e+00"),
            (5e-324, FloatStyle::Exp(2), "4.94e-324"),
        ];
        for &(x, style, want) in cases {
            assert_eq!(render(x, style, false, false), want, "{x} {style:?}");
        }
    }

    #[test]
    fn huge_precision_pads_without_arithmetic() {
        let p = float_parts(
            0.5,
            FloatStyle::Fixed(1_000_000_000),
            FloatOptions::default(),
        );
        assert_eq!(p.frac_zeros, 1_000_000_000 - FIXED_CAP);
        assert_eq!(p.len(), 1_000_000_002);
        let g = float_parts(
            0.5,
            FloatStyle::General(1_000_000_000),
            FloatOptions::default(),
        );
        assert_eq!(
            (g.int_part.as_str(), g.frac.as_str(), g.frac_zeros),
            ("0", "5", 0)
        );
        let alt = FloatOptions {
            alt: true,
            ..FloatOptions::default()
        };
        let ga = float_parts(0.5, FloatStyle::General(1_000_000), alt);
        assert_eq!(ga.len(), 1_000_002);
    }

    /// The old two-pass repr (grisu digits, then an exact check of ties),
    /// laid out by `float_parts`' own layouts.
    fn oracle_repr(x: f64) -> String {
        if x.is_nan() {
            return "nan".into();
        }
        if x.is_infinite() {
            return if x < 0.0 { "-inf" } else { "inf" }.into();
        }
        let d = shortest(x.abs());
        let p = if d.decpt <= -4 || d.decpt > 16 {
            exp_layout(d, false, false)
        } else {
            fixed_layout(d, false, true)
        };
        let mut out = String::new();
        if x.is_sign_negative() {
            out.push('-');
        }
        out.push_str(&p.int_part);
        p.write_rest(&mut out);
        out
    }

    /// `fixed_parts` by big-int arithmetic alone.
    fn oracle_fixed(x: f64, precision: usize) -> String {
        let (m, e) = decompose(x);
        let q = round_scaled(m, e, precision as i64).to_str_radix(10);
        let q = format!("{q:0>width$}", width = precision + 1);
        let (i, f) = q.split_at(q.len() - precision);
        if precision == 0 {
            i.to_owned()
        } else {
            format!("{i}.{f}")
        }
    }

    #[test]
    fn small_significant_agrees_with_big_int_rounding() {
        let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
        let mut xs = vec![
            0.5,
            1.5,
            2.5,
            0.125,
            9.5,
            99.5,
            1e22,
            1e23,
            5e-324,
            f64::MAX,
        ];
        for _ in 0..20_000 {
            let state = rng.next();
            let x = f64::from_bits(state).abs();
            if x.is_finite() && x > 0.0 {
                xs.push(x);
            }
            // Exact ties and values next to powers of ten.
            xs.push((state % 100_000 + 1) as f64 / f64::from(1u32 << (state % 12)));
            let p = 10f64.powi((state % 40) as i32 - 20);
            xs.extend([p, p.next_up(), p.next_down()]);
        }
        let mut fast = 0;
        let total = xs.len() * 19;
        for x in xs {
            for n in 1..=19 {
                let big = significant_big(x, n, 0);
                if let Some(small) = significant_small(x, n) {
                    fast += 1;
                    assert_eq!(
                        (small.digits, small.decpt),
                        (big.digits, big.decpt),
                        "{x:e} to {n}"
                    );
                }
            }
        }
        // Most inputs (all but the huge and tiny) take the fast path.
        assert!(fast * 2 > total, "{fast} of {total}");
    }

    #[test]
    fn fast_fixed_agrees_with_big_int_rounding() {
        let mut rng = Rng::new(0x2545_f491_4f6c_dd1d);
        let mut xs = vec![
            0.0,
            0.5,
            1.5,
            2.5,
            0.125,
            0.375,
            2.675,
            5e-324,
            1e22,
            f64::MAX,
        ];
        for _ in 0..20_000 {
            let state = rng.next();
            let x = f64::from_bits(state).abs();
            if x.is_finite() {
                xs.push(x);
            }
            // Exact ties: k / 2**j.
            xs.push((state % 100_000) as f64 / f64::from(1u32 << (state % 12)));
        }
        for x in xs {
            for p in [0, 1, 2, 3, 6, 17, 40, 100] {
                let parts = float_parts(x, FloatStyle::Fixed(p), FloatOptions::default());
                let mut got = parts.int_part.clone();
                parts.write_rest(&mut got);
                assert_eq!(got, oracle_fixed(x, p), "{x:e} at {p}");
                let mut pushed = String::new();
                push_fixed(&mut pushed, -x, p);
                assert_eq!(pushed, format!("-{got}"), "{x:e} at {p}");
            }
        }
    }

    #[test]
    fn one_pass_repr_agrees_with_the_exact_oracle() {
        let mut edge = vec![
            0.0,
            -0.0,
            5e-324,
            -5e-324,
            f64::MIN_POSITIVE,
            f64::MAX,
            f64::MIN,
            1e16,
            9999999999999998.0,
            1e15,
            0.0001,
            0.00001,
            1e22,
            1e23,
            2.0f64.powi(63),
            2.0f64.powi(-1074) * 3.0,
        ];
        for e in -324..=308 {
            let p = format!("1e{e}").parse::<f64>().unwrap_or(0.0);
            edge.extend([p, p.next_up(), p.next_down(), -p]);
        }
        let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
        for _ in 0..200_000 {
            let state = rng.next();
            edge.push(f64::from_bits(state));
            // Short decimals: the values programs print most.
            edge.push((state % 1_000_000) as f64 / 1000.0);
        }
        for x in edge {
            assert_eq!(float_repr(x), oracle_repr(x), "repr of {:#x}", x.to_bits());
        }
    }
}
