//! Splitting text for `str.split`, `str.rsplit` and `str.splitlines`, and
//! sharing the parts' strings.

use crate::runtime::error::R;
use crate::runtime::meter::Buf;
use crate::text::search::find_byte;
use crate::text::unicode::is_space;
use crate::value::Value;

/// `str.split` / `str.rsplit`.
#[inline(always)]
pub(super) fn split_text<'t>(
    text: &'t str,
    sep: Option<&str>,
    maxsplit: i64,
    from_right: bool,
    out: &mut Parts<'t>,
) -> R<()> {
    let limit = if maxsplit < 0 {
        usize::MAX
    } else {
        maxsplit as usize
    };
    match sep {
        Some("") => return Err(crate::types::args::empty_separator()),
        Some(sep) if from_right => rsplit_sep(text, sep, limit, out)?,
        Some(sep) => split_sep(text, sep, limit, out)?,
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
                    return split_ascii_whitespace(text, limit, out);
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
    Ok(())
}

/// Split on `sep`, left to right: one searcher over the whole text (a
/// byte scan for a one-byte separator), at most `limit` splits.
fn split_sep<'t>(text: &'t str, sep: &str, limit: usize, out: &mut Parts<'t>) -> R<()> {
    let mut start = 0;
    if limit > 0 {
        if let &[b] = sep.as_bytes() {
            // A one-byte separator is ASCII: every match is a char boundary.
            let bytes = text.as_bytes();
            while let Some(p) = find_byte(bytes.get(start..).unwrap_or_default(), b) {
                out.push(&text[start..start + p])?;
                start += p + 1;
                if out.len() >= limit {
                    break;
                }
            }
        } else {
            let mut result = Ok(());
            crate::text::search::for_matches(text, sep, |p| {
                result = out.push(text.get(start..p).unwrap_or_default());
                start = p + sep.len();
                result.is_ok() && out.len() < limit
            });
            result?;
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
            let mut result = Ok(());
            crate::text::search::for_rmatches(text, sep, |p| {
                result = out.push(text.get(p + sep.len()..end).unwrap_or_default());
                end = p;
                result.is_ok() && out.len() < limit
            });
            result?;
        }
    }
    out.push(&text[..end])?;
    out.reverse();
    Ok(())
}

/// A split's parts as found: slices of the text, the first [`SMALL`] on
/// the stack (most splits), more in a metered buffer. The values are made
/// at the end, into a list of exactly the right size.
pub(super) struct Parts<'t> {
    small: [&'t str; SMALL],
    n: usize,
    spill: Buf<&'t str>,
    /// Whether the text split is ASCII (so each part's length in code
    /// points is its byte length).
    ascii: bool,
}

/// Parts kept on the stack (a split of a line of a few dozen fields needs
/// no buffer).
const SMALL: usize = 32;

/// Splits with fewer parts make each part anew (see [`Parts::into_values`]).
const SHARE_FROM: usize = 32;

/// Parts longer than this are never shared.
pub(super) const SHORT: usize = 24;

impl<'t> Parts<'t> {
    /// No parts yet, of ASCII text or not.
    pub(super) fn new(ascii: bool) -> Self {
        Parts {
            small: [""; SMALL],
            n: 0,
            spill: Buf::new(),
            ascii,
        }
    }

    /// Adds the next part (one tick; the budget is checked as the buffer
    /// grows).
    #[inline(always)]
    pub(super) fn push(&mut self, p: &'t str) -> R<()> {
        if self.n < SMALL {
            self.small[self.n] = p;
            self.n += 1;
            return crate::runtime::meter::tick();
        }
        self.push_spilled(p)
    }

    fn push_spilled(&mut self, p: &'t str) -> R<()> {
        if self.n == SMALL {
            self.spill.extend_from_slice(&self.small)?;
        }
        self.spill.push(p)?;
        self.n += 1;
        Ok(())
    }

    fn as_mut_slice(&mut self) -> &mut [&'t str] {
        if self.n <= SMALL {
            &mut self.small[..self.n]
        } else {
            &mut self.spill
        }
    }

    /// Part `i`, if there is one.
    #[inline]
    pub(super) fn get(&self, i: usize) -> Option<&'t str> {
        if self.n <= SMALL {
            self.small.get(..self.n)?.get(i).copied()
        } else {
            self.spill.get(i).copied()
        }
    }

    /// Number of parts so far.
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.n
    }

    /// Reverses the parts (a right-to-left split found them last first).
    pub(super) fn reverse(&mut self) {
        self.as_mut_slice().reverse();
    }

    /// The parts' values. Long splits of text repeat their words (the
    /// counting pattern: split, then tally), so equal short parts share one
    /// string object: one allocation per distinct word instead of one per
    /// occurrence, and dict lookups of a shared key compare pointers.
    /// Strings are immutable, so only `is` can tell (CPython makes each part
    /// anew; its `is` on equal strings is an implementation detail either
    /// way). The table is a small direct-mapped one (see [`ShareTable`]):
    /// a hash map's allocation and probing cost more than they save on the
    /// splits of a few dozen parts that are most common.
    pub(super) fn into_values(mut self) -> R<Vec<Value>> {
        let ascii = self.ascii;
        let parts: &[&str] = self.as_mut_slice();
        if parts.len() < SHARE_FROM {
            // Each part was ticked as it was found: the values are made in
            // one pass into a vector of exactly the right size.
            crate::runtime::meter::ensure(
                parts.len().saturating_mul(std::mem::size_of::<Value>()),
            )?;
            let mut out = Vec::new();
            out.try_reserve_exact(parts.len())
                .map_err(|_| crate::runtime::error::Exc::memory())?;
            out.extend(parts.iter().map(|&p| make_part(ascii, p)));
            return Ok(out);
        }
        let mut out = Buf::with_capacity(parts.len())?;
        let mut table = ShareTable::new();
        let mut hits = 0usize;
        for (n, &p) in parts.iter().enumerate() {
            // Mostly distinct parts (numbers, ids, lines) gain nothing:
            // stop looking.
            if n == STOP_AT && hits < STOP_AT / 4 {
                for &p in parts.get(n..).unwrap_or_default() {
                    out.push(make_part(ascii, p))?;
                }
                break;
            }
            out.push(if p.len() > SHORT {
                make_part(ascii, p)
            } else {
                let (v, hit) = table.get_or_make(p, ascii);
                hits += usize::from(hit);
                v
            })?;
        }
        Ok(out.into_vec())
    }
}

