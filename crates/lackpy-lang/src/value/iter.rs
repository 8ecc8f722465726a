//! Iteration: the iterator objects of a run and Python's iteration protocol.
//!
//! Iterating a list is live and index based (appending while looping is
//! seen, as in Python); iterating a dict or set fails once it changes size;
//! `reversed`, `enumerate` and `zip` are lazy single-pass iterators.

use std::cell::RefCell;
use std::rc::Rc;

use crate::runtime::error::{Exc, R};
use crate::runtime::meter::{self, Buf};
use crate::value::{Dict, PyIter, Range, Value, ViewKind, bulk, char_value};

impl PyIter {
    /// An iterator over `v` (`iter(v)`), or TypeError.
    pub(crate) fn of(v: &Value) -> R<PyIter> {
        Ok(match v {
            Value::List(l) => PyIter::List {
                list: l.clone(),
                idx: 0,
            },
            Value::Tuple(t) => PyIter::Tuple {
                t: t.clone(),
                idx: 0,
            },
            Value::Str(s) => PyIter::Str {
                s: s.clone(),
                pos: 0,
            },
            Value::Range(r) => PyIter::range(r),
            Value::Dict(d) => {
                let len = d.try_borrow().map(|d| d.len()).unwrap_or(0);
                PyIter::Dict {
                    d: d.clone(),
                    pos: 0,
                    len,
                    kind: ViewKind::Keys,
                }
            }
            Value::View(v) => {
                let len = v.dict.try_borrow().map(|d| d.len()).unwrap_or(0);
                PyIter::Dict {
                    d: v.dict.clone(),
                    pos: 0,
                    len,
                    kind: v.kind,
                }
            }
            Value::Set(s) => {
                let len = s.try_borrow().map(|s| s.len()).unwrap_or(0);
                PyIter::Set {
                    s: s.clone(),
                    pos: 0,
                    len,
                }
            }
            Value::Bytes(b) => PyIter::Bytes {
                b: b.clone(),
                idx: 0,
            },
            Value::Iter(it) => PyIter::Shared(it.clone()),
            other => return Err(Exc::not_iterable(other)),
        })
    }

    /// An iterator over `v` for a consumer that takes it over (`zip`'s
    /// operands): an iterator object nothing else holds (a temporary such
    /// as `reversed(xs)`, held only by the argument) is taken out of its
    /// shared cell, since no one can see it advance, so each step skips the
    /// cell; otherwise as [`PyIter::of`].
    pub(crate) fn of_arg(v: &Value) -> R<PyIter> {
        if let Value::Iter(it) = v
            && Rc::strong_count(it) == 1
            && Rc::weak_count(it) == 0
            && let Ok(mut inner) = it.try_borrow_mut()
        {
            let spent = PyIter::Range {
                next: 0,
                step: 1,
                left: 0,
            };
            return Ok(std::mem::replace(&mut *inner, spent));
        }
        PyIter::of(v)
    }

    pub(crate) fn range(r: &Range) -> PyIter {
        match (r, r.len_u64()) {
            (Range::Small { start, step, .. }, Some(left)) => PyIter::Range {
                next: *start,
                step: *step,
                left,
            },
            _ => {
                let (start, _, step) = r.bounds();
                PyIter::BigRange {
                    next: start,
                    step,
                    left: r.len_big(),
                }
            }
        }
    }

