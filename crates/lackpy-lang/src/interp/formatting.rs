//! Formatting values: `format(v, spec)` (f-strings and `str.format`), `%`
//! formatting and `str.format` templates, on top of [`crate::format`].
//!
//! [`crate::format`] turns numbers and text into text; this module fetches
//! and converts the arguments, raises the TypeErrors about them and bounds
//! every result by the memory left in the run's budget.

use std::rc::Rc;

use num_bigint::BigInt;

use super::limits::Budget;
use crate::format::{
    self as fmt, Count, FieldName, FormatError, FormatErrorKind, PercentPiece, TemplatePiece,
};
use crate::value::errors::{Exc, ExcKind, R};
use crate::value::int::{IntRef, as_int, f64_to_int};
use crate::value::{Value, repr};

fn raise(e: FormatError) -> Box<Exc> {
    let kind = match e.kind {
        FormatErrorKind::ValueError => ExcKind::ValueError,
        FormatErrorKind::TypeError => ExcKind::TypeError,
        FormatErrorKind::OverflowError => ExcKind::OverflowError,
        FormatErrorKind::MemoryError => return Exc::memory(),
    };
    Exc::new(kind, e.message)
}

/// Characters a formatting result may have: what the memory budget allows.
fn room(budget: &Budget) -> usize {
    budget.max_memory.saturating_sub(crate::value::mem::used()) / 4
}

fn big_of(i: &IntRef) -> BigInt {
    i.to_big()
}

/// `format(v, spec)` for a spec fixed in the program text, parsed once.
pub(crate) fn format_cached(
    budget: &mut Budget,
    v: &Value,
    text: &str,
    parsed: &std::cell::OnceCell<Option<fmt::FormatSpec>>,
) -> R<String> {
    if !matches!(v, Value::Int(_) | Value::Float(_) | Value::Str(_)) {
        return format_value(budget, v, text);
    }
    match parsed.get_or_init(|| fmt::parse_spec(text).ok()) {
        Some(spec) => format_parsed(budget, v, spec, text),
        // Parse again for the error message, which names the type.
        None => format_value(budget, v, text),
    }
}

/// Pads `body` (of `len` characters) to the spec's width.
fn pad(body: &str, len: usize, spec: &fmt::FormatSpec, default_align: char) -> String {
    let width = spec.width.unwrap_or(0);
    if len >= width {
        return body.to_owned();
    }
    let fill = spec.fill.unwrap_or(' ');
    let n = width - len;
    let (left, right) = match spec.align.unwrap_or(default_align) {
        '<' => (0, n),
        '^' => (n / 2, n - n / 2),
        _ => (n, 0),
    };
    let mut out = String::with_capacity(body.len() + n * fill.len_utf8());
    out.extend(std::iter::repeat_n(fill, left));
    out.push_str(body);
    out.extend(std::iter::repeat_n(fill, right));
    out
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

/// Formats with a parsed spec: common int and float specs directly, the
/// rest through [`crate::format`].
fn format_parsed(budget: &mut Budget, v: &Value, spec: &fmt::FormatSpec, text: &str) -> R<String> {
    let max = room(budget);
    if spec.width.unwrap_or(0) > max {
        return Err(Exc::memory());
    }
    match v {
        Value::Int(i)
            if only_pads(spec)
                && matches!(spec.ty, None | Some('d'))
                && spec.precision.is_none() =>
        {
            let mut body = String::new();
            crate::value::int::push_i64(&mut body, *i);
            Ok(pad(&body, body.len(), spec, '>'))
        }
        Value::Float(f)
            if only_pads(spec) && f.is_finite() && matches!(spec.ty, Some('f') | Some('F')) =>
        {
            let p = spec.precision.unwrap_or(6);
            if p > 100 {
                return format_value(budget, v, text);
            }
            let body = format!("{:.*}", p, f);
            Ok(pad(&body, body.len(), spec, '>'))
        }
        Value::Str(s)
            if spec.ty.is_none()
                && spec.precision.is_none()
                && only_pads(spec)
                && spec.sign.is_none() =>
        {
            Ok(pad(s.as_str(), s.char_len(), spec, '<'))
        }
        Value::Float(f) => fmt::format_float(*f, spec, max).map_err(raise),
        Value::Str(s) => fmt::format_str(s.as_str(), spec, max).map_err(raise),
        _ => format_value(budget, v, text),
    }
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
        Value::Float(f) => {
            let sp = fmt::parse_spec_for(spec, "float").map_err(raise)?;
            fmt::format_float(*f, &sp, max).map_err(raise)
        }
        Value::Int(_) | Value::Big(_) | Value::Bool(_) => {
            let tname = v.type_name();
            let sp = fmt::parse_spec_for(spec, tname).map_err(raise)?;
            let Some(i) = as_int(v) else {
                return Err(Exc::type_error("not an int"));
            };
            fmt::format_int(&big_of(&i), &sp, tname, max).map_err(raise)
        }
        other => Err(Exc::type_error(format!(
            "unsupported format string passed to {}.__format__",
            other.type_name()
        ))),
    }
}

/// The arguments of a `%` format, consumed left to right.
struct Cursor {
    items: Vec<Value>,
    next: usize,
    /// The value a `%(key)` conversion looked up, used by that conversion.
    current: Option<Value>,
}

