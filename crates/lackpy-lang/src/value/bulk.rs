//! Bulk copies of values: slices, `list.copy()`, `list(x)`, `tuple(x)`.
//!
//! The derived `Clone` of [`Value`] dispatches on the variant through a
//! jump table, one indirect jump per item. The lists a program copies are
//! mostly all ints, all floats or all strings, so [`clone_item`] tests those
//! three inline (a well-predicted compare each, the payload copied or its
//! count bumped with no table) and calls out of line for anything else.
//! The copy loops write each item straight into its slot of a destination
//! sized once (see [`pick`]).

use crate::value::StrRc;

use super::Value;
use crate::runtime::error::R;

/// A copy of `v`: ints, floats and strings inline, the rest out of line.
#[inline(always)]
pub(crate) fn clone_item(v: &Value) -> Value {
    match v {
        Value::Int(id, i) => Value::Int(*id, *i),
        Value::Float(id, f) => Value::Float(*id, *f),
        Value::Str(s) => Value::Str(StrRc::clone(s)),
        _ => clone_other(v),
    }
}

/// Every other variant (kept out of the loops above so they stay small).
#[inline(never)]
fn clone_other(v: &Value) -> Value {
    v.clone()
}

/// A copy of `src` in a new vector (a pooled one when large), checked
/// against the run's memory and step budgets first.
pub(crate) fn copied(src: &[Value]) -> R<Vec<Value>> {
    crate::runtime::meter::ensure(src.len().saturating_mul(std::mem::size_of::<Value>()))?;
    crate::runtime::meter::tick_n(src.len())?;
    let mut out = super::pool::values(src.len());
    extend_cloned(&mut out, src);
    Ok(out)
}

/// Appends copies of `src` to `out`.
pub(crate) fn extend_cloned(out: &mut Vec<Value>, src: &[Value]) {
    pick(out, src.len(), src.iter());
}

/// Appends copies of `src` in reverse order to `out`.
pub(crate) fn extend_reversed(out: &mut Vec<Value>, src: &[Value]) {
    pick(out, src.len(), src.iter().rev());
}

/// Appends copies of the `count` items of `src` from index `first` by
/// `step` (never zero) to `out`; the walk stops early at either end.
pub(crate) fn extend_strided(
    out: &mut Vec<Value>,
    src: &[Value],
    first: usize,
    step: i64,
    count: usize,
) {
    let stride: usize = step.unsigned_abs().try_into().unwrap_or(usize::MAX);
    if first >= src.len() {
        return;
    }
    // The picks that exist: every index below is then inside `src` and
    // `k * stride` cannot overflow.
    let avail = if step > 0 {
        (src.len() - first - 1) / stride + 1
    } else {
        first / stride + 1
    };
    let count = count.min(avail);
    if stride == 1 {
        if step > 0 {
            extend_cloned(out, src.get(first..first + count).unwrap_or_default());
        } else {
            extend_reversed(out, src.get(first + 1 - count..=first).unwrap_or_default());
        }
    } else if step > 0 {
        pick_at(out, src, count, |k| first + k * stride);
    } else {
        pick_at(out, src, count, |k| first - k * stride);
    }
}

/// Appends copies of `items` (`count` of them) to `out`.
///
/// The slots are first filled with `None`, then each is overwritten by
/// [`copy_into`]: an int, float or string is stored straight from
/// registers. Building each copy as a value and moving it in (`extend`
/// over `map(clone_item)`, or `push`) joins the branches through a stack
/// slot written as two words and read back as one, a failed
/// store-to-load forward per item: strided copies of ints ran 1.1x slower
/// that way, and with a `push` per branch 4x slower.
#[inline(always)]
fn pick<'a>(out: &mut Vec<Value>, count: usize, items: impl Iterator<Item = &'a Value>) {
    let base = out.len();
    out.resize_with(base + count, || Value::None);
    let mut made = 0;
    let slots = out.get_mut(base..).unwrap_or_default();
    for (slot, v) in slots.iter_mut().zip(items) {
        copy_into(slot, v);
        made += 1;
    }
    out.truncate(base + made);
}

