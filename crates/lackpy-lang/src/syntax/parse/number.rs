//! Numeric literals: scanning (with CPython's tokenizer errors) and value
//! conversion (ints of any size, floats, imaginary numbers).

use num_bigint::BigInt;

use crate::syntax::ast::Constant;

/// CPython 3.11's default `sys.get_int_max_str_digits()`.
const MAX_STR_DIGITS: usize = 4300;

fn at(s: &[u8], i: usize) -> u8 {
    s.get(i).copied().unwrap_or(0)
}

fn is_id_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c >= 128
}

/// Digits with single underscores between them (`1_000`).
fn decimal_tail(s: &[u8], i: &mut usize) -> Result<(), String> {
    loop {
        while at(s, *i).is_ascii_digit() {
            *i += 1;
        }
        if at(s, *i) != b'_' {
            return Ok(());
        }
        *i += 1;
        if !at(s, *i).is_ascii_digit() {
            return Err("invalid decimal literal".into());
        }
    }
}

/// What may follow a number: a keyword that can legally follow one
/// (`1if x else y` is accepted, with a warning, by CPython 3.11), or
/// anything that cannot continue an identifier.
fn verify_end(s: &[u8], i: usize, kind: &str) -> Result<(), String> {
    let rest = s.get(i..).unwrap_or_default();
    // `and`, `else`, `for`, `or`, `not` count only as whole words; `if`,
    // `in`, `is` are recognized by their first two letters (as CPython's
    // tokenizer does).
    let whole = |k: &str| rest.starts_with(k.as_bytes()) && !is_id_char(at(rest, k.len()));
    let keyword_follows = ["and", "else", "for", "or", "not"].iter().any(|k| whole(k))
        || (at(rest, 0) == b'i' && matches!(at(rest, 1), b'f' | b'n' | b's'));
    if !keyword_follows && is_id_char(at(s, i)) {
        return Err(format!("invalid {kind} literal"));
    }
    Ok(())
}

/// Scans the number starting at `*pos`, leaving `*pos` after it.
pub(crate) fn scan(s: &[u8], pos: &mut usize) -> Result<(), String> {
    let mut i = *pos;
    let r = scan_inner(s, &mut i);
    *pos = i;
    r
}

/// Radix-prefixed integers: `0x`, `0o`, `0b`.
fn scan_radix(s: &[u8], i: &mut usize, radix: u32, name: &str) -> Result<(), String> {
    let digit_ok = |c: u8| (c as char).is_digit(radix);
    loop {
        if at(s, *i) == b'_' {
            *i += 1;
        }
        let c = at(s, *i);
        if !digit_ok(c) {
            if radix != 16 && c.is_ascii_digit() {
                return Err(format!("invalid digit '{}' in {name} literal", c as char));
            }
            return Err(format!("invalid {name} literal"));
        }
        while digit_ok(at(s, *i)) {
            *i += 1;
        }
        if at(s, *i) != b'_' {
            break;
        }
    }
    let c = at(s, *i);
    if radix != 16 && c.is_ascii_digit() {
        return Err(format!("invalid digit '{}' in {name} literal", c as char));
    }
    verify_end(s, *i, name)
}

