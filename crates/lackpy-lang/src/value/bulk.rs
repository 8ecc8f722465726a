//! Bulk copies of values: slices, `list.copy()`, `list(x)`, `tuple(x)`.
//!
//! The derived `Clone` of [`Value`] dispatches on the variant through a
//! jump table, one indirect jump per item. The lists a program copies are
//! mostly all ints, all floats or all strings, so [`clone_item`] tests those
//! three inline (a well-predicted compare each, the payload copied or its
//! count bumped with no table) and calls out of line for anything else.
//! The loops here write into a destination sized once, so the compiler
//! drops the per-item capacity check.

use std::rc::Rc;

use super::Value;
use super::errors::R;

/// A copy of `v`: ints, floats and strings inline, the rest out of line.
#[inline(always)]
pub(crate) fn clone_item(v: &Value) -> Value {
    match v {
        Value::Int(i) => Value::Int(*i),
        Value::Float(f) => Value::Float(*f),
        Value::Str(s) => Value::Str(Rc::clone(s)),
        _ => clone_other(v),
    }
}

/// The filler for a chunk with no item (never: chunks are not empty),
/// made lazily so that no value is built and dropped per item.
fn none() -> Value {
    Value::None
}

/// Every other variant (kept out of the loops above so they stay small).
#[inline(never)]
fn clone_other(v: &Value) -> Value {
    v.clone()
}

/// A copy of `src` in a new vector (a pooled one when large), checked
/// against the run's memory and step budgets first.
pub(crate) fn copied(src: &[Value]) -> R<Vec<Value>> {
    super::meter::ensure(src.len().saturating_mul(std::mem::size_of::<Value>()))?;
    super::meter::tick_n(src.len())?;
    let mut out = super::pool::values(src.len());
    extend_cloned(&mut out, src);
    Ok(out)
}

/// Appends copies of `src` to `out`.
pub(crate) fn extend_cloned(out: &mut Vec<Value>, src: &[Value]) {
    out.extend(src.iter().map(clone_item));
}

/// Appends copies of `src` in reverse order to `out`.
pub(crate) fn extend_reversed(out: &mut Vec<Value>, src: &[Value]) {
    out.extend(src.iter().rev().map(clone_item));
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
    if step > 0 {
        let run = src.get(first..).unwrap_or_default();
        if stride == 1 {
            extend_cloned(out, run.get(..count).unwrap_or(run));
        } else {
            // `chunks` has an exact length, so `extend` sizes once and the
            // loop has no capacity check (`step_by` lost that, and was 2x slower).
            let firsts = run.chunks(stride).take(count);
            out.extend(firsts.map(|c| c.first().map_or_else(none, clone_item)));
        }
    } else {
        let run = src.get(..=first).unwrap_or_default();
        if stride == 1 {
            let from = run.len().saturating_sub(count);
            extend_reversed(out, run.get(from..).unwrap_or(run));
        } else {
            let lasts = run.rchunks(stride).take(count);
            out.extend(lasts.map(|c| c.last().map_or_else(none, clone_item)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(v: &[Value]) -> Vec<i64> {
        v.iter()
            .map(|x| match x {
                Value::Int(i) => *i,
                _ => -999,
            })
            .collect()
    }

    #[test]
    fn strided_walks_match_index_arithmetic() {
        let src: Vec<Value> = (0..10).map(Value::Int).collect();
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

    #[test]
    fn clones_share_heap_items() {
        let s = Value::str("shared text");
        let src = vec![
            s.clone(),
            Value::Float(-0.0),
            Value::None,
            Value::Bool(true),
        ];
        let mut out = Vec::new();
        extend_reversed(&mut out, &src);
        assert!(out[3].is_same(&s));
        assert!(matches!(out[2], Value::Float(f) if f.to_bits() == (-0.0f64).to_bits()));
        assert!(matches!(out[1], Value::None));
        assert!(matches!(out[0], Value::Bool(true)));
    }
}
