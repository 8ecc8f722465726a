//! The format-spec mini-language of `format()`, f-strings and `str.format`:
//! `[[fill]align][sign][z][#][0][width][grouping][.precision][type]`,
//! applied to int, float and str exactly as CPython 3.11 does it.

use num_bigint::{BigInt, BigUint};
use num_traits::{Signed, ToPrimitive};

use super::float_repr::{FloatOptions, FloatStyle, float_parts};
use super::{FormatError, INT_MAX_STR_DIGITS, check_len, code_char, push_repeated};

/// A parsed format spec: `[[fill]align][sign][z][#][0][width][grouping][.precision][type]`.
///
/// Fields hold what the spec text said; the `0` flag's meaning (fill `'0'`,
/// and `'='` alignment for numbers unless an alignment was given) is
/// applied by the `format_*` functions.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FormatSpec {
    /// Explicit fill character (only ever present together with `align`).
    pub fill: Option<char>,
    /// `'<'`, `'>'`, `'^'` or `'='`.
    pub align: Option<char>,
    /// `'+'`, `'-'` or `' '`.
    pub sign: Option<char>,
    /// `#`: alternate form.
    pub alternate: bool,
    /// The `0` flag before the width.
    pub zero: bool,
    /// Minimum width in characters.
    pub width: Option<usize>,
    /// `','` or `'_'`.
    pub grouping: Option<char>,
    /// Digits after `'.'`.
    pub precision: Option<usize>,
    /// The presentation type (any single character; validated per value type).
    pub ty: Option<char>,
    /// `z` (3.11): format negative zero results as positive zero.
    pub coerce_neg_zero: bool,
}

impl FormatSpec {
    fn fill_char(&self) -> char {
        self.fill.unwrap_or(if self.zero { '0' } else { ' ' })
    }

    fn numeric_align(&self) -> char {
        self.align.unwrap_or(if self.zero { '=' } else { '>' })
    }
}

/// Parses a format spec, type-agnostically.
///
/// CPython names the value's type in one message (`Invalid format specifier
/// '…' for object of type 'int'`); this function cannot know it and says
/// `'object'`. Prefer [`parse_spec_for`] when the value is at hand.
pub fn parse_spec(spec: &str) -> Result<FormatSpec, FormatError> {
    parse_spec_for(spec, "object")
}

/// Parses a format spec that will format a value of Python type
/// `type_name` (used only in error messages). Errors, as CPython's:
/// `Invalid format specifier '…' for object of type '…'`,
/// `Format specifier missing precision`, `Too many decimal digits in format
/// string`, `Cannot specify both ',' and '_'.`. Checks that depend on the
/// value (unknown type codes, `,` with `'x'`, …) happen in the `format_*`
/// functions.
pub fn parse_spec_for(spec: &str, type_name: &str) -> Result<FormatSpec, FormatError> {
    let chars: Vec<char> = spec.chars().collect();
    let at = |pos: usize| chars.get(pos).copied();
    let is_align = |c: char| matches!(c, '<' | '>' | '=' | '^');
    let mut out = FormatSpec::default();
    let mut pos = 0;

    if let (Some(fill), Some(align)) = (at(0), at(1))
        && is_align(align)
    {
        out.fill = Some(fill);
        out.align = Some(align);
        pos = 2;
    } else if let Some(align) = at(0).filter(|&c| is_align(c)) {
        out.align = Some(align);
        pos = 1;
    }
    if let Some(sign) = at(pos).filter(|c| matches!(c, '+' | '-' | ' ')) {
        out.sign = Some(sign);
        pos += 1;
    }
    if at(pos) == Some('z') {
        out.coerce_neg_zero = true;
        pos += 1;
    }
    if at(pos) == Some('#') {
        out.alternate = true;
        pos += 1;
    }
    // With an explicit fill, a leading zero is just part of the width.
    if out.fill.is_none() && at(pos) == Some('0') {
        out.zero = true;
        pos += 1;
    }
    out.width = parse_count(&chars, &mut pos)?;
    if at(pos) == Some(',') {
        out.grouping = Some(',');
        pos += 1;
    }
    if at(pos) == Some('_') {
        if out.grouping.is_some() {
            return Err(FormatError::value("Cannot specify both ',' and '_'."));
        }
        out.grouping = Some('_');
        pos += 1;
    }
    if at(pos) == Some(',') && out.grouping == Some('_') {
        return Err(FormatError::value("Cannot specify both ',' and '_'."));
    }
    if at(pos) == Some('.') {
        pos += 1;
        out.precision = parse_count(&chars, &mut pos)?;
        if out.precision.is_none() {
            return Err(FormatError::value("Format specifier missing precision"));
        }
    }
    match chars.len() - pos {
        0 => {}
        1 => out.ty = at(pos),
        _ => {
            return Err(FormatError::value(format!(
                "Invalid format specifier '{spec}' for object of type '{type_name}'"
            )));
        }
    }
    Ok(out)
}

