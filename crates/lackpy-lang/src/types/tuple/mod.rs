//! Tuples: immutable, with up to three items held inline.
//!
//! Most tuples a program makes are small (pairs from `enumerate`, `zip` and
//! `dict.items()`, rows of two or three fields), so their items live in the
//! tuple itself: one allocation (its block) per tuple instead of two,
//! which is both the building cost and the memory a program holding many
//! tuples pays. Longer tuples keep their items in one exact-size slice.
//!
//! Every tuple's block ([`TupleRc`]: the items and a 4-byte count) has one
//! size, and programs make and drop tuples in bursts (`list(d.items())`,
//! `sorted(zip(a, b))`, the pairs a loop over `enumerate` unpacks), so
//! emptied blocks are kept for the next tuples made
//! ([`FreeList`](crate::runtime::free_list::FreeList)) rather
//! than handed to the system allocator and asked back from it.

pub(crate) mod methods;
pub(crate) mod ops;

use std::mem::ManuallyDrop;
use std::ops::{Deref, DerefMut};

use crate::runtime::free_list::{self, ThreadFreeList};
use crate::runtime::memory;
use crate::types::item::Item;

/// A tuple's items: inline up to three, else on the heap.
pub(crate) enum Items<V> {
    /// `()`
    Zero,
    /// One item.
    One([V; 1]),
    /// Two items.
    Two([V; 2]),
    /// Three items.
    Three([V; 3]),
    /// Four or more items.
    Heap(Box<[V]>),
}

impl<V> Items<V> {
    /// The items of `v`, inline when they fit.
    fn from_vec(v: Vec<V>) -> Items<V> {
        if v.len() > 3 {
            return Items::Heap(v.into_boxed_slice());
        }
        let mut it = v.into_iter();
        match (it.next(), it.next(), it.next()) {
            (Some(a), Some(b), Some(c)) => Items::Three([a, b, c]),
            (Some(a), Some(b), None) => Items::Two([a, b]),
            (Some(a), None, _) => Items::One([a]),
            _ => Items::Zero,
        }
    }

    /// The items as a slice.
    #[inline]
    pub(crate) fn as_slice(&self) -> &[V] {
        match self {
            Items::Zero => &[],
            Items::One(a) => a,
            Items::Two(a) => a,
            Items::Three(a) => a,
            Items::Heap(b) => b,
        }
    }

    #[inline]
    fn as_mut_slice(&mut self) -> &mut [V] {
        match self {
            Items::Zero => &mut [],
            Items::One(a) => a,
            Items::Two(a) => a,
            Items::Three(a) => a,
            Items::Heap(b) => b,
        }
    }

    /// The bytes a tuple with these items holds: its block, and the
    /// slice of a long tuple.
    fn bytes(&self) -> usize {
        let heap = match self {
            Items::Heap(b) => std::mem::size_of_val::<[V]>(b),
            _ => 0,
        };
        tuple_box::<V>() + heap
    }
}

/// The bytes of a tuple's block: the items and a 4-byte count, padded to
/// the items' alignment (see [`TupleRc`]).
pub(crate) const fn tuple_box<V>() -> usize {
    (std::mem::size_of::<Items<V>>() + 4).next_multiple_of(std::mem::align_of::<Items<V>>())
}

impl<V> Deref for Items<V> {
    type Target = [V];

    #[inline]
    fn deref(&self) -> &[V] {
        self.as_slice()
    }
}

impl<V> DerefMut for Items<V> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [V] {
        self.as_mut_slice()
    }
}

impl<'a, V> IntoIterator for &'a Items<V> {
    type Item = &'a V;
    type IntoIter = std::slice::Iter<'a, V>;

    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// A tuple's items with their memory charge, generic over the item
/// ([`Item`]; the interpreter's tuples are `Tuple<Value>`).
pub(crate) struct Tuple<V: TupleItem> {
    /// The items.
    pub items: Items<V>,
}

/// A value a tuple can hold: an [`Item`] with a thread's kept tuple
/// blocks ([`FreeList`](crate::runtime::free_list::FreeList)), which a
/// generic type cannot declare for itself.
pub(crate) trait TupleItem: Item + 'static {
    /// This thread's kept blocks of tuples of `Self`.
    fn kept_blocks() -> &'static ThreadFreeList<Tuple<Self>>;

