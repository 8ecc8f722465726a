//! The byte buffer both JSON writers (for [`crate::Data`] and for
//! interpreter values) write into.
//!
//! Writing bytes and checking UTF-8 once at the end is several times
//! cheaper than pushing onto a `String` piece by piece (every int and every
//! short string would pay for its own check); only valid UTF-8 is ever
//! written, so the final check cannot fail.
//!
//! A large text is written once into a buffer of exactly its length: a
//! buffer grown by doubling copies itself at every step, and the system
//! allocator keeps the blocks it left behind resident (a returned value's
//! peak memory was 2.6× its JSON). A writer given a spill size stops
//! ([`is_spill`]) when its text outgrows it; the caller then measures the
//! value with a [`JsonOut::measuring`] writer, which counts what it would
//! write instead of keeping it, and writes again with
//! [`JsonOut::with_capacity`].

use num_bigint::BigInt;

use crate::runtime::error::{Exc, ExceptionKind, R};
use crate::runtime::growth::Growth;
use crate::text::format::float_repr;
use crate::types::int::i64_digits;

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

/// What a measuring writer keeps before it counts and drops it.
const SCRATCH: usize = 4096;

/// The message of the error a writer stops with past its spill size.
const SPILL: &str = "JSON text past its spill size";

/// The error a writer stops with past its spill size: of a kind no
/// value's writing raises, so that it is never taken for one.
fn spill() -> Box<Exc> {
    Exc::new(ExceptionKind::InternalError, SPILL)
}

/// Whether `e` is a writer stopping past its spill size
/// ([`JsonOut::spill_past`]), not an error of the value.
pub(crate) fn is_spill(e: &Exc) -> bool {
    e.kind == ExceptionKind::InternalError && e.msg == SPILL
}

/// A JSON text under construction.
pub(crate) struct JsonOut {
    buf: Vec<u8>,
    /// The length already charged to a [`Growth`] guard.
    charged: usize,
    /// Measuring: bytes counted and dropped from `buf`.
    counted: usize,
    /// Whether the text is only measured (counted, not kept).
    measuring: bool,
    /// The length past which [`JsonOut::sync`] stops the writer.
    spill: usize,
}

impl JsonOut {
    /// Bytes a writer may put past the text's end for a moment (a short
    /// string's fixed-size block, [`JsonOut::short_string`]).
    pub(crate) const OVERSHOOT: usize = SHORT_LITERAL + 2;

    /// An empty buffer.
    pub(crate) fn new() -> Self {
        JsonOut::with_capacity(0)
    }

    /// An empty buffer with room for `n` bytes.
    pub(crate) fn with_capacity(n: usize) -> Self {
        JsonOut {
            buf: Vec::with_capacity(n),
            charged: 0,
            counted: 0,
            measuring: false,
            spill: usize::MAX,
        }
    }

    /// A writer that only measures: [`JsonOut::len`] is the length of the
    /// text it was given.
    pub(crate) fn measuring() -> Self {
        JsonOut {
            buf: Vec::with_capacity(SCRATCH + 64),
            measuring: true,
            ..JsonOut::new()
        }
    }

    /// Makes the writer stop once its text is longer than `n` bytes.
    pub(crate) fn spill_past(mut self, n: usize) -> Self {
        self.spill = n;
        self
    }

    /// The length of the text written (or measured) so far.
    pub(crate) fn len(&self) -> usize {
        self.counted + self.buf.len()
    }

    /// Charges what was written since the last charge to `g`; past the
    /// spill size, stops the writer ([`is_spill`]).
    #[inline]
    pub(crate) fn sync(&mut self, g: &mut Growth) -> R<()> {
        let now = self.len();
        let grew = now.saturating_sub(self.charged);
        self.charged = now;
        if now > self.spill {
            return Err(spill());
        }
        if self.measuring && self.buf.len() > SCRATCH {
            self.counted += self.buf.len();
            self.buf.clear();
        }
        g.add(grew)
    }

    /// A string literal, refused before it is copied when it is long and
    /// the guard has no room for it.
    #[inline]
    pub(crate) fn string_in(&mut self, s: &str, g: &mut Growth) -> R<()> {
        if s.len() > LONG_STRING {
            self.sync(g)?;
            if self.len().saturating_add(s.len()) > self.spill {
                return Err(spill());
            }
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
        if self.measuring {
            // Counted, not copied (a long text would not fit the scratch).
            self.counted += if plain {
                bytes.len()
            } else {
                escaped_len(bytes)
            } + 2;
            return;
        }
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

    /// Drops everything written after the first `mark` bytes (measuring:
    /// only `mark` 0, the start, is known).
    pub(crate) fn truncate(&mut self, mark: usize) {
        if self.measuring && mark < self.len() {
            self.counted = 0;
            self.buf.clear();
        } else {
            self.buf.truncate(mark);
        }
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
    fn measuring_counts_what_writing_writes() {
        use crate::runtime::growth::Growth;
        let long_plain = "p".repeat(70_000);
        let long_odd = "é\"\n".repeat(30_000);
        let texts = [
            "",
            "short",
            "a\"b",
            "x\u{1}y",
            &long_plain,
            &long_odd,
            "é☃𝄞",
        ];
        let mut g = Growth::with_limit(usize::MAX);
        let mut out = JsonOut::new();
        let mut measure = JsonOut::measuring();
        for n in 0..3000 {
            for o in [&mut out, &mut measure] {
                o.lit("[");
                o.int(n - 1500);
                o.float(n as f64 / 7.0);
                o.string(texts[n as usize % texts.len()]);
                o.lit("]");
                o.sync(&mut g).expect("no limit");
            }
        }
        assert_eq!(measure.len(), out.finish().len());
    }

    #[test]
    fn a_writer_stops_past_its_spill_size() {
        use super::is_spill;
        use crate::runtime::growth::Growth;
        let mut g = Growth::with_limit(usize::MAX);
        let mut out = JsonOut::new().spill_past(10);
        out.lit("0123456789");
        assert!(out.sync(&mut g).is_ok());
        out.lit("a");
        assert!(out.sync(&mut g).is_err_and(|e| is_spill(&e)));
        // A long string is refused before it is copied.
        let mut out = JsonOut::new().spill_past(100_000);
        let err = out.string_in(&"x".repeat(200_000), &mut g);
        assert!(err.is_err_and(|e| is_spill(&e)));
        assert_eq!(out.len(), 0);
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
