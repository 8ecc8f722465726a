//! Methods of `list`, `tuple` and `range`: their tables and one function
//! per method.

use std::cell::RefCell;
use std::rc::Rc;

use super::{Methods, m};
use crate::interp::Interp;
use crate::interp::args::{self, Kw, between, no_kwargs, none, one};
use crate::interp::ops::collect_iterable;
use crate::interp::ops::range_contains;
use crate::interp::ops::seq_scan;
use crate::runtime::error::{Exc, R};
use crate::syntax::catalog::MethodId as M;
use crate::value::{List, Range, TupleRc, Value, repr};

fn busy() -> Box<Exc> {
    Exc::runtime_error("list modified during operation")
}

/// Start/stop of `index` as CPython clamps them.
fn search_bounds(args: &[Value], len: usize) -> R<(usize, usize)> {
    let n = len as i64;
    let clamp = |v: i64| -> usize {
        let v = if v < 0 { (v + n).max(0) } else { v };
        v.min(n) as usize
    };
    let start = match args.get(1) {
        Some(v) => clamp(args::index_clamped(v)?),
        None => 0,
    };
    let stop = match args.get(2) {
        Some(v) => clamp(args::index_clamped(v)?),
        None => len,
    };
    Ok((start, stop))
}

/// The first position in `start..stop` holding an item equal to `x`.
/// Comparisons run no program code, so the list cannot change under the
/// borrow (no copy of the items is needed).
fn find(l: &RefCell<List>, x: &Value, start: usize, stop: usize) -> R<Option<usize>> {
    let lb = l.try_borrow().map_err(|_| busy())?;
    let within = lb
        .items
        .get(start..stop.min(lb.items.len()))
        .unwrap_or_default();
    let mut at = None;
    seq_scan(within, x, |i| {
        at = Some(start + i);
        false
    })?;
    Ok(at)
}

/// A `list` method: the run, the receiver, positional and keyword arguments.
pub(crate) type ListMethod = fn(&mut Interp<'_>, &Rc<RefCell<List>>, &[Value], Kw<'_>) -> R<Value>;

/// The methods of `list`.
pub(crate) static LIST: Methods<ListMethod> = Methods::new(&[
    m(M::Append, 1, 1, append),
    m(M::Clear, 0, 0, clear),
    m(M::Copy, 0, 0, copy),
    m(M::Count, 1, 1, count),
    m(M::Extend, 1, 1, extend),
    m(M::Index, 1, 3, index),
    m(M::Insert, 2, 2, insert),
    m(M::Pop, 0, 1, pop),
    m(M::Remove, 1, 1, remove),
    m(M::Reverse, 0, 0, reverse),
    m(M::Sort, 0, 0, sort),
]);

fn append(it: &mut Interp, l: &Rc<RefCell<List>>, args: &[Value], kwargs: Kw) -> R<Value> {
    let x = one("list.append", args, kwargs)?;
    let container = x.is_container();
    l.try_borrow_mut().map_err(|_| busy())?.push(x.clone());
    if container {
        it.note_list_cycle(l);
    }
    Ok(Value::None)
}

fn extend(it: &mut Interp, l: &Rc<RefCell<List>>, args: &[Value], kwargs: Kw) -> R<Value> {
    let x = one("list.extend", args, kwargs)?;
    let items = collect_iterable(x)?;
    it.budget
        .check_memory(items.len() * std::mem::size_of::<Value>())?;
    let items = items.into_vec();
    let container = items.iter().any(Value::is_container);
    {
        let mut lb = l.try_borrow_mut().map_err(|_| busy())?;
        lb.items.extend(items);
        lb.sync();
    }
    if container {
        it.note_list_cycle(l);
    }
    Ok(Value::None)
}

fn insert(it: &mut Interp, l: &Rc<RefCell<List>>, args: &[Value], kwargs: Kw) -> R<Value> {
    no_kwargs("list.insert", kwargs)?;
    between("insert", args, 2, 2)?;
    // A position, not a slice bound: past `ssize_t` it overflows.
    let i = args::index(&args[0])?;
    let x = args[1].clone();
    let container = x.is_container();
    {
        let mut lb = l.try_borrow_mut().map_err(|_| busy())?;
        let n = lb.items.len() as i64;
        let pos = if i < 0 { (i + n).max(0) } else { i.min(n) } as usize;
        lb.items.insert(pos, x);
        lb.sync();
    }
    if container {
        it.note_list_cycle(l);
    }
    Ok(Value::None)
}

