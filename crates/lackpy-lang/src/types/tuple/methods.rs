//! The methods of `tuple`: their table and one function per method.

use crate::runtime::error::{Exc, R};
use crate::syntax::catalog::MethodId as M;
use crate::types::args::{Kw, between, no_kwargs, one, search_bounds};
use crate::types::ops::seq_scan;
use crate::types::table::{Methods, m};
use crate::value::{TupleRc, Value};

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
