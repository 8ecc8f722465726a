//! The builtin types called as constructors and conversions: `int()`,
//! `float()`, `str()`, `bool()`, `list()`, `tuple()`, `set()`, `dict()`,
//! `range()`, `reversed()`, `enumerate()`, `zip()`.

use std::rc::Rc;

use num_bigint::BigInt;

use crate::runtime::Budget;
use crate::runtime::error::{Exc, R};
use crate::syntax::catalog::TypeId;
use crate::types::args::{self, Kw, between, bind, no_kwargs};
use crate::types::codec_args;
use crate::types::int::{IntParseError, IntRef, as_int, f64_to_int, parse_int};
use crate::types::ops::{self, collect_iterable};
use crate::value::PyIter;
use crate::value::{Dict, Range, Set, Value, repr};

/// Calls a builtin type: a conversion or a constructor. Each type the
/// catalog declares callable runs its own handler.
pub(crate) fn call_type(budget: &mut Budget, t: TypeId, args: &[Value], kwargs: Kw) -> R<Value> {
    match t {
        TypeId::Int => int_of(args, kwargs),
        TypeId::Float => float(args, kwargs),
        TypeId::Str => str_of(budget, args, kwargs),
        TypeId::Bool => bool_of(args, kwargs),
        TypeId::List => list(args, kwargs),
        TypeId::Tuple => tuple(args, kwargs),
        TypeId::Set => set(budget, args, kwargs),
        TypeId::Dict => dict(budget, args, kwargs),
        TypeId::Range => range(args, kwargs),
        TypeId::Reversed => reversed(args, kwargs),
        TypeId::Enumerate => enumerate(args, kwargs),
        TypeId::Zip => zip(args, kwargs),
        other => Err(Exc::type_error(format!(
            "cannot create '{}' instances",
            other.name()
        ))),
    }
}

/// `float(x=0.0)`.
fn float(args: &[Value], kwargs: Kw) -> R<Value> {
    no_kwargs("float", kwargs)?;
    between("float", args, 0, 1)?;
    match args.first() {
        None => Ok(Value::float(0.0)),
        // A float is returned itself (the same object), as CPython's.
        Some(x @ Value::Float(..)) => Ok(x.clone()),
        Some(x) => float_of(x).map(Value::float),
    }
}

/// `bool(x=False)`.
fn bool_of(args: &[Value], kwargs: Kw) -> R<Value> {
    no_kwargs("bool", kwargs)?;
    between("bool", args, 0, 1)?;
    Ok(Value::Bool(args.first().is_some_and(Value::truthy)))
}

/// `list(iterable=())`.
fn list(args: &[Value], kwargs: Kw) -> R<Value> {
    no_kwargs("list", kwargs)?;
    between("list", args, 0, 1)?;
    match args.first() {
        None => Ok(ops::new_list(Vec::new())),
        Some(x) => {
            let items = collect_iterable(x)?;
            Ok(ops::new_list(items.into_vec()))
        }
    }
}

/// `tuple(iterable=())`.
fn tuple(args: &[Value], kwargs: Kw) -> R<Value> {
    no_kwargs("tuple", kwargs)?;
    between("tuple", args, 0, 1)?;
    match args.first() {
        None => Ok(Value::tuple(Vec::new())),
        Some(Value::Tuple(_)) => Ok(args[0].clone()),
        Some(x) => Ok(Value::tuple(collect_iterable(x)?.into_vec())),
    }
}

/// `set(iterable=())`.
fn set(budget: &mut Budget, args: &[Value], kwargs: Kw) -> R<Value> {
    no_kwargs("set", kwargs)?;
    between("set", args, 0, 1)?;
    let mut s = Set::new();
    if let Some(x) = args.first() {
        crate::types::set::methods::update_from(budget, &mut s, x)?;
    }
    Ok(Value::set(s))
}

/// `dict(mapping_or_pairs=(), **kwargs)`.
fn dict(budget: &mut Budget, args: &[Value], kwargs: Kw) -> R<Value> {
    between("dict", args, 0, 1)?;
    let mut d = Dict::new();
    if let Some(x) = args.first() {
        crate::types::dict::methods::update_from(budget, &mut d, x)?;
    }
    for (k, v) in kwargs {
        d.insert(Value::str(&**k), v.clone())?;
    }
    Ok(Value::dict(d))
}