fn pop(_it: &mut Interp, l: &Rc<RefCell<List>>, args: &[Value], kwargs: Kw) -> R<Value> {
    no_kwargs("list.pop", kwargs)?;
    between("pop", args, 0, 1)?;
    let i = match args.first() {
        Some(v) => args::index(v)?,
        None => -1,
    };
    let mut lb = l.try_borrow_mut().map_err(|_| busy())?;
    let n = lb.items.len() as i64;
    if n == 0 {
        return Err(Exc::index_error("pop from empty list"));
    }
    let j = if i < 0 { i + n } else { i };
    if j < 0 || j >= n {
        return Err(Exc::index_error("pop index out of range"));
    }
    Ok(lb.items.remove(j as usize))
}

fn remove(_it: &mut Interp, l: &Rc<RefCell<List>>, args: &[Value], kwargs: Kw) -> R<Value> {
    let x = one("list.remove", args, kwargs)?;
    let n = l.try_borrow().map_err(|_| busy())?.items.len();
    if let Some(i) = find(l, x, 0, n)? {
        let mut lb = l.try_borrow_mut().map_err(|_| busy())?;
        if i < lb.items.len() {
            lb.items.remove(i);
        }
        return Ok(Value::None);
    }
    Err(Exc::value_error("list.remove(x): x not in list"))
}

fn index(_it: &mut Interp, l: &Rc<RefCell<List>>, args: &[Value], kwargs: Kw) -> R<Value> {
    no_kwargs("list.index", kwargs)?;
    between("index", args, 1, 3)?;
    let n = l.try_borrow().map_err(|_| busy())?.items.len();
    let (start, stop) = search_bounds(args, n)?;
    if let Some(i) = find(l, &args[0], start, stop)? {
        return Ok(Value::int(i as i64));
    }
    Err(Exc::value_error(format!(
        "{} is not in list",
        repr::repr(&args[0])?
    )))
}

fn count(_it: &mut Interp, l: &Rc<RefCell<List>>, args: &[Value], kwargs: Kw) -> R<Value> {
    let x = one("list.count", args, kwargs)?;
    // Comparisons run no program code, so the list cannot change
    // under the borrow (no copy of the items is needed).
    let lb = l.try_borrow().map_err(|_| busy())?;
    let mut n = 0;
    seq_scan(&lb.items, x, |_| {
        n += 1;
        true
    })?;
    Ok(Value::int(n))
}

fn sort(it: &mut Interp, l: &Rc<RefCell<List>>, args: &[Value], kwargs: Kw) -> R<Value> {
    // Argument Clinic counts all the arguments before it looks at them.
    let given = args.len() + kwargs.len();
    if given > 2 {
        let kind = if args.is_empty() { "keyword " } else { "" };
        return Err(Exc::type_error(format!(
            "sort() takes at most 2 {kind}arguments ({given} given)"
        )));
    }
    if !args.is_empty() {
        return Err(Exc::type_error("sort() takes no positional arguments"));
    }
    // The same keyword rules as `sorted` (`reverse` must be int-like).
    let (key, reverse) = crate::interp::builtins::sort_kwargs(kwargs)?;
    // As CPython, the list looks empty while it is being sorted.
    let items = {
        let mut lb = l.try_borrow_mut().map_err(|_| busy())?;
        let items = std::mem::take(&mut lb.items);
        lb.sync();
        crate::runtime::meter::Buf::adopt(items)
    };
    let result = crate::interp::builtins::sort_values(it, items, key.as_ref(), reverse);
    let mut lb = l.try_borrow_mut().map_err(|_| busy())?;
    let modified = !lb.items.is_empty();
    match result {
        Ok(sorted) => {
            lb.items = sorted.into_vec();
            lb.sync();
            if modified {
                return Err(Exc::value_error("list modified during sort"));
            }
            Ok(Value::None)
        }
        Err(e) => Err(e),
    }
}

