//! Formatting values: `format(v, spec)` (f-strings and `str.format`), `%`
//! formatting and `str.format` templates, on top of [`crate::text::format`].
//!
//! [`crate::text::format`] turns numbers and text into text; this module fetches
//! and converts the arguments, raises the TypeErrors about them and bounds
//! every result by the memory left in the run's budget.

use std::rc::Rc;

use num_bigint::BigInt;

use crate::runtime::Budget;
use crate::runtime::error::{Exc, ExceptionKind, R};
use crate::text::format::{
    self as fmt, Count, FieldName, FormatError, FormatErrorKind, PercentPiece, PercentSpec,
    TemplatePiece,
};
use crate::types::int::{IntRef, as_int, f64_to_int};
use crate::value::{Value, repr};

fn raise(e: FormatError) -> Box<Exc> {
    let kind = match e.kind {
        FormatErrorKind::ValueError => ExceptionKind::ValueError,
        FormatErrorKind::TypeError => ExceptionKind::TypeError,
        FormatErrorKind::OverflowError => ExceptionKind::OverflowError,
        FormatErrorKind::MemoryError => return Exc::memory(),
    };
    Exc::new(kind, e.message)
}

/// Characters a formatting result may have: what the memory budget allows.
fn room(budget: &Budget) -> usize {
    budget.text_room()
}

fn big_of(i: &IntRef) -> BigInt {
    i.to_big()
}

/// Appends `format(v, spec)` for a spec fixed in the program text, parsed
/// once.
pub(crate) fn format_cached_into(
    budget: &mut Budget,
    v: &Value,
    text: &str,
    parsed: &std::cell::OnceCell<Option<fmt::FormatSpec>>,
    out: &mut String,
) -> R<()> {
    if text.is_empty() {
        // format(v, '') is str(v).
        return repr::push_str_of(v, out);
    }
    if !matches!(v, Value::Int(_, _) | Value::Float(..) | Value::Str(_)) {
        out.push_str(&format_value(budget, v, text)?);
        return Ok(());
    }
    match parsed.get_or_init(|| fmt::parse_spec(text).ok()) {
        Some(spec) => format_parsed_into(budget, v, spec, text, out),
        // Parse again for the error message, which names the type.
        None => {
            out.push_str(&format_value(budget, v, text)?);
            Ok(())
        }
    }
}

/// Appends `body` (of `len` characters) padded to the spec's width.
fn pad_into(out: &mut String, body: &str, len: usize, spec: &fmt::FormatSpec, default_align: char) {
    let width = spec.width.unwrap_or(0);
    if len >= width {
        out.push_str(body);
        return;
    }
    let fill = spec.fill.unwrap_or(' ');
    let n = width - len;
    let (left, right) = match spec.align.unwrap_or(default_align) {
        '<' => (0, n),
        '^' => (n / 2, n - n / 2),
        _ => (n, 0),
    };
    out.reserve(body.len() + n * fill.len_utf8());
    push_fill(out, fill, left);
    out.push_str(body);
    push_fill(out, fill, right);
}

/// Appends `n` copies of `fill`.
fn push_fill(out: &mut String, fill: char, n: usize) {
    fmt::push_repeated(out, fill, n);
}

/// Whether a spec only pads (no sign, grouping, `#`, `0` or `=`), so that
/// the plain text of a number can be padded directly.
fn only_pads(spec: &fmt::FormatSpec) -> bool {
    matches!(spec.sign, None | Some('-'))
        && spec.grouping.is_none()
        && !spec.alternate
        && !spec.zero
        && !spec.coerce_neg_zero
        && spec.align != Some('=')
}

/// Whether an `i64` under `spec` is written by [`push_int_fast`]: a
/// decimal (grouped or not) or a plain hex/octal/binary, padded.
fn int_fast(spec: &fmt::FormatSpec) -> bool {
    only_pads(spec)
        && spec.precision.is_none()
        && match spec.ty {
            None | Some('d') => true,
            Some('x' | 'X' | 'o' | 'b') => spec.grouping.is_none(),
            _ => false,
        }
}

