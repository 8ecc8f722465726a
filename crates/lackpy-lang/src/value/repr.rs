//! `repr()`, `str()` and `ascii()` of values, byte for byte as CPython.
//!
//! Containers that contain themselves print as `[...]` / `{...}` (CPython's
//! `Py_ReprEnter`); nesting deeper than [`MAX_DEPTH`] raises RecursionError
//! rather than overflowing the Rust stack.

use super::int::{IntRef, int_to_string, str_limit_message};
use super::{Value, ViewKind};
use crate::interp::errors::{Exc, R};
use crate::interp::formatting::float_repr;

const MAX_DEPTH: u32 = 1000;

struct Ctx {
    active: Vec<usize>,
    depth: u32,
    ascii: bool,
}

/// Python `repr(v)`.
pub(crate) fn repr(v: &Value) -> R<String> {
    let mut out = String::new();
    repr_into(
        v,
        &mut out,
        &mut Ctx {
            active: Vec::new(),
            depth: 0,
            ascii: false,
        },
    )?;
    Ok(out)
}

/// Python `ascii(v)`.
pub(crate) fn ascii(v: &Value) -> R<String> {
    let mut out = String::new();
    repr_into(
        v,
        &mut out,
        &mut Ctx {
            active: Vec::new(),
            depth: 0,
            ascii: true,
        },
    )?;
    Ok(out)
}

/// Python `str(v)`.
pub(crate) fn to_str(v: &Value) -> R<String> {
    match v {
        Value::Str(s) => Ok(s.as_str().to_owned()),
        _ => repr(v),
    }
}

/// Appends `str(v)` to `out`.
pub(crate) fn push_str_of(v: &Value, out: &mut String) -> R<()> {
    match v {
        Value::Str(s) => {
            out.push_str(s.as_str());
            Ok(())
        }
        Value::Int(i) => {
            super::int::push_i64(out, *i);
            Ok(())
        }
        _ => repr_into(
            v,
            out,
            &mut Ctx {
                active: Vec::new(),
                depth: 0,
                ascii: false,
            },
        ),
    }
}

/// Appends `repr(v)` (or `ascii(v)`) to `out`.
pub(crate) fn push_repr(v: &Value, out: &mut String, ascii: bool) -> R<()> {
    repr_into(
        v,
        out,
        &mut Ctx {
            active: Vec::new(),
            depth: 0,
            ascii,
        },
    )
}

/// `repr` of an int, honouring the 4300-digit limit.
pub(crate) fn int_repr(i: &IntRef) -> R<String> {
    int_to_string(i).ok_or_else(|| Exc::value_error(str_limit_message()))
}

fn enter(ctx: &mut Ctx, addr: usize) -> R<bool> {
    if ctx.active.contains(&addr) {
        return Ok(false);
    }
    if ctx.depth >= MAX_DEPTH || super::stack::exhausted() {
        return Err(Exc::recursion(
            "maximum recursion depth exceeded while getting the repr of an object",
        ));
    }
    ctx.active.push(addr);
    ctx.depth += 1;
    Ok(true)
}

fn leave(ctx: &mut Ctx) {
    ctx.active.pop();
    ctx.depth -= 1;
}