    /// What a tuple being dropped reads as (see [`TupleRc`]): an empty
    /// tuple, never charged and never dropped.
    fn dropped_tuple() -> &'static Tuple<Self>;
}

impl<V: TupleItem> Tuple<V> {
    /// A tuple of `items`.
    pub(crate) fn new(items: Vec<V>) -> Self {
        Self::of(Items::from_vec(items))
    }

    /// The pair `(a, b)`, built without an intermediate vector.
    #[inline]
    pub(crate) fn pair(a: V, b: V) -> Self {
        Self::of(Items::Two([a, b]))
    }

    /// The triple `(a, b, c)`, built without an intermediate vector.
    #[inline]
    pub(crate) fn triple(a: V, b: V, c: V) -> Self {
        Self::of(Items::Three([a, b, c]))
    }

    #[inline]
    fn of(items: Items<V>) -> Self {
        memory::charge(items.bytes());
        Tuple { items }
    }

    /// The empty tuple a kept block holds (and [`TupleItem::dropped_tuple`]):
    /// never charged, and never dropped.
    pub(crate) const fn vacant() -> Self {
        Tuple { items: Items::Zero }
    }
}

/// A shared tuple: a reference count without weak references, whose
/// block is the items and a 4-byte count (56 bytes, a 64-byte heap chunk,
/// where a `std::rc::Rc` with its two 8-byte counts made an 80-byte one).
///
/// As for strings ([`crate::value::StrRc`]), the last reference goes to one
/// out-of-line function, which keeps the emptied block for the next tuple
/// made while a run is in progress. `None` is only ever seen inside `drop`.
///
/// The `Option` is in a `ManuallyDrop` (it is always `None` by the end of
/// `drop`): with drop glue of its own, the compiler tests it again after
/// the call to [`release`], so that call cannot be the last instruction
/// and every value's drop (an int's too) pays for saving registers.
///
/// Deref, clone and drop are always inlined in optimised builds only (as
/// [`crate::value::StrRc`]'s, so that debug builds' recursive frames stay small).
pub(crate) struct TupleRc<V: TupleItem>(ManuallyDrop<Option<rclite::Rc<Tuple<V>>>>);

impl<V: TupleItem> TupleRc<V> {
    /// A new shared tuple.
    #[inline]
    pub(crate) fn new(t: Tuple<V>) -> Self {
        TupleRc(ManuallyDrop::new(Some(block(t))))
    }

    /// Whether both are the same tuple object.
    #[inline]
    pub(crate) fn ptr_eq(a: &Self, b: &Self) -> bool {
        std::ptr::eq(TupleRc::as_ptr(a), TupleRc::as_ptr(b))
    }

    /// The tuple object's address (its identity).
    #[inline]
    pub(crate) fn as_ptr(this: &Self) -> *const Tuple<V> {
        this.0.as_ref().map_or(std::ptr::null(), rclite::Rc::as_ptr)
    }

    /// How many references hold the tuple.
    #[inline]
    pub(crate) fn strong_count(this: &Self) -> usize {
        this.0.as_ref().map_or(0, rclite::Rc::strong_count)
    }
}

impl<V: TupleItem> Deref for TupleRc<V> {
    type Target = Tuple<V>;

    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn deref(&self) -> &Tuple<V> {
        match &*self.0 {
            Some(t) => t,
            None => dropped(),
        }
    }
}

/// What a tuple being dropped reads as (nothing reads it: `None` is only
/// set inside `drop`).
#[cold]
#[inline(never)]
fn dropped<V: TupleItem>() -> &'static Tuple<V> {
    V::dropped_tuple()
}

impl<V: TupleItem> Clone for TupleRc<V> {
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn clone(&self) -> Self {
        TupleRc(ManuallyDrop::new((*self.0).clone()))
    }
}

impl<V: TupleItem> Drop for TupleRc<V> {
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn drop(&mut self) {
        if let Some(t) = self.0.take() {
            if t.strong_count() == 1 {
                release(t);
            } else {
                // Not the last: only the count goes down.
                drop(t);
            }
        }
    }
}

