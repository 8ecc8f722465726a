//! Sorts of keys that [`crate::types::list::sort_plan`] found to be all ints, all
//! non-NaN floats or all strings: no Python comparison, no `Result`.
//!
//! Keys are sorted as plain unsigned words with their positions, by the
//! library's unstable sort: the position breaks every tie, so the order is
//! a total one and equals the stable order CPython's sort gives, with no
//! merge buffer. An int or float key maps to a word of the same order;
//! int keys of few distinct values are counted instead (a counting sort);
//! a string is sorted eight bytes at a time (see [`str_order`]). Ints and
//! floats sorted by themselves, which have no identity to keep in order,
//! are sorted in place, without positions at all.

use crate::runtime::error::R;
use crate::runtime::meter;
use crate::value::Value;
use crate::value::ident::{self, Id};

/// Marks a slot whose item [`permute`] has moved into place.
const DONE: u32 = u32::MAX;

/// The keys of a sort as it sees them: a slice, read back to front for a
/// reversed sort (CPython reverses the items, sorts stably and reverses
/// back), so that a sort of a list it must not change needs no reversed
/// copy of it.
#[derive(Clone, Copy)]
pub(crate) struct Keys<'a> {
    items: &'a [Value],
    rev: bool,
}

impl<'a> Keys<'a> {
    /// `items`, in their order or (`rev`) back to front.
    pub(crate) fn new(items: &'a [Value], rev: bool) -> Self {
        Keys { items, rev }
    }

    /// How many keys.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.items.len()
    }

    /// The slice position of the key at `i` in sort order.
    #[inline]
    pub(crate) fn source(&self, i: usize) -> usize {
        if self.rev {
            self.items.len().wrapping_sub(i + 1)
        } else {
            i
        }
    }

    /// The key at `i` in sort order.
    #[inline]
    pub(crate) fn get(&self, i: usize) -> Option<&'a Value> {
        self.items.get(self.source(i))
    }

    /// The keys in sort order.
    pub(crate) fn iter(self) -> impl Iterator<Item = &'a Value> + Clone {
        (0..self.len()).filter_map(move |i| self.get(i))
    }

    /// Whether the keys are read back to front.
    pub(crate) fn is_reversed(&self) -> bool {
        self.rev
    }

    /// The keys as the slice they are (a key plan does not depend on order).
    pub(crate) fn slice(&self) -> &'a [Value] {
        self.items
    }
}

/// A sorted order: for each slot of the result, the position of the item
/// that goes there.
pub(crate) struct Order(Vec<u32>);

impl Order {
    /// The order of these positions.
    pub(super) fn new(positions: Vec<u32>) -> Self {
        Order(positions)
    }

    /// The positions, slot by slot.
    pub(super) fn positions(&self) -> &[u32] {
        &self.0
    }

    fn len(&self) -> usize {
        self.0.len()
    }

    /// The position of the item for slot `i`, marking the slot done
    /// (`None` once it is).
    #[inline]
    fn take(&mut self, i: usize) -> Option<usize> {
        let pos = std::mem::replace(&mut self.0[i], DONE);
        (pos != DONE).then_some(pos as usize)
    }
}

/// Rearranges `items` into `order`, in place: each cycle of the
/// permutation is followed with swaps, so no second buffer of items is
/// needed. `false` when the order does not fit the items.
pub(super) fn permute(items: &mut [Value], mut order: Order) -> bool {
    if order.len() != items.len() {
        return false;
    }
    for start in 0..items.len() {
        let mut cur = start;
        while let Some(src) = order.take(cur) {
            if src == start {
                break;
            }
            if src >= items.len() {
                return false;
            }
            items.swap(cur, src);
            cur = src;
        }
    }
    true
}

/// The positions of a sorted order, alone: [`permute`] reads them in
/// random order, and four bytes each keep more of them in cache than a
/// pair would.
fn positions(sorted: impl Iterator<Item = u32>) -> Order {
    Order(sorted.collect())
}

/// An int mapped to an unsigned word of the same order.
#[inline]
fn int_word(i: i64) -> u64 {
    (i as u64) ^ (1 << 63)
}

/// A non-NaN float mapped to an unsigned word of the same order, with
/// `-0.0` and `0.0` equal (as they are in Python).
#[inline]
fn float_word(f: f64) -> u64 {
    let bits = if f == 0.0 { 0 } else { f.to_bits() };
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | (1 << 63)
    }
}