/// `range(stop)`, `range(start, stop[, step])`.
fn range(args: &[Value], kwargs: Kw) -> R<Value> {
    no_kwargs("range", kwargs)?;
    between("range", args, 1, 3)?;
    // Any ints, as CPython: bounds beyond i64 make a big range.
    let ints = args
        .iter()
        .map(|v| {
            as_int(v)
                .map(|i| i.to_big())
                .ok_or_else(|| Exc::not_index(v))
        })
        .collect::<R<Vec<BigInt>>>()?;
    let (start, stop, step) = match ints.as_slice() {
        [stop] => (BigInt::from(0), stop.clone(), BigInt::from(1)),
        [start, stop] => (start.clone(), stop.clone(), BigInt::from(1)),
        [start, stop, step] => (start.clone(), stop.clone(), step.clone()),
        _ => (BigInt::from(0), BigInt::from(0), BigInt::from(1)),
    };
    if step == BigInt::from(0) {
        return Err(Exc::value_error("range() arg 3 must not be zero"));
    }
    Ok(Value::Range(Rc::new(Range::new(start, stop, step))))
}

/// `reversed(sequence)`.
fn reversed(args: &[Value], kwargs: Kw) -> R<Value> {
    no_kwargs("reversed", kwargs)?;
    between("reversed", args, 1, 1)?;
    Ok(Value::Iter(Rc::new(std::cell::RefCell::new(
        PyIter::reversed(&args[0])?,
    ))))
}

/// `enumerate(iterable, start=0)`, its arguments checked as CPython's
/// hand-written binding does: by their total count first, then each
/// keyword against the one name its place allows.
fn enumerate(args: &[Value], kwargs: Kw) -> R<Value> {
    let bad = |k: &str| {
        Exc::type_error(format!(
            "'{k}' is an invalid keyword argument for enumerate()"
        ))
    };
    let bound: [Option<Value>; 2] = match (args, kwargs) {
        ([a], []) => [Some(a.clone()), None],
        ([a, b], []) => [Some(a.clone()), Some(b.clone())],
        ([], [(k, v)]) => match &**k {
            "iterable" => [Some(v.clone()), None],
            _ => return Err(bad(k)),
        },
        ([a], [(k, v)]) => match &**k {
            "start" => [Some(a.clone()), Some(v.clone())],
            _ => return Err(bad(k)),
        },
        ([], [(k0, v0), (k1, v1)]) => match (&**k0, &**k1) {
            ("start", "iterable") => [Some(v1.clone()), Some(v0.clone())],
            ("iterable", "start") => [Some(v0.clone()), Some(v1.clone())],
            ("start", other) | ("iterable", other) | (other, _) => return Err(bad(other)),
        },
        ([], _) => {
            return Err(Exc::type_error(
                "enumerate() missing required argument 'iterable'",
            ));
        }
        _ => {
            return Err(Exc::type_error(format!(
                "enumerate() takes at most 2 arguments ({} given)",
                args.len() + kwargs.len()
            )));
        }
    };
    let [Some(src), start] = bound else {
        return Err(Exc::type_error(
            "enumerate() missing required argument 'iterable'",
        ));
    };
    let start = match start {
        None => Value::int(0),
        Some(v) => match as_int(&v) {
            Some(i) => Value::from_big(i.to_big()),
            None => return Err(Exc::not_index(&v)),
        },
    };
    let inner = PyIter::of(&src)?;
    Ok(Value::Iter(Rc::new(std::cell::RefCell::new(
        PyIter::Enumerate {
            inner: Box::new(inner),
            count: start,
        },
    ))))
}

/// `zip(*iterables, strict=False)`.
fn zip(args: &[Value], kwargs: Kw) -> R<Value> {
    // The keyword-only `strict`, bound as CPython's keyword parser does.
    let bound = bind("zip", &[], kwargs, &["strict"], 0)?;
    let strict = bound
        .first()
        .and_then(Option::as_ref)
        .is_some_and(Value::truthy);
    let inners = args.iter().map(PyIter::of_arg).collect::<R<Vec<_>>>()?;
    Ok(Value::Iter(Rc::new(std::cell::RefCell::new(PyIter::Zip {
        inners,
        strict,
        done: false,
    }))))
}

