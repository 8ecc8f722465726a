//! `%`-formatting (`'%5.2f' % x`): template parsing and the rendering of
//! one conversion once the interpreter has fetched and converted its
//! argument.
//!
//! The interpreter owns argument handling (mapping keys, `*` counts, the
//! tuple/mapping rules and their TypeErrors); the message texts it needs
//! are here as constants and helpers so that they match CPython's.

use std::iter::FusedIterator;

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive};

use super::float_repr::{FloatOptions, FloatStyle, float_parts};
use super::format_spec::{char_for, int_to_str, pad_text};
use super::{FormatError, check_len, push_repeated};

/// `TypeError`: more conversions than arguments.
pub const NOT_ENOUGH_ARGUMENTS: &str = "not enough arguments for format string";
/// `TypeError`: arguments left over (or a non-tuple argument with no conversion).
pub const NOT_ALL_ARGUMENTS_CONVERTED: &str =
    "not all arguments converted during string formatting";
/// `TypeError`: a `%(key)` conversion with a non-mapping argument.
pub const FORMAT_REQUIRES_MAPPING: &str = "format requires a mapping";
/// `TypeError`: a `*` width or precision whose argument is not an int.
pub const STAR_WANTS_INT: &str = "* wants int";
/// `TypeError`: `%c` with something other than an int or a 1-character str.
pub const PERCENT_C_REQUIRES_INT_OR_CHAR: &str = "%c requires int or char";

/// The flags of one `%` conversion.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PercentFlags {
    /// `-`: left-align (overrides `0`).
    pub minus: bool,
    /// `+`: always show a sign (overrides space).
    pub plus: bool,
    /// ` `: a space before non-negative numbers.
    pub space: bool,
    /// `0`: pad numbers with zeros after the sign.
    pub zero: bool,
    /// `#`: alternate form (`0x`/`0o` prefixes, kept decimal point).
    pub alt: bool,
}

/// A width or precision: `*` (taken from the arguments) or written out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Count {
    /// `*`: the next argument gives it (see [`star_width`], [`star_precision`]).
    Star,
    /// A literal number.
    Fixed(usize),
}

/// One `%` conversion: `%[(key)][flags][width][.precision][length]conv`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PercentSpec {
    /// The `(key)` of a mapping conversion.
    pub key: Option<String>,
    /// Flags.
    pub flags: PercentFlags,
    /// Minimum width.
    pub width: Option<Count>,
    /// Precision (`%.f` means `Fixed(0)`).
    pub precision: Option<Count>,
    /// The conversion: one of `s r a c d i u o x X e E f F g G`.
    pub conv: char,
}

/// A piece of a `%` template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PercentPiece {
    /// Text copied as is (`%%` already turned into `%`).
    Literal(String),
    /// A conversion.
    Spec(PercentSpec),
    /// A conversion whose character is not one: CPython fetches its
    /// argument (key, `*` counts, value) before it looks at the character,
    /// so the error is raised only once that succeeds. Nothing follows it.
    Unsupported(PercentSpec, FormatError),
}

/// Parses a whole `%` template. Errors as CPython's: `incomplete format`,
/// `incomplete format key`, `unsupported format character 'q' (0x71) at
/// index 3`, `width too big`, `precision too big` (all `ValueError`).
///
/// CPython consumes arguments while it parses, so a template with both a
/// bad argument and a later syntax error reports the argument error; use
/// [`percent_pieces`] and stop at the first failure to match that order.
#[cfg(test)]
pub(crate) fn parse_percent(template: &str) -> Result<Vec<PercentPiece>, FormatError> {
    percent_pieces(template)
        .map(|p| match p {
            Ok(PercentPiece::Unsupported(_, e)) => Err(e),
            other => other,
        })
        .collect()
}

/// Parses a `%` template lazily: each item is the next piece or the error
/// at that point; the iterator ends after an error.
pub fn percent_pieces(template: &str) -> PercentPieces<'_> {
    PercentPieces {
        text: template,
        pos: 0,
        index: 0,
        failed: false,
    }
}