/// Reads a run of ASCII digits; `None` if there is none. Values beyond
/// `Py_ssize_t` are CPython's "Too many decimal digits" error.
fn parse_count(chars: &[char], pos: &mut usize) -> Result<Option<usize>, FormatError> {
    let mut value: Option<u64> = None;
    while let Some(digit) = chars.get(*pos).and_then(|c| c.to_digit(10)) {
        let acc = value.unwrap_or(0);
        let digit = u64::from(digit);
        if acc > (i64::MAX as u64 - digit) / 10 {
            return Err(FormatError::value(
                "Too many decimal digits in format string",
            ));
        }
        value = Some(acc * 10 + digit);
        *pos += 1;
    }
    match value {
        None => Ok(None),
        // A 32-bit target cannot hold it; no result that wide fits anyway.
        Some(v) => Ok(Some(usize::try_from(v).unwrap_or(usize::MAX))),
    }
}

/// CPython rejects `,` / `_` with presentation types that cannot group,
/// using the value type's default type when none is given.
fn check_grouping(spec: &FormatSpec, default_ty: char) -> Result<(), FormatError> {
    let ty = spec.ty.unwrap_or(default_ty);
    let allowed = match spec.grouping {
        None => true,
        Some(',') => matches!(ty, 'd' | 'e' | 'f' | 'g' | 'E' | 'G' | '%' | 'F' | '\0'),
        Some(_) => matches!(
            ty,
            'd' | 'e' | 'f' | 'g' | 'E' | 'G' | '%' | 'F' | '\0' | 'b' | 'o' | 'x' | 'X'
        ),
    };
    if allowed {
        Ok(())
    } else {
        Err(FormatError::value(format!(
            "Cannot specify '{}' with '{}'.",
            spec.grouping.unwrap_or(','),
            code_char(ty)
        )))
    }
}

fn unknown_code(c: char, type_name: &str) -> FormatError {
    FormatError::value(format!(
        "Unknown format code '{}' for object of type '{}'",
        code_char(c),
        type_name
    ))
}

/// `int.__format__`: types `b c d o x X n`, none (like `d`), and
/// `e E f F g G %` (the int converts to float first, which can overflow).
/// `type_name` is the value's Python type (`'int'` or `'bool'`) for messages.
/// A result longer than `max_len` characters is a `MemoryError`, detected
/// before it is built.
pub fn format_int(
    v: &BigInt,
    spec: &FormatSpec,
    type_name: &str,
    max_len: usize,
) -> Result<String, FormatError> {
    check_grouping(spec, 'd')?;
    let radix = match spec.ty {
        None | Some('d') | Some('n') => 10,
        Some('b') => 2,
        Some('o') => 8,
        Some('x') | Some('X') => 16,
        Some('c') => 0,
        Some('e' | 'E' | 'f' | 'F' | 'g' | 'G' | '%') => {
            return format_float(int_to_float(v)?, spec, max_len);
        }
        Some(c) => return Err(unknown_code(c, type_name)),
    };
    if spec.precision.is_some() {
        return Err(FormatError::value(
            "Precision not allowed in integer format specifier",
        ));
    }
    if spec.coerce_neg_zero {
        return Err(FormatError::value(
            "Negative zero coercion (z) not allowed in integer format specifier",
        ));
    }
    if radix == 0 {
        if spec.sign.is_some() {
            return Err(FormatError::value(
                "Sign not allowed with integer format specifier 'c'",
            ));
        }
        if spec.alternate {
            return Err(FormatError::value(
                "Alternate form (#) not allowed with integer format specifier 'c'",
            ));
        }
        let c = code_point(v)?;
        let text = c.to_string();
        let number = NumberText {
            sign: "",
            prefix: "",
            digits: &text,
            grouping: None,
            rest_len: 0,
        };
        return layout_number(&number, &|_| {}, spec, max_len);
    }

    let magnitude = Magnitude::Big(v.magnitude());
    layout_int(v.is_negative(), &magnitude, radix, spec, max_len)
}