    /// `reversed(v)`, or TypeError.
    pub(crate) fn reversed(v: &Value) -> R<PyIter> {
        Ok(match v {
            Value::List(l) => {
                let n = l.try_borrow().map(|l| l.items.len()).unwrap_or(0);
                PyIter::ListRev {
                    list: l.clone(),
                    left: n,
                }
            }
            Value::Tuple(t) => PyIter::TupleRev {
                left: t.items.len(),
                t: t.clone(),
            },
            Value::Str(s) => PyIter::StrRev {
                end: s.as_str().len(),
                s: s.clone(),
            },
            Value::Range(r) => PyIter::range(&r.reversed()),
            Value::Dict(d) => {
                let len = d.try_borrow().map(|d| d.len()).unwrap_or(0);
                PyIter::DictRev {
                    d: d.clone(),
                    back: 0,
                    len,
                    kind: ViewKind::Keys,
                }
            }
            Value::View(v) => {
                let len = v.dict.try_borrow().map(|d| d.len()).unwrap_or(0);
                PyIter::DictRev {
                    d: v.dict.clone(),
                    back: 0,
                    len,
                    kind: v.kind,
                }
            }
            Value::Bytes(b) => PyIter::BytesRev {
                left: b.len(),
                b: b.clone(),
            },
            other => {
                return Err(Exc::type_error(format!(
                    "'{}' object is not reversible",
                    other.type_name()
                )));
            }
        })
    }

    /// The exact number of items left where it is known without iterating
    /// (saturating), so that draining a huge one can fail before it starts.
    pub(crate) fn known_len(&self) -> Option<usize> {
        use num_traits::ToPrimitive;
        match self {
            PyIter::Range { left, .. } => Some((*left).try_into().unwrap_or(usize::MAX)),
            PyIter::BigRange { left, .. } => Some(left.to_usize().unwrap_or(usize::MAX)),
            PyIter::Enumerate { inner, .. } => inner.known_len(),
            PyIter::Zip { inners, .. } => inners.iter().map(PyIter::known_len).min().flatten(),
            PyIter::Shared(it) => it.try_borrow().ok().and_then(|i| i.known_len()),
            _ => None,
        }
    }

    /// A rough count of the items left, for pre-sizing.
    pub(crate) fn size_hint(&self) -> usize {
        match self {
            PyIter::Range { left, .. } => (*left).min(1 << 20) as usize,
            PyIter::BigRange { left, .. } => {
                use num_traits::ToPrimitive;
                left.to_usize().unwrap_or(usize::MAX).min(1 << 20)
            }
            PyIter::List { list, idx } => list
                .try_borrow()
                .map(|l| l.items.len().saturating_sub(*idx))
                .unwrap_or(0),
            PyIter::Tuple { t, idx } => t.items.len().saturating_sub(*idx),
            PyIter::ListRev { left, .. } | PyIter::TupleRev { left, .. } => *left,
            PyIter::Dict { len, .. } | PyIter::Set { len, .. } => *len,
            PyIter::DictRev { len, .. } => *len,
            PyIter::Enumerate { inner, .. } => inner.size_hint(),
            PyIter::Zip { inners, done, .. } => {
                if *done {
                    0
                } else {
                    inners.iter().map(PyIter::size_hint).min().unwrap_or(0)
                }
            }
            PyIter::Shared(it) => it.try_borrow().map(|i| i.size_hint()).unwrap_or(0),
            _ => 0,
        }
    }

