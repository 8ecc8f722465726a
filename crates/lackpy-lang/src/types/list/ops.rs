//! `+` and `*` of lists.

use std::cell::RefCell;
use std::rc::Rc;

use crate::runtime::Budget;
use crate::runtime::error::{Exc, R};
use crate::value::List;
use crate::value::{Value, bulk};

/// `x + y`.
pub(crate) fn concat(
    budget: &mut Budget,
    mut x: Rc<RefCell<List>>,
    y: Rc<RefCell<List>>,
) -> R<Value> {
    if let Some(l) = Rc::get_mut(&mut x) {
        // A left operand nothing else holds (a temporary such as a
        // comprehension) is extended where it lies: no copy of its
        // items beside it, and a large buffer grows by remapping.
        let l = l.get_mut();
        extend_unshared(budget, l, y)?;
        return Ok(Value::List(x));
    }
    let (xl, yl) = (x.try_borrow(), y.try_borrow());
    let (Ok(xl), Ok(yl)) = (xl, yl) else {
        return Err(super::busy());
    };
    budget.check_memory((xl.items.len() + yl.items.len()) * 16)?;
    let mut items = crate::value::pool::values(xl.items.len() + yl.items.len());
    bulk::extend_cloned(&mut items, &xl.items);
    bulk::extend_cloned(&mut items, &yl.items);
    Ok(Value::list(items))
}

/// `l * n`.
pub(crate) fn repeat(budget: &mut Budget, l: &RefCell<List>, n: usize) -> R<Value> {
    // Copying runs no program code: the borrow holds throughout.
    let Ok(l) = l.try_borrow() else {
        return Ok(Value::list(Vec::new()));
    };
    let total = l.items.len().checked_mul(n).ok_or_else(Exc::memory)?;
    budget.check_memory(total.saturating_mul(16))?;
    let mut out = crate::value::pool::values(total);
    for _ in 0..n {
        bulk::extend_cloned(&mut out, &l.items);
    }
    Ok(Value::list(out))
}

/// `x + y` for a left list `x` no one else can see: `y`'s items are moved
/// (when `y` is a temporary too) or copied onto the end of `x`.
fn extend_unshared(budget: &mut Budget, x: &mut List, mut y: Rc<RefCell<List>>) -> R<()> {
    let extra = match y.try_borrow() {
        Ok(yl) => yl.items.len(),
        Err(_) => return Err(super::busy()),
    };
    budget.check_memory((x.items.len() + extra) * 16)?;
    x.items.reserve_exact(extra);
    match Rc::get_mut(&mut y) {
        Some(yl) => move_all(&mut x.items, yl.get_mut()),
        None => match y.try_borrow() {
            Ok(yl) => bulk::extend_cloned(&mut x.items, &yl.items),
            Err(_) => return Err(super::busy()),
        },
    }
    x.sync();
    Ok(())
}

/// Items of a large right operand moved at a time (a quarter of it).
const MOVE_PARTS: usize = 4;

/// Bytes of items from which the right operand is moved in parts.
const MOVE_IN_PARTS_FROM: usize = 1 << 20;

/// Moves every item of the temporary `y` onto the end of `x`. A large `y`
/// goes a quarter at a time, its buffer shrunk after each (a large block
/// is mapped, so shrinking it gives the pages back): the pages `x` gains
/// are given back by `y` as they fill, and the two are never both whole.
fn move_all(x: &mut Vec<Value>, y: &mut List) {
    let n = y.items.len();
    if n.saturating_mul(std::mem::size_of::<Value>()) >= MOVE_IN_PARTS_FROM {
        let part = n.div_ceil(MOVE_PARTS);
        while y.items.len() > part {
            x.extend(y.items.drain(..part));
            y.items.shrink_to_fit();
        }
    }
    x.append(&mut y.items);
    y.sync();
}