fn int_of(args: &[Value], kwargs: Kw) -> R<Value> {
    // `int(text)` of a short plain decimal: no binding, no big int.
    if let ([Value::Str(s)], []) = (args, kwargs)
        && let Some(i) = short_decimal(s.as_str())
    {
        return Ok(Value::int(i));
    }
    if args.len() > 2 {
        return Err(Exc::type_error(format!(
            "int() takes at most 2 arguments ({} given)",
            args.len()
        )));
    }
    let bound = bind("int", args, kwargs, &["x", "base"], 1)?;
    let x = bound.first().cloned().flatten();
    let base = bound.get(1).cloned().flatten();
    let Some(x) = x else {
        if base.is_some() {
            return Err(Exc::type_error("int() missing string argument"));
        }
        return Ok(Value::int(0));
    };
    if let Some(b) = base {
        let b = args::index(&b)?;
        if b != 0 && !(2..=36).contains(&b) {
            return Err(Exc::value_error("int() base must be >= 2 and <= 36, or 0"));
        }
        let text = match &x {
            Value::Str(s) => s.as_str().to_owned(),
            Value::Bytes(bs) => String::from_utf8_lossy(bs).into_owned(),
            _ => {
                return Err(Exc::type_error(
                    "int() can't convert non-string with explicit base",
                ));
            }
        };
        return parse_int_value(&text, b as u32, &x);
    }
    match &x {
        Value::Int(_, _) | Value::Big(_) => Ok(x.clone()),
        Value::Bool(b) => Ok(Value::int(*b as i64)),
        Value::Float(_, f) => {
            if f.get().is_nan() {
                return Err(Exc::value_error("cannot convert float NaN to integer"));
            }
            f64_to_int(f.get())
                .ok_or_else(|| Exc::overflow("cannot convert float infinity to integer"))
        }
        Value::Str(s) => parse_int_value(s.as_str(), 10, &x),
        Value::Bytes(bs) => parse_int_value(&String::from_utf8_lossy(bs), 10, &x),
        other => Err(Exc::type_error(format!(
            "int() argument must be a string, a bytes-like object or a real number, not '{}'",
            other.type_name()
        ))),
    }
}

/// A plain decimal of at most 18 digits (so it fits `i64`), with an
/// optional sign and surrounding ASCII whitespace: the common `int(text)`.
/// `None` for anything else (underscores, other digits, other spaces),
/// which the full parser handles.
fn short_decimal(text: &str) -> Option<i64> {
    // What the number parsers strip below U+0080 (not U+001C..U+001F).
    let space = |b: &u8| matches!(b, b'\t'..=b'\r' | b' ');
    let bytes = text.as_bytes();
    let start = bytes.iter().position(|b| !space(b))?;
    let end = bytes.iter().rposition(|b| !space(b))? + 1;
    let body = bytes.get(start..end)?;
    let (neg, digits) = match body.split_first()? {
        (b'-', rest) => (true, rest),
        (b'+', rest) => (false, rest),
        _ => (false, body),
    };
    if digits.is_empty() || digits.len() > 18 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n = digits
        .iter()
        .fold(0i64, |acc, &d| acc * 10 + i64::from(d - b'0'));
    Some(if neg { -n } else { n })
}

fn parse_int_value(text: &str, base: u32, orig: &Value) -> R<Value> {
    match parse_int(text, base) {
        // A power-of-two base has no digit limit, but the int cap holds
        // for ints made from text as for computed ones.
        Ok(n) if n.bits() > crate::types::int::big_cost::MAX_INT_BITS => {
            Err(crate::types::int::big_cost::int_too_large())
        }
        Ok(n) => Ok(Value::from_big(n)),
        Err(IntParseError::Stopped(kind)) => Err(crate::runtime::work::stopped(kind)),
        Err(IntParseError::TooManyDigits(digits)) => Err(Exc::value_error(format!(
            "Exceeds the limit ({} digits) for integer string conversion: value has {} digits; use sys.set_int_max_str_digits() to increase the limit",
            crate::types::int::MAX_STR_DIGITS,
            digits
        ))),
        // CPython shows at most 200 characters of the repr (`%.200R`), so a
        // huge bad literal does not make a huge message.
        Err(IntParseError::Invalid) => Err(Exc::value_error(format!(
            "invalid literal for int() with base {}: {}",
            base,
            repr::repr(orig)?.chars().take(200).collect::<String>()
        ))),
    }
}

/// `float(x)`.
pub(crate) fn float_of(x: &Value) -> R<f64> {
    match x {
        Value::Float(_, f) => Ok(f.get()),
        Value::Str(s) => parse_float(s.as_str()).ok_or_else(|| {
            Exc::value_error(format!(
                "could not convert string to float: {}",
                repr::repr(x).unwrap_or_default()
            ))
        }),
        _ => match as_int(x) {
            Some(IntRef::Small(i)) => Ok(i as f64),
            Some(IntRef::Big(b)) => {
                crate::text::format::int_to_float(b).map_err(|e| Exc::overflow(e.message))
            }
            None => Err(Exc::type_error(format!(
                "float() argument must be a string or a real number, not '{}'",
                x.type_name()
            ))),
        },
    }
}

