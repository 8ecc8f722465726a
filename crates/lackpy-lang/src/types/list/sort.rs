//! Sorting: `sorted`, `list.sort`'s machinery and `sort_by`.

use std::cmp::Ordering;

use crate::runtime::Budget;
use crate::runtime::error::{Exc, R};
use crate::runtime::meter::{self, Buf, Charge};
use crate::types::args::{Kw, between, bind};
use crate::types::caller::Caller;
use crate::types::int::as_int;
use crate::types::list::key_fn::KeyFn;
use crate::types::list::sort_plan::{self, Plan};
use crate::types::list::sort_typed::{self, Keys, Order};
use crate::types::ops::{self, collect_iterable};
use crate::value::{Value, repr};

/// `sorted(iterable, *, key=None, reverse=False)`.
pub(crate) fn sorted(it: &mut dyn Caller, args: &[Value], kwargs: Kw) -> R<Value> {
    between("sorted", args, 1, 1)?;
    let (key, reverse) = sort_kwargs(kwargs)?;
    let items = match unshared_items(&args[0]) {
        Some(items) => items,
        None => {
            if let Value::List(l) = &args[0]
                && let Some(sorted) = sorted_in_view(it, l, key.as_ref(), reverse)?
            {
                return Ok(sorted);
            }
            collect_iterable(&args[0])?
        }
    };
    let sorted = sort_values(it, items, key.as_ref(), reverse)?;
    Ok(ops::new_list(sorted.into_vec()))
}

/// `sorted(l)` of a list others hold, ordered where it lies: when no
/// Python code can run during the sort (no key, or `len`, `abs` or a `str`
/// method), nothing can change the list, so its order is found from its
/// items in place and only the result is built, after the sort's scratch
/// is gone (a copy to sort would be sixteen bytes an item beside the
/// scratch). `None` for the other cases, and for ints and floats sorted by
/// themselves, which sort fastest in a copy of their own.
fn sorted_in_view(
    it: &mut dyn Caller,
    l: &std::rc::Rc<std::cell::RefCell<crate::value::List>>,
    key: Option<&Value>,
    reverse: bool,
) -> R<Option<Value>> {
    if key.is_some_and(|f| matches!(KeyFn::of(it, f), KeyFn::Call)) {
        return Ok(None);
    }
    let Ok(list) = l.try_borrow() else {
        return Ok(None);
    };
    let items: &[Value] = &list.items;
    // Numbers sorted by themselves sort in a copy (see `sort_self`).
    if key.is_none() && matches!(items.first(), Some(Value::Int(_, _) | Value::Float(..))) {
        return Ok(None);
    }
    let order = match key {
        None => match sort_plan::plan(items)? {
            Plan::Ints | Plan::Floats => return Ok(None),
            plan => order_by_plan(it.budget(), Keys::new(items, reverse), plan)?,
        },
        Some(f) => {
            let how = KeyFn::of(it, f);
            let mut keys = Buf::with_capacity(items.len())?;
            for x in items {
                keys.push(how.call(it, f, x)?)?;
            }
            let order = sort_order_of(it.budget(), Keys::new(&keys, reverse))?;
            // The keys go before the result is built.
            drop(keys);
            order
        }
    };
    let positions = order.positions();
    let n = items.len();
    if positions.len() != n {
        return Err(Exc::runtime_error("sort order lost its items"));
    }
    meter::ensure(n.saturating_mul(std::mem::size_of::<Value>()))?;
    meter::tick_n(n)?;
    let mut out = crate::value::pool::values(n);
    // Slot `i` of a reversed sort is slot `n - 1 - i` of the sort of the
    // reversed items, whose position `p` is item `n - 1 - p`.
    let view = Keys::new(items, reverse);
    for i in 0..n {
        let slot = if reverse { n - 1 - i } else { i };
        let p = positions.get(slot).map_or(0, |&p| p as usize);
        if let Some(v) = items.get(view.source(p)) {
            out.push(crate::value::bulk::clone_item(v));
        }
    }
    drop(order);
    Ok(Some(ops::new_list(out)))
}

