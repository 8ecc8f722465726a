//! Sorting: `sorted`, `list.sort`'s machinery and `sort_by`.

use super::super::Interp;
use super::super::args::{Kw, between, bind};
use super::super::limits::Budget;
use super::super::ops::{self, collect_iterable};
use crate::value::errors::{Exc, R};
use crate::value::int::as_int;
use crate::value::meter::{self, Buf, Charge};
use crate::value::{Value, repr};

/// `sorted(iterable, *, key=None, reverse=False)`.
pub(super) fn sorted(it: &mut Interp, args: &[Value], kwargs: Kw) -> R<Value> {
    between("sorted", args, 1, 1)?;
    let (key, reverse) = sort_kwargs(kwargs)?;
    let items = collect_iterable(&args[0])?;
    let sorted = sort_values(it, items, key.as_ref(), reverse)?;
    Ok(ops::new_list(sorted.into_vec()))
}

/// `key=` and `reverse=` of `sorted` and `list.sort`, with Python's errors.
pub(crate) fn sort_kwargs(kwargs: Kw) -> R<(Option<Value>, bool)> {
    let mut key = None;
    let mut reverse = false;
    for (k, v) in kwargs {
        match &**k {
            "key" => {
                key = if matches!(v, Value::None) {
                    None
                } else {
                    Some(v.clone())
                }
            }
            "reverse" => reverse = reverse_flag(v)?,
            other => {
                return Err(Exc::type_error(format!(
                    "'{other}' is an invalid keyword argument for sort()"
                )));
            }
        }
    }
    Ok((key, reverse))
}

fn reverse_flag(v: &Value) -> R<bool> {
    match v {
        Value::Bool(b) => Ok(*b),
        _ => match as_int(v) {
            Some(i) => Ok(!i.is_zero()),
            None => Err(Exc::not_index(v)),
        },
    }
}

/// Sorts values (stably) by themselves or by a key function, as
/// `sorted(items, key=key, reverse=reverse)`.
pub(crate) fn sort_values(
    it: &mut Interp,
    mut items: Buf<Value>,
    key: Option<&Value>,
    reverse: bool,
) -> R<Buf<Value>> {
    if reverse {
        // CPython reverses, sorts stably and reverses back, so that equal
        // items keep their order.
        items.reverse();
    }
    let keys: Option<Buf<Value>> = match key {
        Some(f) => {
            let mut out = Buf::with_capacity(items.len())?;
            for x in items.iter() {
                out.push(it.call_value(f, std::slice::from_ref(x), &[])?)?;
            }
            Some(out)
        }
        None => None,
    };
    let order = sort_order(&mut it.budget, keys.as_deref().unwrap_or(&items))?;
    drop(keys);
    let mut out = permute(items, &order)?;
    if reverse {
        out.reverse();
    }
    Ok(out)
}

/// `items` rearranged into `order` (a permutation of their positions).
fn permute(items: Buf<Value>, order: &[u32]) -> R<Buf<Value>> {
    let _slots = Charge::new(
        items
            .len()
            .saturating_mul(std::mem::size_of::<Option<Value>>()),
    )?;
    let mut slots: Vec<Option<Value>> = items.into_vec().into_iter().map(Some).collect();
    let mut out = Buf::with_capacity(order.len())?;
    for &i in order {
        if let Some(x) = slots.get_mut(i as usize).and_then(Option::take) {
            out.push(x)?;
        }
    }
    Ok(out)
}

/// The stable sorted order of `keys` under Python's `<`.
///
/// The scratch memory (the order, a copy of int or string keys, the merge
/// buffer) is charged up front; the library sorts of the homogeneous cases
/// do not poll, their input being bounded by the memory budget.
pub(crate) fn sort_order(budget: &mut Budget, keys: &[Value]) -> R<Vec<u32>> {
    let _scratch = Charge::new(keys.len().saturating_mul(4 + 16 + 4))?;
    meter::tick_n(keys.len())?;
    let mut order: Vec<u32> = (0..keys.len() as u32).collect();
    // Homogeneous ints or strings: a total order, so the library sort does.
    if keys.iter().all(|k| matches!(k, Value::Int(_))) {
        let ints: Vec<i64> = keys
            .iter()
            .map(|k| if let Value::Int(i) = k { *i } else { 0 })
            .collect();
        order.sort_by_key(|&i| ints.get(i as usize).copied().unwrap_or(0));
        return Ok(order);
    }
    if keys.iter().all(|k| matches!(k, Value::Str(_))) {
        let strs: Vec<&str> = keys
            .iter()
            .map(|k| {
                if let Value::Str(s) = k {
                    s.as_str()
                } else {
                    ""
                }
            })
            .collect();
        order.sort_by(|&a, &b| strs.get(a as usize).cmp(&strs.get(b as usize)));
        return Ok(order);
    }
    let mut lt = |a: &u32, b: &u32| -> R<bool> {
        budget.poll()?;
        match (keys.get(*a as usize), keys.get(*b as usize)) {
            (Some(x), Some(y)) => ops::lt(x, y),
            _ => Ok(false),
        }
    };
    merge_sort(&mut order, &mut lt)?;
    Ok(order)
}