/// Iterator returned by [`percent_pieces`].
#[derive(Debug, Clone)]
pub struct PercentPieces<'a> {
    text: &'a str,
    /// Byte offset of the next character.
    pos: usize,
    /// Character index of the next character (CPython reports these).
    index: usize,
    failed: bool,
}

impl PercentPieces<'_> {
    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        self.index += 1;
        Some(c)
    }

    /// One conversion: a [`PercentPiece::Spec`], or a
    /// [`PercentPiece::Unsupported`] whose arguments are still fetched.
    fn spec(&mut self) -> Result<PercentPiece, FormatError> {
        // The caller saw '%' (not "%%").
        self.bump();
        let mut key = None;
        if self.peek() == Some('(') {
            self.bump();
            let start = self.pos;
            let mut depth = 1usize;
            loop {
                let end = self.pos;
                match self.bump() {
                    None => return Err(FormatError::value("incomplete format key")),
                    Some('(') => depth += 1,
                    Some(')') => {
                        depth -= 1;
                        if depth == 0 {
                            key = Some(self.text[start..end].to_string());
                            break;
                        }
                    }
                    Some(_) => {}
                }
            }
        }
        let mut flags = PercentFlags::default();
        loop {
            match self.peek() {
                Some('-') => flags.minus = true,
                Some('+') => flags.plus = true,
                Some(' ') => flags.space = true,
                Some('#') => flags.alt = true,
                Some('0') => flags.zero = true,
                _ => break,
            }
            self.bump();
        }
        let width = self.count(i64::MAX as u64, "width too big")?;
        let mut precision = None;
        if self.peek() == Some('.') {
            self.bump();
            precision = Some(
                self.count(i32::MAX as u64, "precision too big")?
                    .unwrap_or(Count::Fixed(0)),
            );
        }
        if matches!(self.peek(), Some('h' | 'l' | 'L')) {
            self.bump();
        }
        let at = self.index;
        let conv = self
            .bump()
            .ok_or_else(|| FormatError::value("incomplete format"))?;
        let spec = PercentSpec {
            key,
            flags,
            width,
            precision,
            conv,
        };
        if !"sracdiuoxXeEfFgG".contains(conv) {
            let n = u32::from(conv);
            let shown = if (0x20..0x7f).contains(&n) { conv } else { '?' };
            let error = FormatError::value(format!(
                "unsupported format character '{shown}' (0x{n:x}) at index {at}"
            ));
            return Ok(PercentPiece::Unsupported(spec, error));
        }
        Ok(PercentPiece::Spec(spec))
    }

    /// `*` or a run of digits no larger than `max`.
    fn count(&mut self, max: u64, too_big: &str) -> Result<Option<Count>, FormatError> {
        if self.peek() == Some('*') {
            self.bump();
            return Ok(Some(Count::Star));
        }
        let mut value: Option<u64> = None;
        while let Some(digit) = self.peek().and_then(|c| c.to_digit(10)) {
            let acc = value.unwrap_or(0);
            let digit = u64::from(digit);
            if acc > (max - digit) / 10 {
                return Err(FormatError::value(too_big));
            }
            value = Some(acc * 10 + digit);
            self.bump();
        }
        Ok(value.map(|v| Count::Fixed(usize::try_from(v).unwrap_or(usize::MAX))))
    }
}

impl Iterator for PercentPieces<'_> {
    type Item = Result<PercentPiece, FormatError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed || self.pos >= self.text.len() {
            return None;
        }
        let mut literal = String::new();
        while let Some(c) = self.peek() {
            if c != '%' {
                literal.push(c);
                self.bump();
                continue;
            }
            if self.text[self.pos + 1..].starts_with('%') {
                literal.push('%');
                self.bump();
                self.bump();
                continue;
            }
            if !literal.is_empty() {
                break;
            }
            let piece = self.spec();
            self.failed = !matches!(piece, Ok(PercentPiece::Spec(_)));
            return Some(piece);
        }
        Some(Ok(PercentPiece::Literal(literal)))
    }
}

