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
//! emptied blocks are kept for the next tuples made ([`FreeList`]) rather
//! than handed to the system allocator and asked back from it.

pub(crate) mod methods;
pub(crate) mod ops;

use std::cell::RefCell;
use std::mem::ManuallyDrop;
use std::ops::{Deref, DerefMut};

use crate::runtime::memory;
use crate::value::free_list::{self, FreeList};
use crate::value::{Value, mem};

/// A tuple's items: inline up to three, else on the heap.
pub(crate) enum Items {
    /// `()`
    Zero,
    /// One item.
    One([Value; 1]),
    /// Two items.
    Two([Value; 2]),
    /// Three items.
    Three([Value; 3]),
    /// Four or more items.
    Heap(Box<[Value]>),
}

impl Items {
    /// The items of `v`, inline when they fit.
    fn from_vec(v: Vec<Value>) -> Items {
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
    pub(crate) fn as_slice(&self) -> &[Value] {
        match self {
            Items::Zero => &[],
            Items::One(a) => a,
            Items::Two(a) => a,
            Items::Three(a) => a,
            Items::Heap(b) => b,
        }
    }

    #[inline]
    fn as_mut_slice(&mut self) -> &mut [Value] {
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
            Items::Heap(b) => std::mem::size_of_val::<[Value]>(b),
            _ => 0,
        };
        TUPLE_BOX + heap
    }
}

/// The bytes of a tuple's block: the items and a 4-byte count, padded to
/// the items' alignment (see [`TupleRc`]).
pub(crate) const TUPLE_BOX: usize =
    (std::mem::size_of::<Items>() + 4).next_multiple_of(std::mem::align_of::<Items>());

impl Deref for Items {
    type Target = [Value];

    #[inline]
    fn deref(&self) -> &[Value] {
        self.as_slice()
    }
}

impl DerefMut for Items {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Value] {
        self.as_mut_slice()
    }
}

impl<'a> IntoIterator for &'a Items {
    type Item = &'a Value;
    type IntoIter = std::slice::Iter<'a, Value>;

    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// A tuple's items with their memory charge.
pub(crate) struct Tuple {
    /// The items.
    pub items: Items,
}

impl Tuple {
    /// A tuple of `items`.
    pub(crate) fn new(items: Vec<Value>) -> Self {
        Self::of(Items::from_vec(items))
    }

    /// The pair `(a, b)`, built without an intermediate vector.
    #[inline]
    pub(crate) fn pair(a: Value, b: Value) -> Self {
        Self::of(Items::Two([a, b]))
    }

    /// The triple `(a, b, c)`, built without an intermediate vector.
    #[inline]
    pub(crate) fn triple(a: Value, b: Value, c: Value) -> Self {
        Self::of(Items::Three([a, b, c]))
    }

    #[inline]
    fn of(items: Items) -> Self {
        memory::charge(items.bytes());
        Tuple { items }
    }

