//! Python sets, iterating in CPython's order where that order is knowable.
//!
//! CPython iterates a set in the order of its hash table slots. For values
//! whose hash is the same in every process (ints, bools, floats and tuples of
//! them) that order is a pure function of the operations performed, so this
//! module reproduces CPython's table: 8 slots to start, a slot found from
//! `hash & mask`, up to nine linear probes and then perturbed probing, dummy
//! entries left by removals, and a resize to the smallest power of two above
//! four times the live count once the table is three fifths full. `{3, 1, 2}`
//! therefore prints `{1, 2, 3}` and `{16, 0, 8}` lists as `[16, 0, 8]`, as in
//! CPython.
//!
//! Strings and other values hash randomly in CPython, so no order is "right"
//! for them; a set holding any such value switches to insertion order, which
//! is at least stable and unsurprising.

pub(crate) mod methods;
pub(crate) mod ops;

use crate::runtime::error::R;
use crate::runtime::memory;
use crate::runtime::pool::Pool;
use crate::types::dict::{Dict, DictItem};
use crate::types::item::forget_plain;
use std::cell::RefCell;
use std::thread::LocalKey;

const MIN_SIZE: usize = 8;
const LINEAR_PROBES: usize = 9;
const PERTURB_SHIFT: u32 = 5;

/// A slot of the index: 0 is empty, `e + 1` holds entry `e`, and
/// `(e + 1) | DUMMY` is a dummy whose entry `e` is free for reuse.
const DUMMY: u32 = 1 << 31;

/// A member with its hash.
pub(crate) type Entry<V> = (i64, V);

/// A value a set can hold: a [`DictItem`] (a set that must keep its
/// insertion order is a dict underneath) with a thread's pool of emptied
/// entry buffers (a generic type cannot declare a thread-local of its own).
pub(crate) trait SetItem: DictItem {
    /// This thread's pool of entry buffers of sets of `Self`.
    fn entry_pool() -> &'static EntryPool<Self>;
}

/// A thread's pool of emptied entry buffers.
pub(crate) type EntryPool<V> = LocalKey<RefCell<Pool<Entry<V>>>>;

/// CPython's set table, slot for slot, stored compactly: the slots are a
/// `u32` index into a dense array of entries. CPython's slot is 16 bytes
/// (pointer and hash); ours would be 24 (a 16-byte value and the hash),
/// and a table is at most three fifths full, so the split form touches
/// far fewer bytes when a table is built, copied, walked or dropped.
/// An empty index is all zero bytes (a fresh zeroed allocation).
struct Table<V> {
    index: Vec<u32>,
    entries: Vec<Entry<V>>,
    fill: usize,
    used: usize,
    finger: usize,
}

thread_local! {
    static INDEX_POOL: RefCell<Pool<u32>> = const { RefCell::new(Pool::new()) };
}

/// An index of `n` empty slots (a pooled buffer when a large one is free).
fn zeroed_index(n: usize) -> Vec<u32> {
    INDEX_POOL
        .try_with(|p| p.borrow_mut().zeroed(n))
        .unwrap_or_else(|_| vec![0; n])
}

/// An empty entry buffer with room for `n` (pooled when a large one is free).
fn entry_buffer<V: SetItem>(n: usize) -> Vec<Entry<V>> {
    <V as SetItem>::entry_pool()
        .try_with(|p| p.borrow_mut().take(n))
        .unwrap_or_else(|_| Vec::with_capacity(n))
}

/// Hands a table's emptied buffers to the pools.
fn recycle<V: SetItem>(index: Vec<u32>, entries: Vec<Entry<V>>) {
    use crate::runtime::pool::worth_pooling;
    if worth_pooling::<u32>(index.capacity()) {
        let _ = INDEX_POOL.try_with(|p| p.borrow_mut().give(index));
    }
    if worth_pooling::<Entry<V>>(entries.capacity()) {
        let _ = <V as SetItem>::entry_pool().try_with(|p| p.borrow_mut().give(entries));
    }
}

/// Frees the pooled buffers (at the end of a run).
pub(crate) fn release_pools<V: SetItem>() {
    let _ = INDEX_POOL.try_with(|p| p.borrow_mut().clear());
    let _ = <V as SetItem>::entry_pool().try_with(|p| p.borrow_mut().clear());
}

/// A copy of an index.
fn clone_index(index: &[u32]) -> Vec<u32> {
    let mut out = INDEX_POOL
        .try_with(|p| p.borrow_mut().take(index.len()))
        .unwrap_or_else(|_| Vec::with_capacity(index.len()));
    out.extend_from_slice(index);
    out
}

