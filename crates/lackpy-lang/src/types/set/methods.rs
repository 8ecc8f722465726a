//! Methods of `set`, following CPython's algorithms step for step where
//! the order of additions and removals decides the iteration order.

use std::cell::RefCell;
use std::rc::Rc;

use crate::runtime::Budget;
use crate::runtime::error::{Exc, R};
use crate::syntax::catalog::{MANY, MethodId as M};
use crate::types::args::{Kw, no_kwargs, none, one};
use crate::types::table::{Methods, m};
use crate::value::PyIter;
use crate::value::hash::hash_value;
use crate::value::{Set, Value};

fn busy() -> Box<Exc> {
    Exc::runtime_error("Set changed size during iteration")
}

/// Adds every member of an iterable (`set_update_internal`).
pub(crate) fn update_from(budget: &mut Budget, s: &mut Set, src: &Value) -> R<()> {
    match src {
        Value::Set(o) => {
            let o = o.try_borrow().map_err(|_| busy())?;
            s.merge(&o);
        }
        Value::Dict(d) => {
            let d = d.try_borrow().map_err(|_| busy())?;
            s.reserve_for_dict(d.len());
            for (k, h) in d.iter_hashed() {
                s.add_h(k.clone(), h);
            }
        }
        _ => {
            let mut iter = PyIter::of(src)?;
            while let Some(x) = iter.next()? {
                budget.poll()?;
                s.add(x)?;
            }
        }
    }
    Ok(())
}

/// A set holding the members of any iterable.
fn as_set(budget: &mut Budget, v: &Value) -> R<Set> {
    let mut s = Set::new();
    update_from(budget, &mut s, v)?;
    Ok(s)
}

/// `set_intersection(so, other)` for a set `other`.
fn intersection(so: &Set, other: &Set) -> Set {
    let (small, big) = if other.len() > so.len() {
        (so, other)
    } else {
        (other, so)
    };
    let mut result = Set::new();
    for (k, h) in small.hashed() {
        if big.contains_h(k, h) {
            result.add_h(k.clone(), h);
        }
    }
    result
}

fn intersection_any(budget: &mut Budget, so: &Set, other: &Value) -> R<Set> {
    if let Value::Set(o) = other {
        let o = o.try_borrow().map_err(|_| busy())?;
        return Ok(intersection(so, &o));
    }
    let mut result = Set::new();
    let mut iter = PyIter::of(other)?;
    while let Some(x) = iter.next()? {
        budget.poll()?;
        let h = hash_value(&x)?;
        if so.contains_h(&x, h) {
            result.add_h(x, h);
        }
    }
    Ok(result)
}

/// `set_difference_update_internal(so, other)`.
fn difference_update(budget: &mut Budget, so: &mut Set, other: &Value) -> R<()> {
    match other {
        Value::Set(o) => {
            let o = o.try_borrow().map_err(|_| busy())?;
            if (o.len() >> 3) > so.len() {
                let common = intersection(so, &o);
                for (k, h) in common.hashed() {
                    so.discard_h(k, h);
                }
            } else {
                for (k, h) in o.hashed() {
                    so.discard_h(k, h);
                }
            }
        }
        _ => {
            let mut iter = PyIter::of(other)?;
            while let Some(x) = iter.next()? {
                budget.poll()?;
                so.discard(&x)?;
            }
        }
    }
    so.compact_after_removals();
    Ok(())
}

/// `s -= other` for a set `other`: `set_difference_update_internal` on
/// `s` itself (a set minus itself is emptied).
pub(crate) fn isub(budget: &mut Budget, s: &Rc<RefCell<Set>>, other: &Value) -> R<()> {
    if matches!(other, Value::Set(o) if Rc::ptr_eq(o, s)) {
        s.try_borrow_mut().map_err(|_| busy())?.clear();
        return Ok(());
    }
    let mut me = s.try_borrow_mut().map_err(|_| busy())?;
    difference_update(budget, &mut me, other)
}

/// `set_difference(so, other)` for two sets (the `-` operator).
pub(crate) fn difference(so: &Set, other: &Set) -> Set {
    if (so.len() >> 2) > other.len() {
        let mut result = so.copy();
        for (k, h) in other.hashed() {
            result.discard_h(k, h);
        }
        result.compact_after_removals();
        return result;
    }
    let mut result = Set::new();
    for (k, h) in so.hashed() {
        if !other.contains_h(k, h) {
            result.add_h(k.clone(), h);
        }
    }
    result
}