impl Cursor {
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
    let items = match args {
        Value::Tuple(t) => t.items.clone(),
        other => vec![other.clone()],
    };
    // A mapping argument (anything subscriptable but a tuple or str) allows
    // `%(key)s` and silences the "not all arguments converted" check.
    let mapping = match args {
        Value::Dict(_) | Value::List(_) | Value::Range(_) | Value::Bytes(_) => Some(args.clone()),
        _ => None,
    };
    let mut cur = Cursor {
        items,
        next: 0,
        current: None,
    };
    let max = room(budget);
    let parsed = percent_template(template);
    let mut out = String::with_capacity(template.len() + 8 * parsed.pieces.len());
    let failure = parsed.failure.as_ref().map(|e| Err(e.clone()));
    for piece in parsed.pieces.iter().map(Ok).chain(failure) {
        match piece.map_err(raise)? {
            PercentPiece::Literal(s) => out.push_str(s),
            PercentPiece::Spec(spec) => {
                let mut spec = spec.clone();
                if let Some(key) = &spec.key {
                    let Some(m) = &mapping else {
                        return Err(Exc::type_error(fmt::FORMAT_REQUIRES_MAPPING));
                    };
                    cur.current = Some(super::ops::get_item(m, &Value::str(key.as_str()))?);
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
                if left {
                    spec.flags.minus = true;
                }
                let v = cur.take()?;
                if width > max || !percent_fast(&v, &spec, width, precision, &mut out) {
                    let text = percent_one(&v, &spec, width, precision, max)?;
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

/// A parsed `%` template: its pieces up to the first syntax error, and
/// that error (raised when the arguments get that far, as CPython does).
struct PercentTemplate {
    pieces: Vec<PercentPiece>,
    failure: Option<FormatError>,
}

/// Templates longer than this are parsed per use, not cached.
const CACHED_TEMPLATE_MAX: usize = 256;

/// Cached templates kept at once (the cache is emptied when full).
const CACHED_TEMPLATES: usize = 64;

thread_local! {
    /// Parsed `%` templates by text. A template is almost always a constant
    /// of the program, formatted once per loop iteration: parsing is a pure
    /// function of the text, so it is done once per distinct template.
    static PERCENT_CACHE: std::cell::RefCell<std::collections::HashMap<Box<str>, Rc<PercentTemplate>>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

fn parse_percent_template(template: &str) -> PercentTemplate {
    let mut pieces = Vec::new();
    let mut failure = None;
    for piece in fmt::percent_pieces(template) {
        match piece {
            Ok(p) => pieces.push(p),
            Err(e) => failure = Some(e),
        }
    }
    PercentTemplate { pieces, failure }
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
    if precision.is_some() || f.plus || f.space || f.zero || f.alt {
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
        ('s', Value::Str(s)) => pad(out, s.as_str(), s.char_len()),
        ('d' | 'i' | 'u', Value::Int(i)) => {
            let mut digits = [0u8; 20];
            let start = crate::value::int::i64_digits(*i, &mut digits);
            let body = std::str::from_utf8(&digits[start..]).unwrap_or_default();
            pad(out, body, body.len());
        }
        ('x' | 'X' | 'o', Value::Int(i)) => {
            let m = i.unsigned_abs();
            let sign = if *i < 0 { "-" } else { "" };
            let body = match spec.conv {
                'x' => format!("{sign}{m:x}"),
                'X' => format!("{sign}{m:X}"),
                _ => format!("{sign}{m:o}"),
            };
            pad(out, &body, body.len());
        }
        _ => return false,
    }
    true
}

fn fmt_push_spaces(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
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
                Value::Float(f) => {
                    if f.is_nan() {
                        return Err(Exc::value_error("cannot convert float NaN to integer"));
                    }
                    match f64_to_int(*f) {
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
                Value::Float(f) => *f,
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
    expand(budget, template, args, kwargs, &mut auto, &mut out, 1)?;
    Ok(out)
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
    args: &[Value],
    kwargs: &[(Rc<str>, Value)],
    num: &mut Numbering,
    out: &mut String,
    depth: u32,
) -> R<()> {
    for piece in fmt::template_pieces(template) {
        match piece.map_err(raise)? {
            TemplatePiece::Literal(s) => out.push_str(&s),
            TemplatePiece::Field(f) => {
                let v = match &f.name {
                    FieldName::Auto => {
                        if num.manual {
                            return Err(Exc::value_error(fmt::MANUAL_TO_AUTO_NUMBERING));
                        }
                        num.auto = true;
                        let i = num.next;
                        num.next += 1;
                        args.get(i).cloned().ok_or_else(|| {
                            Exc::index_error(fmt::replacement_index_out_of_range(i))
                        })?
                    }
                    FieldName::Index(i) => {
                        if num.auto {
                            return Err(Exc::value_error(fmt::AUTO_TO_MANUAL_NUMBERING));
                        }
                        num.manual = true;
                        args.get(*i).cloned().ok_or_else(|| {
                            Exc::index_error(fmt::replacement_index_out_of_range(*i))
                        })?
                    }
                    FieldName::Keyword(k) => {
                        match kwargs.iter().find(|(n, _)| &**n == k.as_str()) {
                            Some((_, v)) => v.clone(),
                            None => return Err(Exc::key_error(&Value::str(k.as_str()))),
                        }
                    }
                };
                let v = match f.conversion {
                    Some('r') => Value::str(repr::repr(&v)?),
                    Some('s') => Value::str(repr::to_str(&v)?),
                    Some('a') => Value::str(repr::ascii(&v)?),
                    _ => v,
                };
                let spec = if f.spec.contains('{') {
                    if depth == 0 {
                        return Err(Exc::value_error(fmt::MAX_STRING_RECURSION));
                    }
                    let mut s = String::new();
                    expand(budget, &f.spec, args, kwargs, num, &mut s, depth - 1)?;
                    s
                } else {
                    f.spec.clone()
                };
                let text = format_value(budget, &v, &spec)?;
                out.push_str(&text);
                budget.check_memory(out.len())?;
            }
        }
    }
    Ok(())
}
