//! The builtin functions and the builtin types called as constructors.

use std::rc::Rc;

use num_bigint::BigInt;
use num_integer::Integer;

use super::Interp;
use super::args::{self, Kw, between, bind, no_kwargs};
use super::ops::{self, collect_iterable};
use crate::ast::CmpOp;
use crate::catalog::{BuiltinId, TypeId};
use crate::value::errors::{Exc, R};
use crate::value::int::{IntRef, as_int, f64_to_int, int_abs, parse_int};
use crate::value::iter::PyIter;
use crate::value::meter::{self, Buf, Charge};
use crate::value::{Dict, Range, Set, Value, repr};

/// Calls a builtin function.
pub(crate) fn call_builtin(it: &mut Interp, b: BuiltinId, args: &[Value], kwargs: Kw) -> R<Value> {
    match b {
        BuiltinId::Len => {
            no_kwargs("len", kwargs)?;
            match args {
                [x] => Ok(Value::Int(ops::py_len(x)? as i64)),
                _ => Err(Exc::type_error(format!(
                    "len() takes exactly one argument ({} given)",
                    args.len()
                ))),
            }
        }
        BuiltinId::Sorted => {
            between("sorted", args, 1, 1)?;
            let (key, reverse) = sort_kwargs(kwargs)?;
            let items = collect_iterable(it, &args[0])?;
            let sorted = sort_values(it, items, key.as_ref(), reverse)?;
            Ok(ops::new_list(sorted.into_vec()))
        }
        BuiltinId::Min => min_max(it, args, kwargs, CmpOp::Lt, "min"),
        BuiltinId::Max => min_max(it, args, kwargs, CmpOp::Gt, "max"),
        BuiltinId::Sum => sum(it, args, kwargs),
        BuiltinId::Any | BuiltinId::All => {
            let name = b.name();
            no_kwargs(name, kwargs)?;
            let [x] = args else {
                return Err(Exc::type_error(format!(
                    "{name}() takes exactly one argument ({} given)",
                    args.len()
                )));
            };
            let want = b == BuiltinId::Any;
            let mut iter = PyIter::of(x)?;
            while let Some(v) = iter.next()? {
                it.budget.poll()?;
                if v.truthy() == want {
                    return Ok(Value::Bool(want));
                }
            }
            Ok(Value::Bool(!want))
        }
        BuiltinId::Abs => {
            no_kwargs("abs", kwargs)?;
            let [x] = args else {
                return Err(Exc::type_error(format!(
                    "abs() takes exactly one argument ({} given)",
                    args.len()
                )));
            };
            match x {
                Value::Float(f) => Ok(Value::Float(f.abs())),
                Value::Complex(c) => Ok(Value::Float(c.0.hypot(c.1))),
                _ => match as_int(x) {
                    Some(i) => Ok(int_abs(&i)),
                    None => Err(Exc::type_error(format!(
                        "bad operand type for abs(): '{}'",
                        x.type_name()
                    ))),
                },
            }
        }
        BuiltinId::Round => round(args, kwargs),
        BuiltinId::Isinstance => {
            no_kwargs("isinstance", kwargs)?;
            between("isinstance", args, 2, 2)?;
            isinstance(&args[0], &args[1], 0).map(Value::Bool)
        }
        BuiltinId::Print => print(it, args, kwargs),
        BuiltinId::SortBy => sort_by(it, args, kwargs),
    }
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
    let order = sort_order(it, keys.as_deref().unwrap_or(&items))?;
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
pub(crate) fn sort_order(it: &mut Interp, keys: &[Value]) -> R<Vec<u32>> {
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
    let budget = &mut it.budget;
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

fn min_max(it: &mut Interp, args: &[Value], kwargs: Kw, op: CmpOp, name: &str) -> R<Value> {
    let mut key = None;
    let mut default = None;
    for (k, v) in kwargs {
        match &**k {
            "key" => {
                key = if matches!(v, Value::None) {
                    None
                } else {
                    Some(v.clone())
                }
            }
            "default" => default = Some(v.clone()),
            other => {
                return Err(Exc::type_error(format!(
                    "'{other}' is an invalid keyword argument for {name}()"
                )));
            }
        }
    }
    if kwargs.len() > 2 {
        return Err(Exc::type_error(format!(
            "{name}() takes at most 2 keyword arguments ({} given)",
            kwargs.len()
        )));
    }
    // One iterable is walked live (no copy); several arguments are the items.
    let mut items = match args {
        [] => {
            return Err(Exc::type_error(format!(
                "{name} expected at least 1 argument, got 0"
            )));
        }
        [one] => PyIter::of(one)?,
        many => {
            if default.is_some() {
                return Err(Exc::type_error(format!(
                    "Cannot specify a default for {name}() with multiple positional arguments"
                )));
            }
            PyIter::Tuple {
                t: Rc::new(crate::value::Tuple::new(many.to_vec())),
                idx: 0,
            }
        }
    };
    let mut best: Option<(Value, Value)> = None;
    while let Some(x) = items.next()? {
        let k = match &key {
            Some(f) => it.call_value(f, std::slice::from_ref(&x), &[])?,
            None => x.clone(),
        };
        best = Some(match best {
            None => (k, x),
            Some((bk, bx)) => {
                if ops::order(op, &k, &bk, 0)? {
                    (k, x)
                } else {
                    (bk, bx)
                }
            }
        });
    }
    match best {
        Some((_, x)) => Ok(x),
        None => match default {
            Some(d) => Ok(d),
            None => Err(Exc::value_error(format!(
                "{name}() arg is an empty sequence"
            ))),
        },
    }
}

fn sum(it: &mut Interp, args: &[Value], kwargs: Kw) -> R<Value> {
    if args.is_empty() {
        return Err(Exc::type_error(
            "sum() takes at least 1 positional argument (0 given)",
        ));
    }
    let bound = bind("sum", args, kwargs, &["iterable", "start"], 1)?;
    let start = bound.get(1).cloned().flatten().unwrap_or(Value::Int(0));
    match &start {
        Value::Str(_) => {
            return Err(Exc::type_error(
                "sum() can't sum strings [use ''.join(seq) instead]",
            ));
        }
        Value::Bytes(_) => {
            return Err(Exc::type_error(
                "sum() can't sum bytes [use b''.join(seq) instead]",
            ));
        }
        _ => {}
    }
    let src = bound.first().cloned().flatten().unwrap_or(Value::None);
    if let (Value::List(l), Value::Int(first)) = (&src, &start)
        && let Ok(l) = l.try_borrow()
    {
        let mut total = *first;
        // A list of small ints (the common case): add without iterator
        // steps; anything else continues on the general path below.
        let mut done = 0;
        for x in &l.items {
            let Value::Int(b) = x else { break };
            let Some(t) = total.checked_add(*b) else {
                break;
            };
            total = t;
            done += 1;
            if done % 4096 == 0 {
                it.budget.poll_now()?;
            }
        }
        it.budget.poll()?;
        if done == l.items.len() {
            return Ok(Value::Int(total));
        }
    }
    let mut iter = PyIter::of(&src)?;
    let mut acc = start;
    while let Some(x) = iter.next()? {
        it.budget.poll()?;
        acc = match (&acc, &x) {
            (Value::Int(a), Value::Int(b)) => match a.checked_add(*b) {
                Some(r) => Value::Int(r),
                None => ops::binop(it, crate::ast::Operator::Add, acc, x)?,
            },
            (Value::Float(a), Value::Float(b)) => Value::Float(a + b),
            _ => ops::binop(it, crate::ast::Operator::Add, acc, x)?,
        };
    }
    Ok(acc)
}

fn round(args: &[Value], kwargs: Kw) -> R<Value> {
    if args.len() > 2 {
        return Err(Exc::type_error(format!(
            "round() takes at most 2 arguments ({} given)",
            args.len()
        )));
    }
    let bound = bind("round", args, kwargs, &["number", "ndigits"], 0)?;
    let Some(x) = bound.first().cloned().flatten() else {
        return Err(Exc::type_error(
            "round() missing required argument 'number' (pos 1)",
        ));
    };
    let nd = bound
        .get(1)
        .cloned()
        .flatten()
        .filter(|v| !matches!(v, Value::None));
    match &x {
        Value::Float(f) => match nd {
            None => {
                if f.is_nan() {
                    return Err(Exc::value_error("cannot convert float NaN to integer"));
                }
                if f.is_infinite() {
                    return Err(Exc::overflow("cannot convert float infinity to integer"));
                }
                f64_to_int(f.round_ties_even())
                    .ok_or_else(|| Exc::overflow("cannot convert float infinity to integer"))
            }
            Some(n) => {
                let n = args::index_clamped(&n)?;
                round_float(*f, n).map(Value::Float)
            }
        },
        _ => match as_int(&x) {
            Some(i) => match nd {
                None => Ok(match &x {
                    Value::Bool(b) => Value::Int(*b as i64),
                    _ => x.clone(),
                }),
                Some(n) => {
                    let n = args::index_clamped(&n)?;
                    Ok(round_int(&i, n))
                }
            },
            None => Err(Exc::type_error(format!(
                "type {} doesn't define __round__ method",
                x.type_name()
            ))),
        },
    }
}

/// `round(int, n)`: half to even at a multiple of `10**-n`.
fn round_int(i: &IntRef, n: i64) -> Value {
    if n >= 0 {
        return Value::from_big(i.to_big());
    }
    if n < -4400 {
        return Value::Int(0);
    }
    let pow = num_traits::pow(BigInt::from(10), (-n) as usize);
    let x = i.to_big();
    let (q, r) = x.div_mod_floor(&pow);
    let twice: BigInt = &r * 2;
    let up = twice > pow || (twice == pow && q.is_odd());
    let q = if up { q + 1 } else { q };
    Value::from_big(q * pow)
}

/// `round(float, n)`: the correctly rounded decimal, half to even.
fn round_float(x: f64, n: i64) -> R<f64> {
    if !x.is_finite() || n > 330 {
        return Ok(x);
    }
    if n < -330 {
        return Ok(0.0f64.copysign(x));
    }
    let r = if n >= 0 {
        format!("{:.*}", n as usize, x).parse::<f64>().unwrap_or(x)
    } else {
        // Exact: x = m * 2**e, rounded to a multiple of 10**k.
        let k = (-n) as u32;
        let (m, e) = decompose(x);
        let (num, den) = if e >= 0 {
            (
                m << e as usize,
                num_traits::pow(BigInt::from(10), k as usize),
            )
        } else {
            (
                m,
                num_traits::pow(BigInt::from(10), k as usize) << (-e) as usize,
            )
        };
        let (q, rem) = num.div_mod_floor(&den);
        let twice: BigInt = &rem * 2;
        let q = if twice > den || (twice == den && q.is_odd()) {
            q + 1
        } else {
            q
        };
        format!("{q}e{k}").parse::<f64>().unwrap_or(x)
    };
    if r.is_infinite() {
        return Err(Exc::overflow("rounded value too large to represent"));
    }
    Ok(if r == 0.0 { 0.0f64.copysign(x) } else { r })
}

/// `x == m * 2**e` exactly, `m` an integer carrying the sign.
fn decompose(x: f64) -> (BigInt, i64) {
    let bits = x.to_bits();
    let sign = if bits >> 63 == 1 { -1 } else { 1 };
    let exp = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & ((1u64 << 52) - 1);
    let (m, e) = if exp == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), exp - 1075)
    };
    (BigInt::from(m) * sign, e)
}

