//! `+`, `-` and `*` on sequences and sets: concatenation, repetition and
//! set difference (numbers fall through to [`crate::types::ops::arith`]).

use crate::types::str::PyStr;
use crate::value::StrRc;
use std::cell::RefCell;
use std::rc::Rc;

use crate::types::bytes::PyBytes;

use crate::runtime::Budget;
use crate::runtime::error::{Exc, R};
use crate::syntax::ast::Operator;
use crate::types::int::as_int;
use crate::types::ops::arith::{arith, unsupported};
use crate::value::iter::PyIter;
use crate::value::{List, Set, Value, ViewKind, bulk};

pub(super) fn add(budget: &mut Budget, a: Value, b: Value) -> R<Value> {
    match (a, b) {
        // An empty operand gives the other one itself (CPython's
        // `unicode_concat`), which `is` sees.
        (Value::Str(x), Value::Str(y)) if y.as_str().is_empty() => Ok(Value::Str(x)),
        (Value::Str(x), Value::Str(y)) if x.as_str().is_empty() => Ok(Value::Str(y)),
        (Value::Str(mut x), Value::Str(y)) => {
            budget.check_memory(x.as_str().len() + y.as_str().len())?;
            if let Some(s) = StrRc::get_mut(&mut x) {
                s.push_str(&y);
                return Ok(Value::Str(x));
            }
            // Sized once (inline when short); the length is the sum.
            Ok(Value::Str(StrRc::new(PyStr::concat(&x, &y))))
        }
        (Value::Str(_), other) => Err(Exc::type_error(format!(
            "can only concatenate str (not \"{}\") to str",
            other.type_name()
        ))),
        (Value::List(mut x), Value::List(y)) => {
            if let Some(l) = Rc::get_mut(&mut x) {
                // A left operand nothing else holds (a temporary such as a
                // comprehension) is extended where it lies: no copy of its
                // items beside it, and a large buffer grows by remapping.
                let l = l.get_mut();
                extend_unshared(budget, l, y)?;
                return Ok(Value::List(x));
            }
            let (xl, yl) = (x.try_borrow(), y.try_borrow());
            let (Ok(xl), Ok(yl)) = (xl, yl) else {
                return Err(Exc::runtime_error("list modified during operation"));
            };
            budget.check_memory((xl.items.len() + yl.items.len()) * 16)?;
            let mut items = crate::value::pool::values(xl.items.len() + yl.items.len());
            bulk::extend_cloned(&mut items, &xl.items);
            bulk::extend_cloned(&mut items, &yl.items);
            Ok(Value::list(items))
        }
        (Value::List(_), other) => Err(Exc::type_error(format!(
            "can only concatenate list (not \"{}\") to list",
            other.type_name()
        ))),
        (Value::Tuple(x), Value::Tuple(y)) => {
            budget.check_memory((x.items.len() + y.items.len()) * 16)?;
            let mut items = Vec::with_capacity(x.items.len() + y.items.len());
            bulk::extend_cloned(&mut items, &x.items);
            bulk::extend_cloned(&mut items, &y.items);
            Ok(Value::tuple(items))
        }
        (Value::Tuple(_), other) => Err(Exc::type_error(format!(
            "can only concatenate tuple (not \"{}\") to tuple",
            other.type_name()
        ))),
        (Value::Bytes(x), Value::Bytes(y)) => {
            let mut v = (*x).clone();
            v.extend_from_slice(&y);
            Ok(Value::Bytes(Rc::new(PyBytes::new(v))))
        }
        (Value::Bytes(_), other) => Err(Exc::type_error(format!(
            "can't concat {} to bytes",
            other.type_name()
        ))),
        (a, b) => arith(Operator::Add, &a, &b),
    }
}

/// `x + y` for a left list `x` no one else can see: `y`'s items are moved
/// (when `y` is a temporary too) or copied onto the end of `x`.
fn extend_unshared(budget: &mut Budget, x: &mut List, mut y: Rc<RefCell<List>>) -> R<()> {
    let extra = match y.try_borrow() {
        Ok(yl) => yl.items.len(),
        Err(_) => return Err(Exc::runtime_error("list modified during operation")),
    };
    budget.check_memory((x.items.len() + extra) * 16)?;
    x.items.reserve_exact(extra);
    match Rc::get_mut(&mut y) {
        Some(yl) => move_all(&mut x.items, yl.get_mut()),
        None => match y.try_borrow() {
            Ok(yl) => bulk::extend_cloned(&mut x.items, &yl.items),
            Err(_) => return Err(Exc::runtime_error("list modified during operation")),
        },
    }
    x.sync();
    Ok(())
}

/// Items of a large right operand moved at a time (a quarter of it).
const MOVE_PARTS: usize = 4;

/// Bytes of items from which the right operand is moved in parts.
const MOVE_IN_PARTS_FROM: usize = 1 << 20;

