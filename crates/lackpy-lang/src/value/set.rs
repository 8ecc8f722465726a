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

use super::dict::Dict;
use super::eq::eq_at;
use super::hash::{hash_value, is_deterministic};
use super::{Value, View, ViewKind, mem};
use crate::value::errors::R;

const MIN_SIZE: usize = 8;
const LINEAR_PROBES: usize = 9;
const PERTURB_SHIFT: u32 = 5;

enum Slot {
    Empty,
    Dummy,
    Full(i64, Value),
}

impl Clone for Slot {
    /// Ints inline: copying a table of ints (`a.union(b)`, `s.copy()`)
    /// is then a plain loop.
    #[inline]
    fn clone(&self) -> Self {
        match self {
            Slot::Empty => Slot::Empty,
            Slot::Dummy => Slot::Dummy,
            Slot::Full(h, Value::Int(i)) => Slot::Full(*h, Value::Int(*i)),
            Slot::Full(h, k) => Slot::Full(*h, k.clone()),
        }
    }
}

/// A table of `n` empty slots, built without cloning a slot per slot
/// (only each slot's tag is written).
fn empty_slots(n: usize) -> Vec<Slot> {
    std::iter::repeat_with(|| Slot::Empty).take(n).collect()
}

/// CPython's set table, slot for slot.
#[derive(Clone)]
struct Table {
    slots: Vec<Slot>,
    fill: usize,
    used: usize,
    finger: usize,
}

#[inline]
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => x == y,
        _ => a.is_same(b) || eq_at(a, b, 0).unwrap_or(false),
    }
}

impl Table {
    fn new() -> Self {
        Table {
            slots: empty_slots(MIN_SIZE),
            fill: 0,
            used: 0,
            finger: 0,
        }
    }

    #[inline]
    fn mask(&self) -> usize {
        self.slots.len() - 1
    }

