//! The pieces of a `split`, `rsplit` or `splitlines` call found one at a
//! time, for the loops, comprehensions and unpackings that consume the call
//! directly (`for line in text.splitlines()`, `k, v = s.split("=", 1)`).
//!
//! Such a consumer can never observe the list the method would return, so
//! none is made: the arguments are checked exactly as the method checks
//! them (same errors, same order, before any piece), then each piece is
//! found when the consumer asks for it and made into a value then. Strings
//! are immutable and the call holds its text, so the pieces are the ones
//! the method would have returned. A right-to-left split with a limit (or a
//! separator of several bytes) finds its cuts up front ([`Parts`] on the
//! stack for the usual few) and hands them out in text order.

use crate::runtime::error::R;
use crate::runtime::meter;
use crate::syntax::catalog::MethodId as M;
use crate::text::search::find_byte;
use crate::text::unicode::is_space;
use crate::types::args::Kw;
use crate::types::str::split::{Parts, SHORT, STOP_AT, ShareTable, make_part, split_text};
use crate::value::Value;
use crate::value::{PyStr, StrRc};
use memchr::memmem::Finder;

/// Texts longer than this search a separator of several bytes with one
/// prebuilt searcher (shorter ones are scanned directly).
const LONG_TEXT: usize = 256;

/// Whether `id` is a method whose call a consumer may take without its
/// result: `split`, `rsplit`, `splitlines`, `partition`, `rpartition`.
#[inline]
pub(crate) fn is_split_family(id: M) -> bool {
    matches!(
        id,
        M::Split | M::Rsplit | M::Splitlines | M::Partition | M::Rpartition
    )
}

/// A checked call of `split`, `rsplit` or `splitlines` on a str.
pub(crate) struct SplitCall {
    text: StrRc,
    how: How,
}

/// What the call splits on.
enum How {
    /// `split` / `rsplit` (`right`) with its separator and limit of splits.
    Split {
        sep: Option<StrRc>,
        maxsplit: i64,
        right: bool,
    },
    /// `splitlines(keepends)`.
    Lines { keep: bool },
}

impl SplitCall {
    /// Checks the arguments of `text.<id>(args, kwargs)` as the method does
    /// (the same errors in the same order); `id` is `split`, `rsplit` or
    /// `splitlines`.
    pub(crate) fn new(id: M, text: StrRc, args: &[Value], kwargs: Kw) -> R<Self> {
        if id == M::Splitlines {
            let keep = crate::types::str::split_call::keepends_arg(args, kwargs)?;
            return Ok(SplitCall {
                text,
                how: How::Lines { keep },
            });
        }
        let (sep, maxsplit) = crate::types::str::split_call::split_args(id, args, kwargs)?;
        if sep.as_ref().is_some_and(|s| s.as_str().is_empty()) {
            return Err(crate::types::args::empty_separator());
        }
        Ok(SplitCall {
            text,
            how: How::Split {
                sep,
                maxsplit,
                right: id == M::Rsplit,
            },
        })
    }

    /// The pieces, first to last.
    pub(crate) fn pieces(&self) -> R<Pieces<'_>> {
        let text = self.text.as_str();
        let mut head = None;
        let mut pos = 0;
        let walk = match &self.how {
            How::Lines { keep } => Walk::Lines(*keep),
            How::Split {
                sep,
                maxsplit,
                right,
            } => {
                let sep = sep.as_deref().map(PyStr::as_str);
                let limit = usize::try_from(*maxsplit).unwrap_or(usize::MAX);
                if !*right {
                    forward(text, sep, limit)
                } else if sep.is_some_and(overlaps_itself) {
                    // Cuts found from the right may differ from those found
                    // from the left ("aaa".rsplit("aa")): found up front.
                    let mut parts = Parts::new(self.text.is_ascii());
                    split_text(text, sep, *maxsplit, true, &mut parts)?;
                    Walk::Found(Box::new(parts), 0)
                } else {
                    // The separator's matches cannot overlap, so left and
                    // right find the same ones: the pieces are the text
                    // before the `limit`-th cut from the right (if there is
                    // one), then the rest split from the left.
                    match right_head(text, sep, limit) {
                        Some((h, tail)) => {
                            head = Some(h);
                            pos = tail;
                            forward(text, sep, usize::MAX)
                        }
                        None => forward(text, sep, limit),
                    }
                }
            }
        };
        // A long text's repeated words share one string each, as in the
        // method's list (see `Parts::into_values`); lines rarely repeat.
        let share = (text.len() >= SHARE_TEXT && !matches!(walk, Walk::Found(..) | Walk::Lines(_)))
            .then(|| {
                Box::new(Share {
                    table: ShareTable::new(),
                    seen: 0,
                    hits: 0,
                })
            });
        Ok(Pieces {
            text,
            ascii: self.text.is_ascii(),
            head,
            pos,
            done: false,
            walk,
            share,
        })
    }
}

