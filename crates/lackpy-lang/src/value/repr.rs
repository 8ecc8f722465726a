//! `repr()`, `str()` and `ascii()` of values, byte for byte as CPython.
//!
//! Containers that contain themselves print as `[...]` / `{...}` (CPython's
//! `Py_ReprEnter`); nesting deeper than [`MAX_DEPTH`] raises RecursionError
//! rather than overflowing the Rust stack. Every text is written under a
//! [`Growth`] guard: a value that shares structure (a list holding the same
//! list twice, many levels deep) cannot write more than the run's memory
//! has left, nor write past the run's deadline.

use super::{Value, ViewKind};
use crate::runtime::error::{Exc, R};
use crate::runtime::growth::Growth;
use crate::types::bytes::repr::push_bytes_repr;
use crate::types::complex::repr::complex_repr;
use crate::types::int::{IntRef, int_to_string, str_limit_message};
use crate::types::str::repr::{push_escaped, push_str_repr, quote_for};

const MAX_DEPTH: u32 = 1000;

/// Strings longer than this are escaped piece by piece, with the guard
/// consulted between pieces.
const CHUNK: usize = 64 * 1024;

struct Ctx<'g> {
    active: Vec<usize>,
    depth: u32,
    ascii: bool,
    g: &'g mut Growth,
    /// The length of the output already charged to `g`.
    charged: Option<usize>,
}

impl<'g> Ctx<'g> {
    fn new(ascii: bool, g: &'g mut Growth) -> Self {
        Ctx {
            active: Vec::new(),
            depth: 0,
            ascii,
            g,
            charged: None,
        }
    }

    /// Charges what was appended to `out` since the last charge.
    #[inline]
    fn sync(&mut self, out: &str) -> R<()> {
        let now = out.len();
        let from = *self.charged.get_or_insert(now);
        self.charged = Some(now);
        self.g.add(now.saturating_sub(from))
    }
}

/// Python `repr(v)`.
pub(crate) fn repr(v: &Value) -> R<String> {
    repr_with(v, &mut Growth::in_run())
}

/// Python `repr(v)`, charged to `g`.
pub(crate) fn repr_with(v: &Value, g: &mut Growth) -> R<String> {
    let mut out = String::new();
    repr_into(v, &mut out, &mut Ctx::new(false, g))?;
    Ok(out)
}

/// [`repr_with`] into a buffer of `capacity` bytes reserved up front: for
/// a large text whose length is about known (a run's output, whose JSON
/// text is written first), so that the buffer is not grown by copying
/// while another text of that size is held.
pub(crate) fn repr_with_capacity(v: &Value, g: &mut Growth, capacity: usize) -> R<String> {
    let mut out = String::with_capacity(capacity);
    repr_into(v, &mut out, &mut Ctx::new(false, g))?;
    out.shrink_to_fit();
    Ok(out)
}

/// Python `ascii(v)`.
pub(crate) fn ascii(v: &Value) -> R<String> {
    let mut out = String::new();
    repr_into(v, &mut out, &mut Ctx::new(true, &mut Growth::in_run()))?;
    Ok(out)
}

/// Python `str(v)`.
pub(crate) fn to_str(v: &Value) -> R<String> {
    match v {
        Value::Str(s) => Ok(s.as_str().to_owned()),
        _ => repr(v),
    }
}

/// `str(v)` for a value whose text is short and needs no recursion (an
/// int that fits `i64`, a float, a bool, `None`, a str), built straight
/// into its string object: no intermediate `String`. `None` for others.
pub(crate) fn str_value(v: &Value) -> Option<Value> {
    let ascii =
        |text: &str| Value::Str(super::StrRc::new(super::PyStr::from_text(text, text.len())));
    Some(match v {
        Value::Str(_) => v.clone(),
        Value::Int(_, i) => {
            let mut digits = [0u8; 20];
            let start = crate::types::int::i64_digits(*i, &mut digits);
            ascii(std::str::from_utf8(digits.get(start..)?).ok()?)
        }
        Value::Float(_, f) => ascii(crate::text::format::float_text(f.get()).as_str()),
        Value::Bool(true) => ascii("True"),
        Value::Bool(false) => ascii("False"),
        Value::None => ascii("None"),
        _ => return None,
    })
}

/// Python `str(v)`, charged to `g`.
pub(crate) fn to_str_with(v: &Value, g: &mut Growth) -> R<String> {
    match v {
        Value::Str(s) => {
            let s = s.as_str();
            g.fits(s.len())?;
            g.add(s.len())?;
            Ok(s.to_owned())
        }
        _ => repr_with(v, g),
    }
}

/// Appends `str(v)` to `out`.
pub(crate) fn push_str_of(v: &Value, out: &mut String) -> R<()> {
    match v {
        Value::Str(s) => {
            let s = s.as_str();
            if out.len().saturating_add(s.len()) > CHUNK {
                // The same string may be appended many times (`print(*xs)`).
                in_run_for(out).fits(s.len())?;
            }
            out.push_str(s);
            Ok(())
        }
        Value::Int(_, i) => {
            crate::types::int::push_i64(out, *i);
            Ok(())
        }
        _ => repr_into(v, out, &mut Ctx::new(false, &mut in_run_for(out))),
    }
}