    /// The empty tuple a kept block holds ([`FreeList`]): never charged,
    /// and never dropped.
    const fn vacant() -> Self {
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
pub(crate) struct TupleRc(ManuallyDrop<Option<rclite::Rc<Tuple>>>);

impl TupleRc {
    /// A new shared tuple.
    #[inline]
    pub(crate) fn new(t: Tuple) -> Self {
        TupleRc(ManuallyDrop::new(Some(block(t))))
    }

    /// Whether both are the same tuple object.
    #[inline]
    pub(crate) fn ptr_eq(a: &Self, b: &Self) -> bool {
        std::ptr::eq(TupleRc::as_ptr(a), TupleRc::as_ptr(b))
    }

    /// The tuple object's address (its identity).
    #[inline]
    pub(crate) fn as_ptr(this: &Self) -> *const Tuple {
        this.0.as_ref().map_or(std::ptr::null(), rclite::Rc::as_ptr)
    }

    /// How many references hold the tuple.
    #[inline]
    pub(crate) fn strong_count(this: &Self) -> usize {
        this.0.as_ref().map_or(0, rclite::Rc::strong_count)
    }
}

impl Deref for TupleRc {
    type Target = Tuple;

    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn deref(&self) -> &Tuple {
        match &*self.0 {
            Some(t) => t,
            None => dropped(),
        }
    }
}

/// What a tuple being dropped reads as (nothing reads it: `None` is only
/// set inside `drop`). A `static` cannot hold a `Tuple` (its items may
/// hold thread-bound values), so each thread leaks one empty tuple the
/// first time, which never happens.
#[cold]
#[inline(never)]
fn dropped() -> &'static Tuple {
    thread_local! {
        static VACANT: &'static Tuple = Box::leak(Box::new(Tuple::vacant()));
    }
    VACANT.with(|t| *t)
}

impl Clone for TupleRc {
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn clone(&self) -> Self {
        TupleRc(ManuallyDrop::new((*self.0).clone()))
    }
}

impl Drop for TupleRc {
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
/// ([`crate::value::pool::POOL_MAX_BYTES`]).
///
/// A burst is often a whole container's worth (`list(d.items())` of a
/// 5,000-entry dict, `sorted(zip(a, b))`), all dropped together before the
/// next is made: a cap below the burst's size saves only that share of
/// the allocator calls (with 1,024 kept, such a loop was still as slow as
/// with none), so the cap is set to cover bursts of common sizes.
const MAX_FREE_TUPLES: usize = 16 * 1024;

thread_local! {
    /// Tuple blocks kept for the next tuples made ([`FreeList`]).
    static FREE: RefCell<FreeList<Tuple>> =
        const { RefCell::new(FreeList::with_max(MAX_FREE_TUPLES)) };
}

/// A block holding `t`: a kept one when there is one.
#[inline]
fn block(t: Tuple) -> rclite::Rc<Tuple> {
    let kept = free_list::take_kept(&FREE);
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
fn release(mut rc: rclite::Rc<Tuple>) {
    let Some(slot) = rclite::Rc::get_mut(&mut rc) else {
        // Never: the caller holds the last reference.
        return;
    };
    // The tuple ends here (its charge is given back, its items dropped),
    // and the block keeps it, empty: moving a vacant tuple in and dropping
    // the old one would copy the block twice and test the tag once more.
    slot.end();
    free_list::keep_or_free(&FREE, rc);
}

/// Starts keeping tuple blocks on this thread (a run starts).
pub(crate) fn open_free_list() {
    free_list::open_list(&FREE);
}

/// Frees the kept tuple blocks and keeps no more (the last run on this
/// thread ended).
pub(crate) fn close_free_list() {
    free_list::close_list(&FREE);
}

impl Drop for Tuple {
    fn drop(&mut self) {
        self.end();
    }
}

impl Tuple {
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
            Items::One([a]) if !a.is_container() => mem::drop_leaf(a),
            Items::Two([a, b]) if !a.is_container() && !b.is_container() => {
                mem::drop_leaf(a);
                mem::drop_leaf(b);
            }
            Items::Three([a, b, c])
                if !a.is_container() && !b.is_container() && !c.is_container() =>
            {
                mem::drop_leaf(a);
                mem::drop_leaf(b);
                mem::drop_leaf(c);
            }
            // A long tuple's items go in one pass (see `mem::drop_values`),
            // as do those of a small tuple holding a container (rare: the
            // queue keeps a deep nest from recursing).
            other => mem::drop_values(&mut other.into_vec()),
        }
    }
}

impl Items {
    /// The items as a vector (moved, not copied).
    fn into_vec(self) -> Vec<Value> {
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

    #[test]
    fn small_tuples_are_one_allocation_of_three_values_and_a_count() {
        assert_eq!(
            std::mem::size_of::<Items>(),
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
        FREE.with(|f| f.borrow().kept())
    }

    fn pair(a: i64, b: &str) -> TupleRc {
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
        let live: Vec<TupleRc> = (0..300).map(|i| pair(i, "xy")).collect();
        let mut addrs: Vec<*const Tuple> = live.iter().map(TupleRc::as_ptr).collect();
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
