//! The byte buffer both JSON writers (for [`crate::Data`] and for
//! interpreter values) write into.
//!
//! Writing bytes and checking UTF-8 once at the end is several times
//! cheaper than pushing onto a `String` piece by piece (every int and every
//! short string would pay for its own check); only valid UTF-8 is ever
//! written, so the final check cannot fail.

use num_bigint::BigInt;

use crate::text::format::float_repr;
use crate::value::errors::R;
use crate::value::growth::Growth;
use crate::value::int::i64_digits;

/// Strings longer than this are measured (escapes included) and refused
/// before they are copied when the guard has no room for them.
const LONG_STRING: usize = 64 * 1024;

/// A JSON text under construction.
pub(crate) struct JsonOut {
    buf: Vec<u8>,
    /// The length already charged to a [`Growth`] guard.
    charged: usize,
}

impl JsonOut {
    /// An empty buffer.
    pub(crate) fn new() -> Self {
        JsonOut {
            buf: Vec::new(),
            charged: 0,
        }
    }

    /// Charges what was written since the last charge to `g`.
    #[inline]
    pub(crate) fn sync(&mut self, g: &mut Growth) -> R<()> {
        let now = self.buf.len();
        let grew = now.saturating_sub(self.charged);
        self.charged = now;
        g.add(grew)
    }

    /// A string literal, refused before it is copied when it is long and
    /// the guard has no room for it.
    #[inline]
    pub(crate) fn string_in(&mut self, s: &str, g: &mut Growth) -> R<()> {
        if s.len() > LONG_STRING {
            self.sync(g)?;
            // Escapes make a literal at most six times its text; measure
            // exactly only when that much might not fit.
            if !g.has_room(s.len().saturating_mul(6).saturating_add(2)) {
                g.fits(escaped_len(s.as_bytes()).saturating_add(2))?;
            }
        }
        self.string(s);
        Ok(())
    }

    /// Appends literal text (punctuation, `null`, …).
    #[inline]
    pub(crate) fn lit(&mut self, s: &str) {
        self.buf.extend_from_slice(s.as_bytes());
    }

    /// Appends an int's decimal digits.
    #[inline]
    pub(crate) fn int(&mut self, i: i64) {
        let mut digits = [0u8; 20];
        let start = i64_digits(i, &mut digits);
        self.buf.extend_from_slice(&digits[start..]);
    }

    /// Appends a big int's digits (all of them).
    pub(crate) fn big(&mut self, b: &BigInt) {
        self.buf.extend_from_slice(b.to_str_radix(10).as_bytes());
    }

    /// Appends a float as `json.dumps` writes it.
    pub(crate) fn float(&mut self, f: f64) {
        if f.is_nan() {
            self.lit("NaN");
        } else if f == f64::INFINITY {
            self.lit("Infinity");
        } else if f == f64::NEG_INFINITY {
            self.lit("-Infinity");
        } else {
            self.lit(&float_repr(f));
        }
    }

    /// Appends a string literal with Python's escapes (`ensure_ascii`).
    #[inline]
    pub(crate) fn string(&mut self, s: &str) {
        let bytes = s.as_bytes();
        // Branch-free over the bytes, so it vectorises for long strings.
        let plain = bytes.iter().fold(true, |ok, &b| {
            ok & (0x20..0x7f).contains(&b) & (b != b'"') & (b != b'\\')
        });
        if plain {
            self.buf.reserve(bytes.len() + 2);
            self.buf.push(b'"');
            self.buf.extend_from_slice(bytes);
            self.buf.push(b'"');
        } else {
            self.escaped(s);
        }
    }

    /// A string with characters to escape.
    #[inline(never)]
    fn escaped(&mut self, s: &str) {
        self.buf.push(b'"');
        let bytes = s.as_bytes();
        let mut start = 0;
        for (i, &b) in bytes.iter().enumerate() {
            if (b' '..=b'~').contains(&b) && b != b'"' && b != b'\\' {
                continue;
            }
            if b & 0xC0 == 0x80 {
                // A continuation byte: its character was escaped already.
                start = i + 1;
                continue;
            }
            self.buf.extend_from_slice(&bytes[start..i]);
            start = i + 1;
            match b {
                b'"' => self.lit("\\\""),
                b'\\' => self.lit("\\\\"),
                b'\n' => self.lit("\\n"),
                b'\r' => self.lit("\\r"),
                b'\t' => self.lit("\\t"),
                0x08 => self.lit("\\b"),
                0x0c => self.lit("\\f"),
                _ => {
                    let c = s
                        .get(i..)
                        .and_then(|t| t.chars().next())
                        .unwrap_or('\u{fffd}');
                    let mut units = [0u16; 2];
                    for unit in c.encode_utf16(&mut units) {
                        self.lit("\\u");
                        for shift in [12, 8, 4, 0] {
                            let d = ((*unit >> shift) & 0xf) as u8;
                            self.buf.push(if d < 10 { b'0' + d } else { b'a' + d - 10 });
                        }
                    }
                }
            }
        }
        self.buf.extend_from_slice(&bytes[start..]);
        self.buf.push(b'"');
    }

    /// Drops everything written after the first `mark` bytes.
    pub(crate) fn truncate(&mut self, mark: usize) {
        self.buf.truncate(mark);
        self.charged = self.charged.min(mark);
    }

    /// The finished text.
    pub(crate) fn finish(self) -> String {
        String::from_utf8(self.buf)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }
}

/// The length of a string's JSON literal without its quotes: what
/// [`JsonOut::string`] writes for it.
pub(crate) fn escaped_len(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .map(|&b| match b {
            b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => 2,
            0x20..=0x7e => 1,
            0x80..=0xbf => 0,
            0xf0..=0xff => 12,
            _ => 6,
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::{JsonOut, escaped_len};

    #[test]
    fn escaped_len_is_what_string_writes() {
        for s in [
            "",
            "plain",
            "a\"b\\c\n\t\u{8}\u{c}",
            "é☃𝄞\u{7f}\u{1}end",
            "x\u{10ffff}",
        ] {
            let mut o = JsonOut::new();
            o.string(s);
            assert_eq!(o.finish().len(), escaped_len(s.as_bytes()) + 2, "{s:?}");
        }
    }

    #[test]
    fn ints_and_strings() {
        let mut o = JsonOut::new();
        for i in [0, 7, -7, 1234567, i64::MAX, i64::MIN] {
            o.int(i);
            o.lit(" ");
        }
        o.string("a\"b\\c\n\té☃𝄞\u{7f}\u{1}end");
        assert_eq!(
            o.finish(),
            format!(
                "0 7 -7 1234567 {} {} \"a\\\"b\\\\c\\n\\t\\u00e9\\u2603\\ud834\\udd1e\\u007f\\u0001end\"",
                i64::MAX,
                i64::MIN
            )
        );
    }
}
