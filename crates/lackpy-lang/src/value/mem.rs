//! Dropping values: what they held is credited to the run's memory count
//! ([`crate::runtime::memory`]), iteratively.
//!
//! Dropping a deeply nested container would recurse once per level in Rust;
//! containers hand their children to [`drop_values`], which drops them from
//! a queue instead, so a million-deep list is freed without deep recursion.

use std::cell::{Cell, RefCell};

use super::Value;
use crate::types::item::forget_plain;

thread_local! {
    static QUEUE: RefCell<Vec<Value>> = const { RefCell::new(Vec::new()) };
    static DRAINING: Cell<bool> = const { Cell::new(false) };
}

/// Drops a value that holds no other values (a number, a string, a big
/// int...): plain values need no drop code at all, a string's count is
/// released inline.
#[inline(always)]
pub(crate) fn drop_leaf(v: Value) {
    match v {
        Value::Str(s) => drop(s),
        v if v.is_plain() => std::mem::forget(v),
        v => drop(v),
    }
}

/// Drops `items` without recursing into nested containers, leaving the
/// vector empty (its buffer kept).
///
/// A tight scan finds the first item that owns heap memory (a tag test per
/// item); from there, each such item is taken out (leaving `None`): strings
/// and other leaves are released in place and the first deep container
/// hands the rest to [`drop_queued`]. What is left then needs no drop code,
/// and [`forget_plain`] empties it in constant time. A list of numbers is
/// thus freed by one scan, with no per-item dispatch.
pub(crate) fn drop_values(items: &mut Vec<Value>) {
    if let Some(first) = first_heap(items) {
        release_heap(items.get_mut(first..).unwrap_or_default());
    }
    forget_plain(items);
}

/// The index of the first item that owns heap memory. Each block of 16
/// is tested without branching: the tags are or-ed together (one `or` per
/// item; plain tags are exactly those below [`super::PLAIN_TAGS`], a power
/// of two), much faster than `position`, which branches on every item.
#[inline]
fn first_heap(items: &[Value]) -> Option<usize> {
    // Blocks of an exact length unroll fully (a ragged last block would
    // leave part of each block to a scalar loop).
    let mut blocks = items.chunks_exact(16);
    let mut base = 0;
    for block in &mut blocks {
        if block.iter().fold(0, |tags, v| tags | v.tag()) >= super::PLAIN_TAGS {
            return block.iter().position(|v| !v.is_plain()).map(|i| base + i);
        }
        base += block.len();
    }
    let rest = blocks.remainder();
    rest.iter().position(|v| !v.is_plain()).map(|i| base + i)
}

/// Takes every heap-owning item out of `items` (leaving `None`) and drops
/// it, queueing deep containers.
#[inline(never)]
fn release_heap(items: &mut [Value]) {
    release_slots(items.iter_mut());
}

/// Takes every heap-owning value out of `slots` (leaving `None`) and drops
/// it: strings and leaves in place, deep containers through the queue.
/// Walking slots by reference moves only the values that own something
/// (an iterator that moves every value out, such as the entries of a
/// dict, copies each 16 bytes through the stack).
pub(crate) fn release_slots<'a>(slots: impl Iterator<Item = &'a mut Value>) {
    let mut rest = slots.filter(|s| !s.is_plain());
    while let Some(slot) = rest.next() {
        match std::mem::replace(slot, Value::None) {
            Value::Str(s) => drop(s),
            v if v.is_container() && !is_shallow(&v) => {
                let rest = rest.map(|s| std::mem::replace(s, Value::None));
                return drop_queued(v, rest);
            }
            v => drop(v),
        }
    }
}

/// Whether dropping this container here cannot recurse more than one
/// level: another reference keeps it alive, or it is a tuple of leaves
/// (such as the pairs of a list built from `zip` or `enumerate`).
#[inline]
fn is_shallow(v: &Value) -> bool {
    match v {
        Value::Tuple(t) => {
            super::TupleRc::strong_count(t) > 1 || !t.items.iter().any(Value::is_container)
        }
        Value::List(l) => std::rc::Rc::strong_count(l) > 1,
        Value::Dict(d) => std::rc::Rc::strong_count(d) > 1,
        Value::Set(s) => std::rc::Rc::strong_count(s) > 1,
        _ => false,
    }
}