/// A stable merge sort with a fallible `<`: binary insertion sort of short
/// runs, then merges. Like CPython's sort it asks `later < earlier`, so a
/// comparison error names the operand types in CPython's order.
pub(crate) fn merge_sort(v: &mut [u32], lt: &mut dyn FnMut(&u32, &u32) -> R<bool>) -> R<()> {
    const RUN: usize = 32;
    let n = v.len();
    if n < 2 {
        return Ok(());
    }
    let mut start = 0;
    while start < n {
        let end = (start + RUN).min(n);
        for i in start + 1..end {
            // Binary insertion of v[i] into v[start..i].
            let x = v[i];
            let (mut lo, mut hi) = (start, i);
            while lo < hi {
                let mid = (lo + hi) / 2;
                if lt(&x, &v[mid])? {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            v[lo..=i].rotate_right(1);
        }
        start = end;
    }
    let mut width = RUN;
    let mut buf: Vec<u32> = Vec::with_capacity(n);
    while width < n {
        let mut lo = 0;
        while lo + width < n {
            let mid = lo + width;
            let hi = (lo + 2 * width).min(n);
            buf.clear();
            let (mut i, mut j) = (lo, mid);
            while i < mid && j < hi {
                if lt(&v[j], &v[i])? {
                    buf.push(v[j]);
                    j += 1;
                } else {
                    buf.push(v[i]);
                    i += 1;
                }
            }
            buf.extend_from_slice(&v[i..mid]);
            buf.extend_from_slice(&v[j..hi]);
            v[lo..hi].copy_from_slice(&buf);
            lo = hi;
        }
        width *= 2;
    }
    Ok(())
}

pub(super) fn sort_by(budget: &mut Budget, args: &[Value], kwargs: Kw) -> R<Value> {
    let bound = bind("sort_by", args, kwargs, &["items", "key", "reverse"], 0)?;
    let missing: Vec<&str> = ["items", "key"]
        .iter()
        .zip(&bound)
        .filter(|(_, v)| v.is_none())
        .map(|(n, _)| *n)
        .collect();
    if !missing.is_empty() {
        let list = missing
            .iter()
            .map(|n| format!("'{n}'"))
            .collect::<Vec<_>>()
            .join(" and ");
        return Err(Exc::type_error(format!(
            "sort_by() missing {} required positional argument{}: {}",
            missing.len(),
            if missing.len() == 1 { "" } else { "s" },
            list
        )));
    }
    let items = bound.first().cloned().flatten().unwrap_or(Value::None);
    let key = bound.get(1).cloned().flatten().unwrap_or(Value::None);
    let reverse = match bound.get(2).cloned().flatten() {
        Some(v) => v.truthy(),
        None => false,
    };
    let mut values = collect_iterable(&items)?;
    if reverse {
        values.reverse();
    }
    let mut keys = Buf::with_capacity(values.len())?;
    for x in values.iter() {
        let k = match x {
            Value::Dict(_) => ops::get_item(x, &key)?,
            other => {
                let name = match &key {
                    Value::Str(s) => s.as_str().to_owned(),
                    k => repr::to_str(k)?,
                };
                return Err(Exc::no_attr(other, &name));
            }
        };
        keys.push(k)?;
    }
    let order = sort_order(budget, &keys)?;
    drop(keys);
    let mut out = permute(values, &order)?;
    if reverse {
        out.reverse();
    }
    Ok(ops::new_list(out.into_vec()))
}
