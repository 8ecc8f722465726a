//! Lists: the representation, with its memory charge ([`List`]), its
//! methods ([`methods`]) and sorting ([`sort`], shared with `sorted()`).

pub(crate) mod key_fn;
pub(crate) mod methods;
pub(crate) mod ops;
pub(crate) mod sort;
pub(crate) mod sort_plan;
#[cfg(test)]
mod sort_plan_tests;
pub(crate) mod sort_typed;

use crate::runtime::error::Exc;
use crate::runtime::memory;
use crate::types::item::Item;

/// A list's items with their memory charge, generic over the item
/// ([`Item`]; the interpreter's lists are `List<Value>`).
///
/// Kept to 32 bytes, so that a list's `Rc<RefCell<…>>` block (two counts,
/// the borrow flag, the list) is a 56-byte request, a 64-byte chunk of the
/// system allocator rather than 80: a program holding many small lists (a
/// list per record) pays 16 bytes less for each.
pub(crate) struct List<V: Item> {
    /// The items.
    pub items: Vec<V>,
    /// The capacity the memory charge covers, plus one; 0 while nothing is
    /// charged (capped, equally when charged and when given back, for a
    /// capacity no allocation reaches).
    charged: u32,
    /// Whether this list is registered for cycle breaking at the end of a run.
    pub(crate) cyc: bool,
}

impl<V: Item> Default for List<V> {
    fn default() -> Self {
        List {
            items: Vec::new(),
            charged: 0,
            cyc: false,
        }
    }
}

/// The bytes charged for a list of `V` whose charge covers `charged - 1`
/// slots.
#[inline]
fn list_bytes<V>(charged: u32) -> usize {
    match charged {
        0 => 0,
        c => (c as usize - 1) * std::mem::size_of::<V>() + 48,
    }
}

impl<V: Item> List<V> {
    /// A list of `items`, charged for their capacity.
    #[inline]
    pub(crate) fn new(items: Vec<V>) -> Self {
        let charged = u32::try_from(items.capacity())
            .unwrap_or(u32::MAX)
            .saturating_add(1);
        memory::charge(list_bytes::<V>(charged));
        List {
            items,
            charged,
            cyc: false,
        }
    }

    /// Re-synchronises the memory charge with the current capacity.
    #[inline]
    pub(crate) fn sync(&mut self) {
        if self.items.capacity().wrapping_add(1) != self.charged as usize {
            self.resync();
        }
    }

    #[inline(never)]
    fn resync(&mut self) {
        let now = u32::try_from(self.items.capacity())
            .unwrap_or(u32::MAX)
            .saturating_add(1);
        if now != self.charged {
            let (now_b, was_b) = (list_bytes::<V>(now), list_bytes::<V>(self.charged));
            if now_b > was_b {
                memory::charge(now_b - was_b);
            } else {
                memory::credit(was_b - now_b);
            }
            self.charged = now;
        }
    }

    /// Makes room for `n` more items (charged at once). An empty list
    /// takes its buffer from the pool when a large one is free: a loop that
    /// builds a big list each turn (a comprehension) then reuses the buffer
    /// the last turn's list gave back, instead of leaving it in the pool
    /// and faulting in a fresh one.
    pub(crate) fn reserve(&mut self, n: usize) {
        if self.items.capacity() == 0 {
            self.items = V::buffer(n);
        } else {
            self.items.reserve(n);
        }
        self.sync();
    }

    /// Appends `v`, charging a growth of the buffer.
    #[inline]
    pub(crate) fn push(&mut self, v: V) {
        let grow = self.items.len() == self.items.capacity();
        self.items.push(v);
        if grow {
            self.sync();
        }
    }
}

impl<V: Item> Drop for List<V> {
    fn drop(&mut self) {
        memory::credit(list_bytes::<V>(self.charged));
        V::drop_all(&mut self.items);
        V::recycle(std::mem::take(&mut self.items));
    }
}

/// The RuntimeError of a list borrowed while it is being changed.
#[cold]
pub(crate) fn busy() -> Box<Exc> {
    Exc::runtime_error("list modified during operation")
}