/// The float of a [`float_word`] (a zero comes back as `0.0`); the tests
/// check the mapping round-trips.
#[cfg(test)]
fn word_float(w: u64) -> f64 {
    f64::from_bits(if w >> 63 == 1 { w & !(1 << 63) } else { !w })
}

/// The first eight bytes of a string as a big-endian word (zero-padded):
/// words that differ order their strings as the strings themselves do.
#[inline]
fn str_word(s: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    let n = s.len().min(8);
    b[..n].copy_from_slice(&s[..n]);
    u64::from_be_bytes(b)
}

fn int_of(v: &Value) -> i64 {
    if let Value::Int(_, i) = v { *i } else { 0 }
}

fn float_of(v: &Value) -> f64 {
    if let Value::Float(_, f) = v {
        f.get()
    } else {
        0.0
    }
}

fn bytes_of(v: &Value) -> &[u8] {
    if let Value::Str(s) = v {
        s.as_str().as_bytes()
    } else {
        b""
    }
}

/// Sorts ints in place. Equal ints are one value but may be distinct
/// objects ([`ident`]), kept in their first order as a stable sort keeps
/// them: a counting sort writes each value back with the ids of its
/// occurrences in order (one id for all, always so for CPython's cached
/// small ints, needs no list of them); otherwise they are sorted where
/// they lie, stably ([`stable_where_they_lie`]).
pub(super) fn ints_in_place(items: &mut [Value]) {
    if let Some((lo, counts, ids)) = count_ints(items.iter(), items.len(), true) {
        // Few distinct values: each written out as often as it occurs.
        let order = ids
            .contains(&MIXED)
            .then(|| ids_in_order(items, lo, &counts));
        let mut slots = items.iter_mut().enumerate();
        for (k, n) in counts.into_iter().enumerate() {
            let v = lo.wrapping_add(k as i64);
            let shared = ids.get(k).copied().unwrap_or(Id::CONST);
            for (at, slot) in slots.by_ref().take(n as usize) {
                let id = match &order {
                    Some(o) if shared == MIXED => o.get(at).copied().unwrap_or(Id::CONST),
                    _ => shared,
                };
                *slot = Value::Int(id, v);
            }
        }
        return;
    }
    // Sorted where they lie: a copy of the ints would cost eight bytes an
    // item at the moment the source and the sorted list are both alive.
    stable_where_they_lie(items, |v| int_of(v) as u64 ^ (1 << 63));
}

/// Marks a value whose occurrences are distinct objects (no real id: ids
/// are made from 1 on and this one would take 2**32 - 1 numbers first).
const MIXED: Id = Id::MAX;

/// The ids of int keys in the order a stable counting sort puts them
/// (four bytes a key, while the sort runs).
fn ids_in_order(items: &[Value], lo: i64, counts: &[u32]) -> Vec<Id> {
    let mut next: Vec<u32> = Vec::with_capacity(counts.len());
    let mut at = 0u32;
    for n in counts {
        next.push(at);
        at += n;
    }
    let mut out = vec![Id::CONST; items.len()];
    for v in items {
        if let Value::Int(id, i) = v {
            let slot = (*i as i128 - lo as i128) as usize;
            if let Some(pos) = next.get_mut(slot) {
                if let Some(o) = out.get_mut(*pos as usize) {
                    *o = *id;
                }
                *pos += 1;
            }
        }
    }
    out
}

/// Sorts numbers where they lie by a word that orders them, as a stable
/// sort would: while the unstable sort runs, each value's id slot holds
/// its position (the ids wait in a side list, four bytes an item), so each
/// run of equal words is then put back in its first order and the ids
/// restored. Equal numbers that are distinct objects can tell the orders
/// apart (`sorted([a, b])[0] is a`); nothing else can.
fn stable_where_they_lie(items: &mut [Value], word: impl Fn(&Value) -> u64) {
    let ids: Vec<Id> = items.iter().map(ident_of).collect();
    for (at, v) in items.iter_mut().enumerate() {
        if let Value::Int(id, _) | Value::Float(id, _) = v {
            *id = Id::at(at);
        }
    }
    items.sort_unstable_by_key(&word);
    // Runs of equal words, each back in its first order (most are pairs).
    let mut start = 0;
    let mut prev = items.first().map(&word);
    for at in 1..=items.len() {
        let w = items.get(at).map(&word);
        if w != prev || w.is_none() {
            match items.get_mut(start..at) {
                Some([a, b]) if id_of(a) > id_of(b) => std::mem::swap(a, b),
                Some(run) if run.len() > 2 => run.sort_unstable_by_key(id_of),
                _ => {}
            }
            start = at;
            prev = w;
        }
    }
    for v in items.iter_mut() {
        if let Value::Int(id, _) | Value::Float(id, _) = v {
            *id = ids.get(id.key() as usize).copied().unwrap_or(Id::CONST);
        }
    }
}

