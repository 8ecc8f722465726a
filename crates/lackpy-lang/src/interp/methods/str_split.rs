//! Splitting text for `str.split`, `str.rsplit` and `str.splitlines`, and
//! sharing the parts' strings.

use crate::unicode::is_space;
use crate::value::Value;
use crate::value::errors::{Exc, R};
use crate::value::meter::Buf;

/// `str.split` / `str.rsplit`.
pub(super) fn split_text<'t>(
    text: &'t str,
    sep: Option<&str>,
    maxsplit: i64,
    from_right: bool,
) -> R<Parts<'t>> {
    let limit = if maxsplit < 0 {
        usize::MAX
    } else {
        maxsplit as usize
    };
    let mut out = Parts::new(text.is_ascii());
    match sep {
        Some("") => return Err(Exc::value_error("empty separator")),
        Some(sep) if from_right => rsplit_sep(text, sep, limit, &mut out)?,
        Some(sep) => split_sep(text, sep, limit, &mut out)?,
        None => {
            if from_right {
                let mut rest = text.trim_end_matches(is_space);
                while !rest.is_empty() {
                    if out.len() >= limit {
                        out.push(rest)?;
                        break;
                    }
                    match rest.rfind(is_space) {
                        Some(p) => {
                            let c_len = rest[p..].chars().next().map(char::len_utf8).unwrap_or(1);
                            out.push(&rest[p + c_len..])?;
                            rest = rest[..p].trim_end_matches(is_space);
                        }
                        None => {
                            out.push(rest)?;
                            break;
                        }
                    }
                }
                out.reverse();
            } else {
                if text.is_ascii() {
                    // Bytes instead of chars; ASCII whitespace is what
                    // is_space accepts below U+0080.
                    split_ascii_whitespace(text, limit, &mut out)?;
                    return Ok(out);
                }
                let mut rest = text.trim_start_matches(is_space);
                while !rest.is_empty() {
                    if out.len() >= limit {
                        out.push(rest)?;
                        break;
                    }
                    match rest.find(is_space) {
                        Some(p) => {
                            out.push(&rest[..p])?;
                            rest = rest[p..].trim_start_matches(is_space);
                        }
                        None => {
                            out.push(rest)?;
                            break;
                        }
                    }
                }
            }
        }
    }
    Ok(out)
}

/// Split on `sep`, left to right: one searcher over the whole text (a
/// byte scan for a one-byte separator), at most `limit` splits.
fn split_sep<'t>(text: &'t str, sep: &str, limit: usize, out: &mut Parts<'t>) -> R<()> {
    let mut start = 0;
    if limit > 0 {
        if let &[b] = sep.as_bytes() {
            // A one-byte separator is ASCII: every match is a char boundary.
            for p in memchr::memchr_iter(b, text.as_bytes()) {
                out.push(&text[start..p])?;
                start = p + 1;
                if out.len() >= limit {
                    break;
                }
            }
        } else {
            for (p, _) in text.match_indices(sep) {
                out.push(&text[start..p])?;
                start = p + sep.len();
                if out.len() >= limit {
                    break;
                }
            }
        }
    }
    out.push(&text[start..])
}

/// Split on `sep`, right to left (`rsplit`): the parts come out in text
/// order.
fn rsplit_sep<'t>(text: &'t str, sep: &str, limit: usize, out: &mut Parts<'t>) -> R<()> {
    let mut end = text.len();
    if limit > 0 {
        if let &[b] = sep.as_bytes() {
            for p in memchr::memrchr_iter(b, text.as_bytes()) {
                out.push(&text[p + 1..end])?;
                end = p;
                if out.len() >= limit {
                    break;
                }
            }
        } else {
            for (p, _) in text.rmatch_indices(sep) {
                out.push(&text[p + sep.len()..end])?;
                end = p;
                if out.len() >= limit {
                    break;
                }
            }
        }
    }
    out.push(&text[..end])?;
    out.reverse();
    Ok(())
}

/// The values of a split's parts, made as the split finds them. Long
/// splits of text repeat their words (the counting pattern: split, then
/// tally), so past the first [`SHARE_FROM`] parts equal short parts share
/// one string object: one allocation per distinct word instead of one per
/// occurrence, and dict lookups of a shared key compare pointers. Strings
/// are immutable, so only `is` can tell (CPython makes each part anew; its
/// `is` on equal strings is an implementation detail either way).
pub(super) struct Parts<'t> {
    out: Buf<Value>,
    /// Whether the text split is ASCII (so each part's length in code
    /// points is its byte length).
    ascii: bool,
    seen: Option<std::collections::HashMap<&'t str, Value, FnvBuild>>,
    sharing: bool,
}

