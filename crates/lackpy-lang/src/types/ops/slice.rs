//! Slicing: `obj[lo:hi:step]` and `obj[lo:hi:step] = v`.

use std::rc::Rc;

use crate::types::bytes::PyBytes;

use num_bigint::BigInt;

use crate::runtime::error::{Exc, R};
use crate::types::caller::Caller;
use crate::types::int::as_int;
use crate::types::ops::collect_iterable;
use crate::value::{Value, bulk};

/// Evaluated bounds of a slice (`None` for absent or `None`).
pub(crate) struct SliceArgs {
    pub lo: Option<Value>,
    pub hi: Option<Value>,
    pub step: Option<Value>,
}

fn slice_int(v: &Option<Value>) -> R<Option<i64>> {
    match v {
        None => Ok(None),
        Some(v) => match as_int(v) {
            Some(i) => Ok(Some(match i.to_i64() {
                Some(x) => x,
                None => {
                    if i.is_negative() {
                        i64::MIN + 1
                    } else {
                        i64::MAX
                    }
                }
            })),
            None => Err(Exc::type_error(
                "slice indices must be integers or None or have an __index__ method",
            )),
        },
    }
}

/// `(start, step, count)` of a slice over `len` items, as `PySlice_AdjustIndices`.
pub(crate) fn slice_indices(s: &SliceArgs, len: usize) -> R<(i64, i64, usize)> {
    let step = slice_int(&s.step)?.unwrap_or(1).max(-i64::MAX); // -i64::MIN would overflow; -i64::MAX picks the same items
    if step == 0 {
        return Err(Exc::value_error("slice step cannot be zero"));
    }
    let n = len as i64;
    let lo = slice_int(&s.lo)?;
    let hi = slice_int(&s.hi)?;
    let adjust = |v: Option<i64>, default: i64, lower: i64, upper: i64| -> i64 {
        match v {
            None => default,
            Some(v) => {
                let v = if v < 0 { v.saturating_add(n) } else { v };
                v.clamp(lower, upper)
            }
        }
    };
    let (start, stop) = if step > 0 {
        (adjust(lo, 0, 0, n), adjust(hi, n, 0, n))
    } else {
        (adjust(lo, n - 1, -1, n - 1), adjust(hi, -1, -1, n - 1))
    };
    let count = if step > 0 {
        if stop > start {
            ((stop - start - 1) / step + 1) as usize
        } else {
            0
        }
    } else if start > stop {
        ((start - stop - 1) / (-step) + 1) as usize
    } else {
        0
    };
    Ok((start, step, count))
}

/// The `count` items from `start` by `step` (as `slice_indices` gives
/// them), in a new vector, checked against the budgets first.
fn pick_values(items: &[Value], start: i64, step: i64, count: usize) -> R<Vec<Value>> {
    crate::runtime::meter::ensure(count.saturating_mul(std::mem::size_of::<Value>()))?;
    crate::runtime::meter::tick_n(count)?;
    // With no items `start` may be -1; otherwise it is an index.
    let Ok(first) = usize::try_from(start) else {
        return Ok(Vec::new());
    };
    if count == 0 {
        return Ok(Vec::new());
    }
    let mut out = crate::value::pool::values(count);
    bulk::extend_strided(&mut out, items, first, step, count);
    Ok(out)
}

/// The `count` bytes from `start` by `step`, as [`pick_values`].
fn pick_bytes(bytes: &[u8], start: i64, step: i64, count: usize) -> R<Vec<u8>> {
    crate::runtime::meter::ensure(count)?;
    crate::runtime::meter::tick_n(count)?;
    let Ok(first) = usize::try_from(start) else {
        return Ok(Vec::new());
    };
    let stride: usize = step.unsigned_abs().try_into().unwrap_or(usize::MAX);
    Ok(if step > 0 {
        let run = bytes.get(first..).unwrap_or_default();
        let firsts = run.chunks(stride).take(count);
        firsts
            .map(|c| c.first().copied().unwrap_or_default())
            .collect()
    } else {
        let run = bytes.get(..=first).unwrap_or_default();
        let lasts = run.rchunks(stride).take(count);
        lasts
            .map(|c| c.last().copied().unwrap_or_default())
            .collect()
    })
}