/// Parts looked at before a split whose parts rarely repeat stops sharing.
pub(super) const STOP_AT: usize = 256;

/// Slots of [`ShareTable`] (a power of two).
const SLOTS: usize = 128;

/// The strings already made for one split's short parts: a direct-mapped
/// table on the stack (no allocation, no probing). A part whose slot holds
/// another text takes the slot over, so a few colliding words may each be
/// made more than once: sharing is an optimisation, never a promise.
pub(super) struct ShareTable<'t> {
    keys: [&'t str; SLOTS],
    vals: [Option<Value>; SLOTS],
}

impl<'t> ShareTable<'t> {
    pub(super) fn new() -> Self {
        ShareTable {
            keys: [""; SLOTS],
            vals: [const { None }; SLOTS],
        }
    }

    /// The shared value of `p` (made now if its slot holds another text),
    /// and whether it was already there.
    #[inline]
    pub(super) fn get_or_make(&mut self, p: &'t str, ascii: bool) -> (Value, bool) {
        let slot = short_hash(p.as_bytes()) % SLOTS;
        if let (Some(k), Some(Some(v))) = (self.keys.get(slot), self.vals.get(slot))
            && *k == p
        {
            return (v.clone(), true);
        }
        let v = make_part(ascii, p);
        if let (Some(k), Some(sv)) = (self.keys.get_mut(slot), self.vals.get_mut(slot)) {
            *k = p;
            *sv = Some(v.clone());
        }
        (v, false)
    }
}

/// A cheap hash of a short text: its first and last (up to) eight bytes
/// and its length, mixed by one multiply.
#[inline]
fn short_hash(b: &[u8]) -> usize {
    let word = |s: &[u8]| {
        let mut w = [0u8; 8];
        for (d, &x) in w.iter_mut().zip(s) {
            *d = x;
        }
        u64::from_le_bytes(w)
    };
    let n = b.len();
    let head = word(b.get(..n.min(8)).unwrap_or_default());
    let tail = word(b.get(n.saturating_sub(8)..).unwrap_or_default());
    let h = (head ^ tail.rotate_left(23) ^ n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (h >> 40) as usize
}

/// The string value of a part: empty and one-character ASCII parts are the
/// shared objects; a part of ASCII text has as many code points as bytes.
#[inline]
pub(crate) fn make_part(ascii: bool, p: &str) -> Value {
    match p.as_bytes() {
        [] => crate::value::empty_str(),
        &[b] if b.is_ascii() => crate::value::char_value(char::from(b)),
        _ if ascii => Value::Str(crate::value::StrRc::new(crate::value::PyStr::from_text(
            p,
            p.len(),
        ))),
        _ => Value::str(p),
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

/// `str.splitlines`: a byte scan. Every line break is an ASCII byte or
/// starts with a lead byte (U+0085 is C2 85, U+2028/9 are E2 80 A8/A9), so
/// each cut falls on a char boundary and no char is decoded. `\n` is found
/// with memchr; the text before it is checked for the rarer breaks in one
/// branch-free pass and walked only when one may be there.
pub(super) fn split_lines<'t>(text: &'t str, keep: bool, out: &mut Parts<'t>) -> R<()> {
    let bytes = text.as_bytes();
    let mut start = 0;
    while start < bytes.len() {
        let rest = bytes.get(start..).unwrap_or_default();
        let nl = find_byte(rest, b'\n').map_or(bytes.len(), |p| start + p);
        let seg = bytes.get(start..nl).unwrap_or_default();
        let rare = seg.iter().fold(false, |a, &b| {
            a | matches!(b, 0x0b..=0x0d | 0x1c..=0x1e | 0xc2 | 0xe2)
        });
        let found = if rare {
            (start..nl).find_map(|i| break_width(bytes, i).map(|w| (i, w)))
        } else {
            None
        };
        let (i, width) = match found {
            Some(hit) => hit,
            None if nl < bytes.len() => (nl, 1),
            None => break,
        };
        let end = i + width;
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
    Ok(())
}

/// The width in bytes of the line break at `bytes[i]`, if one starts there.
#[inline]
pub(super) fn break_width(bytes: &[u8], i: usize) -> Option<usize> {
    let next = |k: usize| bytes.get(i + k).copied();
    match bytes.get(i)? {
        b'\n' | 0x0b | 0x0c | 0x1c..=0x1e => Some(1),
        b'\r' if next(1) == Some(b'\n') => Some(2),
        b'\r' => Some(1),
        0xc2 if next(1) == Some(0x85) => Some(2),
        0xe2 if next(1) == Some(0x80) && matches!(next(2), Some(0xa8 | 0xa9)) => Some(3),
        _ => None,
    }
}