/// [`format_int`] of an int that fits `i64`: the same text, the digits
/// written from a machine word instead of a big int.
pub fn format_i64(
    v: i64,
    spec: &FormatSpec,
    type_name: &str,
    max_len: usize,
) -> Result<String, FormatError> {
    let radix = match spec.ty {
        None | Some('d') | Some('n') => 10,
        Some('b') => 2,
        Some('o') => 8,
        Some('x') | Some('X') => 16,
        // `'c'`, the float types and the errors: the general path.
        _ => return format_int(&BigInt::from(v), spec, type_name, max_len),
    };
    check_grouping(spec, 'd')?;
    if spec.precision.is_some() || spec.coerce_neg_zero {
        return format_int(&BigInt::from(v), spec, type_name, max_len);
    }
    let magnitude = Magnitude::Small(v.unsigned_abs());
    layout_int(v < 0, &magnitude, radix, spec, max_len)
}

/// The absolute value of an int being formatted.
enum Magnitude<'a> {
    /// One that fits a machine word.
    Small(u64),
    /// Any other.
    Big(&'a BigUint),
}

impl Magnitude<'_> {
    /// The digits in `radix` (2, 8, 10 or 16), lower case.
    fn digits(&self, radix: u32, max_len: usize) -> Result<String, FormatError> {
        let m = match self {
            Magnitude::Small(m) => *m,
            Magnitude::Big(b) => return big_digits(b, radix, max_len),
        };
        Ok(match radix {
            2 => format!("{m:b}"),
            8 => format!("{m:o}"),
            16 => format!("{m:x}"),
            _ => m.to_string(),
        })
    }
}

/// The digits of a big magnitude in `radix`, bounded by `max_len` (and by
/// CPython's 4300-digit limit in decimal).
fn big_digits(magnitude: &BigUint, radix: u32, max_len: usize) -> Result<String, FormatError> {
    if radix == 10 {
        return decimal_digits(magnitude);
    }
    let bits = usize::try_from(magnitude.bits())
        .unwrap_or(usize::MAX)
        .max(1);
    let per_digit = if radix == 2 {
        1
    } else if radix == 8 {
        3
    } else {
        4
    };
    check_len(bits.div_ceil(per_digit), max_len)?;
    Ok(magnitude.to_str_radix(radix))
}

/// Lays out an int's sign, `#` prefix and digits under `spec` (its type
/// one of `b d n o x X` or none, already checked).
fn layout_int(
    negative: bool,
    magnitude: &Magnitude<'_>,
    radix: u32,
    spec: &FormatSpec,
    max_len: usize,
) -> Result<String, FormatError> {
    let mut digits = magnitude.digits(radix, max_len)?;
    if spec.ty == Some('X') {
        digits.make_ascii_uppercase();
    }
    let prefix = match (spec.alternate, spec.ty) {
        (true, Some('b')) => "0b",
        (true, Some('o')) => "0o",
        (true, Some('x')) => "0x",
        (true, Some('X')) => "0X",
        _ => "",
    };
    let group_size = if radix == 10 { 3 } else { 4 };
    let number = NumberText {
        sign: sign_text(negative, spec.sign),
        prefix,
        digits: &digits,
        grouping: spec.grouping.map(|sep| (sep, group_size)),
        rest_len: 0,
    };
    layout_number(&number, &|_| {}, spec, max_len)
}