fn difference_any(budget: &mut Budget, so: &Set, other: &Value) -> R<Set> {
    match other {
        Value::Set(o) => {
            let o = o.try_borrow().map_err(|_| busy())?;
            Ok(difference(so, &o))
        }
        Value::Dict(d) if (so.len() >> 2) <= d.try_borrow().map(|d| d.len()).unwrap_or(0) => {
            let d = d.try_borrow().map_err(|_| busy())?;
            let mut result = Set::new();
            for (k, h) in so.hashed() {
                if d.get_h(k, h).is_none() {
                    result.add_h(k.clone(), h);
                }
            }
            Ok(result)
        }
        _ => {
            let mut result = so.copy();
            difference_update(budget, &mut result, other)?;
            Ok(result)
        }
    }
}

/// `set_symmetric_difference_update(so, other)`.
fn symmetric_update(budget: &mut Budget, so: &mut Set, other: &Value) -> R<()> {
    // The other operand is a different object from `so` (borrowing the
    // same one fails above), so its members are walked in place.
    let toggle = |so: &mut Set, k: &Value, h: i64| {
        if so.discard_h(k, h).is_none() {
            so.add_h(k.clone(), h);
        }
    };
    match other {
        Value::Dict(d) => {
            let d = d.try_borrow().map_err(|_| busy())?;
            for (k, h) in d.iter_hashed() {
                toggle(so, k, h);
            }
        }
        Value::Set(o) => {
            let o = o.try_borrow().map_err(|_| busy())?;
            for (k, h) in o.hashed() {
                toggle(so, k, h);
            }
        }
        _ => {
            let tmp = as_set(budget, other)?;
            for (k, h) in tmp.hashed() {
                toggle(so, k, h);
            }
        }
    }
    Ok(())
}