/// Queues `first` and the containers among `rest`, dropping the other
/// values in place, then drains the queue unless an outer call already is.
#[inline(never)]
fn drop_queued(first: Value, rest: impl Iterator<Item = Value>) {
    let queued = QUEUE.with(|q| match q.try_borrow_mut() {
        Ok(mut q) => {
            q.push(first);
            for v in rest {
                if v.is_container() && !is_shallow(&v) {
                    q.push(v);
                }
            }
            true
        }
        // Only reachable while the queue itself is being resized: drop
        // normally (a nested container then recurses).
        Err(_) => {
            drop(first);
            rest.for_each(drop);
            false
        }
    });
    if !queued || DRAINING.with(|d| d.get()) {
        return;
    }
    DRAINING.with(|d| d.set(true));
    loop {
        let next = QUEUE.with(|q| q.try_borrow_mut().ok().and_then(|mut q| q.pop()));
        match next {
            Some(v) => drop(v),
            None => break,
        }
    }
    DRAINING.with(|d| d.set(false));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::memory::used;

    /// A list mixing every kind of item: scalars, strings, big ints, a
    /// shared list and a deep chain of nested lists and tuples.
    fn mixed(shared: &Value) -> Vec<Value> {
        let mut deep = Value::list(Vec::new());
        for i in 0..2000 {
            deep = Value::list(vec![
                deep,
                Value::tuple(vec![Value::int(i), Value::list(vec![])]),
            ]);
        }
        vec![
            Value::int(1),
            Value::str("some text"),
            Value::float(f64::NAN),
            Value::from_big(num_bigint::BigInt::from(i64::MAX) * 4),
            shared.clone(),
            Value::None,
            deep,
            Value::Bool(true),
            Value::str("more text"),
        ]
    }

    #[test]
    fn drop_values_credits_every_charge_and_keeps_shared_items() {
        let _scope = crate::runtime::RunScope::counting();
        let shared = Value::list(vec![Value::str("kept"), Value::int(7)]);
        let before = used();
        let mut items = mixed(&shared);
        assert!(used() > before);
        drop_values(&mut items);
        assert!(items.is_empty());
        assert_eq!(used(), before);
        let Value::List(l) = &shared else {
            unreachable!()
        };
        assert_eq!(std::rc::Rc::strong_count(l), 1);
        assert_eq!(l.borrow().items.len(), 2);
    }

    #[test]
    fn plain_tags_are_exactly_those_below_the_power_of_two() {
        let shared = Value::list(vec![]);
        let mut every = mixed(&shared);
        every.extend([
            Value::Type(crate::syntax::catalog::TypeId::Int),
            Value::Builtin(crate::syntax::catalog::BuiltinId::Len),
            Value::Ellipsis,
            Value::NotImplemented,
            Value::Bytes(std::rc::Rc::new(crate::types::bytes::PyBytes::new(vec![1]))),
            Value::Range(std::rc::Rc::new(super::super::Range::Small {
                start: 0,
                stop: 3,
                step: 1,
            })),
            Value::dict(super::super::Dict::new()),
            Value::set(super::super::Set::new()),
            Value::pair(Value::int(1), Value::None),
        ]);
        for v in &every {
            assert_eq!(v.tag() < super::super::PLAIN_TAGS, v.is_plain());
        }
        // A block is plain exactly when the or of its tags is.
        for (i, v) in every.iter().enumerate() {
            let block = [
                Value::int(3),
                Value::float(1.0),
                v.clone(),
                Value::Bool(true),
            ];
            assert_eq!(
                first_heap(&block).is_none(),
                v.is_plain(),
                "item {i} of the mixed run"
            );
        }
        drop_values(&mut every);
    }

    #[test]
    fn drop_values_of_plain_items_only_empties() {
        let mut items: Vec<Value> = (0..1000).map(Value::int).collect();
        items.push(Value::float(-0.0));
        let cap = items.capacity();
        drop_values(&mut items);
        assert!(items.is_empty());
        assert_eq!(items.capacity(), cap);
    }
}
