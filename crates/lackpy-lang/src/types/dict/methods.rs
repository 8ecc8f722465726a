//! Methods of `dict` and of its views: their tables and one function per
//! method; and `dict(...)` / `update` argument handling.

use std::cell::RefCell;
use std::rc::Rc;

use crate::runtime::Budget;
use crate::runtime::error::{Exc, R};
use crate::syntax::catalog::MethodId as M;
use crate::types::args::{Kw, between, no_kwargs, none};
use crate::types::caller::Caller;
use crate::types::table::{Methods, m};
use crate::value::PyIter;
use crate::value::hash::hash_value;
use crate::value::iter::Step;
use crate::value::{Dict, Value, View, ViewKind};

pub(crate) fn busy() -> Box<Exc> {
    Exc::runtime_error("dictionary changed during operation")
}

/// Most pairs `dict(...)` / `update` pre-sizes an empty dict for.
const PRESIZE_MAX: usize = 1 << 16;

/// Adds the items of a mapping or of an iterable of pairs (`dict(x)`,
/// `d.update(x)`).
pub(crate) fn update_from(budget: &mut Budget, d: &mut Dict, src: &Value) -> R<()> {
    if let Value::Dict(other) = src {
        let other = other.try_borrow().map_err(|_| busy())?;
        if d.len() == 0 {
            // Into an empty dict (`dict(d)`): a copy of the table.
            crate::runtime::meter::ensure(crate::types::dict::copy_bytes(&other))?;
            let cyc = d.cyc();
            *d = other.copy();
            d.set_cyc(cyc);
            return Ok(());
        }
        for (k, v) in other.iter() {
            d.insert(k.clone(), v.clone())?;
        }
        return Ok(());
    }
    let mut iter = PyIter::of(src)?;
    if d.len() == 0 {
        // Room for the pairs an iterator says it holds (`dict(zip(ks,
        // vs))`), as a display of pairs gets: no doubling, no slack. Only
        // where it surely fits: the pairs may repeat keys or not be pairs,
        // and that must fail (or not) as it would without the room.
        let hint = iter.size_hint();
        if hint > 0
            && hint <= PRESIZE_MAX
            && crate::runtime::meter::ensure(4 * Dict::presize_bytes(hint)).is_ok()
        {
            d.presize(hint);
        }
    }
    let mut n = 0usize;
    loop {
        // Pairs made only to be taken apart (`dict(zip(ks, vs))`,
        // `dict(enumerate(xs))`, `dict(d.items())`) come as their two parts:
        // no tuple per item.
        let mut slots = [Value::None, Value::None];
        let step = iter.next_parts(2, |i, x| {
            if let Some(s) = slots.get_mut(i) {
                *s = x;
            }
        })?;
        let (k, v) = match step {
            Step::Done => break,
            Step::Pair(k, v) => (k, v),
            Step::Parts => {
                let [k, v] = slots;
                (k, v)
            }
            Step::Whole(elem) => pair_parts(&elem, n)?,
        };
        budget.poll()?;
        d.insert(k, v)?;
        n += 1;
    }
    Ok(())
}

/// The key and value of element `n` of a `dict(...)` / `update` iterable:
/// any iterable of exactly two items.
fn pair_parts(elem: &Value, n: usize) -> R<(Value, Value)> {
    if let Value::Tuple(t) = elem
        && let [k, v] = &t.items[..]
    {
        return Ok((k.clone(), v.clone()));
    }
    let mut inner = PyIter::of(elem).map_err(|_| {
        Exc::type_error(format!(
            "cannot convert dictionary update sequence element #{n} to a sequence"
        ))
    })?;
    let mut parts = Vec::with_capacity(2);
    while let Some(x) = inner.next()? {
        parts.push(x);
        if parts.len() > 2 {
            break;
        }
    }
    if parts.len() != 2 {
        let len = if parts.len() > 2 {
            crate::types::ops::py_len(elem).unwrap_or(parts.len())
        } else {
            parts.len()
        };
        return Err(Exc::value_error(format!(
            "dictionary update sequence element #{n} has length {len}; 2 is required"
        )));
    }
    let v = parts.pop().unwrap_or(Value::None);
    let k = parts.pop().unwrap_or(Value::None);
    Ok((k, v))
}