/// Clones entries with scalars copied inline (`a.union(b)`, `s.copy()` of
/// a set of ints is then a plain copying loop).
fn clone_entries<V: SetItem>(entries: &[Entry<V>]) -> Vec<Entry<V>> {
    let mut out = entry_buffer(entries.len());
    out.extend(entries.iter().map(|(h, k)| (*h, k.clone_item())));
    out
}

impl<V: SetItem> Clone for Table<V> {
    fn clone(&self) -> Self {
        Table {
            index: clone_index(&self.index),
            entries: clone_entries(&self.entries),
            fill: self.fill,
            used: self.used,
            finger: self.finger,
        }
    }
}

/// The entry a slot holds, if it is full.
#[inline]
fn full(slot: u32) -> Option<usize> {
    if slot != 0 && slot & DUMMY == 0 {
        Some(slot as usize - 1)
    } else {
        None
    }
}

/// The slot value naming entry `e`.
#[inline]
fn slot_of(e: usize) -> u32 {
    // Entries are bounded by the memory budget far below 2^31.
    (e + 1) as u32
}

impl<V: SetItem> Table<V> {
    fn new() -> Self {
        Table {
            index: vec![0; MIN_SIZE],
            entries: Vec::new(),
            fill: 0,
            used: 0,
            finger: 0,
        }
    }

    #[inline]
    fn mask(&self) -> usize {
        self.index.len() - 1
    }

    /// Bytes held by the index and the entries.
    fn bytes(&self) -> usize {
        self.index.capacity() * std::mem::size_of::<u32>()
            + self.entries.capacity() * std::mem::size_of::<Entry<V>>()
    }

    /// The member in slot `i`, if the slot is full.
    #[inline]
    fn at(&self, i: usize) -> Option<&Entry<V>> {
        full(self.index[i]).map(|e| &self.entries[e])
    }

