//! Python dicts: insertion-ordered hash maps with Python key semantics.
//!
//! The layout follows the idea of CPython's compact dict: entries sit in an
//! insertion-ordered vector (a removed entry leaves a hole, so order is kept
//! and removal is O(1)), and a separate open-addressing table of entry
//! indices finds a key by its Python hash and Python equality.
//!
//! An entry is just its key and value (32 bytes): no stored hash. An index
//! slot (32 bits) holds the entry's position in its low bits and, in the
//! bits the table's size leaves free, some bits of the hash, so a probe
//! skips a slot of another hash without touching its entry. A rebuild
//! hashes the keys again (an int's hash is its value, a short string's a
//! few multiply rounds). Small dicts have no index: their scan compares
//! keys (a string key first by identity, then by length), so the many small
//! rows a program makes carry no hashes at all.

pub(crate) mod methods;
pub(crate) mod views;

use crate::runtime::error::R;
use crate::runtime::memory;
use crate::runtime::pool::Pool;
use crate::types::item::{Item, forget_plain};
use crate::types::str::StrRc;
use std::cell::RefCell;
use std::thread::LocalKey;

/// An index slot: the entry's position in the low bits (as many as the
/// table has slots), [`tag_bits`] of the hash above. A free slot holds
/// [`EMPTY`], a removed one [`GONE`]; no entry's position is that high (a
/// table holds at most two thirds of its size), so neither is a real slot.
type Slot = u32;
const EMPTY: u32 = u32::MAX;
const GONE: u32 = u32::MAX - 1;

/// Dicts with at most this many entries (holes included) have no index
/// table: a scan of a few entries beats hashing into a table, and saves an
/// allocation for the many small dicts programs make.
const SMALL: usize = 8;

/// One item of a dict.
pub(crate) struct Entry<V> {
    key: V,
    value: V,
}

/// The bits of a hash a slot keeps above a position of `shift` bits.
#[inline]
fn tag_bits(hash: i64, shift: u32) -> u32 {
    (((hash as u64) >> 32) as u32)
        .checked_shl(shift)
        .unwrap_or(0)
}

/// A thread's pool of emptied entry vectors.
pub(crate) type EntryPool<V> = LocalKey<RefCell<Pool<Option<Entry<V>>>>>;

/// A value a dict can hold: an [`Item`] with a thread's pool of emptied
/// entry vectors of large dicts, for the next copy (a generic type cannot
/// declare a thread-local of its own).
pub(crate) trait DictItem: Item + 'static {
    /// This thread's pool of entry vectors of dicts of `Self`.
    fn entry_pool() -> &'static EntryPool<Self>;
}

/// An empty entry vector with room for `n` (pooled when a large one is free).
fn entry_buffer<V: DictItem>(n: usize) -> Vec<Option<Entry<V>>> {
    V::entry_pool()
        .try_with(|p| p.borrow_mut().take(n))
        .unwrap_or_else(|_| Vec::with_capacity(n))
}

/// Frees the pooled entry vectors (at the end of a run).
pub(crate) fn release_pools<V: DictItem>() {
    let _ = V::entry_pool().try_with(|p| p.borrow_mut().clear());
}

/// A Python dict.
///
/// The header is kept to 48 bytes (programs make many small dicts): the
/// index is a boxed slice, counts are `u32` (the budget keeps a dict far
/// below 2**31 entries), the cycle flag shares a word with the slot count,
/// and the bytes charged to the budget are recomputed from the capacities
/// rather than stored.
pub(crate) struct Dict<V: DictItem> {
    entries: Vec<Option<Entry<V>>>,
    index: Box<[Slot]>,
    len: u32,
    /// Index slots in use, removed ones included (they still lengthen
    /// probes), in the low bits; [`CYC`] in the top bit.
    meta: u32,
}

/// The `meta` bit saying the dict is registered for cycle breaking.
const CYC: u32 = 1 << 31;
/// Entry positions stay below this (they must fit beside [`CYC`]).
const MAX_ENTRIES: usize = (CYC - 2) as usize;

