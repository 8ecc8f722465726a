//! Float identity, as CPython shows it to `is` and to the identity
//! shortcut of container comparisons (`nan in [nan]`).
//!
//! Every float CPython computes is a new object, and a float bound or
//! stored again is the same object; constants of one compilation are
//! merged by value. A float value carries a 32-bit stamp beside its bits:
//! [`CONSTANT`] for the program's literals (so equal literals are one
//! object, as CPython's merged constants), a fresh stamp for each float a
//! run computes, and copies keep theirs. `is` compares stamp and bits; `==`
//! ignores the stamp. Stamps wrap after 2³² − 1 computed floats, when two
//! live floats of equal bits could share one (then `is` says True).

use std::cell::Cell;

/// The stamp of the program's float literals.
pub(crate) const CONSTANT: u32 = 0;

thread_local! {
    static NEXT: Cell<u32> = const { Cell::new(1) };
}

/// A stamp no float alive in this run shares (until the counter wraps).
#[inline(always)]
pub(crate) fn fresh() -> u32 {
    NEXT.with(|n| {
        let id = n.get();
        // Skips CONSTANT when it wraps.
        n.set(id.wrapping_add(1).max(1));
        id
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_stamps_differ_and_are_never_the_constants() {
        let a = fresh();
        let b = fresh();
        assert_ne!(a, b);
        assert_ne!(a, CONSTANT);
        NEXT.with(|n| n.set(u32::MAX));
        assert_eq!(fresh(), u32::MAX);
        assert_eq!(fresh(), 1);
    }
}
