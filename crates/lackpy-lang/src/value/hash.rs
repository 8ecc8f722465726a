//! Python hashing for dict keys and set members.
//!
//! Numbers hash as CPython hashes them (the value modulo 2**61 - 1, so that
//! `1`, `1.0` and `True` are one key), tuples combine their items' hashes
//! with CPython's xxHash-based scheme. These hashes are deterministic in
//! CPython, which is what makes the iteration order of a set of ints
//! predictable; [`is_deterministic`] tells the set which values those are.
//! Strings hash randomly in CPython, so any good hash does for them.

use num_bigint::Sign;

use super::Value;
use crate::runtime::error::{Exc, R};

const MODULUS: u64 = (1 << 61) - 1;
const HASH_BITS: u32 = 61;
const HASH_INF: i64 = 314_159;
const XXPRIME_1: u64 = 11_400_714_785_074_694_791;
const XXPRIME_2: u64 = 14_029_467_366_897_019_727;
const XXPRIME_5: u64 = 2_870_177_450_012_600_261;

/// Nesting depth past which hashing a tuple gives up with RecursionError.
const MAX_DEPTH: u32 = 500;

/// Python `hash(v)`, or TypeError for unhashable values.
#[inline]
pub(crate) fn hash_value(v: &Value) -> R<i64> {
    // The common keys inline: a string, a small int.
    match v {
        Value::Str(s) => Ok(hash_str(s)),
        Value::Int(_, i) => Ok(hash_i64(*i)),
        _ => hash_at(v, 0, true),
    }
}

/// The hash of a key a table already holds (so hashed once before, which
/// counted its work and checked its depth): the same value as
/// [`hash_value`], counting no work and never failing.
#[inline]
pub(crate) fn rehash(v: &Value) -> i64 {
    match v {
        Value::Str(s) => hash_str(s),
        Value::Int(_, i) => hash_i64(*i),
        _ => hash_at(v, 0, false).unwrap_or(0),
    }
}

/// The hash of `v` at tuple nesting `depth`; `counted` says whether the
/// work is counted and the depth checked (the first time a key is hashed).
fn hash_at(v: &Value, depth: u32, counted: bool) -> R<i64> {
    Ok(match v {
        Value::None => 0x0fed_cba9_8765,
        Value::Bool(b) => *b as i64,
        Value::Int(_, i) => hash_i64(*i),
        Value::Big(b) => hash_big(&b.0),
        Value::Float(_, f) => hash_f64(f.get()),
        Value::Complex(c) => {
            let h =
                (hash_f64(c.0) as u64).wrapping_add((hash_f64(c.1) as u64).wrapping_mul(1_000_003));
            fix(h as i64)
        }
        Value::Str(s) => hash_str(s),
        Value::Bytes(b) => hash_bytes(b),
        Value::Tuple(t) => {
            if counted && (depth > MAX_DEPTH || crate::runtime::stack::exhausted()) {
                return Err(Exc::recursion(
                    "maximum recursion depth exceeded while calling a Python object",
                ));
            }
            let mut acc = XXPRIME_5;
            for item in &t.items {
                // Bounded like comparison: a tuple DAG hashes every path.
                if counted {
                    crate::runtime::meter::tick()?;
                }
                let lane = hash_at(item, depth + 1, counted)? as u64;
                acc = acc.wrapping_add(lane.wrapping_mul(XXPRIME_2));
                acc = acc.rotate_left(31);
                acc = acc.wrapping_mul(XXPRIME_1);
            }
            acc = acc.wrapping_add((t.items.len() as u64) ^ (XXPRIME_5 ^ 3_527_539));
            if acc == u64::MAX {
                1_546_275_796
            } else {
                acc as i64
            }
        }
        // As CPython: the hash of `(len, start, step)` with the parts that
        // do not decide equality as None, so equal ranges hash alike.
        Value::Range(r) => hash_at(&Value::tuple(r.hash_key()), depth + 1, counted)?,
        Value::Type(t) => 0x1000 + *t as i64,
        // As CPython's `ga_hash`: the origin's hash xor the arguments'.
        Value::Alias(a) => {
            let args = hash_at(&Value::tuple(a.args.clone()), depth + 1, counted)?;
            fix((0x1000 + a.origin as i64) ^ args)
        }
        Value::Builtin(b) => 0x2000 + *b as i64,
        Value::Ellipsis => 0x4000,
        Value::NotImplemented => 0x4001,
        Value::Lambda(_) | Value::Method(_) | Value::Iter(_) | Value::Tool(_) => {
            fix((v.address() >> 4) as i64)
        }
        Value::View(view) if view.kind == super::ViewKind::Values => fix((v.address() >> 4) as i64),
        other => {
            return Err(Exc::type_error(format!(
                "unhashable type: '{}'",
                other.type_name()
            )));
        }
    })
}

#[inline]
fn fix(h: i64) -> i64 {
    if h == -1 { -2 } else { h }
}

/// Hash of an int that fits `i64`.
#[inline]
pub(crate) fn hash_i64(i: i64) -> i64 {
    let m = (i.unsigned_abs() % MODULUS) as i64;
    fix(if i < 0 { -m } else { m })
}

fn hash_big(b: &num_bigint::BigInt) -> i64 {
    let (sign, digits) = b.to_u64_digits();
    // Reduce the magnitude modulo 2**61 - 1, most significant digit first.
    let mut acc: u128 = 0;
    for d in digits.iter().rev() {
        acc = ((acc << 64) | *d as u128) % MODULUS as u128;
    }
    let m = acc as i64;
    fix(if sign == Sign::Minus { -m } else { m })
}