impl<V: DictItem> Default for Dict<V> {
    fn default() -> Self {
        Dict {
            entries: Vec::new(),
            index: Box::default(),
            len: 0,
            meta: 0,
        }
    }
}

/// [`Item::same_key`] out of line, for a probe whose hash bits already
/// matched (so it nearly always is the key): the probe loop stays small.
#[inline(never)]
fn same_key_probed<V: Item>(a: &V, b: &V) -> bool {
    a.same_key(b)
}

/// Whether a stored key is the string `k`, the very object.
#[inline(always)]
fn is_str_object<V: Item>(key: &V, k: &StrRc) -> bool {
    key.as_str_key().is_some_and(|x| StrRc::ptr_eq(x, k))
}

/// Whether a stored key is a string with the text of `k`.
#[inline(always)]
fn is_str_text<V: Item>(key: &V, k: &StrRc) -> bool {
    key.as_str_key().is_some_and(|x| x.same_text(k))
}

impl<V: DictItem> Dict<V> {
    /// An empty dict.
    pub(crate) fn new() -> Self {
        Dict::default()
    }

    /// An empty dict with exact room for `n` items (a display's pairs).
    pub(crate) fn with_capacity(n: usize) -> Self {
        let mut d = Dict::new();
        d.presize(n);
        d
    }

    /// Gives a dict that has never held an entry exact room for `n` items
    /// (does nothing to any other dict).
    pub(crate) fn presize(&mut self, n: usize) {
        if self.charged() > 0 || n == 0 {
            return;
        }
        if n > SMALL {
            self.rebuild(n);
        } else {
            self.entries = Vec::with_capacity(n);
            self.settle(0);
        }
    }

    /// Bytes [`Dict::presize`] would allocate for `n` items.
    pub(crate) fn presize_bytes(n: usize) -> usize {
        let mut size = 8;
        while n > SMALL && size * 2 < (n + 1) * 3 {
            size *= 2;
        }
        let (entries, index) = if n > SMALL {
            (usable(size).max(n), size)
        } else {
            (n, 0)
        };
        entries * std::mem::size_of::<Option<Entry<V>>>() + index * SLOT_BYTES + HEADER
    }

    /// Number of items.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the dict is registered for cycle breaking at the end of a run.
    pub(crate) fn cyc(&self) -> bool {
        self.meta & CYC != 0
    }

    /// Marks the dict as registered for cycle breaking.
    pub(crate) fn set_cyc(&mut self, on: bool) {
        if on {
            self.meta |= CYC;
        } else {
            self.meta &= !CYC;
        }
    }

    #[inline]
    fn filled(&self) -> usize {
        (self.meta & !CYC) as usize
    }

    #[inline]
    fn set_filled(&mut self, n: usize) {
        self.meta = (self.meta & CYC) | n as u32;
    }

    /// Bytes this dict holds against the budget (from its capacities).
    #[inline]
    fn cost(&self) -> usize {
        self.entries.capacity() * std::mem::size_of::<Option<Entry<V>>>()
            + self.index.len() * SLOT_BYTES
            + HEADER
    }

    /// Bytes charged now: nothing until the dict first holds an entry
    /// vector or an index (an empty dict costs no allocation), else its cost.
    #[inline]
    fn charged(&self) -> usize {
        if self.entries.capacity() == 0 && self.index.is_empty() {
            0
        } else {
            self.cost()
        }
    }

    /// Charges or credits the change since [`Dict::charged`] was `before`.
    fn settle(&self, before: usize) {
        let now = self.charged();
        if now > before {
            memory::charge(now - before);
        } else {
            memory::credit(before - now);
        }
    }

    /// Position of the key's entry, for small dicts without an index.
    /// A string key (the usual row field) is compared with the string
    /// keys only (no other kind of key equals a string): by identity (a
    /// constant key is the very object the row was built with), then by
    /// length, then by text.
    #[inline]
    fn scan(&self, key: &V) -> Option<usize> {
        if let Some(k) = key.as_str_key() {
            // Identity first over every entry (a key made by the same
            // split or constant is the very object stored: a few pointer
            // compares), then text: keys are unique, so either finds it.
            let by_identity = self
                .entries
                .iter()
                .position(|e| matches!(e, Some(e) if is_str_object(&e.key, k)));
            if by_identity.is_some() {
                return by_identity;
            }
            return self
                .entries
                .iter()
                .position(|e| matches!(e, Some(e) if is_str_text(&e.key, k)));
        }
        self.entries
            .iter()
            .position(|e| matches!(e, Some(e) if e.key.same_key(key)))
    }