impl FusedIterator for PercentPieces<'_> {}

/// A `*` width from its int argument: `(width, left_align)`; a negative
/// width means `-`. Beyond `Py_ssize_t`: CPython's `OverflowError`.
pub fn star_width(v: &BigInt) -> Result<(usize, bool), FormatError> {
    let n = v
        .to_i64()
        .ok_or_else(|| FormatError::overflow("Python int too large to convert to C ssize_t"))?;
    let width = usize::try_from(n.unsigned_abs()).unwrap_or(usize::MAX);
    Ok((width, n < 0))
}

/// A `*` precision from its int argument; negative means 0. Beyond a C
/// int: CPython's `OverflowError`.
pub fn star_precision(v: &BigInt) -> Result<usize, FormatError> {
    let n = v
        .to_i32()
        .ok_or_else(|| FormatError::overflow("Python int too large to convert to C int"))?;
    Ok(usize::try_from(n).unwrap_or(0))
}

/// The character of `%c` for an int argument (`OverflowError` `%c arg not
/// in range(0x110000)`).
pub fn percent_char_from_int(v: &BigInt) -> Result<char, FormatError> {
    let n = v
        .to_i64()
        .ok_or_else(|| FormatError::overflow("%c arg not in range(0x110000)"))?;
    char_for(n)
}

/// The character of `%c` for a str argument, which must be one character.
pub fn percent_char_from_str(s: &str) -> Result<char, FormatError> {
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Ok(c),
        _ => Err(FormatError::type_error(PERCENT_C_REQUIRES_INT_OR_CHAR)),
    }
}

/// `%d format: a real number is required, not str` (`TypeError`), for
/// `d i u` with a non-number.
pub fn percent_real_number_required(conv: char, type_name: &str) -> String {
    format!("%{conv} format: a real number is required, not {type_name}")
}

/// `%x format: an integer is required, not float` (`TypeError`), for
/// `o x X` with a non-int.
pub fn percent_integer_required(conv: char, type_name: &str) -> String {
    format!("%{conv} format: an integer is required, not {type_name}")
}

/// `must be real number, not str` (`TypeError`), for `e f g` with a
/// non-number.
pub fn percent_float_required(type_name: &str) -> String {
    format!("must be real number, not {type_name}")
}

/// Renders `d i u o x X` for an int (a float argument of `%d` is truncated
/// by the caller first). `width`/`precision` are resolved counts; the
/// precision is a minimum digit count. `#` gives `0x`/`0X`/`0o`.
pub fn percent_int(
    v: &BigInt,
    spec: &PercentSpec,
    width: usize,
    precision: Option<usize>,
    max_len: usize,
) -> Result<String, FormatError> {
    let (radix, prefix) = match spec.conv {
        'd' | 'i' | 'u' => (10, ""),
        'o' => (8, "0o"),
        'x' => (16, "0x"),
        'X' => (16, "0X"),
        other => return Err(misuse("percent_int", other)),
    };
    let precision = precision.unwrap_or(0);
    if precision > (i32::MAX - 3) as usize {
        return Err(FormatError::overflow("precision too large"));
    }
    let magnitude = v.magnitude();
    let digits = if radix == 10 {
        int_to_str(&BigInt::from(magnitude.clone()))?
    } else {
        let bits = usize::try_from(magnitude.bits()).unwrap_or(usize::MAX);
        check_len(bits.div_ceil(if radix == 8 { 3 } else { 4 }), max_len)?;
        let text = magnitude.to_str_radix(radix);
        if spec.conv == 'X' {
            text.to_ascii_uppercase()
        } else {
            text
        }
    };
    let sign = number_sign(v.is_negative(), spec.flags);
    let prefix = if spec.flags.alt { prefix } else { "" };
    let zeros = precision.saturating_sub(digits.len());
    let body_len = sign.len() + prefix.len() + zeros.saturating_add(digits.len());
    check_len(body_len.max(width), max_len)?;
    let mut body = String::with_capacity(body_len);
    push_repeated(&mut body, '0', zeros);
    body.push_str(&digits);
    Ok(pad_number(sign, prefix, &body, body_len, width, spec.flags))
}

