//! Sorts of keys that [`super::sort_plan`] found to be all ints, all
//! non-NaN floats or all strings: no Python comparison, no `Result`.
//!
//! A keyed sort orders `(key word, position)` pairs with the library's
//! unstable sort: the position breaks every tie, so the order is a total
//! one and equals the stable order CPython's sort gives, with no merge
//! buffer; the positions alone are then kept. The key word is the key itself mapped to an unsigned integer of
//! the same order (ints, floats), or the first eight bytes of a string
//! (compared as one big-endian word; equal words fall back to the rest of
//! the text). Values sorted by themselves that have no identity (ints,
//! floats) are sorted in place, without positions at all.

use std::cmp::Ordering;

use crate::value::Value;

/// Marks a slot whose item [`permute`] has moved into place.
const DONE: u32 = u32::MAX;

/// A sorted order: for each slot of the result, the position of the item
/// that goes there.
pub(super) type Order = Vec<u32>;

/// Rearranges `items` into `order`, in place: each cycle of the
/// permutation is followed with swaps, so no second buffer of items is
/// needed. `false` when the order does not fit the items.
pub(super) fn permute(items: &mut [Value], mut order: Order) -> bool {
    if order.len() != items.len() {
        return false;
    }
    for start in 0..items.len() {
        let mut cur = start;
        loop {
            let src = std::mem::replace(&mut order[cur], DONE) as usize;
            if src == DONE as usize || src == start {
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
    sorted.collect()
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

/// The float of a [`float_word`] (a zero comes back as `0.0`).
#[inline]
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
    if let Value::Int(i) = v { *i } else { 0 }
}

fn float_of(v: &Value) -> f64 {
    if let Value::Float(f) = v { *f } else { 0.0 }
}

fn bytes_of(v: &Value) -> &[u8] {
    if let Value::Str(s) = v {
        s.as_str().as_bytes()
    } else {
        b""
    }
}

/// Sorts ints in place (equal ints are indistinguishable, so no
/// stability is needed): sorted as plain words, written back.
pub(super) fn ints_in_place(items: &mut [Value]) {
    if let Some((lo, counts)) = count_ints(items) {
        // Few distinct values: each written out as often as it occurs.
        let mut slots = items.iter_mut();
        for (k, n) in counts.into_iter().enumerate() {
            let v = lo.wrapping_add(k as i64);
            for slot in slots.by_ref().take(n as usize) {
                *slot = Value::Int(v);
            }
        }
        return;
    }
    let mut ints: Vec<i64> = items.iter().map(int_of).collect();
    ints.sort_unstable();
    for (slot, i) in items.iter_mut().zip(ints) {
        *slot = Value::Int(i);
    }
}

/// Sorts non-NaN floats in place, as a stable sort would: sorted as plain
/// words and written back; the only equal floats that differ are zeros of
/// both signs, which are put back in their first order.
pub(super) fn floats_in_place(items: &mut [Value]) {
    let zeros: Vec<Value> = items
        .iter()
        .filter(|v| float_of(v) == 0.0)
        .cloned()
        .collect();
    let mut words: Vec<u64> = items.iter().map(|v| float_word(float_of(v))).collect();
    words.sort_unstable();
    for (slot, w) in items.iter_mut().zip(words) {
        *slot = Value::Float(word_float(w));
    }
    let first = items.partition_point(|v| float_word(float_of(v)) < float_word(0.0));
    for (slot, z) in items[first..].iter_mut().zip(zeros) {
        *slot = z;
    }
}

/// The smallest of int keys and how many there are of each value from it
/// on, when the values span no more slots than there are keys (a counting
/// sort then costs two passes, and no more memory than a position each).
fn count_ints(keys: &[Value]) -> Option<(i64, Vec<u32>)> {
    let (lo, hi) = int_span(keys)?;
    let span = (hi as i128 - lo as i128) as usize;
    if span >= keys.len() {
        return None;
    }
    let mut counts = vec![0u32; span + 1];
    for k in keys {
        let slot = (int_of(k) as i128 - lo as i128) as usize;
        if let Some(c) = counts.get_mut(slot) {
            *c += 1;
        }
    }
    Some((lo, counts))
}

/// The least and greatest of int keys (`None` when there are none).
fn int_span(keys: &[Value]) -> Option<(i64, i64)> {
    keys.iter().map(int_of).fold(None, |acc, k| match acc {
        None => Some((k, k)),
        Some((lo, hi)) => Some((k.min(lo), k.max(hi))),
    })
}

/// The stable order of int keys: a counting sort when they take few
/// values, else packed with their positions into single words when their
/// span fits 32 bits, else as pairs.
pub(super) fn int_order(keys: &[Value]) -> Order {
    if let Some((lo, counts)) = count_ints(keys) {
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
        return order;
    }
    let Some((lo, hi)) = int_span(keys) else {
        return Vec::new();
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
pub(super) fn float_order(keys: &[Value]) -> Order {
    let mut pairs: Vec<(u64, u32)> = keys
        .iter()
        .enumerate()
        .map(|(i, k)| (float_word(float_of(k)), i as u32))
        .collect();
    pairs.sort_unstable();
    positions(pairs.into_iter().map(|p| p.1))
}

/// The stable order of string keys (Python compares strings by code
/// point, which is the byte order of their UTF-8). Positions are sorted
/// stably (many keys may be equal) by each key's first eight bytes, kept
/// beside them, and by the rest of the text when those are equal.
pub(super) fn str_order(keys: &[Value]) -> Order {
    let words: Vec<u64> = keys.iter().map(|k| str_word(bytes_of(k))).collect();
    let mut order: Order = (0..keys.len() as u32).collect();
    let text = |i: u32| keys.get(i as usize).map_or(&b""[..], bytes_of);
    let word = |i: u32| words.get(i as usize).copied().unwrap_or(0);
    order.sort_by(|&a, &b| {
        word(a)
            .cmp(&word(b))
            .then_with(|| rest_cmp(text(a), text(b)))
    });
    order
}

/// The order of two strings whose [`str_word`]s are equal, so are their
/// first min(8, lengths) bytes.
#[inline]
fn rest_cmp(x: &[u8], y: &[u8]) -> Ordering {
    let k = x.len().min(y.len()).min(8);
    x[k..].cmp(&y[k..])
}

/// The three-way order [`str_order`] uses, for tests.
#[cfg(test)]
fn word_then_text(x: &[u8], y: &[u8]) -> Ordering {
    str_word(x).cmp(&str_word(y)).then_with(|| rest_cmp(x, y))
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
    fn string_words_agree_with_byte_order() {
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
        for x in &all {
            for y in &all {
                assert_eq!(word_then_text(x, y), x.cmp(y), "{x:?} {y:?}");
            }
        }
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
            let keys: Vec<Value> = ints.iter().map(|&i| Value::Int(i)).collect();
            let mut want: Vec<u32> = (0..ints.len() as u32).collect();
            want.sort_by_key(|&i| ints[i as usize]);
            assert_eq!(int_order(&keys), want);
        }
    }
}