    /// The bits of a slot that hold the position, and their count.
    #[inline]
    fn pos_mask(&self) -> (u32, u32) {
        let n = self.index.len();
        ((n.wrapping_sub(1)) as u32, n.trailing_zeros())
    }

    /// The index slot of the key (dicts with an index only).
    #[inline]
    fn find(&self, key: &V, hash: i64) -> Option<usize> {
        if self.index.is_empty() {
            return None;
        }
        let (pmask, shift) = self.pos_mask();
        let tb = tag_bits(hash, shift);
        let mask = self.index.len() - 1;
        let mut perturb = hash as u64;
        let mut i = (hash as u64 as usize) & mask;
        loop {
            let s = *self.index.get(i)?;
            if s == EMPTY {
                return None;
            }
            if s & !pmask == tb
                && s != GONE
                && let Some(Some(e)) = self.entries.get((s & pmask) as usize)
                && same_key_probed(&e.key, key)
            {
                return Some(i);
            }
            perturb >>= 5;
            i = (i
                .wrapping_mul(5)
                .wrapping_add(1)
                .wrapping_add(perturb as usize))
                & mask;
        }
    }

    /// A free index slot for a new entry of this hash.
    fn slot_for_new(&self, hash: i64) -> usize {
        let mask = self.index.len() - 1;
        let mut perturb = hash as u64;
        let mut i = (hash as u64 as usize) & mask;
        loop {
            if self.index.get(i).is_none_or(|&s| s == EMPTY) {
                return i;
            }
            perturb >>= 5;
            i = (i
                .wrapping_mul(5)
                .wrapping_add(1)
                .wrapping_add(perturb as usize))
                & mask;
        }
    }

    /// Sets index slot `i` to the entry at `pos` of this hash.
    #[inline]
    fn put_slot(&mut self, i: usize, hash: i64, pos: usize) {
        let (_, shift) = self.pos_mask();
        if let Some(s) = self.index.get_mut(i) {
            *s = pos as u32 | tag_bits(hash, shift);
        }
    }

    /// The hashes of the live entries, in order (their keys hashed again).
    fn live_hashes(&self) -> Vec<i64> {
        self.entries
            .iter()
            .flatten()
            .map(|e| e.key.rehash())
            .collect()
    }

    fn rebuild(&mut self, min_items: usize) {
        let before = self.charged();
        let hashes = self.live_hashes();
        if self.len() < self.entries.len() {
            self.entries.retain(Option::is_some);
        }
        let mut size = 8;
        while size * 2 < (min_items + 1) * 3 {
            size *= 2;
        }
        self.index = vec![EMPTY; size].into_boxed_slice();
        // The entries grow with the index, to the count it holds before its
        // next rebuild (as CPython sizes its entry array), so a growing dict
        // never copies its entries twice and a copy keeps room to grow.
        let usable = usable(size);
        if self.entries.capacity() < usable {
            if crate::runtime::pool::worth_pooling::<Option<Entry<V>>>(usable) {
                // A large table moves into a pooled buffer and leaves its
                // old one to the pool: a loop that builds a big dict each
                // turn grows it through the buffers the last turn freed,
                // whose pages are already in memory.
                let mut fresh = entry_buffer(usable);
                fresh.append(&mut self.entries);
                let old = std::mem::replace(&mut self.entries, fresh);
                if crate::runtime::pool::worth_pooling::<Option<Entry<V>>>(old.capacity()) {
                    let _ = V::entry_pool().try_with(|p| p.borrow_mut().give(old));
                }
            } else {
                self.entries.reserve_exact(usable - self.entries.len());
            }
        }
        self.reindex(&hashes);
        self.settle(before);
    }