/// Sorts non-NaN floats in place, as a stable sort would (as ints); the
/// only equal floats that differ in value are zeros of both signs, which
/// are put back in their first order.
pub(super) fn floats_in_place(items: &mut [Value]) {
    let zeros: Vec<Value> = items
        .iter()
        .filter(|v| float_of(v) == 0.0)
        .cloned()
        .collect();
    stable_where_they_lie(items, |v| float_word(float_of(v)));
    let first = items.partition_point(|v| float_word(float_of(v)) < float_word(0.0));
    for (slot, z) in items[first..].iter_mut().zip(zeros) {
        *slot = z;
    }
}

/// An int's or float's identity as a sort key.
fn id_of(v: &Value) -> u32 {
    ident_of(v).key()
}

/// The identity of a number (the constants' for anything else).
fn ident_of(v: &Value) -> Id {
    match v {
        Value::Int(id, _) | Value::Float(id, _) => *id,
        _ => Id::CONST,
    }
}

/// The smallest of int keys and how many there are of each value from it
/// on, when the values span no more slots than there are keys (a counting
/// sort then costs two passes, and no more memory than a position each),
/// with the id each value's occurrences share (when `objects`: the values
/// themselves are written back; [`MIXED`] when a value occurs as distinct
/// objects, whose order must then be kept).
fn count_ints<'a>(
    keys: impl Iterator<Item = &'a Value> + Clone,
    n: usize,
    objects: bool,
) -> Option<(i64, Vec<u32>, Vec<Id>)> {
    let (lo, hi) = int_span(keys.clone())?;
    let span = (hi as i128 - lo as i128) as usize;
    if span >= n {
        return None;
    }
    let mut counts = vec![0u32; span + 1];
    let mut ids = vec![Id::CONST; span + 1];
    for k in keys {
        let slot = (int_of(k) as i128 - lo as i128) as usize;
        let id = match k {
            Value::Int(id, i) if objects && !ident::cached_int(*i) => *id,
            _ => Id::CONST,
        };
        if let (Some(c), Some(seen)) = (counts.get_mut(slot), ids.get_mut(slot)) {
            if *c == 0 {
                *seen = id;
            } else if *seen != id {
                *seen = MIXED;
            }
            *c += 1;
        }
    }
    Some((lo, counts, ids))
}

/// The least and greatest of int keys (`None` when there are none).
fn int_span<'a>(keys: impl Iterator<Item = &'a Value>) -> Option<(i64, i64)> {
    keys.map(int_of).fold(None, |acc, k| match acc {
        None => Some((k, k)),
        Some((lo, hi)) => Some((k.min(lo), k.max(hi))),
    })
}

/// The stable order of int keys: a counting sort when they take few
/// values, else packed with their positions into single words when their
/// span fits 32 bits, else as pairs.
pub(super) fn int_order(keys: Keys) -> Order {
    if let Some((lo, counts, _)) = count_ints(keys.iter(), keys.len(), false) {
        // Each value's first slot, then the positions in their order.
        let mut next: Vec<u32> = Vec::with_capacity(counts.len());
        let mut at = 0u32;
        for n in counts {
            next.push(at);
            at += n;
        }
        let mut order = vec![0u32; keys.len()];
        for (i, k) in keys.iter().enumerate() {
            let slot = (int_of(k) as i128 - lo as i128) as usize;
            if let Some(at) = next.get_mut(slot) {
                if let Some(o) = order.get_mut(*at as usize) {
                    *o = i as u32;
                }
                *at += 1;
            }
        }
        return Order(order);
    }
    let Some((lo, hi)) = int_span(keys.iter()) else {
        return Order(Vec::new());
    };
    let span = (hi as i128) - (lo as i128);
    if span < (1 << 32) {
        let mut packed: Vec<u64> = keys
            .iter()
            .enumerate()
            .map(|(i, k)| (((int_of(k) as i128 - lo as i128) as u64) << 32) | i as u64)
            .collect();
        packed.sort_unstable();
        return positions(packed.into_iter().map(|w| w as u32));
    }
    let mut pairs: Vec<(u64, u32)> = keys
        .iter()
        .enumerate()
        .map(|(i, k)| (int_word(int_of(k)), i as u32))
        .collect();
    pairs.sort_unstable();
    positions(pairs.into_iter().map(|p| p.1))
}