/// The most tuple blocks kept: 1 MiB of 64-byte chunks (896 KiB asked
/// for), a quarter of what one buffer pool may hold
/// ([`crate::runtime::pool::POOL_MAX_BYTES`]).
///
/// A burst is often a whole container's worth (`list(d.items())` of a
/// 5,000-entry dict, `sorted(zip(a, b))`), all dropped together before the
/// next is made: a cap below the burst's size saves only that share of
/// the allocator calls (with 1,024 kept, such a loop was still as slow as
/// with none), so the cap is set to cover bursts of common sizes.
pub(crate) const MAX_FREE_TUPLES: usize = 16 * 1024;

/// A block holding `t`: a kept one when there is one.
#[inline]
fn block<V: TupleItem>(t: Tuple<V>) -> rclite::Rc<Tuple<V>> {
    let kept = free_list::take_kept(V::kept_blocks());
    match kept {
        Some(mut rc) => match rclite::Rc::get_mut(&mut rc) {
            Some(slot) => {
                // The empty tuple kept in the block was never charged.
                std::mem::forget(std::mem::replace(slot, t));
                rc
            }
            // Never: a kept block has no other reference.
            None => rclite::Rc::new(t),
        },
        None => rclite::Rc::new(t),
    }
}

/// Drops a tuple's items and keeps or frees its block (its last
/// reference).
#[inline(never)]
fn release<V: TupleItem>(mut rc: rclite::Rc<Tuple<V>>) {
    let Some(slot) = rclite::Rc::get_mut(&mut rc) else {
        // Never: the caller holds the last reference.
        return;
    };
    // The tuple ends here (its charge is given back, its items dropped),
    // and the block keeps it, empty: moving a vacant tuple in and dropping
    // the old one would copy the block twice and test the tag once more.
    slot.end();
    free_list::keep_or_free(V::kept_blocks(), rc);
}

/// Starts keeping tuple blocks on this thread (a run starts).
pub(crate) fn open_free_list<V: TupleItem>() {
    free_list::open_list(V::kept_blocks());
}

/// Frees the kept tuple blocks and keeps no more (the last run on this
/// thread ended).
pub(crate) fn close_free_list<V: TupleItem>() {
    free_list::close_list(V::kept_blocks());
}

impl<V: TupleItem> Drop for Tuple<V> {
    fn drop(&mut self) {
        self.end();
    }
}

impl<V: TupleItem> Tuple<V> {
    /// Ends the tuple in place: its charge is given back and its items
    /// dropped, leaving it empty and charged nothing (a kept block's
    /// content, which is then never dropped; see [`release`]).
    #[inline]
    fn end(&mut self) {
        memory::credit(self.items.bytes());
        // The items are moved out (leaving `Zero`, whose drop glue is a
        // tag test), so each is dropped exactly once here: a number is
        // forgotten, a string released inline, and only a tuple holding a
        // container pays for the non-recursive queue.
        match std::mem::replace(&mut self.items, Items::Zero) {
            Items::Zero => {}
            Items::One([a]) if !a.is_container() => V::drop_leaf(a),
            Items::Two([a, b]) if !a.is_container() && !b.is_container() => {
                V::drop_leaf(a);
                V::drop_leaf(b);
            }
            Items::Three([a, b, c])
                if !a.is_container() && !b.is_container() && !c.is_container() =>
            {
                V::drop_leaf(a);
                V::drop_leaf(b);
                V::drop_leaf(c);
            }
            // A long tuple's items go in one pass (see [`Item::drop_all`]),
            // as do those of a small tuple holding a container (rare: the
            // queue keeps a deep nest from recursing).
            other => V::drop_all(&mut other.into_vec()),
        }
    }
}