/// `float.__format__`: types `e E f F g G n %` and none (`repr` style
/// without precision, `'g'`-like with at least one fraction digit with it).
/// A result longer than `max_len` characters is a `MemoryError`, detected
/// before it is built.
pub fn format_float(v: f64, spec: &FormatSpec, max_len: usize) -> Result<String, FormatError> {
    check_grouping(spec, '\0')?;
    let p = spec.precision;
    let (style, upper, add_dot_0, percent) = match spec.ty {
        None | Some('\0') => match p {
            None => (FloatStyle::Repr, false, true, false),
            Some(p) => (FloatStyle::General(p), false, true, false),
        },
        Some('e') => (FloatStyle::Exp(p.unwrap_or(6)), false, false, false),
        Some('E') => (FloatStyle::Exp(p.unwrap_or(6)), true, false, false),
        Some('f') => (FloatStyle::Fixed(p.unwrap_or(6)), false, false, false),
        Some('F') => (FloatStyle::Fixed(p.unwrap_or(6)), true, false, false),
        Some('g') | Some('n') => (FloatStyle::General(p.unwrap_or(6)), false, false, false),
        Some('G') => (FloatStyle::General(p.unwrap_or(6)), true, false, false),
        Some('%') => (FloatStyle::Fixed(p.unwrap_or(6)), false, false, true),
        Some(c) => return Err(unknown_code(c, "float")),
    };
    if p.is_some_and(|p| p > i32::MAX as usize) {
        return Err(FormatError::value("precision too big"));
    }
    let x = if percent { v * 100.0 } else { v };
    let suffix = if percent { "%" } else { "" };
    let mut negative = x.is_sign_negative() && !x.is_nan();
    if !x.is_finite() {
        let word = match (x.is_nan(), upper) {
            (true, false) => "nan",
            (true, true) => "NAN",
            (false, false) => "inf",
            (false, true) => "INF",
        };
        let number = NumberText {
            sign: sign_text(negative, spec.sign),
            prefix: "",
            digits: word,
            grouping: None,
            rest_len: suffix.len(),
        };
        return layout_number(&number, &|out| out.push_str(suffix), spec, max_len);
    }
    let opts = FloatOptions {
        alt: spec.alternate,
        add_dot_0,
        upper,
    };
    let parts = float_parts(x.abs(), style, opts);
    if spec.coerce_neg_zero && parts.is_zero() {
        negative = false;
    }
    let number = NumberText {
        sign: sign_text(negative, spec.sign),
        prefix: "",
        digits: &parts.int_part,
        grouping: spec.grouping.map(|sep| (sep, 3)),
        rest_len: parts.rest_len().saturating_add(suffix.len()),
    };
    let write_rest = |out: &mut String| {
        parts.write_rest(out);
        out.push_str(suffix);
    };
    layout_number(&number, &write_rest, spec, max_len)
}

/// `str.__format__`: type `s` or none; precision truncates, width pads
/// (left-aligned by default). Signs, `z`, `#`, `=` and grouping are
/// CPython's errors. A result longer than `max_len` characters is a
/// `MemoryError`, detected before it is built.
pub fn format_str(v: &str, spec: &FormatSpec, max_len: usize) -> Result<String, FormatError> {
    check_grouping(spec, 's')?;
    if let Some(c) = spec.ty.filter(|&c| c != 's') {
        return Err(unknown_code(c, "str"));
    }
    match spec.sign {
        Some(' ') => {
            return Err(FormatError::value(
                "Space not allowed in string format specifier",
            ));
        }
        Some(_) => {
            return Err(FormatError::value(
                "Sign not allowed in string format specifier",
            ));
        }
        None => {}
    }
    if spec.coerce_neg_zero {
        return Err(FormatError::value(
            "Negative zero coercion (z) not allowed in string format specifier",
        ));
    }
    if spec.alternate {
        return Err(FormatError::value(
            "Alternate form (#) not allowed in string format specifier",
        ));
    }
    if spec.align == Some('=') {
        return Err(FormatError::value(
            "'=' alignment not allowed in string format specifier",
        ));
    }
    let text = match spec.precision {
        Some(p) => v.char_indices().nth(p).map_or(v, |(end, _)| &v[..end]),
        None => v,
    };
    let len = text.chars().count();
    let width = spec.width.unwrap_or(0);
    check_len(len.max(width), max_len)?;
    Ok(pad_text(
        text,
        len,
        width,
        spec.fill_char(),
        spec.align.unwrap_or('<'),
    ))
}