    /// Fills an empty index with the positions of the (packed) entries,
    /// given their hashes (no key is compared).
    fn reindex(&mut self, hashes: &[i64]) {
        self.set_filled(self.len());
        for (n, &h) in hashes.iter().enumerate().take(self.entries.len()) {
            let i = self.slot_for_new(h);
            self.put_slot(i, h, n);
        }
    }

    /// Position of the key's entry.
    #[inline]
    fn position(&self, key: &V, hash: i64) -> Option<usize> {
        if self.index.is_empty() {
            return self.scan(key);
        }
        let i = self.find(key, hash)?;
        Some((*self.index.get(i)? & self.pos_mask().0) as usize)
    }

    /// Looks a key up with its hash already known.
    pub(crate) fn get_h(&self, key: &V, hash: i64) -> Option<&V> {
        match self.entries.get(self.position(key, hash)?) {
            Some(Some(e)) => Some(&e.value),
            _ => None,
        }
    }

    /// Looks a key up (TypeError if it is unhashable).
    pub(crate) fn get(&self, key: &V) -> R<Option<&V>> {
        if self.index.is_empty() && key.as_str_key().is_some() {
            // A small dict is scanned: a string key (always hashable, and
            // not hash-cached) is not hashed for it.
            return Ok(
                match self.entries.get(self.scan(key).unwrap_or(usize::MAX)) {
                    Some(Some(e)) => Some(&e.value),
                    _ => None,
                },
            );
        }
        let h = key.hash_key()?;
        Ok(self.get_h(key, h))
    }

    /// Whether the key is present.
    pub(crate) fn contains(&self, key: &V) -> R<bool> {
        if self.index.is_empty() && key.as_str_key().is_some() {
            return Ok(self.scan(key).is_some());
        }
        let h = key.hash_key()?;
        Ok(self.position(key, h).is_some())
    }

    /// Sets `key` to `value`; an existing key keeps its original key object.
    pub(crate) fn insert_h(&mut self, key: V, hash: i64, value: V) -> Option<V> {
        if let Some(pos) = self.position(&key, hash)
            && let Some(Some(e)) = self.entries.get_mut(pos)
        {
            return Some(std::mem::replace(&mut e.value, value));
        }
        if self.index.is_empty() && self.entries.len() < SMALL {
            self.push(Entry { key, value });
            return None;
        }
        if (self.filled() + 1) * 3 > self.index.len() * 2 || self.entries.len() >= MAX_ENTRIES {
            self.rebuild(self.len() + 1);
        }
        let i = self.slot_for_new(hash);
        self.set_filled(self.filled() + 1);
        self.put_slot(i, hash, self.entries.len());
        self.push(Entry { key, value });
        None
    }

    /// Sets `key` to `value` as [`Dict::insert_h`] does, hashing the key
    /// only when needed: a string key of a small dict (scanned, not
    /// indexed) is not hashed unless the dict outgrows the scan.
    pub(crate) fn put(&mut self, key: V, value: V) -> R<Option<V>> {
        if self.index.is_empty() && key.as_str_key().is_some() {
            if let Some(pos) = self.scan(&key)
                && let Some(Some(e)) = self.entries.get_mut(pos)
            {
                return Ok(Some(std::mem::replace(&mut e.value, value)));
            }
            if self.entries.len() < SMALL {
                self.push(Entry { key, value });
                return Ok(None);
            }
        }
        let h = key.hash_key()?;
        Ok(self.insert_h(key, h, value))
    }

    /// Appends a new entry, charging a growth of the entry vector.
    #[inline]
    fn push(&mut self, e: Entry<V>) {
        if self.entries.len() == self.entries.capacity() {
            let before = self.charged();
            self.entries.push(Some(e));
            self.settle(before);
        } else {
            self.entries.push(Some(e));
        }
        self.len += 1;
    }

    /// Bytes the next insertion of a new key may allocate, else 0 (a
    /// doubling costs about what the dict holds now).
    pub(crate) fn growth_bytes(&self) -> usize {
        let full = self.entries.len() == self.entries.capacity();
        let reindex = !self.index.is_empty() && (self.filled() + 1) * 3 > self.index.len() * 2;
        if full || reindex { self.cost() } else { 0 }
    }