/// The items of a list that nothing but this call holds (`sorted([... for
/// ...])`, `sorted(list(x))`), taken out of it rather than copied: no one
/// can see the list again, so the sort works in its buffer and the copy's
/// memory (sixteen bytes an item, beside the source) is never needed.
fn unshared_items(v: &Value) -> Option<Buf<Value>> {
    let Value::List(l) = v else {
        return None;
    };
    if std::rc::Rc::strong_count(l) != 1 {
        return None;
    }
    let mut l = l.try_borrow_mut().ok()?;
    let items = std::mem::take(&mut l.items);
    l.sync();
    Some(Buf::adopt(items))
}

/// `key=` and `reverse=` of `sorted` and `list.sort`, with Python's errors.
pub(crate) fn sort_kwargs(kwargs: Kw) -> R<(Option<Value>, bool)> {
    if kwargs.is_empty() {
        return Ok((None, false));
    }
    // Keyword-only: bound (count, then names) before either is converted.
    let bound = bind("sort", &[], kwargs, &["key", "reverse"], 0)?;
    let key = bound
        .first()
        .and_then(Option::as_ref)
        .filter(|v| !matches!(v, Value::None))
        .cloned();
    let reverse = match bound.get(1).and_then(Option::as_ref) {
        Some(v) => reverse_flag(v)?,
        None => false,
    };
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
    it: &mut dyn Caller,
    mut items: Buf<Value>,
    key: Option<&Value>,
    reverse: bool,
) -> R<Buf<Value>> {
    // CPython reverses, sorts stably and reverses back, so that equal items
    // keep their order; the keys are computed first, in the items' order
    // (which one raises first is visible).
    match key {
        Some(f) => {
            let how = KeyFn::of(it, f);
            let mut keys = Buf::with_capacity(items.len())?;
            for x in items.iter() {
                keys.push(how.call(it, f, x)?)?;
            }
            if reverse {
                items.reverse();
                keys.reverse();
            }
            let order = sort_order(it.budget(), &keys)?;
            // The keys go before the items are moved into place.
            drop(keys);
            place(&mut items, order)?;
        }
        None => {
            if reverse {
                items.reverse();
            }
            sort_self(it.budget(), &mut items)?
        }
    }
    if reverse {
        items.reverse();
    }
    Ok(items)
}

/// Sorts items by themselves: ints and floats in place (stably: equal
/// numbers may be distinct objects), anything else through its order.
fn sort_self(budget: &mut Budget, items: &mut [Value]) -> R<()> {
    match sort_plan::plan(items)? {
        Plan::Ints => {
            meter::tick_n(items.len())?;
            sort_typed::ints_in_place(items);
        }
        Plan::Floats => {
            meter::tick_n(items.len())?;
            sort_typed::floats_in_place(items);
        }
        plan => {
            let order = order_by_plan(budget, Keys::new(items, false), plan)?;
            place(items, order)?;
        }
    }
    Ok(())
}

/// Moves items into `order`.
fn place(items: &mut [Value], order: Order) -> R<()> {
    if sort_typed::permute(items, order) {
        Ok(())
    } else {
        Err(Exc::runtime_error("sort order lost its items"))
    }
}

/// The stable sorted order of `keys` under Python's `<`.
///
/// The pre-sort check ([`sort_plan::plan`]) picks a typed comparator when
/// every pair of keys compares under a total order: ints, floats and
/// strings are sorted as words with their positions ([`sort_typed`]),
/// other totally ordered keys by the library's stable sort of positions.
/// Otherwise [`merge_sort`] asks Python's `<`. The scratch memory is
/// charged up front; the library sorts do not poll, their input being
/// bounded by the memory budget.
pub(crate) fn sort_order(budget: &mut Budget, keys: &[Value]) -> R<Order> {
    sort_order_of(budget, Keys::new(keys, false))
}