/// Moves every item of the temporary `y` onto the end of `x`. A large `y`
/// goes a quarter at a time, its buffer shrunk after each (a large block
/// is mapped, so shrinking it gives the pages back): the pages `x` gains
/// are given back by `y` as they fill, and the two are never both whole.
fn move_all(x: &mut Vec<Value>, y: &mut List) {
    let n = y.items.len();
    if n.saturating_mul(std::mem::size_of::<Value>()) >= MOVE_IN_PARTS_FROM {
        let part = n.div_ceil(MOVE_PARTS);
        while y.items.len() > part {
            x.extend(y.items.drain(..part));
            y.items.shrink_to_fit();
        }
    }
    x.append(&mut y.items);
    y.sync();
}

pub(super) fn sub(a: Value, b: Value) -> R<Value> {
    match (&a, &b) {
        (Value::Set(x), Value::Set(y)) => {
            let (Ok(x), Ok(y)) = (x.try_borrow(), y.try_borrow()) else {
                return Err(Exc::runtime_error("set changed during operation"));
            };
            Ok(Value::set(crate::types::set::methods::difference(&x, &y)))
        }
        (Value::View(v), other) if v.kind != ViewKind::Values => {
            let mine = Set::from_view(v)?;
            let mut out = mine.copy();
            let mut items = PyIter::of(other)?;
            while let Some(i) = items.next()? {
                out.discard(&i)?;
            }
            Ok(Value::set(out))
        }
        // `x - view` for any iterable `x` is `set(x)` less the view's
        // members (CPython's `dictviews_sub` answers the reflected call).
        (other, Value::View(v)) if v.kind != ViewKind::Values => {
            let mut out = Set::new();
            let mut items = PyIter::of(other)?;
            while let Some(i) = items.next()? {
                out.add(i)?;
            }
            let mut theirs = PyIter::of(&b)?;
            while let Some(i) = theirs.next()? {
                out.discard(&i)?;
            }
            Ok(Value::set(out))
        }
        _ => arith(Operator::Sub, &a, &b),
    }
}

/// The count of a sequence repetition (`seq * n`).
pub(super) fn repeat_count(n: &Value) -> R<usize> {
    match as_int(n) {
        Some(i) => match i.to_i64() {
            Some(k) => Ok(if k < 0 { 0 } else { k as usize }),
            None => Err(Exc::overflow(
                "cannot fit 'int' into an index-sized integer",
            )),
        },
        None => Err(Exc::type_error(format!(
            "can't multiply sequence by non-int of type '{}'",
            n.type_name()
        ))),
    }
}

pub(super) fn mul(budget: &mut Budget, a: Value, b: Value) -> R<Value> {
    let (seq, n) = match (&a, &b) {
        (Value::Str(_) | Value::List(_) | Value::Tuple(_) | Value::Bytes(_), _) => (&a, &b),
        (_, Value::Str(_) | Value::List(_) | Value::Tuple(_) | Value::Bytes(_))
            if as_int(&a).is_some() =>
        {
            (&b, &a)
        }
        (_, Value::Str(_) | Value::List(_) | Value::Tuple(_) | Value::Bytes(_)) => {
            return Err(Exc::type_error(format!(
                "can't multiply sequence by non-int of type '{}'",
                a.type_name()
            )));
        }
        _ => return arith(Operator::Mult, &a, &b),
    };
    let n = repeat_count(n)?;
    match seq {
        Value::Str(s) => {
            let len = s.as_str().len();
            if (s.char_len() as u128) * (n as u128) > isize::MAX as u128 {
                return Err(Exc::overflow("repeated string is too long"));
            }
            let total = len.checked_mul(n).ok_or_else(Exc::memory)?;
            budget.check_memory(total)?;
            if n == 1 {
                return Ok(seq.clone());
            }
            Ok(Value::str(s.as_str().repeat(n)))
        }
        Value::List(l) => {
            // Copying runs no program code: the borrow holds throughout.
            let Ok(l) = l.try_borrow() else {
                return Ok(Value::list(Vec::new()));
            };
            let total = l.items.len().checked_mul(n).ok_or_else(Exc::memory)?;
            budget.check_memory(total.saturating_mul(16))?;
            let mut out = crate::value::pool::values(total);
            for _ in 0..n {
                bulk::extend_cloned(&mut out, &l.items);
            }
            Ok(Value::list(out))
        }
        Value::Tuple(t) => {
            let total = t.items.len().checked_mul(n).ok_or_else(Exc::memory)?;
            budget.check_memory(total.saturating_mul(16))?;
            if n == 1 {
                return Ok(seq.clone());
            }
            let mut out = Vec::with_capacity(total);
            for _ in 0..n {
                bulk::extend_cloned(&mut out, &t.items);
            }
            Ok(Value::tuple(out))
        }
        Value::Bytes(b) => {
            let total = b.len().checked_mul(n).ok_or_else(Exc::memory)?;
            budget.check_memory(total)?;
            Ok(Value::Bytes(Rc::new(PyBytes::new(b.repeat(n)))))
        }
        _ => Err(unsupported(Operator::Mult, &a, &b)),
    }
}