/// The stable order of non-NaN float keys.
pub(super) fn float_order(keys: Keys) -> Order {
    let mut pairs: Vec<(u64, u32)> = keys
        .iter()
        .enumerate()
        .map(|(i, k)| (float_word(float_of(k)), i as u32))
        .collect();
    pairs.sort_unstable();
    positions(pairs.into_iter().map(|p| p.1))
}

/// The stable order of string keys (Python compares strings by code
/// point, which is the byte order of their UTF-8).
///
/// Eight bytes at a time, most significant first (a radix sort whose
/// digits are words): the keys are sorted by their first eight bytes as
/// one word, then each run of keys that tie there by their next eight, and
/// so on, each round an unstable sort of `(word, bytes left, position)`
/// whose position breaks ties, so the order is the stable one. A
/// comparison never reaches the text, and a run shrinks at each round.
///
/// Tied runs are resolved depth first (a frame per eight bytes of common
/// prefix, not a list of every pending run), and the digits, kept in one
/// flat buffer, are packed down to their positions in place at the end,
/// the rest of the buffer given back before the caller builds a result.
pub(super) fn str_order(keys: Keys) -> R<Order> {
    let text = |i: u32| keys.get(i as usize).map_or(&b""[..], bytes_of);
    let n = keys.len();
    let mut flat: Vec<u32> = Vec::with_capacity(n.saturating_mul(3));
    for i in 0..n as u32 {
        flat.extend_from_slice(&digit(text(i), 0, i));
    }
    let (digits, _) = flat.as_chunks_mut::<3>();
    digits.sort_unstable();
    // Frames of runs being resolved: (scan position, end, byte offset).
    let mut frames: Vec<(usize, usize, usize)> = vec![(0, digits.len(), 0)];
    while let Some(&(mut i, end, at)) = frames.last() {
        let mut tied = None;
        while i < end {
            let Some(d) = digits.get(i) else { break };
            let (word, left) = ([d[0], d[1]], d[2] >> POS_BITS);
            let rest = digits.get(i + 1..end).unwrap_or_default();
            let j = i + 1 + rest.partition_point(|e| e[..2] == word && e[2] >> POS_BITS == left);
            // Keys with bytes past this word, tied on it: the next word
            // decides. (Fewer than eight bytes left and equal: the keys
            // are equal, their positions already in order.)
            if j - i > 1 && left == 8 {
                tied = Some((i, j));
                i = j;
                break;
            }
            i = j;
        }
        if let Some(top) = frames.last_mut() {
            top.0 = i;
        }
        let Some((start, stop)) = tied else {
            frames.pop();
            continue;
        };
        // A frame whose last run is the tied one has nothing left: the
        // run takes its place, so long equal keys (a word per level) need
        // one frame, not one per word.
        if i >= end {
            frames.pop();
        }
        let Some(run) = digits.get_mut(start..stop) else {
            continue;
        };
        // Each level reads a word of every tied key: work the clock sees.
        meter::tick_n(run.len())?;
        for d in run.iter_mut() {
            let pos = d[2] & POS_MASK;
            *d = digit(text(pos), at + 8, pos);
        }
        run.sort_unstable();
        frames.push((start, stop, at + 8));
    }
    // Each slot's position moves down to slot `i` (from `3i + 2 >= i`).
    for i in 0..n {
        let pos = flat.get(3 * i + 2).map_or(DONE, |p| p & POS_MASK);
        if let Some(slot) = flat.get_mut(i) {
            *slot = pos;
        }
    }
    flat.truncate(n);
    flat.shrink_to_fit();
    Ok(Order(flat))
}

