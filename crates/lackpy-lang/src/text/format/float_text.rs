//! `repr(float)` in one pass: ryu's shortest round-trip digits laid out
//! CPython's way, written into a fixed buffer (no allocation).
//!
//! CPython's `repr` uses the shortest digit string that reads back as the
//! same float, the closest one when several are that short, ties to even
//! (David Gay's `dtoa`, mode 0). Ryu computes the same digits; only its
//! layout differs (`1e16` where CPython writes `1e+16`, `1e-7` for
//! `1e-07`), so its output is read back as digits and an exponent and
//! laid out again: exponent form when the decimal exponent is below -4 or
//! at least 16, `.0` after integral values, `inf`, `nan`, `-0.0`.

/// The longest repr: sign, 17 digits, point, `e-308`.
const CAP: usize = 32;

/// The text of `repr(x)`, held inline.
pub struct FloatText {
    buf: [u8; CAP],
    len: usize,
}

impl FloatText {
    /// The text.
    pub fn as_str(&self) -> &str {
        // Only ASCII is ever written, so this never falls back.
        std::str::from_utf8(self.buf.get(..self.len).unwrap_or_default()).unwrap_or_default()
    }

    fn push(&mut self, b: u8) {
        if let Some(slot) = self.buf.get_mut(self.len) {
            *slot = b;
            self.len += 1;
        }
    }

    fn push_all(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.push(b);
        }
    }
}

/// Shortest round-trip digits of finite `x >= 0` (sign ignored) as
/// `0.DIGITS * 10**decpt`: the digits (no leading or trailing zeros; empty
/// for zero) go into `digits`, and the count and `decpt` are returned.
pub(crate) fn shortest_digits(x: f64, digits: &mut [u8; 17]) -> (usize, i64) {
    let mut buf = ryu::Buffer::new();
    let text = buf.format_finite(x.abs()).as_bytes();
    let (mantissa, exp) = match text.iter().position(|&b| b == b'e') {
        Some(p) => (&text[..p], parse_exp(&text[p + 1..])),
        None => (text, 0),
    };
    let mut n = 0usize;
    let mut int_digits = 0i64;
    let mut seen_point = false;
    let mut leading = true;
    for &b in mantissa {
        match b {
            b'.' => seen_point = true,
            b'0'..=b'9' => {
                if !seen_point {
                    int_digits += 1;
                }
                if leading && b == b'0' {
                    // A leading zero moves the point, not the digits.
                    int_digits -= 1;
                    continue;
                }
                leading = false;
                if let Some(slot) = digits.get_mut(n) {
                    *slot = b;
                    n += 1;
                }
            }
            _ => {}
        }
    }
    while n > 0 && digits[n - 1] == b'0' {
        n -= 1;
    }
    (n, int_digits + exp)
}

fn parse_exp(text: &[u8]) -> i64 {
    let (neg, digits) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, text),
    };
    let v = digits
        .iter()
        .filter(|b| b.is_ascii_digit())
        .fold(0i64, |acc, &b| acc * 10 + i64::from(b - b'0'));
    if neg { -v } else { v }
}

/// Python `repr(x)` (== `str(x)`).
pub fn float_text(x: f64) -> FloatText {
    let mut out = FloatText {
        buf: [0; CAP],
        len: 0,
    };
    if x.is_nan() {
        out.push_all(b"nan");
        return out;
    }
    if x.is_sign_negative() {
        out.push(b'-');
    }
    if x.is_infinite() {
        out.push_all(b"inf");
        return out;
    }
    let mut digits = [0u8; 17];
    let (n, decpt) = shortest_digits(x, &mut digits);
    if n == 0 {
        out.push_all(b"0.0");
        return out;
    }
    let d = &digits[..n];
    if decpt <= -4 || decpt > 16 {
        out.push(d[0]);
        if n > 1 {
            out.push(b'.');
            out.push_all(&d[1..]);
        }
        let e = decpt - 1;
        out.push(b'e');
        out.push(if e < 0 { b'-' } else { b'+' });
        let e = e.unsigned_abs();
        if e >= 100 {
            out.push(b'0' + (e / 100) as u8);
        }
        out.push(b'0' + (e / 10 % 10) as u8);
        out.push(b'0' + (e % 10) as u8);
    } else if decpt <= 0 {
        out.push_all(b"0.");
        for _ in 0..decpt.unsigned_abs() {
            out.push(b'0');
        }
        out.push_all(d);
    } else {
        let k = decpt.unsigned_abs() as usize;
        if k >= n {
            out.push_all(d);
            for _ in n..k {
                out.push(b'0');
            }
            out.push_all(b".0");
        } else {
            out.push_all(&d[..k]);
            out.push(b'.');
            out.push_all(&d[k..]);
        }
    }
    out
}