/// Parts made before sharing starts.
const SHARE_FROM: usize = 32;

/// Parts longer than this are never shared.
const SHORT: usize = 24;

impl<'t> Parts<'t> {
    fn new(ascii: bool) -> Self {
        Parts {
            out: Buf::new(),
            ascii,
            seen: None,
            sharing: true,
        }
    }

    /// Adds the next part.
    #[inline]
    pub(super) fn push(&mut self, p: &'t str) -> R<()> {
        let n = self.out.len();
        if n < SHARE_FROM || !self.sharing || p.len() > SHORT {
            return self.out.push(self.fresh(p));
        }
        // Mostly distinct parts (numbers, ids) gain nothing: stop looking.
        if n == 256 && self.seen.as_ref().is_some_and(|m| m.len() > 192) {
            self.sharing = false;
            self.seen = None;
            return self.out.push(self.fresh(p));
        }
        let ascii = self.ascii;
        let v = self
            .seen
            .get_or_insert_with(|| std::collections::HashMap::with_hasher(FnvBuild))
            .entry(p)
            .or_insert_with(|| make_part(ascii, p))
            .clone();
        self.out.push(v)
    }

    #[inline]
    fn fresh(&self, p: &str) -> Value {
        make_part(self.ascii, p)
    }

    /// Number of parts so far.
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.out.len()
    }

    /// Reverses the parts (a right-to-left split found them last first).
    pub(super) fn reverse(&mut self) {
        self.out.reverse();
    }

    /// The parts' values.
    pub(super) fn into_values(self) -> Vec<Value> {
        self.out.into_vec()
    }
}

/// The string value of a part (of ASCII text: its length is known).
#[inline]
fn make_part(ascii: bool, p: &str) -> Value {
    if ascii && p.len() > 1 {
        Value::Str(std::rc::Rc::new(crate::value::PyStr::with_char_len(
            p.into(),
            p.len(),
        )))
    } else {
        Value::str(p)
    }
}

/// FNV-1a: a fast hasher for short words (no attacker controls the map's
/// lifetime: it lives for one `split`).
#[derive(Default, Clone, Copy)]
struct FnvBuild;

struct Fnv(u64);

impl std::hash::BuildHasher for FnvBuild {
    type Hasher = Fnv;
    fn build_hasher(&self) -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// Whitespace split of ASCII text, forward, at most `limit` splits.
fn split_ascii_whitespace<'t>(text: &'t str, limit: usize, out: &mut Parts<'t>) -> R<()> {
    // Python's whitespace below U+0080: \t \n \x0b \x0c \r \x1c-\x1f and space.
    let space = |b: u8| matches!(b, b'\t'..=b'\r' | 0x1c..=0x1f | b' ');
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() && space(bytes[i]) {
        i += 1;
    }
    while i < bytes.len() {
        if out.len() >= limit {
            // The rest as it is: Python strips only the leading whitespace.
            out.push(&text[i..])?;
            return Ok(());
        }
        let start = i;
        while i < bytes.len() && !space(bytes[i]) {
            i += 1;
        }
        out.push(&text[start..i])?;
        while i < bytes.len() && space(bytes[i]) {
            i += 1;
        }
    }
    Ok(())
}

/// `str.splitlines`.
pub(super) fn split_lines(text: &str, keep: bool) -> R<Parts<'_>> {
    let mut out = Parts::new(text.is_ascii());
    let mut start = 0;
    let mut iter = text.char_indices().peekable();
    while let Some((i, c)) = iter.next() {
        let is_break = matches!(
            c,
            '\n' | '\r'
                | '\x0b'
                | '\x0c'
                | '\x1c'
                | '\x1d'
                | '\x1e'
                | '\u{85}'
                | '\u{2028}'
                | '\u{2029}'
        );
        if !is_break {
            continue;
        }
        let mut end = i + c.len_utf8();
        if c == '\r' && iter.peek().map(|&(_, n)| n) == Some('\n') {
            iter.next();
            end += 1;
        }
        out.push(if keep {
            &text[start..end]
        } else {
            &text[start..i]
        })?;
        start = end;
    }
    if start < text.len() {
        out.push(&text[start..])?;
    }
    Ok(out)
}