fn isinstance(x: &Value, cls: &Value, depth: u32) -> R<bool> {
    match cls {
        Value::Type(t) => {
            Ok(x.type_id() == *t || (*t == TypeId::Int && matches!(x, Value::Bool(_))))
        }
        Value::Tuple(ts) if depth < 100 => {
            for t in &ts.items {
                if isinstance(x, t, depth + 1)? {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        _ => Err(Exc::type_error(
            "isinstance() arg 2 must be a type, a tuple of types, or a union",
        )),
    }
}

fn print(it: &mut Interp, args: &[Value], kwargs: Kw) -> R<Value> {
    let mut sep: Option<&Value> = None;
    let mut end: Option<&Value> = None;
    for (k, v) in kwargs {
        match &**k {
            "sep" => sep = Some(v),
            "end" => end = Some(v),
            _ => {}
        }
    }
    let sep_text = match sep {
        None => " ".to_owned(),
        Some(Value::Str(s)) => s.as_str().to_owned(),
        Some(other) => return Err(Exc::no_attr(other, "join")),
    };
    let mut line = String::new();
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            line.push_str(&sep_text);
        }
        repr::push_str_of(a, &mut line)?;
    }
    match end {
        None => line.push('\n'),
        Some(Value::Str(s)) => line.push_str(s.as_str()),
        Some(other) => {
            return Err(Exc::type_error(format!(
                "can only concatenate str (not \"{}\") to str",
                other.type_name()
            )));
        }
    }
    it.write_stdout(&line);
    Ok(Value::None)
}

fn sort_by(it: &mut Interp, args: &[Value], kwargs: Kw) -> R<Value> {
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
    let mut values = collect_iterable(it, &items)?;
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
    let order = sort_order(it, &keys)?;
    drop(keys);
    let mut out = permute(values, &order)?;
    if reverse {
        out.reverse();
    }
    Ok(ops::new_list(out.into_vec()))
}

/// Calls a builtin type: a conversion or a constructor.
pub(crate) fn call_type(it: &mut Interp, t: TypeId, args: &[Value], kwargs: Kw) -> R<Value> {
    match t {
        TypeId::Int => int_of(args, kwargs),
        TypeId::Float => {
            no_kwargs("float", kwargs)?;
            between("float", args, 0, 1)?;
            match args.first() {
                None => Ok(Value::Float(0.0)),
                Some(x) => float_of(x).map(Value::Float),
            }
        }
        TypeId::Str => str_of(args, kwargs),
        TypeId::Bool => {
            no_kwargs("bool", kwargs)?;
            between("bool", args, 0, 1)?;
            Ok(Value::Bool(args.first().is_some_and(Value::truthy)))
        }
        TypeId::List => {
            no_kwargs("list", kwargs)?;
            between("list", args, 0, 1)?;
            match args.first() {
                None => Ok(ops::new_list(Vec::new())),
                Some(x) => {
                    let items = collect_iterable(it, x)?;
                    Ok(ops::new_list(items.into_vec()))
                }
            }
        }
        TypeId::Tuple => {
            no_kwargs("tuple", kwargs)?;
            between("tuple", args, 0, 1)?;
            match args.first() {
                None => Ok(Value::tuple(Vec::new())),
                Some(Value::Tuple(_)) => Ok(args[0].clone()),
                Some(x) => Ok(Value::tuple(collect_iterable(it, x)?.into_vec())),
            }
        }
        TypeId::Set => {
            no_kwargs("set", kwargs)?;
            between("set", args, 0, 1)?;
            let mut s = Set::new();
            if let Some(x) = args.first() {
                super::methods::set::update_from(it, &mut s, x)?;
            }
            Ok(Value::set(s))
        }
        TypeId::Dict => {
            between("dict", args, 0, 1)?;
            let mut d = Dict::new();
            if let Some(x) = args.first() {
                super::methods::dict::update_from(it, &mut d, x)?;
            }
            for (k, v) in kwargs {
                d.insert(Value::str(&**k), v.clone())?;
            }
            Ok(Value::dict(d))
        }
        TypeId::Range => {
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
        TypeId::Reversed => {
            no_kwargs("reversed", kwargs)?;
            between("reversed", args, 1, 1)?;
            Ok(Value::Iter(Rc::new(std::cell::RefCell::new(
                PyIter::reversed(&args[0])?,
            ))))
        }
        TypeId::Enumerate => {
            let bound = bind("enumerate", args, kwargs, &["iterable", "start"], 0)?;
            let Some(src) = bound.first().cloned().flatten() else {
                return Err(Exc::type_error(
                    "enumerate() missing required argument 'iterable'",
                ));
            };
            let start = match bound.get(1).cloned().flatten() {
                None => Value::Int(0),
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
        TypeId::Zip => {
            let mut strict = false;
            for (k, v) in kwargs {
                if &**k == "strict" {
                    strict = v.truthy();
                } else {
                    return Err(Exc::type_error(format!(
                        "zip() got an unexpected keyword argument '{k}'"
                    )));
                }
            }
            let inners = args.iter().map(PyIter::of).collect::<R<Vec<_>>>()?;
            Ok(Value::Iter(Rc::new(std::cell::RefCell::new(PyIter::Zip {
                inners,
                strict,
                done: false,
            }))))
        }
        other => Err(Exc::type_error(format!(
            "cannot create '{}' instances",
            other.name()
        ))),
    }
}

fn int_of(args: &[Value], kwargs: Kw) -> R<Value> {
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
        return Ok(Value::Int(0));
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
        Value::Int(_) | Value::Big(_) => Ok(x.clone()),
        Value::Bool(b) => Ok(Value::Int(*b as i64)),
        Value::Float(f) => {
            if f.is_nan() {
                return Err(Exc::value_error("cannot convert float NaN to integer"));
            }
            f64_to_int(*f).ok_or_else(|| Exc::overflow("cannot convert float infinity to integer"))
        }
        Value::Str(s) => parse_int_value(s.as_str(), 10, &x),
        Value::Bytes(bs) => parse_int_value(&String::from_utf8_lossy(bs), 10, &x),
        other => Err(Exc::type_error(format!(
            "int() argument must be a string, a bytes-like object or a real number, not '{}'",
            other.type_name()
        ))),
    }
}

fn parse_int_value(text: &str, base: u32, orig: &Value) -> R<Value> {
    match parse_int(text, base) {
        Some((n, digits)) => {
            if base == 10 && digits > crate::value::int::MAX_STR_DIGITS {
                return Err(Exc::value_error(format!(
                    "Exceeds the limit ({} digits) for integer string conversion: value has {} digits; use sys.set_int_max_str_digits() to increase the limit",
                    crate::value::int::MAX_STR_DIGITS,
                    digits
                )));
            }
            Ok(Value::from_big(n))
        }
        // CPython shows at most 200 characters of the repr (`%.200R`), so a
        // huge bad literal does not make a huge message.
        None => Err(Exc::value_error(format!(
            "invalid literal for int() with base {}: {}",
            base,
            repr::repr(orig)?.chars().take(200).collect::<String>()
        ))),
    }
}

/// `float(x)`.
pub(crate) fn float_of(x: &Value) -> R<f64> {
    match x {
        Value::Float(f) => Ok(*f),
        Value::Str(s) => parse_float(s.as_str()).ok_or_else(|| {
            Exc::value_error(format!(
                "could not convert string to float: {}",
                repr::repr(x).unwrap_or_default()
            ))
        }),
        _ => match as_int(x) {
            Some(IntRef::Small(i)) => Ok(i as f64),
            Some(IntRef::Big(b)) => {
                crate::format::int_to_float(b).map_err(|e| Exc::overflow(e.message))
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
    // Python accepts any Unicode decimal digits.
    let ascii: String;
    let text = if text.is_ascii() {
        text
    } else {
        ascii = text
            .chars()
            .map(|c| {
                crate::value::int::decimal_value(c)
                    .and_then(|d| char::from_digit(d, 10))
                    .unwrap_or(c)
            })
            .collect();
        &ascii
    };
    let s = text.trim_matches(crate::value::unicode::is_space);
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

fn str_of(args: &[Value], kwargs: Kw) -> R<Value> {
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
    for (name, v) in [("encoding", &encoding), ("errors", &errors)] {
        if let Some(v) = v
            && !matches!(v, Value::Str(_))
        {
            return Err(Exc::type_error(format!(
                "str() argument '{name}' must be str, not {}",
                v.type_name()
            )));
        }
    }
    match obj {
        Some(Value::Bytes(b)) => match String::from_utf8(b.to_vec()) {
            Ok(s) => Ok(Value::str(s)),
            Err(_) => Err(Exc::new(
                crate::value::errors::ExcKind::Other("UnicodeDecodeError".to_owned()),
                "'utf-8' codec can't decode bytes",
            )),
        },
        Some(Value::Str(_)) => Err(Exc::type_error("decoding str is not supported")),
        Some(other) => Err(Exc::type_error(format!(
            "decoding to str: need a bytes-like object, {} found",
            other.type_name()
        ))),
        None => Ok(Value::str("")),
    }
}
