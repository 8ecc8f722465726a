//! The value as the item of every container: what lists, tuples, dicts and
//! sets ask of what they hold ([`Item`]), and the thread's pools and free
//! lists of containers of values, which a generic container cannot
//! declare for itself.

use std::cell::RefCell;

use super::{StrRc, Value, bulk, eq, hash, mem, pool};
use crate::runtime::error::R;
use crate::runtime::free_list::{FreeList, ThreadFreeList};
use crate::runtime::pool::Pool;
use crate::types::dict::{DictItem, EntryPool};
use crate::types::item::Item;
use crate::types::set::{self, SetItem};
use crate::types::tuple::{MAX_FREE_TUPLES, Tuple, TupleItem};

impl Item for Value {
    #[inline(always)]
    fn vacant() -> Self {
        Value::None
    }

    #[inline(always)]
    fn is_container(&self) -> bool {
        Value::is_container(self)
    }

    #[inline(always)]
    fn drop_leaf(self) {
        mem::drop_leaf(self);
    }

    #[inline]
    fn drop_all(items: &mut Vec<Self>) {
        mem::drop_values(items);
    }

    #[inline]
    fn release_slots<'a>(slots: impl Iterator<Item = &'a mut Self>) {
        mem::release_slots(slots);
    }

    #[inline]
    fn buffer(n: usize) -> Vec<Self> {
        pool::values(n)
    }

    #[inline]
    fn recycle(items: Vec<Self>) {
        pool::recycle_values(items);
    }

    #[inline(always)]
    fn clone_item(&self) -> Self {
        bulk::clone_item(self)
    }

    #[inline(always)]
    fn hash_key(&self) -> R<i64> {
        hash::hash_value(self)
    }

    #[inline(always)]
    fn rehash(&self) -> i64 {
        hash::rehash(self)
    }

    /// Inline for the common keys: the same string object (a constant
    /// key) needs no byte compare, strings of different lengths no call,
    /// ints compare by value.
    #[inline(always)]
    fn same_key(&self, other: &Self) -> bool {
        match (self, other) {
            (Value::Str(x), Value::Str(y)) => StrRc::ptr_eq(x, y) || x.same_text(y),
            (Value::Int(_, x), Value::Int(_, y)) => x == y,
            _ => same_other(self, other),
        }
    }

    #[inline(always)]
    fn as_str_key(&self) -> Option<&StrRc> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    fn is_deterministic(&self) -> bool {
        hash::is_deterministic(self)
    }
}

/// Key equality for every other pair of kinds (out of line, so that the
/// probe loops stay small).
#[inline(never)]
fn same_other(a: &Value, b: &Value) -> bool {
    a.is_same(b) || eq::eq_at(a, b, 0).unwrap_or(false)
}

impl TupleItem for Value {
    #[inline(always)]
    fn kept_blocks() -> &'static ThreadFreeList<Tuple<Value>> {
        thread_local! {
            /// Tuple blocks kept for the next tuples made.
            static FREE: RefCell<FreeList<Tuple<Value>>> =
                const { RefCell::new(FreeList::with_max(MAX_FREE_TUPLES)) };
        }
        &FREE
    }

    /// A `static` cannot hold a tuple (its items may hold thread-bound
    /// values), so each thread leaks one empty tuple the first time, which
    /// never happens.
    fn dropped_tuple() -> &'static Tuple<Value> {
        thread_local! {
            static VACANT: &'static Tuple<Value> = Box::leak(Box::new(Tuple::vacant()));
        }
        VACANT.with(|t| *t)
    }
}

impl DictItem for Value {
    #[inline(always)]
    fn entry_pool() -> &'static EntryPool<Value> {
        thread_local! {
            /// Emptied entry vectors of large dicts, for the next copy.
            static POOL: RefCell<Pool<Option<crate::types::dict::Entry<Value>>>> =
                const { RefCell::new(Pool::new()) };
        }
        &POOL
    }
}

impl SetItem for Value {
    #[inline(always)]
    fn entry_pool() -> &'static set::EntryPool<Value> {
        thread_local! {
            /// Emptied entry buffers of large sets.
            static POOL: RefCell<Pool<set::Entry<Value>>> = const { RefCell::new(Pool::new()) };
        }
        &POOL
    }
}
