//! `+` and `*` of tuples.

use crate::runtime::Budget;
use crate::runtime::error::{Exc, R};
use crate::value::{Tuple, TupleRc, Value, bulk};

/// `x + y`.
pub(crate) fn concat(budget: &mut Budget, x: &Tuple, y: &Tuple) -> R<Value> {
    budget.check_memory((x.items.len() + y.items.len()) * 16)?;
    let mut items = Vec::with_capacity(x.items.len() + y.items.len());
    bulk::extend_cloned(&mut items, &x.items);
    bulk::extend_cloned(&mut items, &y.items);
    Ok(Value::tuple(items))
}

/// `t * n` (`seq` is `t` as a value: repeated once, it is itself).
pub(crate) fn repeat(budget: &mut Budget, t: &TupleRc, seq: &Value, n: usize) -> R<Value> {
    let total = t.items.len().checked_mul(n).ok_or_else(Exc::memory)?;
    budget.check_memory(total.saturating_mul(16))?;
    if n == 1 {
        return Ok(seq.clone());
    }
    let mut out = Vec::with_capacity(total);
    for _ in 0..n {
        bulk::extend_cloned(&mut out, &t.items);
    }
    Ok(Value::tuple(out))
}