    /// Members in slot order with their hashes.
    fn members(&self) -> impl Iterator<Item = &Entry<V>> + '_ {
        self.index
            .iter()
            .filter_map(|&s| full(s).map(|e| &self.entries[e]))
    }

    /// The slot holding `key`, if any. The first probe (the only one for
    /// most keys) is tested inline; the probe sequence runs out of line.
    #[inline(always)]
    fn lookup(&self, key: &V, hash: i64) -> Option<usize> {
        let i = (hash as u64 as usize) & self.mask();
        match self.index.get(i) {
            Some(0) => None,
            Some(&s) => match full(s).and_then(|e| self.entries.get(e)) {
                Some((h, k)) if *h == hash && k.same_key(key) => Some(i),
                _ => self.probe(key, hash),
            },
            None => self.probe(key, hash),
        }
    }

    /// [`Table::lookup`]'s whole probe sequence.
    #[inline(never)]
    fn probe(&self, key: &V, hash: i64) -> Option<usize> {
        let mask = self.mask();
        let mut perturb = hash as u64;
        let mut i = (hash as u64 as usize) & mask;
        loop {
            let probes = if i + LINEAR_PROBES <= mask {
                LINEAR_PROBES
            } else {
                0
            };
            for j in 0..=probes {
                let s = self.index[i + j];
                if s == 0 {
                    return None;
                }
                if let Some(e) = full(s) {
                    let (h, k) = &self.entries[e];
                    if *h == hash && k.same_key(key) {
                        return Some(i + j);
                    }
                }
            }
            perturb >>= PERTURB_SHIFT;
            i = (i
                .wrapping_mul(5)
                .wrapping_add(1)
                .wrapping_add(perturb as usize))
                & mask;
        }
    }

    /// `set_add_entry`: returns whether the key was new. A key whose
    /// first slot is empty (no dummy on the way, so that slot is where
    /// the full probe would put it) is placed inline, and one found in
    /// its first slot answered inline.
    #[inline(always)]
    fn add(&mut self, key: V, hash: i64) -> bool {
        let i = (hash as u64 as usize) & self.mask();
        match self.index.get(i) {
            Some(0) => {
                self.place_new(i, key, hash);
                true
            }
            // Already there, in its first slot.
            Some(&s)
                if full(s)
                    .and_then(|e| self.entries.get(e))
                    .is_some_and(|(h, k)| *h == hash && k.same_key(&key)) =>
            {
                false
            }
            _ => self.add_probed(key, hash),
        }
    }

    /// [`Table::add`] through the whole probe sequence.
    #[inline(never)]
    fn add_probed(&mut self, key: V, hash: i64) -> bool {
        let mask = self.mask();
        let mut perturb = hash as u64;
        let mut i = (hash as u64 as usize) & mask;
        let mut freeslot: Option<usize> = None;
        let empty_at = loop {
            let probes = if i + LINEAR_PROBES <= mask {
                LINEAR_PROBES
            } else {
                0
            };
            let mut found = None;
            for j in 0..=probes {
                let s = self.index[i + j];
                if s == 0 {
                    found = Some(i + j);
                    break;
                }
                match full(s) {
                    Some(e) => {
                        let (h, k) = &self.entries[e];
                        if *h == hash && k.same_key(&key) {
                            return false;
                        }
                    }
                    // CPython keeps the last dummy seen on the way to
                    // the empty slot (not the first).
                    None => freeslot = Some(i + j),
                }
            }
            if let Some(e) = found {
                break e;
            }
            perturb >>= PERTURB_SHIFT;
            i = (i
                .wrapping_mul(5)
                .wrapping_add(1)
                .wrapping_add(perturb as usize))
                & mask;
        };
        if let Some(f) = freeslot {
            // The dummy's entry is free: reuse it.
            let slot = self.index[f] & !DUMMY;
            self.entries[slot as usize - 1] = (hash, key);
            self.index[f] = slot;
            self.used += 1;
            return true;
        }
        self.place_new(empty_at, key, hash);
        true
    }

    /// Puts a new member in empty slot `at`, resizing once the table is
    /// three fifths full.
    #[inline(always)]
    fn place_new(&mut self, at: usize, key: V, hash: i64) {
        let mask = self.mask();
        self.push_entry((hash, key));
        self.index[at] = slot_of(self.entries.len() - 1);
        self.fill += 1;
        self.used += 1;
        if self.fill * 5 >= mask * 3 {
            let minused = if self.used > 50_000 {
                self.used * 2
            } else {
                self.used * 4
            };
            self.resize(minused);
        }
    }

    /// Appends an entry, growing the buffer (from the pool when large)
    /// by doubling.
    fn push_entry(&mut self, entry: Entry<V>) {
        if self.entries.len() == self.entries.capacity() {
            let mut bigger = entry_buffer((self.entries.capacity() * 2).max(4));
            bigger.append(&mut self.entries);
            let old = std::mem::replace(&mut self.entries, bigger);
            let _ = <V as SetItem>::entry_pool().try_with(|p| p.borrow_mut().give(old));
        }
        self.entries.push(entry);
    }

    /// `set_insert_clean`: place entry `e` (hash `hash`), known to be
    /// absent, in an index without dummies.
    fn insert_clean(index: &mut [u32], e: usize, hash: i64) {
        let mask = index.len() - 1;
        let mut perturb = hash as u64;
        let mut i = (hash as u64 as usize) & mask;
        loop {
            if index[i] == 0 {
                index[i] = slot_of(e);
                return;
            }
            if i + LINEAR_PROBES <= mask {
                for j in 1..=LINEAR_PROBES {
                    if index[i + j] == 0 {
                        index[i + j] = slot_of(e);
                        return;
                    }
                }
            }
            perturb >>= PERTURB_SHIFT;
            i = (i
                .wrapping_mul(5)
                .wrapping_add(1)
                .wrapping_add(perturb as usize))
                & mask;
        }
    }

    /// Bytes the next insertion may allocate (a resize, or the entries
    /// growing), else 0.
    fn growth_bytes(&self) -> usize {
        let mut bytes = 0;
        if self.entries.len() == self.entries.capacity() {
            bytes += (self.entries.capacity() * 2).max(4) * std::mem::size_of::<Entry<V>>();
        }
        if (self.fill + 1) * 5 < self.mask() * 3 {
            return bytes;
        }
        let used = self.used + 1;
        let minused = if used > 50_000 { used * 2 } else { used * 4 };
        let mut size = MIN_SIZE;
        while size <= minused {
            size <<= 1;
        }
        bytes + size * std::mem::size_of::<u32>() + used * std::mem::size_of::<Entry<V>>()
    }

    /// `set_table_resize`: members are re-placed in the order of their
    /// old slots. Without dummies the entries stay where they are; with
    /// dummies they are compacted (in slot order) as they are re-placed.
    fn resize(&mut self, minused: usize) {
        let mut size = MIN_SIZE;
        while size <= minused {
            size <<= 1;
        }
        let old = std::mem::replace(&mut self.index, zeroed_index(size));
        if self.fill == self.used {
            for &s in &old {
                if let Some(e) = full(s) {
                    Self::insert_clean(&mut self.index, e, self.entries[e].0);
                }
            }
            recycle::<V>(old, Vec::new());
        } else {
            let mut old_entries = std::mem::replace(&mut self.entries, entry_buffer(self.used));
            for &s in &old {
                if let Some(e) = full(s) {
                    let entry = std::mem::replace(&mut old_entries[e], (0, V::vacant()));
                    let h = entry.0;
                    self.entries.push(entry);
                    Self::insert_clean(&mut self.index, self.entries.len() - 1, h);
                }
            }
            recycle(old, old_entries);
        }
        self.fill = self.used;
    }

    /// Empties slot `i` (full) to a dummy, returning its member.
    fn take_slot(&mut self, i: usize) -> V {
        let s = self.index[i];
        self.index[i] = s | DUMMY;
        self.used -= 1;
        std::mem::replace(&mut self.entries[s as usize - 1].1, V::vacant())
    }

    fn discard(&mut self, key: &V, hash: i64) -> Option<V> {
        let at = self.lookup(key, hash)?;
        Some(self.take_slot(at))
    }

    fn pop(&mut self) -> Option<V> {
        if self.used == 0 {
            return None;
        }
        let mask = self.mask();
        let mut i = self.finger & mask;
        while full(self.index[i]).is_none() {
            i += 1;
            if i > mask {
                i = 0;
            }
        }
        self.finger = i + 1;
        Some(self.take_slot(i))
    }

    /// `set_merge` of another table into this one.
    fn merge(&mut self, other: &Table<V>) {
        if other.used == 0 {
            return;
        }
        if self.fill == 0 && other.fill == other.used {
            // Copying into an empty table: when the resize below would
            // give this table the other's size, the result is the other's
            // table as it is, so copy it once (not fill an empty table
            // first and then overwrite it).
            let grow = (self.fill + other.used) * 5 >= self.mask() * 3;
            let mut size = MIN_SIZE;
            while size <= (self.used + other.used) * 2 {
                size <<= 1;
            }
            let mask = if grow { size - 1 } else { self.mask() };
            if mask == other.mask() {
                self.index = clone_index(&other.index);
                self.entries = clone_entries(&other.entries);
                self.fill = other.fill;
                self.used = other.used;
                return;
            }
        }
        if (self.fill + other.used) * 5 >= self.mask() * 3 {
            self.resize((self.used + other.used) * 2);
        }
        if self.fill == 0 && self.mask() == other.mask() && other.fill == other.used {
            self.index.copy_from_slice(&other.index);
            self.entries = clone_entries(&other.entries);
            self.fill = other.fill;
            self.used = other.used;
            return;
        }
        if self.fill == 0 {
            // No fill: the entries are empty.
            self.entries = entry_buffer(other.used);
            for (h, k) in other.members() {
                self.entries.push((*h, k.clone()));
                Self::insert_clean(&mut self.index, self.entries.len() - 1, *h);
            }
            self.fill = other.used;
            self.used = other.used;
            return;
        }
        for (h, k) in other.members() {
            self.add(k.clone(), *h);
        }
    }
}