/// Bits of a [`Digit`]'s last word that hold the position.
const POS_BITS: u32 = 28;
const POS_MASK: u32 = (1 << POS_BITS) - 1;

/// The most keys [`str_order`] takes (positions share a word with a
/// count of bytes).
pub(super) const MAX_STR_KEYS: usize = 1 << POS_BITS;

/// One round's sort key of a string, twelve bytes: its eight bytes from an
/// offset as a big-endian word (two halves), then how many of those bytes
/// are its own (a string that ends inside the word comes before one that
/// goes on with zero bytes) above its position.
type Digit = [u32; 3];

fn digit(s: &[u8], at: usize, pos: u32) -> Digit {
    let rest = s.get(at..).unwrap_or(b"");
    let w = str_word(rest);
    let left = rest.len().min(8) as u32;
    [(w >> 32) as u32, w as u32, (left << POS_BITS) | pos]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_keep_the_order_of_their_keys() {
        let ints = [i64::MIN, -5, -1, 0, 1, 7, i64::MAX];
        for w in ints.windows(2) {
            assert!(int_word(w[0]) < int_word(w[1]));
        }
        let floats = [
            f64::NEG_INFINITY,
            -1e300,
            -1.5,
            -5e-324,
            0.0,
            5e-324,
            2.0,
            f64::INFINITY,
        ];
        for w in floats.windows(2) {
            assert!(float_word(w[0]) < float_word(w[1]), "{} {}", w[0], w[1]);
        }
        assert_eq!(float_word(-0.0), float_word(0.0));
    }

    #[test]
    fn strings_sort_by_byte_order_and_stably() {
        let strs: [&[u8]; 12] = [
            b"",
            b"\0",
            b"a",
            b"a\0",
            b"a\0\0\0\0\0\0\0\0",
            b"ab",
            b"abcdefgh",
            b"abcdefgh\0",
            b"abcdefghi",
            b"abcdefgi",
            b"b",
            "é".as_bytes(),
        ];
        let long: Vec<Vec<u8>> = (0..40)
            .map(|n| {
                let mut s = b"ab".repeat(24);
                s.truncate(n);
                if n % 3 == 0 {
                    s.push(b'a' + (n % 5) as u8);
                }
                s
            })
            .collect();
        let all: Vec<&[u8]> = strs
            .into_iter()
            .chain(long.iter().map(|v| &v[..]))
            .collect();
        // Every string twice (ties keep their order), scrambled.
        let items: Vec<&[u8]> = (0..all.len() * 2)
            .map(|i| all[(i * 7) % all.len()])
            .collect();
        let keys: Vec<Value> = items
            .iter()
            .map(|b| Value::str(std::str::from_utf8(b).unwrap_or("?")))
            .collect();
        let mut want: Vec<u32> = (0..items.len() as u32).collect();
        want.sort_by(|&a, &b| items[a as usize].cmp(items[b as usize]));
        let got = str_order(Keys::new(&keys, false))
            .expect("no limit outside a run")
            .0;
        assert_eq!(got, want);
    }

    #[test]
    fn float_words_round_trip() {
        for f in [-1e300, -1.5, -5e-324, 0.0, 5e-324, 2.0, f64::INFINITY] {
            assert_eq!(word_float(float_word(f)).to_bits(), f.to_bits());
        }
    }

    #[test]
    fn counting_and_word_sorts_keep_equal_keys_in_order() {
        // Few values (counting sort), a wide span (packed) and the i64
        // edges (pairs): each order must be the stable one.
        let cases: [Vec<i64>; 3] = [
            (0..200).map(|i| (i * 7) % 5 - 2).collect(),
            (0..200).map(|i| (i * 7919) % 100_003 * 1000).collect(),
            (0..200)
                .map(|i| {
                    if i % 3 == 0 {
                        i64::MIN
                    } else {
                        i64::MAX - i % 2
                    }
                })
                .collect(),
        ];
        for ints in cases {
            let keys: Vec<Value> = ints.iter().map(|&i| Value::int(i)).collect();
            let mut want: Vec<u32> = (0..ints.len() as u32).collect();
            want.sort_by_key(|&i| ints[i as usize]);
            let got = int_order(Keys::new(&keys, false)).0;
            assert_eq!(got, want);
        }
    }
}