/// The left-to-right walk of `text` on `sep` (whitespace for `None`).
fn forward<'t>(text: &str, sep: Option<&'t str>, limit: usize) -> Walk<'t> {
    match sep {
        None => Walk::Space(limit),
        Some(s) => match s.as_bytes() {
            &[b] => Walk::Byte(b, limit),
            // A long text gets one prebuilt searcher for all its pieces.
            _ => Walk::Sep(
                s,
                limit,
                (text.len() > LONG_TEXT).then(|| Box::new(Finder::new(s))),
            ),
        },
    }
}

impl SplitCall {
    /// `call[k]`: the piece at `k` (from the end when negative), made
    /// alone; `None` when there is none (the caller raises as the list
    /// would).
    pub(crate) fn item(&self, k: i64) -> R<Option<Value>> {
        let mut pieces = self.pieces()?;
        if let Ok(mut n) = usize::try_from(k) {
            while let Some(p) = pieces.next_piece()? {
                if n == 0 {
                    return Ok(Some(pieces.value(p)));
                }
                n -= 1;
            }
            return Ok(None);
        }
        // From the end: every piece is found, one value made.
        let mut found = Parts::new(self.text.is_ascii());
        while let Some(p) = pieces.next_piece()? {
            found.push(p)?;
        }
        let at = usize::try_from(k.saturating_add(found.len() as i64)).ok();
        Ok(at.and_then(|i| found.get(i)).map(|p| pieces.value(p)))
    }

    /// How many pieces there are (`len(call)`), none made.
    pub(crate) fn count(&self) -> R<usize> {
        let mut pieces = self.pieces()?;
        let mut n = 0;
        while pieces.next_piece()?.is_some() {
            n += 1;
        }
        Ok(n)
    }

    /// How many pieces there are when one pass of `memchr` tells (a
    /// one-byte separator), else 0: room to make for the results.
    pub(crate) fn size_hint(&self) -> usize {
        match &self.how {
            How::Split {
                sep: Some(sep),
                maxsplit,
                ..
            } => match sep.as_str().as_bytes() {
                &[b] => {
                    let cuts = memchr::memchr_iter(b, self.text.as_str().as_bytes()).count();
                    let limit = usize::try_from(*maxsplit).unwrap_or(usize::MAX);
                    cuts.min(limit) + 1
                }
                _ => 0,
            },
            _ => 0,
        }
    }

    /// The list the method returns.
    pub(crate) fn to_list(&self) -> R<Value> {
        let mut pieces = self.pieces()?;
        let mut items = meter::Buf::new();
        while let Some(p) = pieces.next_piece()? {
            items.push(pieces.value(p))?;
        }
        Ok(Value::list(items.into_vec()))
    }
}

/// Whether a match of `sep` can overlap the next one (a proper prefix of
/// it is also a suffix).
fn overlaps_itself(sep: &str) -> bool {
    let b = sep.as_bytes();
    (1..b.len()).any(|l| b.get(..l) == b.get(b.len() - l..))
}