fn reverse(_it: &mut Interp, l: &Rc<RefCell<List>>, args: &[Value], kwargs: Kw) -> R<Value> {
    none("list.reverse", args, kwargs)?;
    l.try_borrow_mut().map_err(|_| busy())?.items.reverse();
    Ok(Value::None)
}

fn copy(_it: &mut Interp, l: &Rc<RefCell<List>>, args: &[Value], kwargs: Kw) -> R<Value> {
    none("list.copy", args, kwargs)?;
    let lb = l.try_borrow().map_err(|_| busy())?;
    Ok(Value::list(crate::value::bulk::copied(&lb.items)?))
}

fn clear(_it: &mut Interp, l: &Rc<RefCell<List>>, args: &[Value], kwargs: Kw) -> R<Value> {
    none("list.clear", args, kwargs)?;
    let old = {
        let mut lb = l.try_borrow_mut().map_err(|_| busy())?;
        let old = std::mem::take(&mut lb.items);
        lb.sync();
        old
    };
    let mut old = old;
    crate::value::mem::drop_values(&mut old);
    Ok(Value::None)
}

/// A `tuple` method: the receiver, positional and keyword arguments.
pub(crate) type TupleMethod = fn(&TupleRc, &[Value], Kw<'_>) -> R<Value>;

/// The methods of `tuple`.
pub(crate) static TUPLE: Methods<TupleMethod> = Methods::new(&[
    m(M::Count, 1, 1, tuple_count),
    m(M::Index, 1, 3, tuple_index),
]);

fn tuple_count(t: &TupleRc, args: &[Value], kwargs: Kw) -> R<Value> {
    let x = one("tuple.count", args, kwargs)?;
    let mut n = 0;
    seq_scan(&t.items, x, |_| {
        n += 1;
        true
    })?;
    Ok(Value::int(n))
}

fn tuple_index(t: &TupleRc, args: &[Value], kwargs: Kw) -> R<Value> {
    no_kwargs("tuple.index", kwargs)?;
    between("index", args, 1, 3)?;
    let (start, stop) = search_bounds(args, t.items.len())?;
    let within = t
        .items
        .get(start..stop.min(t.items.len()))
        .unwrap_or_default();
    let mut at = None;
    seq_scan(within, &args[0], |i| {
        at = Some(start + i);
        false
    })?;
    if let Some(i) = at {
        return Ok(Value::int(i as i64));
    }
    Err(Exc::value_error("tuple.index(x): x not in tuple"))
}

/// A `range` method: the receiver, positional and keyword arguments.
pub(crate) type RangeMethod = fn(&Range, &[Value], Kw<'_>) -> R<Value>;

/// The methods of `range`.
pub(crate) static RANGE: Methods<RangeMethod> = Methods::new(&[
    m(M::Count, 1, 1, range_count),
    m(M::Index, 1, 1, range_index),
]);

fn range_count(r: &Range, args: &[Value], kwargs: Kw) -> R<Value> {
    let x = one("range.count", args, kwargs)?;
    Ok(Value::int(range_contains(r, x) as i64))
}

fn range_index(r: &Range, args: &[Value], kwargs: Kw) -> R<Value> {
    let x = one("range.index", args, kwargs)?;
    if !range_contains(r, x) {
        // CPython answers exact ints and bools itself and leaves
        // anything else to the generic sequence search.
        return Err(Exc::value_error(match x {
            Value::Int(_, _) | Value::Big(_) | Value::Bool(_) => {
                format!("{} is not in range", repr::repr(x)?)
            }
            _ => "sequence.index(x): x not in sequence".to_string(),
        }));
    }
    let i = match x {
        Value::Float(_, f) => match crate::value::int::f64_to_int(f.get()) {
            Some(v) => crate::value::int::as_int(&v).map(|i| i.to_big()),
            None => None,
        },
        _ => crate::value::int::as_int(x).map(|i| i.to_big()),
    };
    match i {
        Some(i) => Ok(Value::from_big(r.position(&i))),
        None => Err(Exc::not_index(x)),
    }
}