    /// Sets `key` to `value` (TypeError if the key is unhashable; MemoryError
    /// if the dict would grow past the budget).
    pub(crate) fn insert(&mut self, key: V, value: V) -> R<Option<V>> {
        if self.index.is_empty() && key.as_str_key().is_some() {
            // A display's or a row's string keys: scanned, not hashed.
            let growth = self.growth_bytes();
            if growth > 0 && self.scan(&key).is_none() {
                crate::runtime::meter::ensure(growth)?;
            }
            return self.put(key, value);
        }
        let h = key.hash_key()?;
        let growth = self.growth_bytes();
        if growth > 0 && self.position(&key, h).is_none() {
            crate::runtime::meter::ensure(growth)?;
        }
        Ok(self.insert_h(key, h, value))
    }

    /// Removes a key, returning its key and value.
    pub(crate) fn remove_h(&mut self, key: &V, hash: i64) -> Option<(V, V)> {
        let ix = if self.index.is_empty() {
            self.scan(key)?
        } else {
            let i = self.find(key, hash)?;
            let pmask = self.pos_mask().0;
            let s = self.index.get_mut(i)?;
            let ix = (*s & pmask) as usize;
            *s = GONE;
            ix
        };
        let e = self.entries.get_mut(ix)?.take()?;
        self.len -= 1;
        // Trailing holes can go at once; this keeps `popitem` loops cheap.
        while matches!(self.entries.last(), Some(None)) {
            self.entries.pop();
        }
        Some((e.key, e.value))
    }

    /// Removes a key (TypeError if it is unhashable).
    pub(crate) fn remove(&mut self, key: &V) -> R<Option<(V, V)>> {
        let h = key.hash_key()?;
        Ok(self.remove_h(key, h))
    }

    /// Removes and returns the last item.
    pub(crate) fn pop_last(&mut self) -> Option<(V, V)> {
        let key = self.entries.iter().rev().flatten().next()?.key.clone();
        let hash = key.rehash();
        self.remove_h(&key, hash)
    }

    /// Removes every item.
    pub(crate) fn clear(&mut self) {
        let before = self.charged();
        let old = std::mem::take(&mut self.entries);
        self.index = Box::default();
        self.set_filled(0);
        self.len = 0;
        self.settle(before);
        drop_entries(old);
    }

    /// The item at or after entry position `pos`, with the next position.
    #[inline]
    pub(crate) fn entry_from(&self, mut pos: usize) -> Option<(usize, &V, &V)> {
        while let Some(slot) = self.entries.get(pos) {
            if let Some(e) = slot {
                return Some((pos + 1, &e.key, &e.value));
            }
            pos += 1;
        }
        None
    }

    /// The item at or before entry position `pos` counting from the end
    /// (`back` is how many positions from the end to skip).
    pub(crate) fn entry_back_from(&self, back: usize) -> Option<(usize, &V, &V)> {
        let n = self.entries.len();
        let mut b = back;
        while b < n {
            if let Some(Some(e)) = self.entries.get(n - 1 - b) {
                return Some((b + 1, &e.key, &e.value));
            }
            b += 1;
        }
        None
    }