/// Writes `i` under a spec [`int_fast`] accepts (before padding).
fn push_int_fast<W: std::fmt::Write>(
    out: &mut W,
    i: i64,
    spec: &fmt::FormatSpec,
) -> std::fmt::Result {
    if i < 0 {
        out.write_char('-')?;
    }
    let m = i.unsigned_abs();
    match spec.ty {
        Some('x') => write!(out, "{m:x}"),
        Some('X') => write!(out, "{m:X}"),
        Some('o') => write!(out, "{m:o}"),
        Some('b') => write!(out, "{m:b}"),
        _ => match spec.grouping {
            None => write!(out, "{m}"),
            Some(sep) => {
                let mut digits = [0u8; 20];
                let mut n = 0;
                let mut rest = m;
                loop {
                    digits[n] = b'0' + (rest % 10) as u8;
                    n += 1;
                    rest /= 10;
                    if rest == 0 {
                        break;
                    }
                }
                for k in (0..n).rev() {
                    out.write_char(char::from(digits[k]))?;
                    if k > 0 && k % 3 == 0 {
                        out.write_char(sep)?;
                    }
                }
                Ok(())
            }
        },
    }
}

/// Appends `v` formatted with a parsed spec: common int, float and str
/// specs directly (the number built in an inline scratch string), the
/// rest through [`crate::text::format`].
fn format_parsed_into(
    budget: &mut Budget,
    v: &Value,
    spec: &fmt::FormatSpec,
    text: &str,
    out: &mut String,
) -> R<()> {
    let max = room(budget);
    if spec.width.unwrap_or(0) > max {
        return Err(Exc::memory());
    }
    let mut body = compact_str::CompactString::default();
    match v {
        Value::Int(_, i) if int_fast(spec) => {
            // Writing to a string cannot fail.
            let _ = push_int_fast(&mut body, *i, spec);
            pad_into(out, &body, body.len(), spec, '>');
        }
        Value::Float(_, f)
            if only_pads(spec)
                && f.get().is_finite()
                && matches!(spec.ty, Some('f') | Some('F'))
                && spec.precision.unwrap_or(6) <= 100 =>
        {
            fmt::push_fixed(&mut body, f.get(), spec.precision.unwrap_or(6));
            pad_into(out, &body, body.len(), spec, '>');
        }
        Value::Str(s)
            if spec.ty.is_none()
                && spec.precision.is_none()
                && only_pads(spec)
                && spec.sign.is_none() =>
        {
            pad_into(out, s.as_str(), s.char_len(), spec, '<');
        }
        Value::Int(_, i) => out.push_str(&fmt::format_i64(*i, spec, "int", max).map_err(raise)?),
        Value::Float(_, f) => out.push_str(&fmt::format_float(f.get(), spec, max).map_err(raise)?),
        Value::Str(s) => out.push_str(&fmt::format_str(s.as_str(), spec, max).map_err(raise)?),
        _ => out.push_str(&format_value(budget, v, text)?),
    }
    Ok(())
}

/// `format(v, spec)`.
pub(crate) fn format_value(budget: &mut Budget, v: &Value, spec: &str) -> R<String> {
    if spec.is_empty() {
        return repr::to_str(v);
    }
    let max = room(budget);
    match v {
        Value::Str(s) => {
            let sp = fmt::parse_spec_for(spec, "str").map_err(raise)?;
            fmt::format_str(s.as_str(), &sp, max).map_err(raise)
        }
        Value::Float(_, f) => {
            let sp = fmt::parse_spec_for(spec, "float").map_err(raise)?;
            fmt::format_float(f.get(), &sp, max).map_err(raise)
        }
        Value::Int(_, _) | Value::Big(_) | Value::Bool(_) => {
            let tname = v.type_name();
            let sp = fmt::parse_spec_for(spec, tname).map_err(raise)?;
            let Some(i) = as_int(v) else {
                return Err(Exc::type_error("not an int"));
            };
            match i.to_i64() {
                Some(small) => fmt::format_i64(small, &sp, tname, max),
                None => fmt::format_int(&big_of(&i), &sp, tname, max),
            }
            .map_err(raise)
        }
        other => Err(Exc::type_error(format!(
            "unsupported format string passed to {}.__format__",
            other.type_name()
        ))),
    }
}