/// Python's float literal syntax for `float(str)`.
pub(crate) fn parse_float(text: &str) -> Option<f64> {
    // Most texts are a plain decimal: checked in one pass and parsed in
    // place, with no lowered or cleaned copy.
    if let Some(f) = plain_float(text) {
        return Some(f);
    }
    // Python accepts any Unicode decimal digits.
    let ascii: String;
    let text = if text.is_ascii() {
        text
    } else {
        ascii = text
            .chars()
            .map(|c| {
                crate::types::int::decimal_value(c)
                    .and_then(|d| char::from_digit(d, 10))
                    .unwrap_or(c)
            })
            .collect();
        &ascii
    };
    let s = text.trim_matches(crate::text::unicode::is_number_space);
    let (sign, body) = match s.as_bytes().first() {
        Some(b'-') => (-1.0, &s[1..]),
        Some(b'+') => (1.0, &s[1..]),
        _ => (1.0, s),
    };
    let lower = body.to_ascii_lowercase();
    match lower.as_str() {
        "inf" | "infinity" => return Some(sign * f64::INFINITY),
        "nan" => return Some(f64::NAN.copysign(sign)),
        _ => {}
    }
    // Underscores only between digits.
    let bytes = lower.as_bytes();
    let mut clean = String::with_capacity(lower.len());
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'_' {
            let prev = i.checked_sub(1).and_then(|j| bytes.get(j));
            let next = bytes.get(i + 1);
            if !(prev.is_some_and(u8::is_ascii_digit) && next.is_some_and(u8::is_ascii_digit)) {
                return None;
            }
            continue;
        }
        if !(b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'+' | b'-')) {
            return None;
        }
        clean.push(b as char);
    }
    if clean.is_empty() || !clean.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    // Rust accepts a few forms Python rejects ("1e", ".e1"); check the shape.
    let mut chars = clean.chars().peekable();
    let mut digits_before = 0;
    while chars.peek().is_some_and(char::is_ascii_digit) {
        chars.next();
        digits_before += 1;
    }
    let mut digits_after = 0;
    if chars.peek() == Some(&'.') {
        chars.next();
        while chars.peek().is_some_and(char::is_ascii_digit) {
            chars.next();
            digits_after += 1;
        }
    }
    if digits_before + digits_after == 0 {
        return None;
    }
    if chars.peek() == Some(&'e') {
        chars.next();
        if matches!(chars.peek(), Some('+') | Some('-')) {
            chars.next();
        }
        let mut exp_digits = 0;
        while chars.peek().is_some_and(char::is_ascii_digit) {
            chars.next();
            exp_digits += 1;
        }
        if exp_digits == 0 {
            return None;
        }
    }
    if chars.next().is_some() {
        return None;
    }
    clean.parse::<f64>().ok().map(|f| sign * f)
}

/// `text` as a float if it is a plain ASCII decimal (`[+-]digits[.digits]
/// [e[+-]digits]`, at least one digit before or after the point); `None`
/// sends it to the general parse (spaces, underscores, `inf`, `nan`,
/// non-ASCII digits, or no float at all).
fn plain_float(text: &str) -> Option<f64> {
    let b = text.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let digits = |i: &mut usize| {
        let from = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - from
    };
    let before = digits(&mut i);
    let mut after = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        after = digits(&mut i);
    }
    if before + after == 0 {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return None;
        }
    }
    if i != b.len() {
        return None;
    }
    text.parse::<f64>().ok()
}

fn str_of(budget: &mut Budget, args: &[Value], kwargs: Kw) -> R<Value> {
    if let ([v], []) = (args, kwargs)
        && let Some(text) = repr::str_value(v)
    {
        return Ok(text);
    }
    let bound = bind("str", args, kwargs, &["object", "encoding", "errors"], 0)?;
    let obj = bound.first().cloned().flatten();
    let encoding = bound.get(1).cloned().flatten();
    let errors = bound.get(2).cloned().flatten();
    if encoding.is_none() && errors.is_none() {
        return match obj {
            None => Ok(Value::str("")),
            Some(v @ Value::Str(_)) => Ok(v),
            Some(v) => Ok(Value::str(repr::to_str(&v)?)),
        };
    }
    // Argument Clinic checks the argument types before `object`'s.
    codec_args::text_arg("str", "encoding", encoding.as_ref())?;
    codec_args::text_arg("str", "errors", errors.as_ref())?;
    match obj {
        Some(Value::Bytes(b)) => {
            codec_args::decode(budget, "str", &b, encoding.as_ref(), errors.as_ref())
        }
        Some(Value::Str(_)) => Err(Exc::type_error("decoding str is not supported")),
        Some(other) => Err(Exc::type_error(format!(
            "decoding to str: need a bytes-like object, {} found",
            other.type_name()
        ))),
        None => Ok(Value::str("")),
    }
}