/// Renders `e E f F g G` (default precision 6; `#` keeps the point and
/// `g`'s trailing zeros).
pub fn percent_float(
    v: f64,
    spec: &PercentSpec,
    width: usize,
    precision: Option<usize>,
    max_len: usize,
) -> Result<String, FormatError> {
    let p = precision.unwrap_or(6);
    if p > i32::MAX as usize {
        return Err(FormatError::value("precision too big"));
    }
    let (style, upper) = match spec.conv {
        'f' => (FloatStyle::Fixed(p), false),
        'F' => (FloatStyle::Fixed(p), true),
        'e' => (FloatStyle::Exp(p), false),
        'E' => (FloatStyle::Exp(p), true),
        'g' => (FloatStyle::General(p), false),
        'G' => (FloatStyle::General(p), true),
        other => return Err(misuse("percent_float", other)),
    };
    check_len(width, max_len)?;
    let sign = number_sign(v.is_sign_negative() && !v.is_nan(), spec.flags);
    let body = if v.is_finite() {
        let opts = FloatOptions {
            alt: spec.flags.alt,
            add_dot_0: false,
            upper,
        };
        let parts = float_parts(v.abs(), style, opts);
        check_len(parts.len().saturating_add(sign.len()), max_len)?;
        let mut body = parts.int_part.clone();
        parts.write_rest(&mut body);
        body
    } else {
        let word = if v.is_nan() { "nan" } else { "inf" };
        if upper {
            word.to_ascii_uppercase()
        } else {
            word.to_string()
        }
    };
    let body_len = sign.len() + body.len();
    Ok(pad_number(sign, "", &body, body_len, width, spec.flags))
}

/// Renders `s r a c` once the interpreter has computed the text (`str()`,
/// `repr()`, `ascii()` or the `%c` character): the precision truncates
/// (except for `c`), the width pads with spaces, `-` left-aligns.
pub fn percent_text(
    s: &str,
    spec: &PercentSpec,
    width: usize,
    precision: Option<usize>,
    max_len: usize,
) -> Result<String, FormatError> {
    let text = match precision {
        Some(p) if spec.conv != 'c' => s.char_indices().nth(p).map_or(s, |(end, _)| &s[..end]),
        _ => s,
    };
    let len = text.chars().count();
    check_len(len.max(width), max_len)?;
    let align = if spec.flags.minus { '<' } else { '>' };
    Ok(pad_text(text, len, width, ' ', align))
}

fn misuse(function: &str, conv: char) -> FormatError {
    FormatError::value(format!("{function} cannot render %{conv}"))
}

fn number_sign(negative: bool, flags: PercentFlags) -> &'static str {
    if negative {
        "-"
    } else if flags.plus {
        "+"
    } else if flags.space {
        " "
    } else {
        ""
    }
}

/// Pads a number: `-` pads right with spaces, `0` inserts zeros after
/// sign and prefix, otherwise spaces go on the left. Sizes were checked.
fn pad_number(
    sign: &str,
    prefix: &str,
    body: &str,
    body_len: usize,
    width: usize,
    flags: PercentFlags,
) -> String {
    let pad = width.saturating_sub(body_len);
    let mut out = String::with_capacity(body_len + pad);
    if flags.minus {
        out.push_str(sign);
        out.push_str(prefix);
        out.push_str(body);
        push_repeated(&mut out, ' ', pad);
    } else if flags.zero {
        out.push_str(sign);
        out.push_str(prefix);
        push_repeated(&mut out, '0', pad);
        out.push_str(body);
    } else {
        push_repeated(&mut out, ' ', pad);
        out.push_str(sign);
        out.push_str(prefix);
        out.push_str(body);
    }
    out
}

#[cfg(test)]
#[path = "printf_tests.rs"]
mod tests;