/// The arguments of a `%` format, consumed left to right.
struct Cursor<'a> {
    /// The arguments, borrowed from the tuple (or the one argument).
    items: &'a [Value],
    next: usize,
    /// The value a `%(key)` conversion looked up, used by that conversion.
    current: Option<Value>,
}

impl Cursor<'_> {
    fn take(&mut self) -> R<Value> {
        if let Some(v) = self.current.take() {
            return Ok(v);
        }
        match self.items.get(self.next) {
            Some(v) => {
                self.next += 1;
                Ok(v.clone())
            }
            None => Err(Exc::type_error(fmt::NOT_ENOUGH_ARGUMENTS)),
        }
    }

    fn count(&mut self) -> R<Option<BigInt>> {
        let v = self.take()?;
        Ok(as_int(&v).map(|i| big_of(&i)))
    }
}

/// `template % args`.
pub(crate) fn percent_format(budget: &mut Budget, template: &str, args: &Value) -> R<String> {
    percent_parsed(budget, &percent_template(template), args)
}

/// `template % args` with the template already parsed.
pub(crate) fn percent_parsed(
    budget: &mut Budget,
    parsed: &PercentTemplate,
    args: &Value,
) -> R<String> {
    let items = match args {
        Value::Tuple(t) => &t.items[..],
        other => std::slice::from_ref(other),
    };
    // A mapping argument (anything subscriptable but a tuple or str) allows
    // `%(key)s` and silences the "not all arguments converted" check.
    let mapping = match args {
        Value::Dict(_) | Value::List(_) | Value::Range(_) | Value::Bytes(_) => Some(args.clone()),
        _ => None,
    };
    percent_items(budget, parsed, items, mapping)
}

/// `template % (items…)`: the arguments one by one, as a tuple's items
/// (`mapping` is the argument when it is a mapping).
pub(crate) fn percent_items(
    budget: &mut Budget,
    parsed: &PercentTemplate,
    items: &[Value],
    mapping: Option<Value>,
) -> R<String> {
    let mut cur = Cursor {
        items,
        next: 0,
        current: None,
    };
    let max = room(budget);
    let mut out = String::with_capacity(parsed.text_len + 8 * parsed.pieces.len());
    let failure = parsed.failure.as_ref().map(|e| Err(e.clone()));
    for piece in parsed.pieces.iter().map(Ok).chain(failure) {
        match piece.map_err(raise)? {
            PercentPiece::Literal(s) => out.push_str(s),
            PercentPiece::Unsupported(spec, error) => {
                // CPython fetches the argument before it looks at the
                // character: a missing one is the error that wins.
                percent_argument(spec, &mut cur, mapping.as_ref())?;
                return Err(raise(error.clone()));
            }
            PercentPiece::Spec(spec) => {
                let (spec, width, precision, v) =
                    percent_argument(spec, &mut cur, mapping.as_ref())?;
                let spec = &*spec;
                if width > max || !percent_fast(&v, spec, width, precision, &mut out) {
                    let text = percent_one(&v, spec, width, precision, max)?;
                    out.push_str(&text);
                }
                if out.len() > max {
                    return Err(Exc::memory());
                }
            }
        }
    }
    if mapping.is_none() && cur.next < cur.items.len() {
        return Err(Exc::type_error(fmt::NOT_ALL_ARGUMENTS_CONVERTED));
    }
    Ok(out)
}

