//! What a container asks of the values it holds.
//!
//! Lists, tuples, dicts and sets are generic over their item, so that
//! their representations name no value type. The interpreter's value
//! (`crate::value::Value`), whose variants hold these containers,
//! implements [`Item`], and the containers call it to drop, copy, hash and
//! compare what they hold. Without this seam the value enum and every
//! container would import each other: a dict's lookup needs key equality,
//! and equality of two dicts needs lookup.
//!
//! The calls are static (each container is instantiated once, with the
//! value type), so nothing here costs a dispatch at run time.

use crate::runtime::error::R;
use crate::types::str::StrRc;

/// A value a container can hold.
pub(crate) trait Item: Sized + Clone {
    /// A value owning nothing, left in a slot whose value was taken out.
    fn vacant() -> Self;

    /// Whether the value may hold other values (so dropping it may recurse).
    fn is_container(&self) -> bool;

    /// Drops a value that holds no other values, without the general drop
    /// code where it needs none.
    fn drop_leaf(self);

    /// Drops `items` without recursing into nested containers, leaving the
    /// vector empty (its buffer kept).
    fn drop_all(items: &mut Vec<Self>);

    /// Takes every value that owns heap memory out of `slots` (leaving
    /// [`Item::vacant`]) and drops it, nested containers without recursion.
    fn release_slots<'a>(slots: impl Iterator<Item = &'a mut Self>)
    where
        Self: 'a;

    /// An empty vector with room for `n` values (a pooled buffer when a
    /// large one is free).
    fn buffer(n: usize) -> Vec<Self>;

    /// Keeps an emptied vector's buffer for reuse (a large one, while a
    /// run is in progress).
    fn recycle(items: Vec<Self>);

    /// A copy, with the common scalar kinds copied inline.
    fn clone_item(&self) -> Self;

    /// The value's hash as a key (TypeError when it is unhashable).
    fn hash_key(&self) -> R<i64>;

    /// The hash of a value already stored as a key (so known hashable).
    fn rehash(&self) -> i64;

    /// Key equality inside a table, where hashable keys never fail to compare.
    fn same_key(&self, other: &Self) -> bool;

    /// The string, when the value is one: small dicts scan string keys by
    /// identity and text without hashing them.
    fn as_str_key(&self) -> Option<&StrRc>;

    /// Whether the value's hash is the same in every process (numbers and
    /// tuples of numbers), so that a set of such values iterates in a
    /// known order.
    fn is_deterministic(&self) -> bool;
}

/// Empties a vector whose items need no drop code (plain values, or
/// entries whose values [`Item::release_slots`] has taken out). Popping
/// such an item compiles to nothing, so the loop is a store of the length.
#[inline]
pub(crate) fn forget_plain<T>(items: &mut Vec<T>) {
    while let Some(v) = items.pop() {
        std::mem::forget(v);
    }
}