    fn lookup(&self, key: &Value, hash: i64) -> Option<usize> {
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
                match &self.slots[i + j] {
                    Slot::Empty => return None,
                    Slot::Full(h, k) if *h == hash && same(k, key) => return Some(i + j),
                    _ => {}
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

    /// `set_add_entry`: returns whether the key was new.
    fn add(&mut self, key: Value, hash: i64) -> bool {
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
                match &self.slots[i + j] {
                    Slot::Empty => {
                        found = Some(i + j);
                        break;
                    }
                    Slot::Full(h, k) => {
                        if *h == hash && same(k, &key) {
                            return false;
                        }
                    }
                    Slot::Dummy => {
                        if freeslot.is_none() {
                            freeslot = Some(i + j);
                        }
                    }
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
            self.slots[f] = Slot::Full(hash, key);
            self.used += 1;
            return true;
        }
        self.slots[empty_at] = Slot::Full(hash, key);
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
        true
    }

    /// `set_insert_clean`: place a key known to be absent in a table without dummies.
    fn insert_clean(slots: &mut [Slot], key: Value, hash: i64) {
        let mask = slots.len() - 1;
        let mut perturb = hash as u64;
        let mut i = (hash as u64 as usize) & mask;
        loop {
            if matches!(slots[i], Slot::Empty) {
                slots[i] = Slot::Full(hash, key);
                return;
            }
            if i + LINEAR_PROBES <= mask {
                for j in 1..=LINEAR_PROBES {
                    if matches!(slots[i + j], Slot::Empty) {
                        slots[i + j] = Slot::Full(hash, key);
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

    /// Bytes the next insertion may allocate (a resize), else 0.
    fn growth_bytes(&self) -> usize {
        if (self.fill + 1) * 5 < self.mask() * 3 {
            return 0;
        }
        let used = self.used + 1;
        let minused = if used > 50_000 { used * 2 } else { used * 4 };
        let mut size = MIN_SIZE;
        while size <= minused {
            size <<= 1;
        }
        size * std::mem::size_of::<Slot>()
    }

    /// `set_table_resize`.
    fn resize(&mut self, minused: usize) {
        let mut size = MIN_SIZE;
        while size <= minused {
            size <<= 1;
        }
        let old = std::mem::replace(&mut self.slots, empty_slots(size));
        for s in old {
            if let Slot::Full(h, k) = s {
                Table::insert_clean(&mut self.slots, k, h);
            }
        }
        self.fill = self.used;
    }

    fn discard(&mut self, key: &Value, hash: i64) -> Option<Value> {
        let at = self.lookup(key, hash)?;
        let old = std::mem::replace(&mut self.slots[at], Slot::Dummy);
        self.used -= 1;
        match old {
            Slot::Full(_, k) => Some(k),
            _ => None,
        }
    }

    fn pop(&mut self) -> Option<Value> {
        if self.used == 0 {
            return None;
        }
        let mask = self.mask();
        let mut i = self.finger & mask;
        while !matches!(self.slots[i], Slot::Full(..)) {
            i += 1;
            if i > mask {
                i = 0;
            }
        }
        let old = std::mem::replace(&mut self.slots[i], Slot::Dummy);
        self.used -= 1;
        self.finger = i + 1;
        match old {
            Slot::Full(_, k) => Some(k),
            _ => None,
        }
    }

    /// `set_merge` of another table into this one.
    fn merge(&mut self, other: &Table) {
        if other.used == 0 {
            return;
        }
        if self.fill == 0 && other.fill == other.used {
            // Copying into an empty table: when the resize below would
            // give this table the other's size, the result is the other's
            // slots as they are, so copy them once (not fill an empty
            // table first and then overwrite it).
            let grow = (self.fill + other.used) * 5 >= self.mask() * 3;
            let mut size = MIN_SIZE;
            while size <= (self.used + other.used) * 2 {
                size <<= 1;
            }
            let mask = if grow { size - 1 } else { self.mask() };
            if mask == other.mask() {
                self.slots = other.slots.clone();
                self.fill = other.fill;
                self.used = other.used;
                return;
            }
        }
        if (self.fill + other.used) * 5 >= self.mask() * 3 {
            self.resize((self.used + other.used) * 2);
        }
        if self.fill == 0 && self.mask() == other.mask() && other.fill == other.used {
            self.slots.clone_from(&other.slots);
            self.fill = other.fill;
            self.used = other.used;
            return;
        }
        if self.fill == 0 {
            for s in &other.slots {
                if let Slot::Full(h, k) = s {
                    Table::insert_clean(&mut self.slots, k.clone(), *h);
                }
            }
            self.fill = other.used;
            self.used = other.used;
            return;
        }
        for s in &other.slots {
            if let Slot::Full(h, k) = s {
                self.add(k.clone(), *h);
            }
        }
    }
}

enum Repr {
    Table(Table),
    Ordered(Dict),
}

/// A Python set.
pub(crate) struct Set {
    repr: Repr,
    charged: usize,
}

impl Default for Set {
    fn default() -> Self {
        Set::new()
    }
}

impl Set {
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
            Repr::Table(t) => t.slots.capacity() * std::mem::size_of::<Slot>() + 64,
            Repr::Ordered(_) => 64,
        };
        if now > self.charged {
            mem::charge(now - self.charged);
        } else {
            mem::credit(self.charged - now);
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
    pub(crate) fn contains_h(&self, key: &Value, hash: i64) -> bool {
        match &self.repr {
            Repr::Table(t) => t.lookup(key, hash).is_some(),
            Repr::Ordered(d) => d.get_h(key, hash).is_some(),
        }
    }

    /// Membership (TypeError if the key is unhashable).
    pub(crate) fn contains(&self, key: &Value) -> R<bool> {
        let h = hash_value(key)?;
        Ok(self.contains_h(key, h))
    }

    /// Adds a member with a known hash; returns whether it was new.
    pub(crate) fn add_h(&mut self, key: Value, hash: i64) -> bool {
        if let Repr::Table(t) = &mut self.repr {
            if is_deterministic(&key) {
                let before = t.slots.len();
                let added = t.add(key, hash);
                if t.slots.len() != before {
                    self.sync();
                }
                return added;
            }
            self.make_ordered();
        }
        match &mut self.repr {
            Repr::Ordered(d) => d.insert_h(key, hash, Value::None).is_none(),
            Repr::Table(_) => false,
        }
    }

    /// Adds a member (TypeError if it is unhashable; MemoryError if the
    /// table would grow past the budget).
    pub(crate) fn add(&mut self, key: Value) -> R<bool> {
        let h = hash_value(&key)?;
        let growth = match &self.repr {
            Repr::Table(t) => t.growth_bytes(),
            Repr::Ordered(d) => d.growth_bytes(),
        };
        if growth > 0 && !self.contains_h(&key, h) {
            super::meter::ensure(growth)?;
        }
        Ok(self.add_h(key, h))
    }

    fn make_ordered(&mut self) {
        if let Repr::Table(t) = &self.repr {
            let mut d = Dict::new();
            for s in &t.slots {
                if let Slot::Full(h, k) = s {
                    d.insert_h(k.clone(), *h, Value::None);
                }
            }
            self.repr = Repr::Ordered(d);
            self.sync();
        }
    }

    /// Removes a member with a known hash, returning it.
    pub(crate) fn discard_h(&mut self, key: &Value, hash: i64) -> Option<Value> {
        let out = match &mut self.repr {
            Repr::Table(t) => t.discard(key, hash),
            Repr::Ordered(d) => d.remove_h(key, hash).map(|(k, _)| k),
        };
        self.reset_if_empty();
        out
    }

    /// Removes a member (TypeError if unhashable); returns whether it was there.
    pub(crate) fn discard(&mut self, key: &Value) -> R<bool> {
        let h = hash_value(key)?;
        Ok(self.discard_h(key, h).is_some())
    }

    fn reset_if_empty(&mut self) {
        if matches!(self.repr, Repr::Ordered(_)) && self.len() == 0 {
            self.repr = Repr::Table(Table::new());
            self.sync();
        }
    }

    /// Removes and returns an arbitrary member (CPython's choice for tables).
    pub(crate) fn pop(&mut self) -> Option<Value> {
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
    pub(crate) fn entry_from(&self, pos: usize) -> Option<(usize, &Value)> {
        match &self.repr {
            Repr::Table(t) => {
                let mut p = pos;
                while let Some(s) = t.slots.get(p) {
                    if let Slot::Full(_, k) = s {
                        return Some((p + 1, k));
                    }
                    p += 1;
                }
                None
            }
            Repr::Ordered(d) => d.entry_from(pos).map(|(p, k, _)| (p, k)),
        }
    }

    /// Members in iteration order.
    pub(crate) fn iter(&self) -> SetIter<'_> {
        SetIter { set: self, pos: 0 }
    }

    /// Members in iteration order with their hashes, borrowed (set
    /// algorithms walk one set while building another: no copy of the
    /// members is needed).
    pub(crate) fn hashed(&self) -> impl Iterator<Item = (&Value, i64)> + '_ {
        let (table, ordered) = match &self.repr {
            Repr::Table(t) => (Some(t), None),
            Repr::Ordered(d) => (None, Some(d)),
        };
        let table = table.into_iter().flat_map(|t| {
            t.slots.iter().filter_map(|s| match s {
                Slot::Full(h, k) => Some((k, *h)),
                _ => None,
            })
        });
        table.chain(ordered.into_iter().flat_map(|d| d.iter_hashed()))
    }

    /// `set_merge`/`set_update_internal` with another set.
    pub(crate) fn merge(&mut self, other: &Set) {
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
    pub(crate) fn copy(&self) -> Set {
        let mut s = Set::new();
        s.merge(self);
        s
    }

    /// A clone with the same table layout (for in-place operations that
    /// CPython performs on the set itself).
    pub(crate) fn copy_exact(&self) -> Set {
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

    /// The members of a keys or items view, as a new set.
    pub(crate) fn from_view(v: &View) -> R<Set> {
        let mut s = Set::new();
        let Ok(d) = v.dict.try_borrow() else {
            return Ok(s);
        };
        // A temporary as big as the dict: checked before it is built.
        super::meter::ensure(d.len().saturating_mul(4 * std::mem::size_of::<Slot>()))?;
        match v.kind {
            ViewKind::Keys => {
                s.reserve_for_dict(d.len());
                for (k, h) in d.iter_hashed() {
                    s.add_h(k.clone(), h);
                }
            }
            _ => {
                for (k, val) in d.iter() {
                    s.add(Value::pair(k.clone(), val.clone()))?;
                }
            }
        }
        Ok(s)
    }
}

/// Iterator over a set's members.
pub(crate) struct SetIter<'a> {
    set: &'a Set,
    pos: usize,
}

impl<'a> Iterator for SetIter<'a> {
    type Item = &'a Value;
    fn next(&mut self) -> Option<&'a Value> {
        let (p, v) = self.set.entry_from(self.pos)?;
        self.pos = p;
        Some(v)
    }
}

fn drop_repr(r: Repr) {
    if let Repr::Table(t) = r {
        // One pass over the slots; members that are containers are
        // dropped without recursion.
        mem::drop_all(t.slots.into_iter().filter_map(|s| match s {
            Slot::Full(_, k) => Some(k),
            _ => None,
        }));
    }
}

impl Drop for Set {
    fn drop(&mut self) {
        mem::credit(self.charged);
        let r = std::mem::replace(&mut self.repr, Repr::Ordered(Dict::new()));
        drop_repr(r);
    }
}