enum Repr<V: SetItem> {
    Table(Table<V>),
    Ordered(Dict<V>),
}

/// A Python set, generic over its members ([`SetItem`]; the interpreter's
/// sets are `Set<V>`).
pub(crate) struct Set<V: SetItem> {
    repr: Repr<V>,
    charged: usize,
}

impl<V: SetItem> Default for Set<V> {
    fn default() -> Self {
        Set::new()
    }
}

impl<V: SetItem> Set<V> {
    /// An empty set.
    pub(crate) fn new() -> Self {
        let mut s = Set {
            repr: Repr::Table(Table::new()),
            charged: 0,
        };
        s.sync();
        s
    }

    fn sync(&mut self) {
        let now = match &self.repr {
            Repr::Table(t) => t.bytes() + 64,
            Repr::Ordered(_) => 64,
        };
        if now > self.charged {
            memory::charge(now - self.charged);
        } else {
            memory::credit(self.charged - now);
        }
        self.charged = now;
    }

    /// Number of members.
    pub(crate) fn len(&self) -> usize {
        match &self.repr {
            Repr::Table(t) => t.used,
            Repr::Ordered(d) => d.len(),
        }
    }

    /// Membership with a known hash.
    pub(crate) fn contains_h(&self, key: &V, hash: i64) -> bool {
        match &self.repr {
            Repr::Table(t) => t.lookup(key, hash).is_some(),
            Repr::Ordered(d) => d.get_h(key, hash).is_some(),
        }
    }