/// `dict.fromkeys(iterable, value=None)`.
pub(crate) fn fromkeys(args: &[Value], kwargs: Kw) -> R<Value> {
    no_kwargs("dict.fromkeys", kwargs)?;
    between("fromkeys", args, 1, 2)?;
    let value = args.get(1).cloned().unwrap_or(Value::None);
    let keys = crate::types::ops::collect_iterable(&args[0])?;
    let mut d = Dict::new();
    for k in keys.iter() {
        d.insert(k.clone(), value.clone())?;
    }
    Ok(Value::dict(d))
}

/// A `dict` method: the run, the receiver, positional and keyword arguments.
pub(crate) type DictMethod = fn(&mut dyn Caller, &Rc<RefCell<Dict>>, &[Value], Kw<'_>) -> R<Value>;

/// The methods of `dict`.
pub(crate) static DICT: Methods<DictMethod> = Methods::new(&[
    m(M::Clear, 0, 0, clear),
    m(M::Copy, 0, 0, copy),
    m(M::Fromkeys, 1, 2, fromkeys_of),
    m(M::Get, 1, 2, get),
    m(M::Items, 0, 0, items),
    m(M::Keys, 0, 0, keys),
    m(M::Pop, 1, 2, pop),
    m(M::Popitem, 0, 0, popitem),
    m(M::Setdefault, 1, 2, setdefault),
    m(M::Update, 0, 1, update),
    m(M::Values, 0, 0, values),
]);

fn get(_it: &mut dyn Caller, d: &Rc<RefCell<Dict>>, args: &[Value], kwargs: Kw) -> R<Value> {
    no_kwargs("dict.get", kwargs)?;
    between("get", args, 1, 2)?;
    let db = d.try_borrow().map_err(|_| busy())?;
    Ok(match db.get(&args[0])? {
        Some(v) => v.clone(),
        None => args.get(1).cloned().unwrap_or(Value::None),
    })
}

fn keys(_it: &mut dyn Caller, d: &Rc<RefCell<Dict>>, args: &[Value], kwargs: Kw) -> R<Value> {
    view_as(M::Keys, d, args, kwargs)
}

fn values(_it: &mut dyn Caller, d: &Rc<RefCell<Dict>>, args: &[Value], kwargs: Kw) -> R<Value> {
    view_as(M::Values, d, args, kwargs)
}

fn items(_it: &mut dyn Caller, d: &Rc<RefCell<Dict>>, args: &[Value], kwargs: Kw) -> R<Value> {
    view_as(M::Items, d, args, kwargs)
}

/// `keys`, `values` or `items` (`id`): a live view of the dict.
fn view_as(id: M, d: &Rc<RefCell<Dict>>, args: &[Value], kwargs: Kw) -> R<Value> {
    let (qual, kind) = match id {
        M::Keys => ("dict.keys", ViewKind::Keys),
        M::Values => ("dict.values", ViewKind::Values),
        _ => ("dict.items", ViewKind::Items),
    };
    none(qual, args, kwargs)?;
    Ok(Value::View(Rc::new(View {
        dict: d.clone(),
        kind,
    })))
}

fn update(it: &mut dyn Caller, d: &Rc<RefCell<Dict>>, args: &[Value], kwargs: Kw) -> R<Value> {
    between("update", args, 0, 1)?;
    if let ([Value::Dict(src)], true) = (args, kwargs.is_empty())
        && !Rc::ptr_eq(src, d)
    {
        return update_from_dict(it, d, src);
    }
    let mut fresh = Dict::new();
    if let Some(src) = args.first() {
        update_from(it.budget(), &mut fresh, src)?;
    }
    for (k, v) in kwargs {
        fresh.insert(Value::str(&**k), v.clone())?;
    }
    let container = fresh
        .iter()
        .any(|(k, v)| k.is_container() || v.is_container());
    {
        let mut db = d.try_borrow_mut().map_err(|_| busy())?;
        for (k, h) in fresh.iter_hashed() {
            if let Some(v) = fresh.get_h(k, h) {
                db.insert_h(k.clone(), h, v.clone());
            }
        }
    }
    if container {
        it.note_dict_cycle(d);
    }
    Ok(Value::None)
}

/// `d.update(other)` with another dict: its items go in with their hashes,
/// with no intermediate copy.
fn update_from_dict(
    it: &mut dyn Caller,
    d: &Rc<RefCell<Dict>>,
    src: &Rc<RefCell<Dict>>,
) -> R<Value> {
    let mut container = false;
    let done = (|| {
        let sb = src.try_borrow().map_err(|_| busy())?;
        let mut db = d.try_borrow_mut().map_err(|_| busy())?;
        for (k, h, v) in sb.iter_with_hashes() {
            let growth = db.growth_bytes();
            if growth > 0 && db.get_h(k, h).is_none() {
                crate::runtime::meter::ensure(growth)?;
            }
            container |= k.is_container() || v.is_container();
            db.insert_h(k.clone(), h, v.clone());
        }
        Ok(())
    })();
    // Noted even when the budget stopped it part way.
    if container {
        it.note_dict_cycle(d);
    }
    done.map(|()| Value::None)
}

fn setdefault(it: &mut dyn Caller, d: &Rc<RefCell<Dict>>, args: &[Value], kwargs: Kw) -> R<Value> {
    no_kwargs("dict.setdefault", kwargs)?;
    between("setdefault", args, 1, 2)?;
    let key = &args[0];
    let h = hash_value(key)?;
    let default = args.get(1).cloned().unwrap_or(Value::None);
    let container = default.is_container();
    let out = {
        let mut db = d.try_borrow_mut().map_err(|_| busy())?;
        match db.get_h(key, h) {
            Some(v) => return Ok(v.clone()),
            None => {
                db.insert_h(key.clone(), h, default.clone());
                default
            }
        }
    };
    if container {
        it.note_dict_cycle(d);
    }
    Ok(out)
}

fn pop(_it: &mut dyn Caller, d: &Rc<RefCell<Dict>>, args: &[Value], kwargs: Kw) -> R<Value> {
    no_kwargs("dict.pop", kwargs)?;
    between("pop", args, 1, 2)?;
    let mut db = d.try_borrow_mut().map_err(|_| busy())?;
    match db.remove(&args[0])? {
        Some((_, v)) => Ok(v),
        None => match args.get(1) {
            Some(dflt) => Ok(dflt.clone()),
            None => Err(Exc::key_error(&args[0])),
        },
    }
}

fn popitem(_it: &mut dyn Caller, d: &Rc<RefCell<Dict>>, args: &[Value], kwargs: Kw) -> R<Value> {
    none("dict.popitem", args, kwargs)?;
    let mut db = d.try_borrow_mut().map_err(|_| busy())?;
    match db.pop_last() {
        Some((k, v)) => Ok(Value::pair(k, v)),
        None => Err(Exc::key_error_text("popitem(): dictionary is empty")),
    }
}

fn copy(_it: &mut dyn Caller, d: &Rc<RefCell<Dict>>, args: &[Value], kwargs: Kw) -> R<Value> {
    none("dict.copy", args, kwargs)?;
    let copy = d.try_borrow().map_err(|_| busy())?.copy();
    Ok(Value::dict(copy))
}

fn clear(_it: &mut dyn Caller, d: &Rc<RefCell<Dict>>, args: &[Value], kwargs: Kw) -> R<Value> {
    none("dict.clear", args, kwargs)?;
    d.try_borrow_mut().map_err(|_| busy())?.clear();
    Ok(Value::None)
}

/// `d.fromkeys(...)`: as `dict.fromkeys`, the receiver is not used.
fn fromkeys_of(
    _it: &mut dyn Caller,
    _d: &Rc<RefCell<Dict>>,
    args: &[Value],
    kwargs: Kw,
) -> R<Value> {
    fromkeys(args, kwargs)
}

/// A method of a dict's keys or items view: the view, positional and
/// keyword arguments.
pub(crate) type ViewMethod = fn(&View, &[Value], Kw<'_>) -> R<Value>;

/// The methods of `dict_keys` and `dict_items` (`dict_values` has none).
pub(crate) static VIEWS: Methods<ViewMethod> = Methods::new(&[m(M::Isdisjoint, 1, 1, isdisjoint)]);

fn isdisjoint(v: &View, args: &[Value], kwargs: Kw) -> R<Value> {
    let other = crate::types::args::one("isdisjoint", args, kwargs)?;
    let view = Value::View(std::rc::Rc::new(View {
        dict: v.dict.clone(),
        kind: v.kind,
    }));
    crate::types::dict::views::isdisjoint(&view, other).map(Value::Bool)
}