    /// Moves every remaining item into `out` (as repeated [`PyIter::next`]
    /// would, leaving the iterator exhausted), with a typed loop per source
    /// kind: ranges and reversed sequences are copied in bulk, and
    /// `enumerate`/`zip` build their pairs and triples without dispatching
    /// per item.
    pub(crate) fn drain_into(&mut self, out: &mut Buf<Value>) -> R<()> {
        match self {
            PyIter::Range { next, step, left } => {
                let (first, step, n) = (*next, *step, *left);
                let n = usize::try_from(n).map_err(|_| Exc::memory())?;
                out.extend_exact(
                    (0..n).map(|k| Value::int(first.wrapping_add(step.wrapping_mul(k as i64)))),
                )?;
                *left = 0;
                Ok(())
            }
            PyIter::ListRev { list, left } => {
                let n = *left;
                *left = 0;
                let Ok(l) = list.try_borrow() else {
                    return Ok(());
                };
                // A list shrunk below the iterator's position ends it, as
                // one step of `next` would.
                let items = l.items.get(..n).unwrap_or_default();
                out.extend_exact(items.iter().rev().map(bulk::clone_item))
            }
            PyIter::TupleRev { t, left } => {
                let n = *left;
                *left = 0;
                let items = t.items.get(..n).unwrap_or_default();
                out.extend_exact(items.iter().rev().map(bulk::clone_item))
            }
            PyIter::Dict { d, pos, len, kind } => {
                let d = unchanged_dict(d, len)?;
                let start = std::mem::replace(pos, d.end_pos());
                let n = if start == 0 {
                    d.len()
                } else {
                    d.iter_from(start).count()
                };
                let items = d.iter_from(start);
                // Items are cloned inline (ints and strings: a clone out
                // of line comes back through memory and stalls the copy).
                match kind {
                    ViewKind::Keys => {
                        out.extend_counted(n, items.map(|(k, _)| bulk::clone_item(k)))
                    }
                    ViewKind::Values => {
                        out.extend_counted(n, items.map(|(_, v)| bulk::clone_item(v)))
                    }
                    ViewKind::Items => out.extend_counted(
                        n,
                        items.map(|(k, v)| Value::pair(bulk::clone_item(k), bulk::clone_item(v))),
                    ),
                }
            }
            PyIter::Enumerate { inner, count } => {
                enumerate_list(inner, count, out)?;
                while let Some(v) = inner.next()? {
                    out.push(Value::pair(bump(count), v))?;
                }
                Ok(())
            }
            PyIter::Zip {
                inners,
                strict,
                done,
            } => {
                // One scratch vector for every step; each item becomes a
                // tuple of its own (pairs and triples inline).
                if !*done {
                    zip_lists(inners, out)?;
                }
                let mut parts = Vec::with_capacity(inners.len());
                while zip_step(inners, *strict, done, &mut parts)? {
                    let item = match parts.as_mut_slice() {
                        [a, b] => Value::pair(take(a), take(b)),
                        [a, b, c] => Value::triple(take(a), take(b), take(c)),
                        _ => Value::tuple(parts.clone()),
                    };
                    parts.clear();
                    out.push(item)?;
                }
                Ok(())
            }
            PyIter::Shared(it) => match it.try_borrow_mut() {
                Ok(mut it) => it.drain_into(out),
                Err(_) => Err(Exc::value_error("generator already executing")),
            },
            _ => {
                while let Some(x) = self.next()? {
                    out.push(x)?;
                }
                Ok(())
            }
        }
    }

    /// The next item, `None` when exhausted.
    ///
    /// Iterating a list (the most common loop) is handled inline; every
    /// other kind goes through [`PyIter::next_other`].
    #[inline(always)]
    pub(crate) fn next(&mut self) -> R<Option<Value>> {
        if let PyIter::List { list, idx } = self {
            // Every item of every iterator is builtin work (language.md §5).
            meter::tick()?;
            let item = match list.try_borrow() {
                Ok(l) => l.items.get(*idx).map(super::fast_clone),
                Err(_) => None,
            };
            if item.is_some() {
                *idx += 1;
            }
            return Ok(item);
        }
        self.next_other()
    }

    /// The next item of a target that unpacks it into `n` parts. Where the
    /// item would be a tuple made only to be taken apart (`enumerate`, a
    /// `zip` of `n` iterables, dict items with `n == 2`) each part is
    /// handed to `put` with its position (all of them, once the item is
    /// complete) and no tuple is built; otherwise the item comes whole.
    /// Counts the same work and raises the same errors as [`PyIter::next`].
    ///
    /// A `zip` of two (the common `for a, b in zip(xs, ys)`) is handled
    /// inline and answers [`Step::Pair`], so that its items reach the
    /// targets in registers rather than through memory (a value stored as
    /// two words and reloaded as one stalls); every other kind goes through
    /// [`PyIter::next_parts_other`].
    #[inline(always)]
    pub(crate) fn next_parts(&mut self, n: usize, put: impl FnMut(usize, Value)) -> R<Step> {
        if n == 2 {
            match self {
                PyIter::Zip {
                    inners,
                    strict,
                    done,
                } if inners.len() == 2 => {
                    meter::tick()?;
                    return zip_pair(inners, *strict, done);
                }
                // `zip(...)` called in the loop header is an iterator
                // object: look through it here too.
                PyIter::Shared(it) => {
                    if let Ok(mut inner) = it.try_borrow_mut()
                        && let PyIter::Zip {
                            inners,
                            strict,
                            done,
                        } = &mut *inner
                        && inners.len() == 2
                    {
                        // The shared object's count and the zip's, as
                        // `next_parts_other` counts them.
                        meter::tick()?;
                        meter::tick()?;
                        return zip_pair(inners, *strict, done);
                    }
                }
                _ => {}
            }
        }
        self.next_parts_other(n, put)
    }