    /// Items in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&V, &V)> {
        self.entries.iter().flatten().map(|e| (&e.key, &e.value))
    }

    /// The keys in order, or the values (`values`).
    #[inline]
    pub(crate) fn column(&self, values: bool) -> impl Iterator<Item = &V> {
        self.entries
            .iter()
            .flatten()
            .map(move |e| if values { &e.value } else { &e.key })
    }

    /// Items in order from entry position `pos` (as [`Dict::entry_from`]
    /// walks them).
    pub(crate) fn iter_from(&self, pos: usize) -> impl Iterator<Item = (&V, &V)> {
        self.entries
            .get(pos..)
            .unwrap_or_default()
            .iter()
            .flatten()
            .map(|e| (&e.key, &e.value))
    }

    /// The entry position past the last item.
    pub(crate) fn end_pos(&self) -> usize {
        self.entries.len()
    }

    /// Keys in order with their hashes (hashed again: a string's hash is
    /// cached, an int's is its value; the rest were hashed once already).
    pub(crate) fn iter_hashed(&self) -> impl Iterator<Item = (&V, i64)> {
        self.entries
            .iter()
            .flatten()
            .map(|e| (&e.key, e.key.rehash()))
    }

    /// Items in order with their keys' hashes (as [`Dict::iter_hashed`]).
    pub(crate) fn iter_with_hashes(&self) -> impl Iterator<Item = (&V, i64, &V)> {
        self.entries
            .iter()
            .flatten()
            .map(|e| (&e.key, e.key.rehash(), &e.value))
    }

    /// A shallow copy.
    pub(crate) fn copy(&self) -> Dict<V> {
        if self.len() == self.entries.len() {
            // No removed entries: the copy is the same table, entries and
            // index as they are (CPython clones such a dict's keys too).
            // The copy keeps the room to grow that the index allows, so
            // adding a few keys to it does not reallocate the entries.
            // (A map over the slice has an exact length: each entry is
            // built in place, with no capacity check.)
            let mut entries = entry_buffer(self.len().max(usable(self.index.len())));
            entries.extend(self.entries.iter().map(|e| e.as_ref().map(Entry::cloned)));
            let d = Dict {
                entries,
                index: self.index.clone(),
                len: self.len,
                meta: self.filled() as u32,
            };
            d.settle(0);
            return d;
        }
        // Holes: the live entries, packed, under a fresh index (each key
        // is placed by its hash; no key is compared).
        let hashes = self.live_hashes();
        let mut d = Dict::new();
        if self.len() > SMALL {
            d.rebuild(self.len());
        } else {
            d.entries = Vec::with_capacity(self.len());
        }
        let before = d.charged();
        d.entries
            .extend(self.entries.iter().flatten().map(|e| Some(e.cloned())));
        d.len = self.len;
        if !d.index.is_empty() {
            d.reindex(&hashes);
        }
        d.settle(before);
        d
    }
}

impl<V: Item> Entry<V> {
    /// A copy of the entry (the key and value cloned inline: an
    /// out-of-line clone returns its value through memory, and reloading
    /// it whole stalls on every entry).
    #[inline(always)]
    fn cloned(&self) -> Entry<V> {
        Entry {
            key: self.key.clone_item(),
            value: self.value.clone_item(),
        }
    }
}

/// Entries an index table of `size` slots holds before it is rebuilt.
#[inline]
fn usable(size: usize) -> usize {
    size * 2 / 3
}

/// Bytes a copy of `d` takes (checked against the budget before copying).
pub(crate) fn copy_bytes<V: DictItem>(d: &Dict<V>) -> usize {
    d.entries.len().max(usable(d.index.len())) * std::mem::size_of::<Option<Entry<V>>>()
        + d.index.len() * SLOT_BYTES
        + HEADER
}

/// Bytes of one index slot.
const SLOT_BYTES: usize = std::mem::size_of::<Slot>();

/// Bytes charged for a dict besides its entries and index.
const HEADER: usize = 64;

/// Drops every key and value in one pass (containers without recursion).
fn drop_entries<V: DictItem>(mut entries: Vec<Option<Entry<V>>>) {
    V::release_slots(Slots {
        entries: entries.iter_mut(),
        value: None,
    });
    // What is left holds no heap values: emptied in constant time.
    forget_plain(&mut entries);
    if crate::runtime::pool::worth_pooling::<Option<Entry<V>>>(entries.capacity()) {
        let _ = V::entry_pool().try_with(|p| p.borrow_mut().give(entries));
    }
}

/// The key and value slots of the entries, one after the other (a plain
/// loop: a `flatten().flat_map()` chain cost half again as many
/// instructions per entry when the optimiser left its `next` out of line).
struct Slots<'a, V, I> {
    entries: I,
    value: Option<&'a mut V>,
}

impl<'a, V: 'a, I: Iterator<Item = &'a mut Option<Entry<V>>>> Iterator for Slots<'a, V, I> {
    type Item = &'a mut V;