/// The argument of one conversion, fetched as CPython does: the mapping
/// key, then the `*` width and precision, then the value. Answers the
/// spec (a copy when a negative `*` width left-aligns it), the width,
/// the precision and the value.
fn percent_argument<'s>(
    spec: &'s PercentSpec,
    cur: &mut Cursor<'_>,
    mapping: Option<&Value>,
) -> R<(
    std::borrow::Cow<'s, PercentSpec>,
    usize,
    Option<usize>,
    Value,
)> {
    if let Some(key) = &spec.key {
        let Some(m) = mapping else {
            return Err(Exc::type_error(fmt::FORMAT_REQUIRES_MAPPING));
        };
        cur.current = Some(crate::types::ops::get_item(m, &Value::str(key.as_str()))?);
        cur.next = cur.items.len();
    }
    let (width, left) = match spec.width {
        Some(Count::Fixed(w)) => (w, false),
        Some(Count::Star) => match cur.count()? {
            Some(n) => fmt::star_width(&n).map_err(raise)?,
            None => return Err(Exc::type_error(fmt::STAR_WANTS_INT)),
        },
        None => (0, false),
    };
    let precision = match spec.precision {
        Some(Count::Fixed(p)) => Some(p),
        Some(Count::Star) => match cur.count()? {
            Some(n) => Some(fmt::star_precision(&n).map_err(raise)?),
            None => return Err(Exc::type_error(fmt::STAR_WANTS_INT)),
        },
        None => None,
    };
    // A negative `*` width left-aligns: that conversion's spec
    // is a modified copy, the cached one stays as parsed.
    let spec = if left && !spec.flags.minus {
        let mut s = spec.clone();
        s.flags.minus = true;
        std::borrow::Cow::Owned(s)
    } else {
        std::borrow::Cow::Borrowed(spec)
    };
    let v = cur.take()?;
    Ok((spec, width, precision, v))
}

/// A parsed `%` template: its pieces up to the first syntax error, and
/// that error (raised when the arguments get that far, as CPython does).
pub(crate) struct PercentTemplate {
    pieces: Vec<PercentPiece>,
    failure: Option<FormatError>,
    /// Bytes of the template text (the least the result takes).
    text_len: usize,
}

/// Templates longer than this are parsed per use, not cached.
const CACHED_TEMPLATE_MAX: usize = 256;

/// Cached templates kept at once (the cache is emptied when full).
const CACHED_TEMPLATES: usize = 64;

thread_local! {
    /// Parsed `%` templates by text. A template is almost always a constant
    /// of the program, formatted once per loop iteration: parsing is a pure
    /// function of the text, so it is done once per distinct template.
    static PERCENT_CACHE: std::cell::RefCell<std::collections::HashMap<Box<str>, Rc<PercentTemplate>, crate::fnv::FnvBuild>> =
        const { std::cell::RefCell::new(std::collections::HashMap::with_hasher(crate::fnv::FnvBuild)) };
}

/// Parses a `%` template into its pieces.
pub(crate) fn parse_percent_template(template: &str) -> PercentTemplate {
    let mut pieces = Vec::new();
    let mut failure = None;
    for piece in fmt::percent_pieces(template) {
        match piece {
            Ok(p) => pieces.push(p),
            Err(e) => failure = Some(e),
        }
    }
    PercentTemplate {
        pieces,
        failure,
        text_len: template.len(),
    }
}

/// The parsed template of `template`, from the cache when it is short.
fn percent_template(template: &str) -> Rc<PercentTemplate> {
    if template.len() > CACHED_TEMPLATE_MAX {
        return Rc::new(parse_percent_template(template));
    }
    PERCENT_CACHE.with(|c| {
        if let Some(t) = c.borrow().get(template) {
            return t.clone();
        }
        let t = Rc::new(parse_percent_template(template));
        let mut c = c.borrow_mut();
        if c.len() >= CACHED_TEMPLATES {
            c.clear();
        }
        c.insert(template.into(), t.clone());
        t
    })
}

/// A parsed `str.format` template: its pieces (each field with its spec,
/// parsed on first use) up to the first syntax error, and that error.
struct FormatTemplate {
    pieces: Vec<(TemplatePiece, std::cell::OnceCell<Option<fmt::FormatSpec>>)>,
    failure: Option<FormatError>,
}