    /// [`PyIter::next_parts`] for every other kind.
    #[inline(never)]
    fn next_parts_other(&mut self, n: usize, mut put: impl FnMut(usize, Value)) -> R<Step> {
        match self {
            PyIter::Enumerate { inner, count } if n == 2 => {
                meter::tick()?;
                match inner.next()? {
                    Some(v) => {
                        put(0, bump(count));
                        put(1, v);
                        Ok(Step::Parts)
                    }
                    None => Ok(Step::Done),
                }
            }
            PyIter::Zip {
                inners,
                strict,
                done,
            } if inners.len() == n && n <= MAX_PARTS => {
                meter::tick()?;
                if *done {
                    return Ok(Step::Done);
                }
                // The parts are taken in plain slots and handed over only
                // once every iterable gave one: when a later one is
                // exhausted no target is rebound for that step (so too in
                // the inline pair case of `next_parts`).
                let mut parts = [const { Value::None }; MAX_PARTS];
                for (i, (it, slot)) in inners.iter_mut().zip(parts.iter_mut()).enumerate() {
                    match it.next()? {
                        Some(v) => *slot = v,
                        None => return zip_exhausted(inners, *strict, done, i),
                    }
                }
                for (i, slot) in parts.iter_mut().take(n).enumerate() {
                    put(i, take(slot));
                }
                Ok(Step::Parts)
            }
            PyIter::Dict {
                d,
                pos,
                len,
                kind: ViewKind::Items,
            } if n == 2 => {
                meter::tick()?;
                let (k, v) = {
                    let d = unchanged_dict(d, len)?;
                    match d.entry_from(*pos) {
                        Some((p, k, v)) => {
                            *pos = p;
                            (k.clone(), v.clone())
                        }
                        None => return Ok(Step::Done),
                    }
                };
                put(0, k);
                put(1, v);
                Ok(Step::Parts)
            }
            PyIter::Shared(it) => {
                meter::tick()?;
                match it.try_borrow_mut() {
                    Ok(mut it) => it.next_parts(n, put),
                    Err(_) => Err(Exc::value_error("generator already executing")),
                }
            }
            _ => Ok(match self.next()? {
                Some(v) => Step::Whole(v),
                None => Step::Done,
            }),
        }
    }

