//! `isdisjoint` of dict key and item views, the way CPython's
//! `dictobject.c` does it: members are tested one at a time, so it stops
//! at the first answer and never hashes what it need not.
//!
//! The views' representation ([`crate::value::View`]) is with the dict's,
//! in [`super`]; their membership and their comparisons, which equality
//! of values needs, are with it in [`crate::value::eq`].

use crate::runtime::error::R;
use crate::value::eq::{contained, set_like_len};
use crate::value::{PyIter, Value};

/// `view.isdisjoint(other)`: the smaller of two set-likes is walked, any
/// other iterable is walked against the view.
pub(crate) fn isdisjoint(view: &Value, other: &Value) -> R<bool> {
    let (walk, probe) = match (set_like_len(view), set_like_len(other)) {
        (Some(n), Some(m)) if m > n => (view, other),
        _ => (other, view),
    };
    let mut items = PyIter::of(walk)?;
    while let Some(x) = items.next()? {
        if contained(&x, probe)? {
            return Ok(false);
        }
    }
    Ok(true)
}