/// Hash of a float, equal to the int hash for integral values.
pub(crate) fn hash_f64(v: f64) -> i64 {
    if v.is_nan() {
        return 0;
    }
    if v.is_infinite() {
        return if v > 0.0 { HASH_INF } else { -HASH_INF };
    }
    if v == 0.0 {
        return 0;
    }
    let (mut m, mut e) = frexp(v);
    let mut sign: i64 = 1;
    if m < 0.0 {
        sign = -1;
        m = -m;
    }
    let mut x: u64 = 0;
    while m != 0.0 {
        x = ((x << 28) & MODULUS) | (x >> (HASH_BITS - 28));
        m *= 268_435_456.0;
        e -= 28;
        let y = m as u64;
        m -= y as f64;
        x += y;
        if x >= MODULUS {
            x -= MODULUS;
        }
    }
    let e = if e >= 0 {
        (e as u32) % HASH_BITS
    } else {
        HASH_BITS - 1 - (((-1 - e) as u32) % HASH_BITS)
    };
    x = ((x << e) & MODULUS) | (x >> (HASH_BITS - e));
    fix((x as i64).wrapping_mul(sign))
}

/// Splits a finite nonzero float into `m * 2**e` with `0.5 <= |m| < 1`.
pub(crate) fn frexp(v: f64) -> (f64, i32) {
    let bits = v.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    if exp == 0 {
        // Subnormal: scale into the normal range first.
        let (m, e) = frexp(v * f64::from_bits(0x43f0_0000_0000_0000)); // 2**64
        return (m, e - 64);
    }
    let m = f64::from_bits((bits & !(0x7ff_u64 << 52)) | (1022_u64 << 52));
    (m, exp - 1022)
}

/// The hash of a string, computed each time it is asked for (strings keep
/// no cache: most keys are short, and tables keep hash bits of their own).
#[inline]
pub(crate) fn hash_str(s: &super::PyStr) -> i64 {
    let b = s.as_str().as_bytes();
    if b.len() <= 24 {
        hash_short(b)
    } else {
        hash_bytes(b)
    }
}

/// The full 128-bit product of `a` and `b`, folded to 64 bits: one
/// multiply that mixes every input bit into every output bit.
#[inline(always)]
fn fold_mul(a: u64, b: u64) -> u64 {
    let full = u128::from(a) * u128::from(b);
    (full as u64) ^ ((full >> 64) as u64)
}

/// The hash of up to 24 bytes (most keys): the text read as two or three
/// overlapping fixed-size words (no loop, no `memcpy`), mixed with folded
/// multiplies. Long text goes through [`hash_bytes`]; a text's length
/// decides which, so equal texts hash alike.
#[inline(always)]
fn hash_short(b: &[u8]) -> i64 {
    const S0: u64 = 0x243f_6a88_85a3_08d3;
    const S1: u64 = 0x1319_8a2e_0370_7344;
    const S2: u64 = 0xa409_3822_299f_31d0;
    let n = b.len();
    let word = |w: &[u8; 8]| u64::from_le_bytes(*w);
    let (x, y, z) = match (b.first_chunk::<8>(), b.last_chunk::<8>()) {
        (Some(head), Some(tail)) => {
            let mid = if n > 16 {
                b.get(8..)
                    .and_then(|m| m.first_chunk::<8>())
                    .map_or(0, word)
            } else {
                0
            };
            (word(head), word(tail), mid)
        }
        _ => (tail_word(b), 0, 0),
    };
    let h = fold_mul(x ^ S0 ^ n as u64, y ^ S1);
    let h = fold_mul(h ^ z, S2);
    let h = h as i64;
    if h == 0 || h == -1 { 1 } else { h }
}

#[inline]
fn hash_bytes(b: &[u8]) -> i64 {
    // FxHash-style mixing over 8-byte chunks, finished with a murmur fmix.
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h: u64 = b.len() as u64;
    let mut chunks = b.chunks_exact(8);
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(K);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        h = (h.rotate_left(5) ^ tail_word(rest)).wrapping_mul(K);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    let h = h as i64;
    if h == 0 || h == -1 { 1 } else { h }
}

/// The little-endian word of 1 to 7 bytes, zero-padded: loaded with
/// overlapping fixed-size reads (a variable-length copy into a zeroed
/// word is a `memcpy` call, which costs more than the hash of a word).
#[inline(always)]
fn tail_word(r: &[u8]) -> u64 {
    let n = r.len();
    let byte = |i: usize| u64::from(r.get(i).copied().unwrap_or_default());
    if n >= 4 {
        let four = |at: usize| {
            let mut w = [0u8; 4];
            if let Some(src) = r.get(at..at + 4) {
                w.copy_from_slice(src);
            }
            u64::from(u32::from_le_bytes(w))
        };
        // The two reads overlap on equal bytes, so or-ing them is exact.
        four(0) | (four(n - 4) << (8 * (n - 4)))
    } else if n > 0 {
        byte(0) | (byte(n / 2) << (8 * (n / 2))) | (byte(n - 1) << (8 * (n - 1)))
    } else {
        0
    }
}

/// Whether CPython's hash of `v` is the same in every process (numbers and
/// tuples of numbers), so that a set of such values iterates in a known order.
pub(crate) fn is_deterministic(v: &Value) -> bool {
    match v {
        Value::Bool(_) | Value::Int(_, _) | Value::Big(_) => true,
        Value::Float(_, f) => !f.get().is_nan(),
        Value::Tuple(t) => t.items.iter().all(|i| {
            matches!(
                i,
                Value::Bool(_) | Value::Int(_, _) | Value::Big(_) | Value::Float(..)
            ) && is_deterministic(i)
        }),
        _ => false,
    }
}