/// Appends `repr(v)` (or `ascii(v)`) to `out`.
pub(crate) fn push_repr(v: &Value, out: &mut String, ascii: bool) -> R<()> {
    repr_into(v, out, &mut Ctx::new(ascii, &mut in_run_for(out)))
}

/// A guard for appending to `out`, whose text so far is held too.
#[inline]
fn in_run_for(out: &str) -> Growth {
    Growth::in_run_holding(out.len())
}

/// `repr` of an int, honouring the 4300-digit limit.
pub(crate) fn int_repr(i: &IntRef) -> R<String> {
    int_to_string(i).ok_or_else(|| Exc::value_error(str_limit_message()))
}

fn enter(ctx: &mut Ctx, addr: usize) -> R<bool> {
    if ctx.active.contains(&addr) {
        return Ok(false);
    }
    if ctx.depth >= MAX_DEPTH || crate::runtime::stack::exhausted() {
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
    repr_node(v, out, ctx)?;
    ctx.sync(out)
}

fn repr_node(v: &Value, out: &mut String, ctx: &mut Ctx) -> R<()> {
    use std::fmt::Write;
    ctx.sync(out)?;
    match v {
        Value::None => out.push_str("None"),
        Value::Bool(true) => out.push_str("True"),
        Value::Bool(false) => out.push_str("False"),
        Value::Int(_, i) => crate::types::int::push_i64(out, *i),
        Value::Big(b) => out.push_str(&int_repr(&IntRef::Big(&b.0))?),
        Value::Float(_, f) => out.push_str(crate::text::format::float_text(f.get()).as_str()),
        Value::Complex(c) => out.push_str(&complex_repr(c.0, c.1)),
        Value::Str(s) => push_str_repr_guarded(out, s.as_str(), ctx)?,
        Value::Bytes(b) => push_bytes_repr(out, b),
        Value::List(l) => {
            let addr = v.address();
            if !enter(ctx, addr)? {
                out.push_str("[...]");
                return Ok(());
            }
            // Writing never mutates, so the list stays borrowed (shared
            // borrows nest: a DAG borrows the same list many times).
            out.push('[');
            if let Ok(l) = l.try_borrow() {
                for (n, item) in l.items.iter().enumerate() {
                    if n > 0 {
                        out.push_str(", ");
                    }
                    repr_node(item, out, ctx)?;
                }
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
                repr_node(item, out, ctx)?;
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
            out.push('{');
            if let Ok(d) = d.try_borrow() {
                for (n, (k, val)) in d.iter().enumerate() {
                    if n > 0 {
                        out.push_str(", ");
                    }
                    repr_node(k, out, ctx)?;
                    out.push_str(": ");
                    repr_node(val, out, ctx)?;
                }
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
                repr_node(item, out, ctx)?;
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
                        .map(|(k, v)| Value::pair(k.clone(), v.clone()))
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
                repr_node(item, out, ctx)?;
            }
            out.push_str("])");
            ctx.active.pop();
            ctx.depth -= 1;
        }
        Value::Type(t) => {
            let _ = write!(out, "<class '{}'>", t.name());
        }
        Value::Alias(a) => {
            // An alias can hold itself only through a list it names, which
            // `enter` of that list stops; depth is what bounds it here.
            if !enter(ctx, std::rc::Rc::as_ptr(a) as *const () as usize)? {
                out.push_str("...");
                return Ok(());
            }
            out.push_str(a.origin.name());
            out.push('[');
            if a.args.is_empty() {
                out.push_str("()");
            }
            for (n, arg) in a.args.iter().enumerate() {
                if n > 0 {
                    out.push_str(", ");
                }
                // As CPython's `ga_repr_item`: classes and builtins by
                // name, `...` as itself, anything else by its repr.
                match arg {
                    Value::Type(t) => out.push_str(t.name()),
                    Value::Builtin(b) => out.push_str(b.name()),
                    Value::Ellipsis => out.push_str("..."),
                    other => repr_node(other, out, ctx)?,
                }
            }
            out.push(']');
            ctx.active.pop();
            ctx.depth -= 1;
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
        Value::NotImplemented => out.push_str("NotImplemented"),
    }
    Ok(())
}

/// A string's repr under the guard: a long string is refused before it is
/// copied if even its unescaped text would not fit, then escaped piece by
/// piece with the guard consulted between pieces.
fn push_str_repr_guarded(out: &mut String, s: &str, ctx: &mut Ctx) -> R<()> {
    if s.len() <= CHUNK {
        push_str_repr(out, s, ctx.ascii);
        return Ok(());
    }
    ctx.g.fits(s.len().saturating_add(2))?;
    let quote = quote_for(s);
    out.push(quote);
    let mut rest = s;
    while !rest.is_empty() {
        let mut cut = CHUNK.min(rest.len());
        while !rest.is_char_boundary(cut) {
            cut -= 1;
        }
        let (piece, tail) = rest.split_at(cut);
        push_escaped(out, piece, quote, ctx.ascii);
        ctx.sync(out)?;
        rest = tail;
    }
    out.push(quote);
    Ok(())
}