thread_local! {
    /// Parsed `str.format` templates by text, as [`PERCENT_CACHE`].
    static FORMAT_CACHE: std::cell::RefCell<std::collections::HashMap<Box<str>, Rc<FormatTemplate>, crate::fnv::FnvBuild>> =
        const { std::cell::RefCell::new(std::collections::HashMap::with_hasher(crate::fnv::FnvBuild)) };
}

fn parse_format_template(template: &str) -> FormatTemplate {
    let mut pieces = Vec::new();
    let mut failure = None;
    for piece in fmt::template_pieces(template) {
        match piece {
            Ok(p) => pieces.push((p, std::cell::OnceCell::new())),
            Err(e) => failure = Some(e),
        }
    }
    FormatTemplate { pieces, failure }
}

/// The parsed `str.format` template of `template`, from the cache when it
/// is short.
fn format_template(template: &str) -> Rc<FormatTemplate> {
    if template.len() > CACHED_TEMPLATE_MAX {
        return Rc::new(parse_format_template(template));
    }
    FORMAT_CACHE.with(|c| {
        if let Some(t) = c.borrow().get(template) {
            return t.clone();
        }
        let t = Rc::new(parse_format_template(template));
        let mut c = c.borrow_mut();
        if c.len() >= CACHED_TEMPLATES {
            c.clear();
        }
        c.insert(template.into(), t.clone());
        t
    })
}

/// Appends the common conversions directly to `out`: `%s` of a str,
/// `%d`/`%i`/`%u`/`%x`/`%X`/`%o` of an int that fits `i64`, with at most a
/// width and `-`. False (nothing written) for the rest.
fn percent_fast(
    v: &Value,
    spec: &fmt::PercentSpec,
    width: usize,
    precision: Option<usize>,
    out: &mut String,
) -> bool {
    let f = &spec.flags;
    if f.plus || f.space || f.zero || f.alt {
        return false;
    }
    let pad = |out: &mut String, body: &str, len: usize| {
        let fill = width.saturating_sub(len);
        if !f.minus {
            fmt_push_spaces(out, fill);
        }
        out.push_str(body);
        if f.minus {
            fmt_push_spaces(out, fill);
        }
    };
    match (spec.conv, v) {
        ('f' | 'F', Value::Float(_, x)) if x.get().is_finite() && precision.unwrap_or(6) <= 19 => {
            let mut body = compact_str::CompactString::default();
            fmt::push_fixed(&mut body, x.get(), precision.unwrap_or(6));
            pad(out, &body, body.len());
        }
        // Below, a precision truncates text or sets a minimum digit count.
        _ if precision.is_some() => return false,
        ('s', Value::Str(s)) => pad(out, s.as_str(), s.char_len()),
        ('d' | 'i' | 'u', Value::Int(_, i)) => {
            let mut digits = [0u8; 20];
            let start = crate::types::int::i64_digits(*i, &mut digits);
            let body = std::str::from_utf8(&digits[start..]).unwrap_or_default();
            pad(out, body, body.len());
        }
        ('x' | 'X' | 'o', Value::Int(_, i)) => {
            use std::fmt::Write;
            let m = i.unsigned_abs();
            let mut body = compact_str::CompactString::default();
            if *i < 0 {
                body.push('-');
            }
            // Writing to a string cannot fail.
            let _ = match spec.conv {
                'x' => write!(body, "{m:x}"),
                'X' => write!(body, "{m:X}"),
                _ => write!(body, "{m:o}"),
            };
            pad(out, &body, body.len());
        }
        _ => return false,
    }
    true
}

fn fmt_push_spaces(out: &mut String, n: usize) {
    push_fill(out, ' ', n);
}