/// For `rsplit(sep, limit)` with a separator whose matches cannot overlap:
/// the first piece and where the rest starts, when the splits from the
/// right stop before the start of the text; `None` when every cut is made
/// or none is (the pieces are then the left-to-right ones, with the limit).
fn right_head<'t>(text: &'t str, sep: Option<&str>, limit: usize) -> Option<(&'t str, usize)> {
    if limit == usize::MAX {
        return None;
    }
    match sep {
        // No split at all: the whole text, as from the left.
        Some(_) if limit == 0 => None,
        Some(sep) => {
            let mut end = text.len();
            for _ in 0..limit {
                end = crate::text::search::rfind(text.as_bytes().get(..end)?, sep.as_bytes())?;
            }
            Some((text.get(..end)?, end + sep.len()))
        }
        None => {
            let mut rest = text.trim_end_matches(is_space);
            for _ in 0..limit {
                let p = rest.rfind(is_space)?;
                rest = rest.get(..p)?.trim_end_matches(is_space);
            }
            // The words after the head are the rest's, split from the left.
            (!rest.is_empty()).then_some((rest, rest.len()))
        }
    }
}

/// The cursor over a call's pieces ([`SplitCall::pieces`]).
pub(crate) struct Pieces<'t> {
    text: &'t str,
    ascii: bool,
    /// The first piece when it is found apart (a right split's).
    head: Option<&'t str>,
    /// Where the rest of the text starts.
    pos: usize,
    /// The last piece was handed out.
    done: bool,
    walk: Walk<'t>,
    share: Option<Box<Share<'t>>>,
}

/// The strings made for a long text's short pieces so far.
struct Share<'t> {
    table: ShareTable<'t>,
    seen: usize,
    hits: usize,
}

/// Texts from this many bytes share their repeated short pieces.
const SHARE_TEXT: usize = 512;

/// How the next piece is found; the counts are the splits still allowed.
enum Walk<'t> {
    Byte(u8, usize),
    Sep(&'t str, usize, Option<Box<Finder<'t>>>),
    Space(usize),
    Lines(bool),
    /// Found up front, handed out from this index.
    Found(Box<Parts<'t>>, usize),
}

impl<'t> Pieces<'t> {
    /// The next piece (one tick of builtin work), `None` after the last.
    #[inline]
    pub(crate) fn next_piece(&mut self) -> R<Option<&'t str>> {
        if self.done {
            return Ok(None);
        }
        meter::tick()?;
        if let Some(h) = self.head.take() {
            return Ok(Some(h));
        }
        let text = self.text;
        let rest = text.get(self.pos..).unwrap_or_default();
        let piece = match &mut self.walk {
            Walk::Byte(b, left) => match find_byte(rest.as_bytes(), *b).filter(|_| *left > 0) {
                Some(p) => {
                    *left -= 1;
                    self.pos += p + 1;
                    rest.get(..p)
                }
                None => self.last(rest),
            },
            Walk::Sep(sep, left, finder) => {
                let at = match finder {
                    Some(f) => f.find(rest.as_bytes()),
                    None => crate::text::search::find(rest.as_bytes(), sep.as_bytes()),
                };
                match at.filter(|_| *left > 0) {
                    Some(p) => {
                        *left -= 1;
                        self.pos += p + sep.len();
                        rest.get(..p)
                    }
                    None => self.last(rest),
                }
            }
            Walk::Space(left) => {
                let (word, next) = if self.ascii {
                    next_ascii_word(rest, *left == 0)
                } else {
                    next_word(rest, *left == 0)
                };
                *left = left.saturating_sub(1);
                match word {
                    Some(w) => {
                        self.pos += next;
                        Some(w)
                    }
                    None => {
                        self.done = true;
                        None
                    }
                }
            }
            Walk::Lines(keep) => {
                let keep = *keep;
                match next_line(rest.as_bytes()) {
                    Some((end, width)) => {
                        self.pos += end + width;
                        rest.get(..if keep { end + width } else { end })
                    }
                    None if rest.is_empty() => {
                        self.done = true;
                        None
                    }
                    None => self.last(rest),
                }
            }
            Walk::Found(parts, i) => {
                let p = parts.get(*i);
                *i += 1;
                if p.is_none() {
                    self.done = true;
                }
                p
            }
        };
        Ok(piece)
    }

    /// The rest of the text as the last piece.
    #[inline]
    fn last(&mut self, rest: &'t str) -> Option<&'t str> {
        self.done = true;
        Some(rest)
    }

    /// The str value of `piece` (as the method makes it).
    #[inline(always)]
    pub(crate) fn value(&mut self, piece: &'t str) -> Value {
        if self.share.is_some() && piece.len() <= SHORT {
            return self.shared_value(piece);
        }
        make_part(self.ascii, piece)
    }

    /// [`Self::value`] from the share table.
    #[inline(never)]
    fn shared_value(&mut self, piece: &'t str) -> Value {
        if let Some(sh) = &mut self.share {
            let (v, hit) = sh.table.get_or_make(piece, self.ascii);
            sh.seen += 1;
            sh.hits += usize::from(hit);
            // Mostly distinct pieces gain nothing: stop looking.
            if sh.seen == STOP_AT && sh.hits < STOP_AT / 4 {
                self.share = None;
            }
            return v;
        }
        make_part(self.ascii, piece)
    }
}