/// Pads `text` (`len` characters) to `width` with `fill`, aligned `'<'`,
/// `'>'` or `'^'`. The caller has checked the size.
pub(crate) fn pad_text(text: &str, len: usize, width: usize, fill: char, align: char) -> String {
    let pad = width.saturating_sub(len);
    let (left, right) = match align {
        '<' => (0, pad),
        '^' => (pad / 2, pad - pad / 2),
        _ => (pad, 0),
    };
    let mut out = String::with_capacity(text.len() + pad * fill.len_utf8());
    push_repeated(&mut out, fill, left);
    out.push_str(text);
    push_repeated(&mut out, fill, right);
    out
}

/// The sign a number shows: `-` when negative, else per the spec's sign.
pub(crate) fn sign_text(negative: bool, sign: Option<char>) -> &'static str {
    match (negative, sign) {
        (true, _) => "-",
        (false, Some('+')) => "+",
        (false, Some(' ')) => " ",
        _ => "",
    }
}

/// The pieces of a formatted number before padding.
struct NumberText<'a> {
    sign: &'a str,
    prefix: &'a str,
    /// Integer digits (or `inf`/`nan`, or the `'c'` character).
    digits: &'a str,
    /// Separator and group size.
    grouping: Option<(char, usize)>,
    /// Characters written by `write_rest` (fraction, exponent, `%`).
    rest_len: usize,
}

/// Assembles a number: sign, prefix, grouped digits, rest, padded per the
/// spec. With `'0'` fill and `'='` alignment, grouping extends the digits
/// with zeros to the width (`format(1234, '08,') == '0,001,234'`).
fn layout_number(
    n: &NumberText<'_>,
    write_rest: &dyn Fn(&mut String),
    spec: &FormatSpec,
    max_len: usize,
) -> Result<String, FormatError> {
    let width = spec.width.unwrap_or(0);
    check_len(width, max_len)?;
    let fill = spec.fill_char();
    let align = spec.numeric_align();
    let digit_count = n.digits.chars().count();
    let head_len = n.sign.len() + n.prefix.len();
    let (shown_digits, grouped_len) = match n.grouping {
        Some((_, size)) => {
            let min_width = if fill == '0' && align == '=' {
                width.saturating_sub(head_len.saturating_add(n.rest_len))
            } else {
                0
            };
            let d = grouped_digit_count(digit_count, size, min_width);
            (d, grouped_len(d, size))
        }
        None => (digit_count, digit_count),
    };
    let body_len = head_len
        .saturating_add(grouped_len)
        .saturating_add(n.rest_len);
    let total = body_len.max(width);
    check_len(total, max_len)?;

    let pad = width - body_len.min(width);
    let mut out = String::with_capacity(body_len + pad * fill.len_utf8() + 4);
    let write_body = |out: &mut String, inner_pad: usize| {
        out.push_str(n.sign);
        out.push_str(n.prefix);
        push_repeated(out, fill, inner_pad);
        write_grouped(out, n.digits, shown_digits, n.grouping);
        write_rest(out);
    };
    match align {
        '<' => {
            write_body(&mut out, 0);
            push_repeated(&mut out, fill, pad);
        }
        '^' => {
            push_repeated(&mut out, fill, pad / 2);
            write_body(&mut out, 0);
            push_repeated(&mut out, fill, pad - pad / 2);
        }
        '=' => write_body(&mut out, pad),
        _ => {
            push_repeated(&mut out, fill, pad);
            write_body(&mut out, 0);
        }
    }
    Ok(out)
}

/// Length of `d >= 1` digits with a separator every `size` digits.
fn grouped_len(d: usize, size: usize) -> usize {
    d + (d.max(1) - 1) / size
}