fn percent_one(
    v: &Value,
    spec: &fmt::PercentSpec,
    width: usize,
    precision: Option<usize>,
    max: usize,
) -> R<String> {
    match spec.conv {
        's' | 'r' | 'a' => {
            let text = match spec.conv {
                's' => repr::to_str(v)?,
                'r' => repr::repr(v)?,
                _ => repr::ascii(v)?,
            };
            fmt::percent_text(&text, spec, width, precision, max).map_err(raise)
        }
        'c' => {
            let c = match v {
                Value::Str(s) => fmt::percent_char_from_str(s.as_str()).map_err(raise)?,
                _ => match as_int(v) {
                    Some(i) => fmt::percent_char_from_int(&big_of(&i)).map_err(raise)?,
                    None => return Err(Exc::type_error(fmt::PERCENT_C_REQUIRES_INT_OR_CHAR)),
                },
            };
            fmt::percent_text(&c.to_string(), spec, width, precision, max).map_err(raise)
        }
        'd' | 'i' | 'u' => {
            let n = match v {
                Value::Float(_, f) => {
                    if f.get().is_nan() {
                        return Err(Exc::value_error("cannot convert float NaN to integer"));
                    }
                    match f64_to_int(f.get()) {
                        Some(n) => n,
                        None => {
                            return Err(Exc::overflow("cannot convert float infinity to integer"));
                        }
                    }
                }
                other => match as_int(other) {
                    Some(_) => other.clone(),
                    None => {
                        return Err(Exc::type_error(fmt::percent_real_number_required(
                            spec.conv,
                            v.type_name(),
                        )));
                    }
                },
            };
            let Some(i) = as_int(&n) else {
                return Err(Exc::type_error("not an int"));
            };
            fmt::percent_int(&big_of(&i), spec, width, precision, max).map_err(raise)
        }
        'o' | 'x' | 'X' => match as_int(v) {
            Some(i) => fmt::percent_int(&big_of(&i), spec, width, precision, max).map_err(raise),
            None => Err(Exc::type_error(fmt::percent_integer_required(
                spec.conv,
                v.type_name(),
            ))),
        },
        _ => {
            let f = match v {
                Value::Float(_, f) => f.get(),
                other => match as_int(other) {
                    Some(IntRef::Small(i)) => i as f64,
                    Some(IntRef::Big(b)) => fmt::int_to_float(b).map_err(raise)?,
                    None => {
                        return Err(Exc::type_error(fmt::percent_float_required(v.type_name())));
                    }
                },
            };
            fmt::percent_float(f, spec, width, precision, max).map_err(raise)
        }
    }
}

/// `template.format(*args, **kwargs)`.
pub(crate) fn str_format(
    budget: &mut Budget,
    template: &str,
    args: &[Value],
    kwargs: &[(Rc<str>, Value)],
) -> R<String> {
    let mut auto = Numbering::default();
    let mut out = String::new();
    let src = Fields {
        args,
        kwargs,
        mapping: None,
    };
    expand(budget, template, &src, &mut auto, &mut out, 1)?;
    Ok(out)
}

/// `template.format_map(mapping)`: each named field is `mapping[name]`
/// (any subscriptable value, looked up as it is needed); a positional
/// field is CPython's `ValueError`.
pub(crate) fn str_format_map(budget: &mut Budget, template: &str, mapping: &Value) -> R<String> {
    let mut auto = Numbering::default();
    let mut out = String::new();
    let src = Fields {
        args: &[],
        kwargs: &[],
        mapping: Some(mapping),
    };
    expand(budget, template, &src, &mut auto, &mut out, 1)?;
    Ok(out)
}

/// Where the fields of a `str.format` template come from.
struct Fields<'a> {
    args: &'a [Value],
    kwargs: &'a [(Rc<str>, Value)],
    /// `format_map`'s mapping, which replaces both.
    mapping: Option<&'a Value>,
}

#[derive(Default)]
struct Numbering {
    next: usize,
    auto: bool,
    manual: bool,
}