/// Python's whitespace below U+0080: \t \n \x0b \x0c \r \x1c-\x1f and space.
#[inline]
fn ascii_space(b: u8) -> bool {
    matches!(b, b'\t'..=b'\r' | 0x1c..=0x1f | b' ')
}

/// [`next_word`] of ASCII text: bytes only.
#[inline]
fn next_ascii_word(rest: &str, whole: bool) -> (Option<&str>, usize) {
    let bytes = rest.as_bytes();
    let n = bytes.len();
    let mut i = 0;
    while i < n && ascii_space(bytes[i]) {
        i += 1;
    }
    if i == n {
        return (None, n);
    }
    if whole {
        return (rest.get(i..), n);
    }
    let start = i;
    while i < n && !ascii_space(bytes[i]) {
        i += 1;
    }
    (rest.get(start..i), i)
}

/// The next word of `rest` for a whitespace split and the offset just past
/// it; with `whole`, the word is the rest after its leading whitespace (no
/// split left). `None` when only whitespace is left.
#[inline]
fn next_word(rest: &str, whole: bool) -> (Option<&str>, usize) {
    let bytes = rest.as_bytes();
    let mut i = 0;
    // ASCII bytes are judged by bytes; anything else by chars.
    loop {
        match bytes.get(i) {
            Some(&b) if b < 0x80 => {
                if !ascii_space(b) {
                    break;
                }
                i += 1;
            }
            Some(_) => match rest.get(i..).and_then(|r| r.chars().next()) {
                Some(c) if is_space(c) => i += c.len_utf8(),
                _ => break,
            },
            None => return (None, i),
        }
    }
    let start = i;
    if whole {
        return (rest.get(start..), rest.len());
    }
    loop {
        match bytes.get(i) {
            Some(&b) if b < 0x80 => {
                if ascii_space(b) {
                    break;
                }
                i += 1;
            }
            Some(_) => match rest.get(i..).and_then(|r| r.chars().next()) {
                Some(c) if is_space(c) => break,
                Some(c) => i += c.len_utf8(),
                None => break,
            },
            None => break,
        }
    }
    (rest.get(start..i), i)
}

/// The first line break of `bytes`: where it starts and its width.
#[inline]
fn next_line(bytes: &[u8]) -> Option<(usize, usize)> {
    let nl = find_byte(bytes, b'\n').unwrap_or(bytes.len());
    let seg = bytes.get(..nl).unwrap_or_default();
    let rare = seg.iter().fold(false, |a, &b| {
        a | matches!(b, 0x0b..=0x0d | 0x1c..=0x1e | 0xc2 | 0xe2)
    });
    if rare
        && let Some(hit) =
            (0..nl).find_map(|i| crate::types::str::split::break_width(bytes, i).map(|w| (i, w)))
    {
        return Some(hit);
    }
    (nl < bytes.len()).then_some((nl, 1))
}