/// Appends copies of `src[at(k)]` for `k` in `0..count`, as [`pick`]
/// (indices the caller keeps inside `src`; an index past it ends the walk).
#[inline(always)]
fn pick_at(out: &mut Vec<Value>, src: &[Value], count: usize, at: impl Fn(usize) -> usize) {
    let base = out.len();
    out.resize_with(base + count, || Value::None);
    let mut made = 0;
    let slots = out.get_mut(base..).unwrap_or_default();
    for (k, slot) in slots.iter_mut().enumerate() {
        let Some(v) = src.get(at(k)) else { break };
        copy_into(slot, v);
        made = k + 1;
    }
    out.truncate(base + made);
}

/// Overwrites `slot`, which holds `None` (so nothing is dropped), with a
/// copy of `v`.
#[inline(always)]
fn copy_into(slot: &mut Value, v: &Value) {
    match v {
        Value::Int(id, i) => std::mem::forget(std::mem::replace(slot, Value::Int(*id, *i))),
        Value::Float(id, f) => std::mem::forget(std::mem::replace(slot, Value::Float(*id, *f))),
        Value::Str(s) => std::mem::forget(std::mem::replace(slot, Value::Str(StrRc::clone(s)))),
        other => *slot = clone_other(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(v: &[Value]) -> Vec<i64> {
        v.iter()
            .map(|x| match x {
                Value::Int(_, i) => *i,
                _ => -999,
            })
            .collect()
    }

    #[test]
    fn strided_walks_match_index_arithmetic() {
        let src: Vec<Value> = (0..10).map(Value::int).collect();
        for step in [-12i64, -3, -2, -1, 1, 2, 3, 12, i64::MAX, -i64::MAX] {
            for first in 0..10usize {
                for count in 0..12usize {
                    let mut out = Vec::new();
                    extend_strided(&mut out, &src, first, step, count);
                    let want: Vec<i64> = (0..count as i64)
                        .map(|k| first as i128 + k as i128 * step as i128)
                        .take_while(|&i| (0..10).contains(&i))
                        .map(|i| i as i64)
                        .collect();
                    assert_eq!(ints(&out), want, "first {first} step {step} count {count}");
                }
            }
        }
    }

    /// Items of every kind, in runs and alone, copy exactly by every walk
    /// (the fast kinds are stored in place, the rest cloned into place).
    #[test]
    fn mixed_kinds_copy_exactly_by_every_walk() {
        let s = Value::str("shared text");
        let src = vec![
            Value::int(1),
            Value::int(i64::MIN),
            Value::None,
            Value::float(f64::NAN),
            s.clone(),
            Value::Bool(true),
            Value::list(vec![Value::int(2)]),
            Value::int(3),
            Value::float(-0.0),
        ];
        let same = |a: &Value, b: &Value| match (a, b) {
            (Value::Float(_, x), Value::Float(_, y)) => x.same_bits(*y),
            _ => a.is_same(b) || crate::value::eq::py_eq(a, b).unwrap_or(false),
        };
        let mut out = vec![Value::int(-5)];
        extend_cloned(&mut out, &src);
        extend_reversed(&mut out, &src);
        extend_strided(&mut out, &src, 8, -3, 9);
        let mut want = vec![Value::int(-5)];
        want.extend(src.iter().cloned());
        want.extend(src.iter().rev().cloned());
        want.extend([8, 5, 2].map(|i| src[i].clone()));
        assert_eq!(out.len(), want.len());
        for (i, (a, b)) in out.iter().zip(&want).enumerate() {
            assert!(same(a, b), "item {i}");
        }
        assert!(out[5].is_same(&s) && out[14].is_same(&s));
    }

    #[test]
    fn clones_share_heap_items() {
        let s = Value::str("shared text");
        let src = vec![
            s.clone(),
            Value::float(-0.0),
            Value::None,
            Value::Bool(true),
        ];
        let mut out = Vec::new();
        extend_reversed(&mut out, &src);
        assert!(out[3].is_same(&s));
        assert!(matches!(out[2], Value::Float(_, f) if f.get().to_bits() == (-0.0f64).to_bits()));
        assert!(matches!(out[1], Value::None));
        assert!(matches!(out[0], Value::Bool(true)));
    }
}
