//! The identity of ints and floats, as CPython shows it to `is` and to the
//! identity shortcut of container comparisons (`nan in [nan]`).
//!
//! CPython makes a new object for every int or float it computes (ints
//! from -5 to 256 excepted: those are cached), keeps the object when a
//! value is bound or stored again, and merges the equal constants of one
//! compilation into one object. An int or float value here carries an
//! [`Id`] in the tag word's spare half (so `Value` stays two words): a
//! fresh one for each value a run computes, [`Id::CONST`] for the
//! program's literals and the constants folded from them. Copies keep it,
//! so `is` is: equal, and either the same id or a cached small int.

use std::cell::Cell;

thread_local! {
    static NEXT: Cell<u32> = const { Cell::new(1) };
}

/// Which object an int or float value is (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Id(u32);

impl Id {
    /// The program's constants: equal literals are one object.
    pub(crate) const CONST: Id = Id(0);

    /// The last id (a marker for code that needs one no value has yet).
    pub(crate) const MAX: Id = Id(u32::MAX);

    /// The id as a number (a sort key: ids grow in the order values are
    /// made).
    #[inline]
    pub(crate) fn key(self) -> u32 {
        self.0
    }

    /// A position kept in an id's place for a while (a sort's tie-break).
    #[inline]
    pub(crate) fn at(pos: usize) -> Id {
        Id(pos as u32)
    }

    /// A new object's id. It wraps after 2**32 values a thread computed;
    /// two live equal values meeting that far apart is not worth a wider
    /// word on every value.
    #[inline(always)]
    pub(crate) fn fresh() -> Id {
        NEXT.with(|n| {
            let id = n.get();
            n.set(id.wrapping_add(1));
            Id(id)
        })
    }
}

/// Whether an int is one of CPython's cached small ints (-5..=256), which
/// are one object per value however they are made.
#[inline]
pub(crate) fn cached_int(i: i64) -> bool {
    (-5..=256).contains(&i)
}

/// One float value (its identity is the [`Id`] beside it).
#[derive(Clone, Copy, Debug)]
pub(crate) struct F(f64);

impl F {
    /// The float.
    #[inline(always)]
    pub(crate) fn new(f: f64) -> F {
        F(f)
    }

    /// The float.
    #[inline(always)]
    pub(crate) fn get(self) -> f64 {
        self.0
    }

    /// Whether two floats have the same bits (with equal ids: one object).
    #[inline]
    pub(crate) fn same_bits(self, other: F) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_ids_differ_and_floats_keep_their_bits() {
        let (a, b) = (Id::fresh(), Id::fresh());
        assert_ne!(a, b);
        for f in [0.0, -0.0, 1.5, f64::MAX, 5e-324, f64::NAN, f64::INFINITY] {
            assert_eq!(F::new(f).get().to_bits(), f.to_bits());
            assert!(F::new(f).same_bits(F::new(f)));
        }
        assert!(!F::new(0.0).same_bits(F::new(-0.0)));
        assert!(cached_int(-5) && cached_int(256) && !cached_int(257) && !cached_int(-6));
    }
}