impl<V> Items<V> {
    /// The items as a vector (moved, not copied).
    fn into_vec(self) -> Vec<V> {
        match self {
            Items::Zero => Vec::new(),
            Items::One(a) => a.into(),
            Items::Two(a) => a.into(),
            Items::Three(a) => a.into(),
            Items::Heap(b) => b.into_vec(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Value;

    const TUPLE_BOX: usize = tuple_box::<Value>();

    #[test]
    fn small_tuples_are_one_allocation_of_three_values_and_a_count() {
        assert_eq!(
            std::mem::size_of::<Items<Value>>(),
            3 * std::mem::size_of::<Value>()
        );
        assert_eq!(TUPLE_BOX, 56);
    }

    #[test]
    fn the_charge_is_given_back_exactly_for_every_length() {
        let before = memory::used();
        let mut held = Vec::new();
        for n in 0..7 {
            let items: Vec<Value> = (0..n)
                .map(|i| {
                    if i % 2 == 0 {
                        Value::int(i)
                    } else {
                        // Two characters: one-character strings are shared
                        // for the thread and charged once, when first made.
                        Value::tuple(vec![Value::int(i), Value::str("xy")])
                    }
                })
                .collect();
            held.push(Tuple::new(items));
        }
        held.push(Tuple::pair(Value::None, Value::list(vec![Value::int(1)])));
        held.push(Tuple::triple(Value::int(1), Value::int(2), Value::int(3)));
        assert!(memory::used() > before);
        drop(held);
        assert_eq!(memory::used(), before);
    }

    /// Blocks kept by this thread's tuple free list.
    fn kept() -> usize {
        Value::kept_blocks().with(|f| f.borrow().kept())
    }

    fn pair(a: i64, b: &str) -> TupleRc<Value> {
        TupleRc::new(Tuple::pair(Value::int(a), Value::str(b)))
    }

    #[test]
    fn blocks_are_reused_only_while_a_run_is_open_and_reuse_charges_the_same() {
        let _count = crate::runtime::RunScope::counting();
        // No run: a dropped tuple's block goes back to the allocator.
        drop(pair(1, "ab"));
        assert_eq!(kept(), 0);

        let run = crate::value::pool::PoolScope::enter();
        let fresh = pair(1, "ab");
        let charged = memory::used();
        let first = TupleRc::as_ptr(&fresh);
        drop(fresh);
        assert_eq!(memory::used(), 0);
        assert_eq!(kept(), 1);
        // The next tuple takes the kept block, charged as a fresh one, and
        // holds its own items.
        let again = pair(2, "cd");
        assert_eq!(TupleRc::as_ptr(&again), first);
        assert_eq!(kept(), 0);
        assert_eq!(memory::used(), charged);
        assert!(matches!(again.items.first(), Some(Value::Int(_, 2))));
        // A long tuple's block is the same size and is kept too (its items'
        // slice is freed).
        let long = TupleRc::new(Tuple::new((0..6).map(Value::int).collect()));
        drop(long);
        assert_eq!(kept(), 1);
        drop(again);
        assert_eq!(kept(), 2);
        assert_eq!(memory::used(), 0);

        // Tuples alive at once are distinct objects, kept blocks or not.
        let live: Vec<TupleRc<Value>> = (0..300).map(|i| pair(i, "xy")).collect();
        let mut addrs: Vec<*const Tuple<Value>> = live.iter().map(TupleRc::as_ptr).collect();
        addrs.sort();
        addrs.dedup();
        assert_eq!(addrs.len(), live.len());
        assert!(TupleRc::ptr_eq(&live[0], &live[0].clone()));
        assert!(!TupleRc::ptr_eq(&live[0], &live[1]));
        drop(live);
        assert_eq!(memory::used(), 0);
        assert!(kept() > 0);

        // The run's end frees every kept block, and none is kept after.
        drop(run);
        assert_eq!(kept(), 0);
        drop(pair(3, "ef"));
        assert_eq!(kept(), 0);
        assert_eq!(memory::used(), 0);
    }

    #[test]
    fn a_shared_tuple_is_not_emptied_by_dropping_one_reference() {
        let _count = crate::runtime::RunScope::counting();
        let _run = crate::value::pool::PoolScope::enter();
        let t = pair(7, "gh");
        let other = t.clone();
        assert_eq!(TupleRc::strong_count(&t), 2);
        drop(t);
        assert_eq!(kept(), 0);
        assert_eq!(other.items.len(), 2);
        assert!(matches!(other.items.first(), Some(Value::Int(_, 7))));
        drop(other);
        assert_eq!(kept(), 1);
    }

    #[test]
    fn every_length_keeps_its_items_in_order() {
        for n in 0..6 {
            let items: Vec<Value> = (0..n).map(Value::int).collect();
            let t = Tuple::new(items);
            let got: Vec<i64> = t
                .items
                .iter()
                .map(|v| if let Value::Int(_, i) = v { *i } else { -1 })
                .collect();
            assert_eq!(got, (0..n).collect::<Vec<_>>());
        }
    }
}