    /// Membership (TypeError if the key is unhashable).
    pub(crate) fn contains(&self, key: &V) -> R<bool> {
        let h = key.hash_key()?;
        Ok(self.contains_h(key, h))
    }

    /// Adds a member with a known hash; returns whether it was new.
    pub(crate) fn add_h(&mut self, key: V, hash: i64) -> bool {
        if let Repr::Table(t) = &mut self.repr {
            if key.is_deterministic() {
                let before = t.bytes();
                let added = t.add(key, hash);
                if t.bytes() != before {
                    self.sync();
                }
                return added;
            }
            self.make_ordered();
        }
        match &mut self.repr {
            Repr::Ordered(d) => d.insert_h(key, hash, V::vacant()).is_none(),
            Repr::Table(_) => false,
        }
    }

    /// Adds a member (TypeError if it is unhashable; MemoryError if the
    /// table would grow past the budget).
    pub(crate) fn add(&mut self, key: V) -> R<bool> {
        let h = key.hash_key()?;
        let growth = match &self.repr {
            Repr::Table(t) => t.growth_bytes(),
            Repr::Ordered(d) => d.growth_bytes(),
        };
        if growth > 0 && !self.contains_h(&key, h) {
            crate::runtime::meter::ensure(growth)?;
        }
        Ok(self.add_h(key, h))
    }

    fn make_ordered(&mut self) {
        if let Repr::Table(t) = &self.repr {
            let mut d = Dict::new();
            for (h, k) in t.members() {
                d.insert_h(k.clone(), *h, V::vacant());
            }
            self.repr = Repr::Ordered(d);
            self.sync();
        }
    }

    /// Removes a member with a known hash, returning it.
    pub(crate) fn discard_h(&mut self, key: &V, hash: i64) -> Option<V> {
        let out = match &mut self.repr {
            Repr::Table(t) => t.discard(key, hash),
            Repr::Ordered(d) => d.remove_h(key, hash).map(|(k, _)| k),
        };
        self.reset_if_empty();
        out
    }

    /// Removes a member (TypeError if unhashable); returns whether it was there.
    pub(crate) fn discard(&mut self, key: &V) -> R<bool> {
        let h = key.hash_key()?;
        Ok(self.discard_h(key, h).is_some())
    }

    fn reset_if_empty(&mut self) {
        if matches!(self.repr, Repr::Ordered(_)) && self.len() == 0 {
            self.repr = Repr::Table(Table::new());
            self.sync();
        }
    }

    /// Removes and returns an arbitrary member (CPython's choice for tables).
    pub(crate) fn pop(&mut self) -> Option<V> {
        let out = match &mut self.repr {
            Repr::Table(t) => t.pop(),
            Repr::Ordered(d) => {
                let first = d.entry_from(0).map(|(_, k, _)| k.clone())?;
                d.remove(&first).ok().flatten().map(|(k, _)| k)
            }
        };
        self.reset_if_empty();
        out
    }

    /// Removes every member.
    pub(crate) fn clear(&mut self) {
        let finger = match &self.repr {
            Repr::Table(t) => t.finger,
            Repr::Ordered(_) => 0,
        };
        let old = std::mem::replace(&mut self.repr, Repr::Table(Table::new()));
        if let Repr::Table(t) = &mut self.repr {
            t.finger = finger;
        }
        self.sync();
        drop_repr(old);
    }

    /// The member at or after iteration position `pos`, with the next position.
    pub(crate) fn entry_from(&self, pos: usize) -> Option<(usize, &V)> {
        match &self.repr {
            Repr::Table(t) => (pos..t.index.len()).find_map(|p| t.at(p).map(|(_, k)| (p + 1, k))),
            Repr::Ordered(d) => d.entry_from(pos).map(|(p, k, _)| (p, k)),
        }
    }