    /// [`PyIter::next`] for every kind.
    #[inline(never)]
    fn next_other(&mut self) -> R<Option<Value>> {
        // Every item of every iterator is builtin work (language.md §5).
        meter::tick()?;
        Ok(match self {
            PyIter::Range { next, step, left } => {
                if *left == 0 {
                    return Ok(None);
                }
                let v = *next;
                *left -= 1;
                if *left > 0 {
                    *next = next.wrapping_add(*step);
                }
                Some(Value::int(v))
            }
            PyIter::BigRange { next, step, left } => {
                use num_traits::{One, Zero};
                if left.is_zero() {
                    return Ok(None);
                }
                let v = Value::from_big(next.clone());
                *left -= num_bigint::BigInt::one();
                *next += &*step;
                Some(v)
            }
            PyIter::List { list, idx } => {
                let item = list
                    .try_borrow()
                    .ok()
                    .and_then(|l| l.items.get(*idx).cloned());
                if item.is_some() {
                    *idx += 1;
                }
                item
            }
            PyIter::ListRev { list, left } => {
                if *left == 0 {
                    return Ok(None);
                }
                *left -= 1;
                let item = list
                    .try_borrow()
                    .ok()
                    .and_then(|l| l.items.get(*left).cloned());
                if item.is_none() {
                    *left = 0;
                }
                item
            }
            PyIter::Tuple { t, idx } => {
                let item = t.items.get(*idx).cloned();
                if item.is_some() {
                    *idx += 1;
                }
                item
            }
            PyIter::TupleRev { t, left } => {
                if *left == 0 {
                    return Ok(None);
                }
                *left -= 1;
                t.items.get(*left).cloned()
            }
            PyIter::Str { s, pos } => {
                let text = s.as_str();
                match text.get(*pos..).and_then(|r| r.chars().next()) {
                    Some(c) => {
                        *pos += c.len_utf8();
                        Some(char_value(c))
                    }
                    None => None,
                }
            }
            PyIter::StrRev { s, end } => {
                let text = s.as_str();
                match text.get(..*end).and_then(|r| r.chars().next_back()) {
                    Some(c) => {
                        *end -= c.len_utf8();
                        Some(char_value(c))
                    }
                    None => None,
                }
            }
            PyIter::Bytes { b, idx } => {
                let item = b.get(*idx).map(|&x| Value::int(x as i64));
                if item.is_some() {
                    *idx += 1;
                }
                item
            }
            PyIter::Dict { d, pos, len, kind } => {
                let d = unchanged_dict(d, len)?;
                d.entry_from(*pos).map(|(p, k, v)| {
                    *pos = p;
                    view_item(*kind, k, v)
                })
            }
            PyIter::DictRev { d, back, len, kind } => {
                let d = unchanged_dict(d, len)?;
                d.entry_back_from(*back).map(|(b, k, v)| {
                    *back = b;
                    view_item(*kind, k, v)
                })
            }
            PyIter::Set { s, pos, len } => {
                let s = s
                    .try_borrow()
                    .map_err(|_| Exc::runtime_error("Set changed size during iteration"))?;
                if s.len() != *len {
                    *len = usize::MAX;
                    return Err(Exc::runtime_error("Set changed size during iteration"));
                }
                match s.entry_from(*pos) {
                    Some((p, k)) => {
                        *pos = p;
                        Some(k.clone())
                    }
                    None => None,
                }
            }
            PyIter::BytesRev { b, left } => {
                if *left == 0 {
                    return Ok(None);
                }
                *left -= 1;
                b.get(*left).map(|&x| Value::int(x as i64))
            }
            PyIter::Enumerate { inner, count } => {
                inner.next()?.map(|v| Value::pair(bump(count), v))
            }
            PyIter::Zip {
                inners,
                strict,
                done,
            } => {
                // A pair is built in place (no scratch vector).
                if inners.len() == 2 {
                    return Ok(match zip_pair(inners, *strict, done)? {
                        Step::Pair(x, y) => Some(Value::pair(x, y)),
                        _ => None,
                    });
                }
                let mut items = Vec::with_capacity(inners.len());
                if zip_step(inners, *strict, done, &mut items)? {
                    Some(Value::tuple(items))
                } else {
                    None
                }
            }
            PyIter::Shared(it) => match it.try_borrow_mut() {
                Ok(mut it) => it.next()?,
                Err(_) => return Err(Exc::value_error("generator already executing")),
            },
        })
    }
}

/// What [`PyIter::next_parts`] produced.
pub(crate) enum Step {
    /// The iterator is exhausted.
    Done,
    /// A whole item, to be unpacked by the caller.
    Whole(Value),
    /// The item's parts were handed over one by one.
    Parts,
    /// The two parts of a pair, handed back whole (a `zip` of two: the
    /// caller binds them itself, which keeps them out of memory).
    Pair(Value, Value),
}

/// The most parts [`PyIter::next_parts`] splits a `zip` item into.
pub(crate) const MAX_PARTS: usize = 4;

/// Moves a value out, leaving `None`.
#[inline(always)]
fn take(v: &mut Value) -> Value {
    std::mem::replace(v, Value::None)
}