/// [`sort_order`] of keys in a view (possibly read back to front).
fn sort_order_of(budget: &mut Budget, keys: Keys) -> R<Order> {
    let plan = sort_plan::plan(keys.slice())?;
    order_by_plan(budget, keys, plan)
}

fn order_by_plan(budget: &mut Budget, keys: Keys, plan: Plan) -> R<Order> {
    // The largest order: a (word, position) pair per key.
    let _scratch = Charge::new(keys.len().saturating_mul(16))?;
    meter::tick_n(keys.len())?;
    if keys.len() >= DONE_POSITION {
        return Err(Exc::memory());
    }
    let order = match plan {
        Plan::Ints => sort_typed::int_order(keys),
        Plan::Floats => sort_typed::float_order(keys),
        Plan::Strs if keys.len() < sort_typed::MAX_STR_KEYS => sort_typed::str_order(keys)?,
        Plan::Strs | Plan::Total => {
            let slice = keys.slice();
            let n = slice.len() as u32;
            let order: Vec<u32>;
            // The comparator cannot fail; it ticks the meter per item it
            // reads, and once a limit is hit answers the remaining
            // comparisons at once and the error is raised when the sort
            // returns.
            let mut stopped: sort_plan::Stop = None;
            let mut cmp = |a: u32, b: u32| match (slice.get(a as usize), slice.get(b as usize)) {
                (Some(x), Some(y)) => sort_plan::total_cmp(x, y, &mut stopped),
                _ => Ordering::Equal,
            };
            if let Some(leads) = lead_offsets(slice) {
                // Keys led by close ints: most comparisons are decided by
                // the leads, read from one compact array; ties compare the
                // whole keys. (Reversed keys as below.)
                let lead = |p: u32| leads.get(p as usize).copied().unwrap_or(0);
                let mut lcmp = |a: u32, b: u32| lead(a).cmp(&lead(b)).then_with(|| cmp(a, b));
                let mut all: Vec<u32> = (0..n).collect();
                if keys.is_reversed() {
                    all.sort_by(|&a, &b| lcmp(b, a));
                    all.reverse();
                    for p in all.iter_mut() {
                        *p = n - 1 - *p;
                    }
                } else {
                    all.sort_by(|&a, &b| lcmp(a, b));
                }
                order = all;
            } else if keys.is_reversed() {
                // Under a total order, sorting the reversed keys stably and
                // reversing back is a stable sort with the comparison
                // turned around (greatest first, equal keys in their
                // order), sorted here without reading the keys backwards;
                // its slots are then given as positions of the reversed
                // keys, as the caller reads them.
                let mut all: Vec<u32> = (0..n).collect();
                all.sort_by(|&a, &b| cmp(b, a));
                all.reverse();
                for p in all.iter_mut() {
                    *p = n - 1 - *p;
                }
                order = all;
            } else {
                let mut all: Vec<u32> = (0..n).collect();
                all.sort_by(|&a, &b| cmp(a, b));
                order = all;
            }
            if let Some(e) = stopped {
                return Err(e);
            }
            Order::new(order)
        }
        Plan::General => {
            let mut order: Vec<u32> = (0..keys.len() as u32).collect();
            let mut lt = |a: &u32, b: &u32| -> R<bool> {
                budget.poll()?;
                match (keys.get(*a as usize), keys.get(*b as usize)) {
                    (Some(x), Some(y)) => ops::lt(x, y),
                    _ => Ok(false),
                }
            };
            merge_sort(&mut order, &mut lt)?;
            Order::new(order)
        }
    };
    Ok(order)
}