fn repr_into(v: &Value, out: &mut String, ctx: &mut Ctx) -> R<()> {
    use std::fmt::Write;
    match v {
        Value::None => out.push_str("None"),
        Value::Bool(true) => out.push_str("True"),
        Value::Bool(false) => out.push_str("False"),
        Value::Int(i) => super::int::push_i64(out, *i),
        Value::Big(b) => out.push_str(&int_repr(&IntRef::Big(&b.0))?),
        Value::Float(f) => out.push_str(&float_repr(*f)),
        Value::Complex(c) => out.push_str(&complex_repr(c.0, c.1)),
        Value::Str(s) => push_str_repr(out, s.as_str(), ctx.ascii),
        Value::Bytes(b) => push_bytes_repr(out, b),
        Value::List(l) => {
            let addr = v.address();
            if !enter(ctx, addr)? {
                out.push_str("[...]");
                return Ok(());
            }
            let items: Vec<Value> = match l.try_borrow() {
                Ok(l) => l.items.clone(),
                Err(_) => Vec::new(),
            };
            out.push('[');
            for (n, item) in items.iter().enumerate() {
                if n > 0 {
                    out.push_str(", ");
                }
                repr_into(item, out, ctx)?;
            }
            out.push(']');
            leave(ctx);
        }
        Value::Tuple(t) => {
            if t.items.is_empty() {
                out.push_str("()");
                return Ok(());
            }
            if !enter(ctx, v.address())? {
                out.push_str("(...)");
                return Ok(());
            }
            out.push('(');
            for (n, item) in t.items.iter().enumerate() {
                if n > 0 {
                    out.push_str(", ");
                }
                repr_into(item, out, ctx)?;
            }
            if t.items.len() == 1 {
                out.push(',');
            }
            out.push(')');
            leave(ctx);
        }
        Value::Dict(d) => {
            if !enter(ctx, v.address())? {
                out.push_str("{...}");
                return Ok(());
            }
            let items: Vec<(Value, Value)> = match d.try_borrow() {
                Ok(d) => d.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
                Err(_) => Vec::new(),
            };
            out.push('{');
            for (n, (k, val)) in items.iter().enumerate() {
                if n > 0 {
                    out.push_str(", ");
                }
                repr_into(k, out, ctx)?;
                out.push_str(": ");
                repr_into(val, out, ctx)?;
            }
            out.push('}');
            leave(ctx);
        }
        Value::Set(s) => {
            let items: Vec<Value> = match s.try_borrow() {
                Ok(s) => s.iter().cloned().collect(),
                Err(_) => Vec::new(),
            };
            if items.is_empty() {
                out.push_str("set()");
                return Ok(());
            }
            if !enter(ctx, v.address())? {
                out.push_str("set(...)");
                return Ok(());
            }
            out.push('{');
            for (n, item) in items.iter().enumerate() {
                if n > 0 {
                    out.push_str(", ");
                }
                repr_into(item, out, ctx)?;
            }
            out.push('}');
            leave(ctx);
        }
        Value::Range(r) => {
            let (start, stop, step) = r.bounds();
            if step == num_bigint::BigInt::from(1) {
                let _ = write!(out, "range({start}, {stop})");
            } else {
                let _ = write!(out, "range({start}, {stop}, {step})");
            }
        }
        Value::View(view) => {
            let name = match view.kind {
                ViewKind::Keys => "dict_keys",
                ViewKind::Values => "dict_values",
                ViewKind::Items => "dict_items",
            };
            let addr = std::rc::Rc::as_ptr(&view.dict) as *const () as usize;
            if !enter(ctx, addr)? {
                out.push_str("...");
                return Ok(());
            }
            let items: Vec<Value> = match view.dict.try_borrow() {
                Ok(d) => match view.kind {
                    ViewKind::Keys => d.iter().map(|(k, _)| k.clone()).collect(),
                    ViewKind::Values => d.iter().map(|(_, v)| v.clone()).collect(),
                    ViewKind::Items => d
                        .iter()
                        .map(|(k, v)| Value::tuple(vec![k.clone(), v.clone()]))
                        .collect(),
                },
                Err(_) => Vec::new(),
            };
            out.push_str(name);
            out.push_str("([");
            for (n, item) in items.iter().enumerate() {
                if n > 0 {
                    out.push_str(", ");
                }
                repr_into(item, out, ctx)?;
            }
            out.push_str("])");
            ctx.active.pop();
            ctx.depth -= 1;
        }
        Value::Type(t) => {
            let _ = write!(out, "<class '{}'>", t.name());
        }
        Value::Builtin(b) => {
            if *b == super::BuiltinId::SortBy {
                let _ = write!(out, "<function sort_by at 0x{:x}>", 0x7f3a_1c2b_4d50_usize);
            } else {
                let _ = write!(out, "<built-in function {}>", b.name());
            }
        }
        Value::Tool(t) => {
            let _ = write!(out, "<function {} at 0x{:x}>", t.name, v.address());
        }
        Value::Lambda(_) => {
            let _ = write!(out, "<function <lambda> at 0x{:x}>", v.address());
        }
        Value::Method(m) => match &m.recv {
            Some(r) => {
                let _ = write!(
                    out,
                    "<built-in method {} of {} object at 0x{:x}>",
                    m.name.name(),
                    r.type_name(),
                    r.address()
                );
            }
            None => {
                let _ = write!(
                    out,
                    "<method '{}' of '{}' objects>",
                    m.name.name(),
                    m.owner.name()
                );
            }
        },
        Value::Iter(it) => {
            let name = match it.try_borrow() {
                Ok(it) => it.type_id().name(),
                Err(_) => "iterator",
            };
            let _ = write!(out, "<{} object at 0x{:x}>", name, v.address());
        }
        Value::Ellipsis => out.push_str("Ellipsis"),
    }
    Ok(())
}

/// Appends the repr of a string: CPython's quote choice and escapes.
pub(crate) fn push_str_repr(out: &mut String, s: &str, ascii: bool) {
    use std::fmt::Write;
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (' '..='~').contains(&c) => out.push(c),
            c if c.is_ascii() => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if !ascii && super::unicode::is_printable(c) => out.push(c),
            c => {
                let cp = c as u32;
                if cp < 0x100 {
                    let _ = write!(out, "\\x{cp:02x}");
                } else if cp < 0x10000 {
                    let _ = write!(out, "\\u{cp:04x}");
                } else {
                    let _ = write!(out, "\\U{cp:08x}");
                }
            }
        }
    }
    out.push(quote);
}

/// Appends the repr of a bytes value.
pub(crate) fn push_bytes_repr(out: &mut String, b: &[u8]) {
    use std::fmt::Write;
    let quote = if b.contains(&b'\'') && !b.contains(&b'"') {
        b'"'
    } else {
        b'\''
    };
    out.push('b');
    out.push(quote as char);
    for &c in b {
        match c {
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c as char);
            }
            0x20..=0x7e => out.push(c as char),
            c => {
                let _ = write!(out, "\\x{c:02x}");
            }
        }
    }
    out.push(quote as char);
}

/// CPython's repr of a complex number.
pub(crate) fn complex_repr(re: f64, im: f64) -> String {
    fn part(x: f64) -> String {
        let s = float_repr(x);
        match s.strip_suffix(".0") {
            Some(t) => t.to_owned(),
            None => s,
        }
    }
    if re == 0.0 && re.is_sign_positive() {
        return format!("{}j", part(im));
    }
    let im_s = part(im);
    let sign = if im_s.starts_with('-') || im.is_nan() && im_s.starts_with('-') {
        ""
    } else {
        "+"
    };
    format!("({}{}{}j)", part(re), sign, im_s)
}