/// Enumerate's counter: answers the current count and advances it.
/// The bytes one item of a drained `enumerate` or `zip` holds: its slot
/// and its tuple (checked before building them all at once).
const TUPLE_ITEM_BYTES: usize =
    std::mem::size_of::<Value>() + crate::types::tuple::tuple_box::<Value>();

/// Drains the `enumerate` of a private list iterator in one pass while
/// the count stays an `i64` (the caller's loop takes any rest: past the
/// end, or a count that grows into a big int).
fn enumerate_list(inner: &mut PyIter, count: &mut Value, out: &mut Buf<Value>) -> R<()> {
    let (PyIter::List { list, idx }, Value::Int(_, c)) = (inner, &mut *count) else {
        return Ok(());
    };
    let Ok(l) = list.try_borrow() else {
        return Ok(());
    };
    let xs = l.items.get(*idx..).unwrap_or_default();
    let room = i64::MAX.checked_sub(*c).map_or(usize::MAX, |r| r as usize);
    let xs = xs.get(..room).unwrap_or(xs);
    let n = xs.len();
    meter::ensure(n.saturating_mul(TUPLE_ITEM_BYTES))?;
    let first = *c;
    out.extend_counted(
        n,
        xs.iter()
            .zip(0..n)
            .map(|(x, k)| Value::pair(Value::int(first + k as i64), bulk::clone_item(x))),
    )?;
    *idx += n;
    *c += n as i64;
    Ok(())
}

/// Drains, in one pass, the items of a `zip` of two or three private list
/// iterators that every list still has (the caller's loop then meets the
/// end, raising if strict and the lengths differ).
fn zip_lists(inners: &mut [PyIter], out: &mut Buf<Value>) -> R<()> {
    match inners {
        [
            PyIter::List { list: a, idx: i },
            PyIter::List { list: b, idx: j },
        ] => {
            let (Ok(la), Ok(lb)) = (a.try_borrow(), b.try_borrow()) else {
                return Ok(());
            };
            let xs = la.items.get(*i..).unwrap_or_default();
            let ys = lb.items.get(*j..).unwrap_or_default();
            let n = xs.len().min(ys.len());
            meter::ensure(n.saturating_mul(TUPLE_ITEM_BYTES))?;
            out.extend_counted(
                n,
                xs.iter()
                    .zip(ys)
                    .map(|(x, y)| Value::pair(bulk::clone_item(x), bulk::clone_item(y))),
            )?;
            *i += n;
            *j += n;
        }
        [
            PyIter::List { list: a, idx: i },
            PyIter::List { list: b, idx: j },
            PyIter::List { list: c, idx: k },
        ] => {
            let (Ok(la), Ok(lb), Ok(lc)) = (a.try_borrow(), b.try_borrow(), c.try_borrow()) else {
                return Ok(());
            };
            let xs = la.items.get(*i..).unwrap_or_default();
            let ys = lb.items.get(*j..).unwrap_or_default();
            let zs = lc.items.get(*k..).unwrap_or_default();
            let n = xs.len().min(ys.len()).min(zs.len());
            meter::ensure(n.saturating_mul(TUPLE_ITEM_BYTES))?;
            out.extend_counted(
                n,
                xs.iter().zip(ys).zip(zs).map(|((x, y), z)| {
                    Value::triple(
                        bulk::clone_item(x),
                        bulk::clone_item(y),
                        bulk::clone_item(z),
                    )
                }),
            )?;
            *i += n;
            *j += n;
            *k += n;
        }
        _ => {}
    }
    Ok(())
}

fn bump(count: &mut Value) -> Value {
    let n = std::mem::replace(count, Value::None);
    *count = match &n {
        Value::Int(_, i) => match i.checked_add(1) {
            Some(j) => Value::int(j),
            None => Value::from_big(num_bigint::BigInt::from(*i) + 1),
        },
        Value::Big(b) => Value::from_big(&b.0 + 1),
        other => other.clone(),
    };
    n
}

