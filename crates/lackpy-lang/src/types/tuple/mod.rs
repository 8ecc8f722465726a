//! Tuples: immutable, with up to three items held inline.
//!
//! Most tuples a program makes are small (pairs from `enumerate`, `zip` and
//! `dict.items()`, rows of two or three fields), so their items live in the
//! tuple itself: one allocation (the `Rc` box) per tuple instead of two,
//! which is both the building cost and the memory a program holding many
//! tuples pays. Longer tuples keep their items in one exact-size slice.

pub(crate) mod methods;
pub(crate) mod ops;

use std::ops::{Deref, DerefMut};

use crate::runtime::memory;
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

    /// The bytes a tuple with these items holds: its `Rc` box, and the
    /// slice of a long tuple.
    fn bytes(&self) -> usize {
        let heap = match self {
            Items::Heap(b) => std::mem::size_of_val::<[Value]>(b),
            _ => 0,
        };
        TUPLE_BOX + heap
    }
}

/// The bytes of a tuple's `Rc` box: the two counts and the items.
pub(crate) const TUPLE_BOX: usize = 2 * std::mem::size_of::<usize>() + std::mem::size_of::<Items>();

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
}

impl Drop for Tuple {
    fn drop(&mut self) {
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
    fn small_tuples_are_one_allocation_of_four_words_and_three_values() {
        assert_eq!(
            std::mem::size_of::<Items>(),
            3 * std::mem::size_of::<Value>()
        );
        assert_eq!(TUPLE_BOX, 64);
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