/// `st[start::step]` of `count` code points (as `slice_indices` gives
/// them) of non-ASCII text with a step other than 1: one walk over the
/// text, the picks written into a string sized once, the budgets checked
/// once for the whole result rather than per character.
fn slice_text_stepped(st: &crate::value::PyStr, start: i64, step: i64, count: usize) -> R<Value> {
    let text = st.as_str();
    let Ok(start) = usize::try_from(start) else {
        return Ok(crate::value::empty_str());
    };
    if count == 0 {
        return Ok(crate::value::empty_str());
    }
    crate::runtime::meter::tick_n(count)?;
    // The picks are distinct characters of the text: no more bytes than it.
    let cap = text.len().min(count.saturating_mul(4));
    crate::runtime::meter::ensure(cap)?;
    let mut out = String::with_capacity(cap);
    let stride = usize::try_from(step.unsigned_abs()).unwrap_or(usize::MAX);
    if step > 0 {
        out.extend(text.chars().skip(start).step_by(stride).take(count));
    } else {
        let from_end = st.char_len().saturating_sub(start + 1);
        out.extend(
            text.chars()
                .rev()
                .skip(from_end)
                .step_by(stride)
                .take(count),
        );
    }
    Ok(match out.as_bytes() {
        [b] if b.is_ascii() => crate::value::char_value(char::from(*b)),
        _ => Value::Str(crate::value::StrRc::new(
            crate::value::PyStr::with_char_len(out.into(), count),
        )),
    })
}

/// `obj[lo:hi:step]`.
pub(crate) fn get_slice(obj: &Value, s: &SliceArgs) -> R<Value> {
    match obj {
        Value::List(l) => {
            let l = l
                .try_borrow()
                .map_err(|_| Exc::runtime_error("list busy"))?;
            let (start, step, count) = slice_indices(s, l.items.len())?;
            Ok(Value::list(pick_values(&l.items, start, step, count)?))
        }
        Value::Tuple(t) => {
            let (start, step, count) = slice_indices(s, t.items.len())?;
            if step == 1 && count == t.items.len() {
                return Ok(obj.clone());
            }
            Ok(Value::tuple(pick_values(&t.items, start, step, count)?))
        }
        Value::Str(st) => {
            let (start, step, count) = slice_indices(s, st.char_len())?;
            if step != 1 && !st.is_ascii() {
                return slice_text_stepped(st, start, step, count);
            }
            crate::types::str::slice_str(st, start, step, count)
        }
        Value::Bytes(b) => {
            let (start, step, count) = slice_indices(s, b.len())?;
            Ok(Value::Bytes(Rc::new(PyBytes::new(pick_bytes(
                b, start, step, count,
            )?))))
        }
        Value::Range(r) => {
            let big = |v: &Option<Value>| -> R<Option<BigInt>> {
                match v {
                    None => Ok(None),
                    Some(v) => match as_int(v) {
                        Some(i) => Ok(Some(i.to_big())),
                        None => Err(Exc::type_error(
                            "slice indices must be integers or None or have an __index__ method",
                        )),
                    },
                }
            };
            let (lo, hi, step) = (big(&s.lo)?, big(&s.hi)?, big(&s.step)?);
            match r.slice(lo, hi, step) {
                Some(sliced) => Ok(Value::Range(Rc::new(sliced))),
                None => Err(Exc::value_error("slice step cannot be zero")),
            }
        }
        Value::Dict(_) => Err(Exc::type_error("unhashable type: 'slice'")),
        other => Err(crate::types::ops::index::not_subscriptable(other)),
    }
}

/// `obj[lo:hi:step] = v`.
pub(crate) fn set_slice(it: &mut dyn Caller, obj: &Value, s: &SliceArgs, v: Value) -> R<()> {
    let Value::List(l) = obj else {
        return Err(Exc::type_error(format!(
            "'{}' object does not support item assignment",
            obj.type_name()
        )));
    };
    let items = match &v {
        Value::List(_)
        | Value::Tuple(_)
        | Value::Str(_)
        | Value::Dict(_)
        | Value::Set(_)
        | Value::Range(_)
        | Value::View(_)
        | Value::Iter(_)
        | Value::Bytes(_) => collect_iterable(&v)?.into_vec(),
        // Python words it by the slice's step (`x[::1]` is a plain slice).
        _ if matches!(slice_int(&s.step), Ok(None | Some(1))) => {
            return Err(Exc::type_error("can only assign an iterable"));
        }
        _ => {
            slice_indices(s, 0)?;
            return Err(Exc::type_error("must assign iterable to extended slice"));
        }
    };
    let container = items.iter().any(Value::is_container);
    {
        let mut lb = l
            .try_borrow_mut()
            .map_err(|_| Exc::runtime_error("list busy"))?;
        let n = lb.items.len();
        let (start, step, count) = slice_indices(s, n)?;
        if step == 1 {
            let a = start.clamp(0, n as i64) as usize;
            let b = (a + count).min(n);
            lb.items.splice(a..b, items);
        } else {
            if items.len() != count {
                return Err(Exc::value_error(format!(
                    "attempt to assign sequence of size {} to extended slice of size {}",
                    items.len(),
                    count
                )));
            }
            let mut i = start;
            for x in items {
                if let Some(slot) = lb.items.get_mut(i as usize) {
                    *slot = x;
                }
                // Past the last item the index may leave i64.
                i = i.wrapping_add(step);
            }
        }
        lb.sync();
    }
    if container {
        it.note_list_cycle(l);
    }
    Ok(())
}