/// For keys that are all tuples led by an `i64`, the leads spanning less
/// than 2**32 (`key=lambda r: (-r["score"], r["name"])`): each key's lead,
/// offset from the least, in a compact array that decides most
/// comparisons without reading two tuples.
fn lead_offsets(keys: &[Value]) -> Option<Vec<u32>> {
    let lead = |k: &Value| match k {
        Value::Tuple(t) => match t.items.first() {
            Some(Value::Int(_, i)) => Some(*i),
            _ => None,
        },
        _ => None,
    };
    let (mut lo, mut hi) = (i64::MAX, i64::MIN);
    for k in keys {
        let i = lead(k)?;
        lo = lo.min(i);
        hi = hi.max(i);
    }
    if keys.is_empty() || (hi as i128 - lo as i128) >= 1 << 32 {
        return None;
    }
    Some(
        keys.iter()
            .map(|k| (lead(k).unwrap_or(lo) as i128 - lo as i128) as u32)
            .collect(),
    )
}

/// Positions are `u32`, with the top value marking a placed item.
const DONE_POSITION: usize = u32::MAX as usize;

/// CPython's minimum run length for `n` items: `n` itself below 64, else
/// a length in 32..=64 that splits `n` into a power of two of runs or a
/// little fewer.
fn min_run(mut n: usize) -> usize {
    let mut r = 0;
    while n >= 64 {
        r |= n & 1;
        n >>= 1;
    }
    n + r
}

/// A stable merge sort with a fallible `<`, shaped like CPython's sort in
/// its run phase, so that the comparisons (hence a comparison error, or
/// the order NaN leaves) match it there: each run starts with the longest
/// ascending run, or strictly descending one (reversed), and is extended to
/// the minimum run length by binary insertion; runs are then merged
/// (without galloping). Like CPython it asks `later < earlier`, so an error
/// names the operand types in CPython's order.
pub(crate) fn merge_sort(v: &mut [u32], lt: &mut dyn FnMut(&u32, &u32) -> R<bool>) -> R<()> {
    let n = v.len();
    if n < 2 {
        return Ok(());
    }
    let minrun = min_run(n);
    let mut bounds = vec![0];
    let mut start = 0;
    while start < n {
        let mut end = start + 1;
        if end < n {
            end += 1;
            if lt(&v[start + 1], &v[start])? {
                while end < n && lt(&v[end], &v[end - 1])? {
                    end += 1;
                }
                v[start..end].reverse();
            } else {
                while end < n && !lt(&v[end], &v[end - 1])? {
                    end += 1;
                }
            }
        }
        let stop = (start + minrun).min(n).max(end);
        for i in end..stop {
            // Binary insertion of v[i] into v[start..i].
            let x = v[i];
            let (mut lo, mut hi) = (start, i);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if lt(&x, &v[mid])? {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            v[lo..=i].rotate_right(1);
        }
        start = stop;
        bounds.push(stop);
    }
    let mut buf: Vec<u32> = Vec::with_capacity(n);
    while bounds.len() > 2 {
        let mut merged = vec![0];
        let mut k = 0;
        while k + 2 < bounds.len() {
            let (lo, mid, hi) = (bounds[k], bounds[k + 1], bounds[k + 2]);
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
            merged.push(hi);
            k += 2;
        }
        if k + 1 < bounds.len() {
            merged.push(bounds[k + 1]);
        }
        bounds = merged;
    }
    Ok(())
}

/// `sort_by(items, key, reverse=False)`: dicts sorted by the value of
/// their field `key`.
pub(crate) fn sort_by(budget: &mut Budget, args: &[Value], kwargs: Kw) -> R<Value> {
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
    if matches!(
        key,
        Value::Lambda(_) | Value::Builtin(_) | Value::Method(_) | Value::Tool(_) | Value::Type(_)
    ) {
        // The reference would fail on the first item with an `AttributeError`
        // naming the function's repr; this says what to do instead.
        return Err(Exc::type_error(
            "sort_by() key must be a field name, not a function: sort_by(items, 'field') \
             sorts dicts by one field; to sort by a function use sorted(items, key=lambda x: ...)"
                .to_string(),
        ));
    }
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
    place(&mut values, order)?;
    if reverse {
        values.reverse();
    }
    Ok(ops::new_list(values.into_vec()))
}