fn contains_all(budget: &mut Budget, so: &Set, other: &Value) -> R<bool> {
    let mut iter = PyIter::of(other)?;
    while let Some(x) = iter.next()? {
        budget.poll()?;
        if !so.contains(&x)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// A `set` method: the run's budget, the receiver, positional and keyword
/// arguments.
pub(crate) type SetMethod = fn(&mut Budget, &Rc<RefCell<Set>>, &[Value], Kw<'_>) -> R<Value>;

/// The methods of `set`.
pub(crate) static METHODS: Methods<SetMethod> = Methods::new(&[
    m(M::Add, 1, 1, add),
    m(M::Clear, 0, 0, clear),
    m(M::Copy, 0, 0, copy),
    m(M::Difference, 0, MANY, difference_of),
    m(M::DifferenceUpdate, 0, MANY, difference_update_of),
    m(M::Discard, 1, 1, discard),
    m(M::Intersection, 0, MANY, intersection_of),
    m(M::IntersectionUpdate, 0, MANY, intersection_update),
    m(M::Isdisjoint, 1, 1, isdisjoint),
    m(M::Issubset, 1, 1, issubset),
    m(M::Issuperset, 1, 1, issuperset),
    m(M::Pop, 0, 0, pop),
    m(M::Remove, 1, 1, remove),
    m(M::SymmetricDifference, 1, 1, symmetric_difference),
    m(
        M::SymmetricDifferenceUpdate,
        1,
        1,
        symmetric_difference_update,
    ),
    m(M::Union, 0, MANY, union),
    m(M::Update, 0, MANY, update),
]);

/// Calls `run` on set `s`. Each method treats an argument that is this
/// very set as CPython does (`s.update(s)` does nothing, `s.intersection(s)`
/// is a copy, `s.symmetric_difference_update(s)` empties `s`), and holds
/// no mutable borrow of `s` while it reads such an argument.
pub(crate) fn call(
    budget: &mut Budget,
    s: &Rc<RefCell<Set>>,
    run: SetMethod,
    args: &[Value],
    kwargs: Kw,
) -> R<Value> {
    run(budget, s, args, kwargs)
}

/// Whether `a` is the set `s` itself.
fn is_self(a: &Value, s: &Rc<RefCell<Set>>) -> bool {
    matches!(a, Value::Set(o) if Rc::ptr_eq(o, s))
}

fn add(_budget: &mut Budget, s: &Rc<RefCell<Set>>, args: &[Value], kwargs: Kw) -> R<Value> {
    let x = one("set.add", args, kwargs)?;
    s.try_borrow_mut().map_err(|_| busy())?.add(x.clone())?;
    Ok(Value::None)
}

fn remove(_budget: &mut Budget, s: &Rc<RefCell<Set>>, args: &[Value], kwargs: Kw) -> R<Value> {
    let x = one("set.remove", args, kwargs)?;
    if s.try_borrow_mut().map_err(|_| busy())?.discard(x)? {
        Ok(Value::None)
    } else {
        Err(Exc::key_error(x))
    }
}

fn discard(_budget: &mut Budget, s: &Rc<RefCell<Set>>, args: &[Value], kwargs: Kw) -> R<Value> {
    let x = one("set.discard", args, kwargs)?;
    if matches!(x, Value::Set(_)) {
        // CPython retries a set as a frozenset, which no set here holds.
        return Ok(Value::None);
    }
    s.try_borrow_mut().map_err(|_| busy())?.discard(x)?;
    Ok(Value::None)
}

fn pop(_budget: &mut Budget, s: &Rc<RefCell<Set>>, args: &[Value], kwargs: Kw) -> R<Value> {
    none("set.pop", args, kwargs)?;
    match s.try_borrow_mut().map_err(|_| busy())?.pop() {
        Some(v) => Ok(v),
        None => Err(Exc::key_error_text("pop from an empty set")),
    }
}

fn clear(_budget: &mut Budget, s: &Rc<RefCell<Set>>, args: &[Value], kwargs: Kw) -> R<Value> {
    none("set.clear", args, kwargs)?;
    s.try_borrow_mut().map_err(|_| busy())?.clear();
    Ok(Value::None)
}

fn copy(_budget: &mut Budget, s: &Rc<RefCell<Set>>, args: &[Value], kwargs: Kw) -> R<Value> {
    none("set.copy", args, kwargs)?;
    Ok(Value::set(s.try_borrow().map_err(|_| busy())?.copy()))
}

fn union(budget: &mut Budget, s: &Rc<RefCell<Set>>, args: &[Value], kwargs: Kw) -> R<Value> {
    no_kwargs("set.union", kwargs)?;
    let mut result = s.try_borrow().map_err(|_| busy())?.copy();
    for a in args.iter().filter(|a| !is_self(a, s)) {
        update_from(budget, &mut result, a)?;
    }
    Ok(Value::set(result))
}

fn update(budget: &mut Budget, s: &Rc<RefCell<Set>>, args: &[Value], kwargs: Kw) -> R<Value> {
    no_kwargs("set.update", kwargs)?;
    let mut staged = Vec::with_capacity(args.len());
    // Merging a set into itself changes nothing.
    for a in args.iter().filter(|a| !is_self(a, s)) {
        // Iterate other values before borrowing this set mutably.
        staged.push(match a {
            Value::Set(_) | Value::Dict(_) => a.clone(),
            other => Value::list(crate::types::ops::collect_iterable(other)?.into_vec()),
        });
    }
    let mut me = s.try_borrow_mut().map_err(|_| busy())?;
    for a in &staged {
        match a {
            Value::List(l) => {
                let items = l.try_borrow().map(|l| l.items.clone()).unwrap_or_default();
                for x in items {
                    me.add(x)?;
                }
            }
            other => update_from(budget, &mut me, other)?,
        }
    }
    Ok(Value::None)
}

fn intersection_of(
    budget: &mut Budget,
    s: &Rc<RefCell<Set>>,
    args: &[Value],
    kwargs: Kw,
) -> R<Value> {
    intersect_as(M::Intersection, budget, s, args, kwargs)
}

fn intersection_update(
    budget: &mut Budget,
    s: &Rc<RefCell<Set>>,
    args: &[Value],
    kwargs: Kw,
) -> R<Value> {
    intersect_as(M::IntersectionUpdate, budget, s, args, kwargs)
}

/// `intersection` or `intersection_update` (`id`).
fn intersect_as(
    id: M,
    budget: &mut Budget,
    s: &Rc<RefCell<Set>>,
    args: &[Value],
    kwargs: Kw,
) -> R<Value> {
    let qual = match id {
        M::Intersection => "set.intersection",
        _ => "set.intersection_update",
    };
    no_kwargs(qual, kwargs)?;
    // With no operands the result is a copy; otherwise it is built from
    // the operands (a copy made first would only be thrown away).
    let mut result = if args.is_empty() {
        s.try_borrow().map_err(|_| busy())?.copy()
    } else {
        Set::new()
    };
    if !args.is_empty() {
        let base = s.try_borrow().map_err(|_| busy())?;
        let mut cur: Option<Set> = None;
        for a in args {
            let next = match &cur {
                None if is_self(a, s) => base.copy(),
                None => intersection_any(budget, &base, a)?,
                Some(c) => intersection_any(budget, c, a)?,
            };
            cur = Some(next);
        }
        drop(base);
        if let Some(c) = cur {
            result = c;
        }
    }
    if id == M::Intersection {
        return Ok(Value::set(result));
    }
    *s.try_borrow_mut().map_err(|_| busy())? = result;
    Ok(Value::None)
}

fn difference_of(
    budget: &mut Budget,
    s: &Rc<RefCell<Set>>,
    args: &[Value],
    kwargs: Kw,
) -> R<Value> {
    no_kwargs("set.difference", kwargs)?;
    // Read in place, as CPython does (no user code runs while the other
    // operands are iterated, and `call` snapshotted this very set).
    let base = s.try_borrow().map_err(|_| busy())?;
    let Some((first, rest)) = args.split_first() else {
        return Ok(Value::set(base.copy()));
    };
    let mut result = difference_any(budget, &base, first)?;
    drop(base);
    for a in rest {
        difference_update(budget, &mut result, a)?;
    }
    Ok(Value::set(result))
}

fn difference_update_of(
    budget: &mut Budget,
    s: &Rc<RefCell<Set>>,
    args: &[Value],
    kwargs: Kw,
) -> R<Value> {
    no_kwargs("set.difference_update", kwargs)?;
    let mut me = s.try_borrow().map_err(|_| busy())?.copy_exact();
    for a in args {
        if is_self(a, s) {
            me.clear();
        } else {
            difference_update(budget, &mut me, a)?;
        }
    }
    *s.try_borrow_mut().map_err(|_| busy())? = me;
    Ok(Value::None)
}

fn symmetric_difference(
    budget: &mut Budget,
    s: &Rc<RefCell<Set>>,
    args: &[Value],
    kwargs: Kw,
) -> R<Value> {
    let other = one("set.symmetric_difference", args, kwargs)?;
    if is_self(other, s) {
        return Ok(Value::set(Set::new()));
    }
    let mut result = as_set(budget, other)?;
    let me = s.try_borrow().map_err(|_| busy())?.copy_exact();
    symmetric_update(budget, &mut result, &Value::set(me))?;
    Ok(Value::set(result))
}

fn symmetric_difference_update(
    budget: &mut Budget,
    s: &Rc<RefCell<Set>>,
    args: &[Value],
    kwargs: Kw,
) -> R<Value> {
    let other = one("set.symmetric_difference_update", args, kwargs)?;
    if is_self(other, s) {
        s.try_borrow_mut().map_err(|_| busy())?.clear();
        return Ok(Value::None);
    }
    let mut me = s.try_borrow().map_err(|_| busy())?.copy_exact();
    symmetric_update(budget, &mut me, other)?;
    *s.try_borrow_mut().map_err(|_| busy())? = me;
    Ok(Value::None)
}

fn issubset(budget: &mut Budget, s: &Rc<RefCell<Set>>, args: &[Value], kwargs: Kw) -> R<Value> {
    let other = one("set.issubset", args, kwargs)?;
    let other = as_set(budget, other)?;
    let me = s.try_borrow().map_err(|_| busy())?;
    if me.len() > other.len() {
        return Ok(Value::Bool(false));
    }
    for k in me.iter() {
        if !other.contains(k)? {
            return Ok(Value::Bool(false));
        }
    }
    Ok(Value::Bool(true))
}

fn issuperset(budget: &mut Budget, s: &Rc<RefCell<Set>>, args: &[Value], kwargs: Kw) -> R<Value> {
    let other = one("set.issuperset", args, kwargs)?;
    let me = s.try_borrow().map_err(|_| busy())?.copy_exact();
    contains_all(budget, &me, other).map(Value::Bool)
}

fn isdisjoint(_budget: &mut Budget, s: &Rc<RefCell<Set>>, args: &[Value], kwargs: Kw) -> R<Value> {
    let other = one("set.isdisjoint", args, kwargs)?;
    let me = s.try_borrow().map_err(|_| busy())?.copy_exact();
    let mut iter = PyIter::of(other)?;
    while let Some(x) = iter.next()? {
        if me.contains(&x)? {
            return Ok(Value::Bool(false));
        }
    }
    Ok(Value::Bool(true))
}