/// One step of `zip`: pushes one item of each iterable onto `items`, or
/// answers `false` when the shortest is exhausted (raising, when strict,
/// if the lengths differ).
fn zip_step(
    inners: &mut [PyIter],
    strict: bool,
    done: &mut bool,
    items: &mut impl Extend<Value>,
) -> R<bool> {
    if *done || inners.is_empty() {
        return Ok(false);
    }
    for i in 0..inners.len() {
        let Some(it) = inners.get_mut(i) else { break };
        match it.next()? {
            Some(v) => items.extend([v]),
            None => {
                zip_exhausted(inners, strict, done, i)?;
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// One step of a `zip` of two unpacked into two targets: both parts come
/// back together once both are taken (when the second iterable is
/// exhausted neither target is rebound).
#[inline(always)]
fn zip_pair(inners: &mut [PyIter], strict: bool, done: &mut bool) -> R<Step> {
    // (`inners` has two items: the caller checked.)
    let [a, b] = inners else {
        return Ok(Step::Done);
    };
    if *done {
        return Ok(Step::Done);
    }
    let Some(x) = a.next()? else {
        return zip_exhausted(inners, strict, done, 0);
    };
    let Some(y) = b.next()? else {
        drop(x);
        return zip_exhausted(inners, strict, done, 1);
    };
    Ok(Step::Pair(x, y))
}

/// The end of a `zip`: iterable `i` is exhausted. Marks the zip done and,
/// when strict, raises if the lengths differ (checking the later
/// iterables by taking one more item of each, as Python does).
#[cold]
fn zip_exhausted(inners: &mut [PyIter], strict: bool, done: &mut bool, i: usize) -> R<Step> {
    *done = true;
    if !strict {
        return Ok(Step::Done);
    }
    if i > 0 {
        let plural = if i == 1 { " " } else { "s 1-" };
        return Err(Exc::value_error(format!(
            "zip() argument {} is shorter than argument{}{}",
            i + 1,
            plural,
            i
        )));
    }
    for j in 1..inners.len() {
        if let Some(it) = inners.get_mut(j)
            && it.next()?.is_some()
        {
            let plural = if j == 1 { " " } else { "s 1-" };
            return Err(Exc::value_error(format!(
                "zip() argument {} is longer than argument{}{}",
                j + 1,
                plural,
                j
            )));
        }
    }
    Ok(Step::Done)
}

/// Borrows a dict being iterated, failing as Python does when it changed
/// size since the iterator was made (and poisoning the iterator).
pub(crate) fn unchanged_dict<'a>(
    d: &'a RefCell<Dict>,
    len: &mut usize,
) -> R<std::cell::Ref<'a, Dict>> {
    let d = d
        .try_borrow()
        .map_err(|_| Exc::runtime_error("dictionary changed during iteration"))?;
    if d.len() != *len {
        *len = usize::MAX;
        return Err(Exc::runtime_error(
            "dictionary changed size during iteration",
        ));
    }
    Ok(d)
}

/// One item of a dict view iteration: key, value or `(key, value)`.
#[inline]
fn view_item(kind: ViewKind, k: &Value, v: &Value) -> Value {
    match kind {
        ViewKind::Keys => bulk::clone_item(k),
        ViewKind::Values => bulk::clone_item(v),
        ViewKind::Items => Value::pair(bulk::clone_item(k), bulk::clone_item(v)),
    }
}

/// The dict behind a dict or its keys or values view, borrowed, and
/// whether the values (not the keys) are what it yields: for consumers
/// that walk them in place ([`Dict::column`]) while running no program
/// code. `None` for any other value (an items view included: its items
/// are tuples to build) or a dict being changed.
pub(crate) fn dict_column(v: &Value) -> Option<(std::cell::Ref<'_, Dict>, bool)> {
    let (d, values) = match v {
        Value::Dict(d) => (d, false),
        Value::View(view) if view.kind != ViewKind::Items => {
            (&view.dict, view.kind == ViewKind::Values)
        }
        _ => return None,
    };
    Some((d.try_borrow().ok()?, values))
}
