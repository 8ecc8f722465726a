//! A builtin type's method table: one row per method, naming it, the
//! positional arguments it takes and the function that runs it, indexed
//! by method id at compile time.

use crate::syntax::catalog::{Arity, MethodId};

/// One method of a builtin type: its name (by id), the positional
/// arguments it takes and the function that runs it.
pub(crate) struct MethodDef<F> {
    /// The method.
    pub id: MethodId,
    /// Its positional arguments (the handler checks them).
    pub arity: Arity,
    /// The handler; its signature depends on the receiver type.
    pub run: F,
}

/// A table row: method `id` taking `min..=max` positional arguments
/// ([`crate::syntax::catalog::MANY`] for no bound), run by `run`.
pub(crate) const fn m<F>(id: MethodId, min: u8, max: u8, run: F) -> MethodDef<F> {
    MethodDef {
        id,
        arity: Arity::new(min, max),
        run,
    }
}

/// No row for this id.
const ABSENT: u8 = u8::MAX;

/// What a type's table declares, by method id: the half of a [`Methods`]
/// table that does not depend on the handlers' signature.
pub(crate) struct MethodIndex {
    /// The row of each method id ([`ABSENT`] where the type lacks it).
    slot: [u8; MethodId::COUNT],
    /// The arity of each declared method.
    #[cfg_attr(
        not(test),
        expect(dead_code, reason = "the agreement test holds each handler to it")
    )]
    arity: [Arity; MethodId::COUNT],
}

impl MethodIndex {
    /// Whether the type has method `id`.
    #[inline]
    pub(crate) fn has(&self, id: MethodId) -> bool {
        self.slot.get(id as usize).is_some_and(|&s| s != ABSENT)
    }

    /// The declared arity of method `id`, if the type has it.
    #[cfg(test)]
    pub(crate) fn arity(&self, id: MethodId) -> Option<Arity> {
        if self.has(id) {
            self.arity.get(id as usize).copied()
        } else {
            None
        }
    }

    /// Every declared method with its arity, in [`MethodId`] order.
    #[cfg(test)]
    pub(crate) fn declared(&self) -> impl Iterator<Item = (MethodId, Arity)> + '_ {
        MethodId::ALL
            .iter()
            .filter_map(|&id| Some((id, self.arity(id)?)))
    }
}

/// The methods of one builtin type: its rows and their index by id, built
/// at compile time (a method declared twice does not compile).
pub(crate) struct Methods<F: 'static> {
    /// The declarations by id.
    pub index: MethodIndex,
    defs: &'static [MethodDef<F>],
}

impl<F> Methods<F> {
    /// The table of `defs`.
    pub(crate) const fn new(defs: &'static [MethodDef<F>]) -> Self {
        assert!(
            defs.len() < ABSENT as usize,
            "too many methods for one type"
        );
        let mut slot = [ABSENT; MethodId::COUNT];
        let mut arity = [Arity::new(0, 0); MethodId::COUNT];
        let mut i = 0;
        while i < defs.len() {
            let id = defs[i].id as usize;
            assert!(slot[id] == ABSENT, "a method is declared twice");
            slot[id] = i as u8;
            arity[id] = defs[i].arity;
            i += 1;
        }
        Methods {
            index: MethodIndex { slot, arity },
            defs,
        }
    }

    /// The handler of method `id`, if the type has it.
    #[inline]
    pub(crate) fn get(&self, id: MethodId) -> Option<&F> {
        let slot = *self.index.slot.get(id as usize)?;
        self.defs.get(usize::from(slot)).map(|d| &d.run)
    }
}
