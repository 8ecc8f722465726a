//! Substring search in text and bytes, for the str and bytes methods
//! (`find`, `count`, `replace`, `partition`...). Most texts searched are
//! short (a line, a word): building a `memmem` searcher costs more than the
//! search there, so short texts are scanned for the needle's first byte with
//! `memchr` and each hit compared; long texts get the vectorised searcher.

/// Texts up to this many bytes are searched without a prebuilt searcher
/// (the worst case, a first byte on every position, stays a few hundred
/// short compares).
const SHORT_TEXT: usize = 256;

/// Bytes [`find_byte`] scans word by word before it hands the rest to
/// `memchr`.
const NEAR: usize = 64;

/// Byte offset of the first `b` in `hay`. The first [`NEAR`] bytes are
/// scanned eight at a time in a word (a split's fields and a text's lines
/// are mostly short, and `memchr`'s set-up costs more than such a scan:
/// about 40 instructions a call), the rest by `memchr`.
#[inline]
pub(crate) fn find_byte(hay: &[u8], b: u8) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let splat = LO * u64::from(b);
    let near = hay.get(..NEAR).unwrap_or(hay);
    let mut words = near.chunks_exact(8);
    let mut base = 0;
    for word in &mut words {
        let Ok(word) = <[u8; 8]>::try_from(word) else {
            break;
        };
        let w = u64::from_le_bytes(word) ^ splat;
        // A byte's high bit is set here exactly when the byte is zero
        // (no carry crosses bytes: each sum is at most 0xfe).
        let zero = !(((w & LOW7) + LOW7) | w) & !LOW7;
        if zero != 0 {
            return Some(base + (zero.trailing_zeros() / 8) as usize);
        }
        base += 8;
    }
    if let Some(p) = words.remainder().iter().position(|&x| x == b) {
        return Some(base + p);
    }
    let scanned = base + words.remainder().len();
    memchr::memchr(b, hay.get(scanned..)?).map(|p| scanned + p)
}

/// Byte offset of the first occurrence of `pat` in `text` (`pat` not empty).
#[inline]
pub(crate) fn find(text: &[u8], pat: &[u8]) -> Option<usize> {
    match pat {
        [] => Some(0),
        &[b] => find_byte(text, b),
        _ if text.len() <= SHORT_TEXT => find_short(text, pat, 0),
        _ => memchr::memmem::find(text, pat),
    }
}

/// Byte offset of the last occurrence of `pat` in `text`.
#[inline]
pub(crate) fn rfind(text: &[u8], pat: &[u8]) -> Option<usize> {
    match pat {
        [] => Some(text.len()),
        &[b] => memchr::memrchr(b, text),
        [first, rest @ ..] if text.len() <= SHORT_TEXT => {
            let last_start = text.len().checked_sub(pat.len())?;
            let mut upto = last_start + 1;
            while let Some(p) = memchr::memrchr(*first, text.get(..upto)?) {
                if text.get(p + 1..p + pat.len()) == Some(rest) {
                    return Some(p);
                }
                upto = p;
            }
            None
        }
        _ => memchr::memmem::rfind(text, pat),
    }
}

/// The first occurrence of `pat` (two bytes or more) at or after `from`.
#[inline]
fn find_short(text: &[u8], pat: &[u8], from: usize) -> Option<usize> {
    let (&first, rest) = pat.split_first()?;
    let last_start = text.len().checked_sub(pat.len())?;
    let mut at = from;
    while at <= last_start {
        let p = at + memchr::memchr(first, text.get(at..=last_start)?)?;
        if text.get(p + 1..p + pat.len()) == Some(rest) {
            return Some(p);
        }
        at = p + 1;
    }
    None
}

/// Calls `f` with the byte offset of each non-overlapping match of `pat`
/// (not empty) in `text`, left to right, until `f` returns false.
#[inline]
pub(crate) fn for_matches(text: &str, pat: &str, mut f: impl FnMut(usize) -> bool) {
    let (hay, pat) = (text.as_bytes(), pat.as_bytes());
    if let &[b] = pat {
        for p in memchr::memchr_iter(b, hay) {
            if !f(p) {
                return;
            }
        }
    } else if hay.len() <= SHORT_TEXT {
        let mut from = 0;
        while let Some(p) = find_short(hay, pat, from) {
            if !f(p) {
                return;
            }
            from = p + pat.len();
        }
    } else {
        for p in memchr::memmem::find_iter(hay, pat) {
            if !f(p) {
                return;
            }
        }
    }
}

/// Calls `f` with the byte offset of each non-overlapping match of `pat`
/// (not empty) in `text`, right to left (each match is looked for before
/// the previous one, as `rsplit` does), until `f` returns false.
#[inline]
pub(crate) fn for_rmatches(text: &str, pat: &str, mut f: impl FnMut(usize) -> bool) {
    let (hay, pat) = (text.as_bytes(), pat.as_bytes());
    if let &[b] = pat {
        for p in memchr::memrchr_iter(b, hay) {
            if !f(p) {
                return;
            }
        }
    } else if hay.len() <= SHORT_TEXT {
        let mut end = hay.len();
        while let Some(p) = hay.get(..end).and_then(|h| rfind(h, pat)) {
            if !f(p) {
                return;
            }
            end = p;
        }
    } else {
        for p in memchr::memmem::rfind_iter(hay, pat) {
            if !f(p) {
                return;
            }
        }
    }
}

#[cfg(test)]
mod find_byte_tests {
    use super::find_byte;

    #[test]
    fn find_byte_agrees_with_a_plain_scan() {
        let mut text = Vec::new();
        for n in 0..200u32 {
            text.push(b"ab,\x01\x00\xff\x80c"[(n * 7 % 8) as usize]);
        }
        for start in 0..text.len() {
            for &b in b",\x00\x01\xff\x80az" {
                let hay = &text[start..];
                assert_eq!(
                    find_byte(hay, b),
                    hay.iter().position(|&x| x == b),
                    "{start} {b}"
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every search agrees with std's on texts short and long, including
    /// overlapping candidates and needles longer than the text.
    #[test]
    fn matches_std_search() {
        let long = "ab".repeat(200) + "abc" + &"xy".repeat(100) + "abc";
        let long_runs = "a".repeat(301) + "b" + &"a".repeat(5);
        let texts = [
            "", "a", "aa", "aaa", "aaaaa", "abab", "abcabc", "xabcx", "zzz", "the the", &long,
            &long_runs,
        ];
        let pats = [
            "a", "aa", "aaa", "ab", "abc", "bca", "zz", "the", "xyxy", "abcd", "c",
        ];
        for t in texts {
            for p in pats {
                assert_eq!(find(t.as_bytes(), p.as_bytes()), t.find(p), "{t:?} {p:?}");
                assert_eq!(rfind(t.as_bytes(), p.as_bytes()), t.rfind(p), "{t:?} {p:?}");
                let mut got = Vec::new();
                for_matches(t, p, |i| {
                    got.push(i);
                    true
                });
                let want: Vec<usize> = t.match_indices(p).map(|(i, _)| i).collect();
                assert_eq!(got, want, "{t:?} {p:?}");
                let mut got = Vec::new();
                for_rmatches(t, p, |i| {
                    got.push(i);
                    true
                });
                let want: Vec<usize> = t.rmatch_indices(p).map(|(i, _)| i).collect();
                assert_eq!(got, want, "{t:?} {p:?}");
            }
        }
    }
}