fn expand(
    budget: &mut Budget,
    template: &str,
    src: &Fields<'_>,
    num: &mut Numbering,
    out: &mut String,
    depth: u32,
) -> R<()> {
    let (args, kwargs) = (src.args, src.kwargs);
    let parsed = format_template(template);
    let failure = parsed.failure.as_ref().map(|e| Err(e.clone()));
    for piece in parsed.pieces.iter().map(Ok).chain(failure) {
        match piece.map_err(raise)? {
            (TemplatePiece::Literal(s), _) => out.push_str(s),
            (TemplatePiece::Field(f), cached_spec) => {
                let looked_up;
                let v = match (&f.name, src.mapping) {
                    (FieldName::Keyword(k), Some(m)) => {
                        looked_up = crate::types::ops::get_item(m, &Value::str(k.as_str()))?;
                        &looked_up
                    }
                    (_, Some(_)) => {
                        return Err(Exc::value_error("Format string contains positional fields"));
                    }
                    (name, None) => match name {
                        FieldName::Auto => {
                            if num.manual {
                                return Err(Exc::value_error(fmt::MANUAL_TO_AUTO_NUMBERING));
                            }
                            num.auto = true;
                            let i = num.next;
                            num.next += 1;
                            args.get(i).ok_or_else(|| {
                                Exc::index_error(fmt::replacement_index_out_of_range(i))
                            })?
                        }
                        FieldName::Index(i) => {
                            if num.auto {
                                return Err(Exc::value_error(fmt::AUTO_TO_MANUAL_NUMBERING));
                            }
                            num.manual = true;
                            args.get(*i).ok_or_else(|| {
                                Exc::index_error(fmt::replacement_index_out_of_range(*i))
                            })?
                        }
                        FieldName::Keyword(k) => {
                            match kwargs.iter().find(|(n, _)| &**n == k.as_str()) {
                                Some((_, v)) => v,
                                None => return Err(Exc::key_error(&Value::str(k.as_str()))),
                            }
                        }
                    },
                };
                let converted;
                let v = match f.conversion {
                    Some('r') => {
                        converted = Value::str(repr::repr(v)?);
                        &converted
                    }
                    Some('s') => {
                        converted = Value::str(repr::to_str(v)?);
                        &converted
                    }
                    Some('a') => {
                        converted = Value::str(repr::ascii(v)?);
                        &converted
                    }
                    _ => v,
                };
                if !f.spec.contains('{') {
                    // A spec fixed in the template: parsed once with it.
                    format_cached_into(budget, v, &f.spec, cached_spec, out)?;
                    budget.check_memory(out.len())?;
                    continue;
                }
                let spec = if f.spec.contains('{') {
                    if depth == 0 {
                        return Err(Exc::value_error(fmt::MAX_STRING_RECURSION));
                    }
                    let mut s = String::new();
                    expand(budget, &f.spec, src, num, &mut s, depth - 1)?;
                    s
                } else {
                    f.spec.clone()
                };
                let text = format_value(budget, v, &spec)?;
                out.push_str(&text);
                budget.check_memory(out.len())?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod percent_argument_tests {
    use crate::interp::test_run::outcome;

    #[test]
    fn an_unsupported_conversion_first_needs_its_argument() {
        let cases = [
            (
                "'<%8%>' % ()",
                "TypeError: not enough arguments for format string",
            ),
            (
                "'%-.2%' % ()",
                "TypeError: not enough arguments for format string",
            ),
            (
                "'%*%' % (3,)",
                "TypeError: not enough arguments for format string",
            ),
            (
                "'%s %y' % (1,)",
                "TypeError: not enough arguments for format string",
            ),
            ("'%(a)%' % {}", "KeyError: 'a'"),
            ("'%*y' % ('a',)", "TypeError: * wants int"),
            (
                "'<%8%>' % (1, 2)",
                "ValueError: unsupported format character '%' (0x25) at index 3",
            ),
            (
                "'%(a)y' % {'a': 1}",
                "ValueError: unsupported format character 'y' (0x79) at index 4",
            ),
            ("'%%|%5' % ()", "ValueError: incomplete format"),
            ("'%%' % ()", "=> '%'"),
        ];
        for (src, want) in cases {
            assert_eq!(outcome(src), want, "{src}");
            // The same through a template that is not a constant.
            let via_name = src
                .replacen("' %", "'\nt = t %", 1)
                .replacen('\'', "t = '", 1);
            assert_eq!(outcome(&format!("{via_name}\nt")), want, "{via_name}");
        }
    }
}
