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

/// The longest string written by [`JsonOut::short_string`]'s fixed-size
/// path.
const SHORT_LITERAL: usize = 16;

/// Whether `b` stands for itself in a JSON literal (`ensure_ascii`):
/// printable ASCII but the quote and the backslash. Branch-free, so loops
/// over it vectorise.
#[inline(always)]
fn plain_byte(b: u8) -> bool {
    (0x20..0x7f).contains(&b) & (b != b'"') & (b != b'\\')
}

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
        if bytes.len() <= SHORT_LITERAL {
            if !self.short_string(bytes) {
                self.escaped(s);
            }
            return;
        }
        let plain = bytes.iter().fold(true, |ok, &b| ok & plain_byte(b));
        if plain {
            self.buf.reserve(bytes.len() + 2);
            self.buf.push(b'"');
            self.buf.extend_from_slice(bytes);
            self.buf.push(b'"');
        } else {
            self.escaped(s);
        }
    }

    /// Writes a string of at most [`SHORT_LITERAL`] bytes that needs no
    /// escape, as fixed-size copies and one fixed-size check (most strings
    /// a program holds are short: a call per string to `memcpy` and a
    /// byte loop cost more than the text); `false` (nothing written) when
    /// a byte needs an escape.
    #[inline]
    fn short_string(&mut self, bytes: &[u8]) -> bool {
        let n = bytes.len();
        // The literal in a fixed block: quote, text, padding that needs no
        // escape. The text goes in as two overlapping fixed-size pieces.
        let mut lit = [b'a'; SHORT_LITERAL + 2];
        lit[0] = b'"';
        if n >= 8 {
            lit[1..9].copy_from_slice(&bytes[..8]);
            lit[n - 7..n + 1].copy_from_slice(&bytes[n - 8..]);
        } else if n >= 4 {
            lit[1..5].copy_from_slice(&bytes[..4]);
            lit[n - 3..n + 1].copy_from_slice(&bytes[n - 4..]);
        } else {
            for (slot, &b) in lit[1..].iter_mut().zip(bytes) {
                *slot = b;
            }
        }
        let plain = lit[1..=SHORT_LITERAL]
            .iter()
            .fold(true, |ok, &b| ok & plain_byte(b));
        if !plain {
            return false;
        }
        lit[n + 1] = b'"';
        let end = self.buf.len() + n + 2;
        self.buf.extend_from_slice(&lit);
        self.buf.truncate(end);
        true
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
    fn short_strings_are_written_as_long_ones_are() {
        // Every length around the fixed block, with a character needing an
        // escape (or none) at every position.
        for n in 0..=20 {
            for at in 0..=n {
                for odd in ["", "\"", "\\", "\n", "\u{1}", "\u{7f}", "é", "☃"] {
                    let mut s: String = (0..n).map(|i| char::from(b'0' + (i % 10) as u8)).collect();
                    if at < n && !odd.is_empty() {
                        s.replace_range(at..at + 1, odd);
                    }
                    let mut short = JsonOut::new();
                    short.lit("[");
                    short.string(&s);
                    let mut long = JsonOut::new();
                    long.lit("[");
                    long.escaped(&s);
                    assert_eq!(short.finish(), long.finish(), "{s:?}");
                }
            }
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