fn scan_inner(s: &[u8], i: &mut usize) -> Result<(), String> {
    let c0 = at(s, *i);
    if c0 == b'.' {
        *i += 1;
        return fraction(s, i);
    }
    if c0 == b'0' {
        *i += 1;
        match at(s, *i) {
            b'x' | b'X' => {
                *i += 1;
                return scan_radix(s, i, 16, "hexadecimal");
            }
            b'o' | b'O' => {
                *i += 1;
                return scan_radix(s, i, 8, "octal");
            }
            b'b' | b'B' => {
                *i += 1;
                return scan_radix(s, i, 2, "binary");
            }
            _ => {}
        }
        // Zeros, then maybe an old-style octal (an error) or a float.
        loop {
            if at(s, *i) == b'_' {
                *i += 1;
                if !at(s, *i).is_ascii_digit() {
                    return Err("invalid decimal literal".into());
                }
            }
            if at(s, *i) != b'0' {
                break;
            }
            *i += 1;
        }
        let mut nonzero = false;
        if at(s, *i).is_ascii_digit() {
            nonzero = true;
            decimal_tail(s, i)?;
        }
        return match at(s, *i) {
            b'.' => {
                *i += 1;
                fraction(s, i)
            }
            b'e' | b'E' => exponent(s, i),
            b'j' | b'J' => imaginary(s, i),
            _ if nonzero => Err(
                "leading zeros in decimal integer literals are not permitted; \
                 use an 0o prefix for octal integers"
                    .into(),
            ),
            _ => verify_end(s, *i, "decimal"),
        };
    }
    decimal_tail(s, i)?;
    if at(s, *i) == b'.' {
        *i += 1;
        return fraction(s, i);
    }
    exponent(s, i)
}

fn fraction(s: &[u8], i: &mut usize) -> Result<(), String> {
    if at(s, *i).is_ascii_digit() {
        decimal_tail(s, i)?;
    }
    exponent(s, i)
}

fn exponent(s: &[u8], i: &mut usize) -> Result<(), String> {
    if matches!(at(s, *i), b'e' | b'E') {
        let e = *i;
        *i += 1;
        let c = at(s, *i);
        if c == b'+' || c == b'-' {
            *i += 1;
            if !at(s, *i).is_ascii_digit() {
                return Err("invalid decimal literal".into());
            }
        } else if !c.is_ascii_digit() {
            // `1else`: the number ends before the `e`.
            *i = e;
            return verify_end(s, e, "decimal");
        }
        decimal_tail(s, i)?;
    }
    imaginary(s, i)
}

fn imaginary(s: &[u8], i: &mut usize) -> Result<(), String> {
    if matches!(at(s, *i), b'j' | b'J') {
        *i += 1;
        return verify_end(s, *i, "imaginary");
    }
    verify_end(s, *i, "decimal")
}

/// The value of a scanned number token.
pub(crate) fn value(text: &str) -> Result<Constant, String> {
    // Fast path: short plain decimal integers.
    if text.len() <= 18
        && text.bytes().all(|b| b.is_ascii_digit())
        && let Ok(v) = text.parse::<u64>()
    {
        return Ok(Constant::Int(BigInt::from(v)));
    }
    let clean: String = text.chars().filter(|&c| c != '_').collect();
    let lower = clean.to_ascii_lowercase();
    if let Some(im) = lower.strip_suffix('j') {
        return Ok(Constant::Complex(parse_float(im)));
    }
    let radix = match lower.get(..2) {
        Some("0x") => 16,
        Some("0o") => 8,
        Some("0b") => 2,
        _ => 10,
    };
    if radix != 10 {
        let digits = lower.get(2..).unwrap_or_default();
        return BigInt::parse_bytes(digits.as_bytes(), radix)
            .map(Constant::Int)
            .ok_or_else(|| "invalid syntax".to_string());
    }
    if lower.contains(['.', 'e']) {
        return Ok(Constant::Float(parse_float(&lower)));
    }
    let significant = lower.trim_start_matches('0');
    if significant.len() > MAX_STR_DIGITS {
        return Err(format!(
            "Exceeds the limit ({MAX_STR_DIGITS} digits) for integer string conversion: \
             value has {} digits; use sys.set_int_max_str_digits() to increase the limit \
             - Consider hexadecimal for huge integer literals to avoid decimal conversion limits.",
            significant.len()
        ));
    }
    if significant.is_empty() {
        return Ok(Constant::Int(BigInt::from(0)));
    }
    BigInt::parse_bytes(significant.as_bytes(), 10)
        .map(Constant::Int)
        .ok_or_else(|| "invalid syntax".to_string())
}

fn parse_float(s: &str) -> f64 {
    // Rust's parser accepts every form the tokenizer lets through
    // (`1.`, `.5`, `1e5`), and overflows to infinity as CPython does.
    s.parse::<f64>().unwrap_or(f64::NAN)
}