    /// Members in iteration order.
    pub(crate) fn iter(&self) -> SetIter<'_, V> {
        SetIter { set: self, pos: 0 }
    }

    /// Members in iteration order with their hashes, borrowed (set
    /// algorithms walk one set while building another: no copy of the
    /// members is needed).
    pub(crate) fn hashed(&self) -> impl Iterator<Item = (&V, i64)> + '_ {
        let (table, ordered) = match &self.repr {
            Repr::Table(t) => (Some(t), None),
            Repr::Ordered(d) => (None, Some(d)),
        };
        let table = table
            .into_iter()
            .flat_map(|t| t.members().map(|(h, k)| (k, *h)));
        table.chain(ordered.into_iter().flat_map(|d| d.iter_hashed()))
    }

    /// `set_merge`/`set_update_internal` with another set.
    pub(crate) fn merge(&mut self, other: &Set<V>) {
        match (&mut self.repr, &other.repr) {
            (Repr::Table(me), Repr::Table(them)) => {
                me.merge(them);
                self.sync();
            }
            _ => {
                for (k, h) in other.hashed() {
                    self.add_h(k.clone(), h);
                }
            }
        }
    }

    /// `set.copy()`: a new set built as CPython builds a copy.
    pub(crate) fn copy(&self) -> Set<V> {
        let mut s = Set::new();
        s.merge(self);
        s
    }

    /// A clone with the same table layout (for in-place operations that
    /// CPython performs on the set itself).
    pub(crate) fn copy_exact(&self) -> Set<V> {
        let repr = match &self.repr {
            Repr::Table(t) => Repr::Table(t.clone()),
            Repr::Ordered(d) => Repr::Ordered(d.copy()),
        };
        let mut s = Set { repr, charged: 0 };
        s.sync();
        s
    }

    /// Pre-sizes the table as CPython does before adding `n` dict keys.
    pub(crate) fn reserve_for_dict(&mut self, n: usize) {
        if let Repr::Table(t) = &mut self.repr
            && (t.fill + n) * 5 >= t.mask() * 3
        {
            let used = t.used;
            t.resize((used + n) * 2);
            self.sync();
        }
    }

    /// After removals CPython shrinks a table with many dummies.
    pub(crate) fn compact_after_removals(&mut self) {
        if let Repr::Table(t) = &mut self.repr
            && t.fill - t.used > t.mask() / 4
        {
            let used = t.used;
            t.resize(if used > 50_000 { used * 2 } else { used * 4 });
            self.sync();
        }
    }
}

/// Iterator over a set's members.
pub(crate) struct SetIter<'a, V: SetItem> {
    set: &'a Set<V>,
    pos: usize,
}

impl<'a, V: SetItem> Iterator for SetIter<'a, V> {
    type Item = &'a V;
    fn next(&mut self) -> Option<&'a V> {
        let (p, v) = self.set.entry_from(self.pos)?;
        self.pos = p;
        Some(v)
    }
}

fn drop_repr<V: SetItem>(r: Repr<V>) {
    if let Repr::Table(t) = r {
        // One pass over the dense entries (freed ones hold `None`);
        // members that are containers are dropped without recursion.
        let (index, mut entries) = (t.index, t.entries);
        V::release_slots(entries.iter_mut().map(|(_, k)| k));
        forget_plain(&mut entries);
        recycle(index, entries);
    }
}

impl<V: SetItem> Drop for Set<V> {
    fn drop(&mut self) {
        memory::credit(self.charged);
        let r = std::mem::replace(&mut self.repr, Repr::Ordered(Dict::new()));
        drop_repr(r);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Value;

    type Set = super::Set<Value>;

    fn table(s: &Set) -> &Table<Value> {
        match &s.repr {
            Repr::Table(t) => t,
            Repr::Ordered(_) => panic!("expected a table"),
        }
    }

    #[test]
    fn entries_stay_one_per_filled_slot_through_churn() {
        let mut s = Set::new();
        for i in 0..5000 {
            s.add(Value::int(i)).unwrap();
        }
        for round in 0..4 {
            for i in (round..5000).step_by(3) {
                s.discard(&Value::int(i)).unwrap();
                s.add(Value::int(i * 7 + round)).unwrap();
            }
            let t = table(&s);
            assert_eq!(t.entries.len(), t.fill);
            assert_eq!(t.members().count(), t.used);
            assert_eq!(t.used, s.len());
        }
        while s.pop().is_some() {}
        assert_eq!(table(&s).used, 0);
    }

    #[test]
    fn charges_its_buffers_and_credits_them_on_drop() {
        let _scope = crate::runtime::RunScope::counting();
        let before = memory::used();
        let mut s = Set::new();
        for i in 0..20_000 {
            s.add(Value::int(i)).unwrap();
        }
        let copy = s.copy();
        assert_eq!(memory::used() - before, s.charged + copy.charged);
        assert_eq!(s.charged, table(&s).bytes() + 64);
        drop(s);
        drop(copy);
        assert_eq!(memory::used(), before);
    }
}