/// Digits (real ones plus leading zeros) needed so that the grouped text is
/// at least `min_width` long; never starts with a separator.
fn grouped_digit_count(n: usize, size: usize, min_width: usize) -> usize {
    let (mut lo, mut hi) = (n.max(1), min_width.max(n.max(1)));
    if grouped_len(lo, size) >= min_width {
        return lo;
    }
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if grouped_len(mid, size) >= min_width {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}

/// Writes `digits` left-padded with zeros to `total` digits, with separators.
fn write_grouped(out: &mut String, digits: &str, total: usize, grouping: Option<(char, usize)>) {
    let Some((sep, size)) = grouping else {
        out.push_str(digits);
        return;
    };
    let real = digits.chars().count();
    let lead = total.saturating_sub(real);
    let all = std::iter::repeat_n('0', lead).chain(digits.chars());
    for (i, c) in all.enumerate() {
        if i > 0 && (total - i).is_multiple_of(size) {
            out.push(sep);
        }
        out.push(c);
    }
}

/// Decimal digits of `magnitude`, refusing more than CPython's 4300.
fn decimal_digits(magnitude: &BigUint) -> Result<String, FormatError> {
    // 2**14300 already has 4305 digits: refuse without converting.
    if magnitude.bits() > 14_300 {
        return Err(int_digits_error());
    }
    let text = magnitude.to_str_radix(10);
    if text.len() > INT_MAX_STR_DIGITS {
        return Err(int_digits_error());
    }
    Ok(text)
}

fn int_digits_error() -> FormatError {
    FormatError::value(format!(
        "Exceeds the limit ({INT_MAX_STR_DIGITS} digits) for integer string conversion; \
         use sys.set_int_max_str_digits() to increase the limit"
    ))
}

/// `str(int)`, with CPython's 4300-digit limit (`ValueError`).
pub fn int_to_str(v: &BigInt) -> Result<String, FormatError> {
    let digits = decimal_digits(v.magnitude())?;
    Ok(if v.is_negative() {
        format!("-{digits}")
    } else {
        digits
    })
}

/// `float(int)`: correctly rounded (half to even), `OverflowError` `int too
/// large to convert to float` beyond the float range.
pub fn int_to_float(v: &BigInt) -> Result<f64, FormatError> {
    let magnitude = v.magnitude();
    let bits = magnitude.bits();
    let value = if bits <= 64 {
        // u64 -> f64 rounds to nearest, ties to even.
        magnitude.to_u64().map_or(f64::INFINITY, |m| m as f64)
    } else {
        let shift = bits - 64;
        let top = (magnitude >> shift).to_u64().unwrap_or(u64::MAX);
        // A sticky bit below the rounding position keeps ties honest.
        let sticky = magnitude.trailing_zeros().is_some_and(|tz| tz < shift);
        scale_by_pow2((top | u64::from(sticky)) as f64, shift)
    };
    if value.is_infinite() {
        return Err(FormatError::overflow("int too large to convert to float"));
    }
    Ok(if v.is_negative() { -value } else { value })
}

/// `x * 2**shift`, exact unless it overflows to infinity.
fn scale_by_pow2(mut x: f64, mut shift: u64) -> f64 {
    while shift > 0 && x.is_finite() {
        let step = shift.min(1000);
        // 2**step as a normal float: biased exponent 1023 + step.
        x *= f64::from_bits((1023 + step) << 52);
        shift -= step;
    }
    x
}

/// The character for `format(v, 'c')`.
fn code_point(v: &BigInt) -> Result<char, FormatError> {
    let Some(n) = v.to_i64() else {
        return Err(FormatError::overflow(
            "Python int too large to convert to C long",
        ));
    };
    char_for(n)
}

/// `chr`-style conversion shared with `%c`.
pub(crate) fn char_for(n: i64) -> Result<char, FormatError> {
    if !(0..0x110000).contains(&n) {
        return Err(FormatError::overflow("%c arg not in range(0x110000)"));
    }
    u32::try_from(n)
        .ok()
        .and_then(char::from_u32)
        .ok_or_else(|| {
            // Python would build a lone surrogate; our strings cannot hold one.
            FormatError::value(format!(
                "%c arg {n:#x} is a surrogate code point, which lackpy strings cannot hold"
            ))
        })
}

#[cfg(test)]
#[path = "format_spec_tests.rs"]
mod tests;