    #[inline]
    fn next(&mut self) -> Option<&'a mut V> {
        if let Some(v) = self.value.take() {
            return Some(v);
        }
        loop {
            if let Some(e) = self.entries.next()? {
                self.value = Some(&mut e.value);
                return Some(&mut e.key);
            }
        }
    }
}

impl<V: DictItem> Drop for Dict<V> {
    fn drop(&mut self) {
        memory::credit(self.charged());
        drop_entries(std::mem::take(&mut self.entries));
    }
}

/// Which view of a dict.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum ViewKind {
    /// `d.keys()`
    Keys,
    /// `d.values()`
    Values,
    /// `d.items()`
    Items,
}

/// A live view of a dict (its operations are in [`views`]).
pub(crate) struct View<V: DictItem> {
    /// The dict it shows.
    pub dict: std::rc::Rc<RefCell<Dict<V>>>,
    /// Which view.
    pub kind: ViewKind,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Value;
    use crate::value::hash::hash_value;

    type Dict = super::Dict<Value>;

    /// The many small dicts of a program are one 80-byte block (the `Rc`
    /// counts, the `RefCell` flag and this header) plus their entries.
    #[test]
    fn header_and_entry_sizes() {
        assert_eq!(std::mem::size_of::<Dict>(), 48);
        assert_eq!(std::mem::size_of::<Option<Entry<Value>>>(), 32);
    }

    /// Positions and hash bits share a slot at every table size: keys are
    /// found after growth past 2**17 slots, removals, reinsertion and a
    /// copy of a table with holes (which places its keys by hash again).
    #[test]
    fn slots_hold_positions_and_hash_bits_at_every_size() {
        let key = |i: i64| {
            if i % 2 == 0 {
                Value::int(i * 7919)
            } else {
                Value::str(format!("k{i}"))
            }
        };
        let mut d = Dict::new();
        for i in 0..100_000 {
            let k = key(i);
            let h = hash_value(&k).unwrap_or(0);
            d.insert_h(k, h, Value::int(i));
        }
        for i in (0..100_000).step_by(3) {
            let k = key(i);
            let h = hash_value(&k).unwrap_or(0);
            assert!(d.remove_h(&k, h).is_some());
        }
        let copy = d.copy();
        for i in (0..100_000).step_by(6) {
            let k = key(i);
            let h = hash_value(&k).unwrap_or(0);
            d.insert_h(k, h, Value::int(-i));
        }
        for i in 0..100_000 {
            let k = key(i);
            let h = hash_value(&k).unwrap_or(0);
            let want = if i % 6 == 0 {
                Some(-i)
            } else if i % 3 == 0 {
                None
            } else {
                Some(i)
            };
            let got = d
                .get_h(&k, h)
                .map(|v| matches!(v, Value::Int(_, x) if Some(*x) == want));
            assert_eq!(got.is_some(), want.is_some(), "key {i}");
            assert!(got.unwrap_or(true), "value of key {i}");
            assert_eq!(copy.get_h(&k, h).is_some(), i % 3 != 0, "copy, key {i}");
        }
        // Reinserted keys went to the end, in order.
        let all: Vec<i64> = d
            .iter()
            .filter_map(|(_, v)| match v {
                Value::Int(_, x) => Some(*x),
                _ => None,
            })
            .collect();
        assert_eq!(all[all.len() - 3..], [-99_984, -99_990, -99_996][..]);
    }

    /// A display's dict has exact room, and the budget sees every byte
    /// back when it is cleared and dropped.
    #[test]
    fn exact_room_and_balanced_charges() {
        let before = memory::used();
        let mut d = Dict::with_capacity(3);
        for i in 0..3 {
            d.insert_h(Value::int(i), i, Value::int(i));
        }
        assert_eq!(d.entries.capacity(), 3);
        d.insert_h(Value::int(9), 9, Value::None);
        d.clear();
        assert_eq!(memory::used(), before);
        let mut big = Dict::with_capacity(40);
        for i in 0..100 {
            big.insert_h(Value::int(i), i, Value::None);
        }
        let copy = big.copy();
        drop(big);
        drop(copy);
        drop(d);
        assert_eq!(memory::used(), before);
    }
}
