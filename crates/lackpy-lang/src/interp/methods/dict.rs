//! Methods of `dict`, and `dict(...)` / `update` argument handling.

use std::cell::RefCell;
use std::rc::Rc;

use crate::catalog::MethodId as M;
use crate::interp::Interp;
use crate::interp::args::{Kw, between, no_kwargs, none};
use crate::value::errors::{Exc, R};
use crate::value::hash::hash_value;
use crate::value::iter::PyIter;
use crate::value::{Dict, Value, View, ViewKind};

pub(crate) fn busy() -> Box<Exc> {
    Exc::runtime_error("dictionary changed during operation")
}

/// Adds the items of a mapping or of an iterable of pairs (`dict(x)`,
/// `d.update(x)`).
pub(crate) fn update_from(it: &mut Interp, d: &mut Dict, src: &Value) -> R<()> {
    if let Value::Dict(other) = src {
        let other = other.try_borrow().map_err(|_| busy())?;
        for (k, v) in other.iter() {
            d.insert(k.clone(), v.clone())?;
        }
        return Ok(());
    }
    let mut iter = PyIter::of(src)?;
    let mut n = 0usize;
    while let Some(elem) = iter.next()? {
        it.budget.poll()?;
        let mut inner = PyIter::of(&elem).map_err(|_| {
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
                crate::interp::ops::py_len(&elem).unwrap_or(parts.len())
            } else {
                parts.len()
            };
            return Err(Exc::value_error(format!(
                "dictionary update sequence element #{n} has length {len}; 2 is required"
            )));
        }
        let v = parts.pop().unwrap_or(Value::None);
        let k = parts.pop().unwrap_or(Value::None);
        d.insert(k, v)?;
        n += 1;
    }
    Ok(())
}

/// `dict.fromkeys(iterable, value=None)`.
pub(crate) fn fromkeys(it: &mut Interp, args: &[Value], kwargs: Kw) -> R<Value> {
    no_kwargs("dict.fromkeys", kwargs)?;
    between("fromkeys", args, 1, 2)?;
    let value = args.get(1).cloned().unwrap_or(Value::None);
    let keys = crate::interp::ops::collect_iterable(it, &args[0])?;
    let mut d = Dict::new();
    for k in keys.iter() {
        d.insert(k.clone(), value.clone())?;
    }
    Ok(Value::dict(d))
}

/// Calls a `dict` method.
pub(crate) fn call(
    it: &mut Interp,
    d: &Rc<RefCell<Dict>>,
    id: M,
    args: &[Value],
    kwargs: Kw,
) -> R<Value> {
    match id {
        M::Get => {
            no_kwargs("dict.get", kwargs)?;
            between("get", args, 1, 2)?;
            let db = d.try_borrow().map_err(|_| busy())?;
            Ok(match db.get(&args[0])? {
                Some(v) => v.clone(),
                None => args.get(1).cloned().unwrap_or(Value::None),
            })
        }
        M::Keys | M::Values | M::Items => {
            none(&format!("dict.{}", id.name()), args, kwargs)?;
            let kind = match id {
                M::Keys => ViewKind::Keys,
                M::Values => ViewKind::Values,
                _ => ViewKind::Items,
            };
            Ok(Value::View(Rc::new(View {
                dict: d.clone(),
                kind,
            })))
        }
        M::Update => {
            between("update", args, 0, 1)?;
            let mut fresh = Dict::new();
            if let Some(src) = args.first() {
                update_from(it, &mut fresh, src)?;
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
        M::Setdefault => {
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
        M::Pop => {
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
        M::Popitem => {
            none("dict.popitem", args, kwargs)?;
            let mut db = d.try_borrow_mut().map_err(|_| busy())?;
            match db.pop_last() {
                Some((k, v)) => Ok(Value::tuple(vec![k, v])),
                None => Err(Exc::key_error_text("popitem(): dictionary is empty")),
            }
        }
        M::Copy => {
            none("dict.copy", args, kwargs)?;
            let copy = d.try_borrow().map_err(|_| busy())?.copy();
            Ok(Value::dict(copy))
        }
        M::Clear => {
            none("dict.clear", args, kwargs)?;
            d.try_borrow_mut().map_err(|_| busy())?.clear();
            Ok(Value::None)
        }
        M::Fromkeys => fromkeys(it, args, kwargs),
        _ => Err(Exc::no_attr(&Value::Dict(d.clone()), id.name())),
    }
}
