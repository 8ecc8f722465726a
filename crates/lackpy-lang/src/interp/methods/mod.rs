//! Methods of the builtin types: one table per type, declared next to its
//! handlers (`str.rs`, `list.rs`, `dict.rs`, `set.rs`, `num.rs`), each row
//! naming a method, the positional arguments it takes and the function that
//! runs it. Attribute lookup (`type_has`, `get_attr`) and dispatch
//! (`call_method`) read the same tables, so a method exists exactly where
//! a row declares it.

pub(crate) mod bytes;
pub(crate) mod dict;
pub(crate) mod list;
pub(crate) mod num;
pub(crate) mod set;
pub(crate) mod str;

use std::rc::Rc;

use crate::interp::Interp;
use crate::runtime::error::{Exc, R};
use crate::syntax::catalog::{Arity, MethodId, TypeId};
use crate::value::{Method, Value, ViewKind};

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

/// The declared methods of type `t` (`None` for a type without methods).
pub(crate) fn methods_of(t: TypeId) -> Option<&'static MethodIndex> {
    Some(match t {
        TypeId::Str => &str::METHODS.index,
        TypeId::Bytes => &bytes::BYTES.index,
        TypeId::List => &list::LIST.index,
        TypeId::Tuple => &list::TUPLE.index,
        TypeId::Range => &list::RANGE.index,
        TypeId::Dict => &dict::DICT.index,
        TypeId::DictKeys | TypeId::DictItems => &dict::VIEWS.index,
        TypeId::Set => &set::METHODS.index,
        TypeId::Int | TypeId::Bool => &num::INT.index,
        TypeId::Float => &num::FLOAT.index,
        TypeId::Complex => &num::COMPLEX.index,
        _ => return None,
    })
}

/// Whether values of type `t` have method `id`.
#[inline]
pub(crate) fn type_has(t: TypeId, id: MethodId) -> bool {
    methods_of(t).is_some_and(|m| m.has(id))
}

/// Whether `obj.id(...)` is a method call (on an instance or, for a type
/// object, an unbound method).
pub(crate) fn has_method(obj: &Value, id: MethodId) -> bool {
    match obj {
        Value::Type(t) => type_has(*t, id),
        _ => type_has(obj.type_id(), id),
    }
}

/// `obj.name` for a non-call use: bound methods, unbound methods of type
/// objects, and the few data attributes builtin values have.
pub(crate) fn get_attr(obj: &Value, name: &str, id: Option<MethodId>) -> R<Value> {
    if let Some(id) = id {
        match obj {
            Value::Type(t) if type_has(*t, id) => {
                return Ok(Value::Method(Rc::new(Method {
                    recv: None,
                    owner: *t,
                    name: id,
                })));
            }
            Value::Type(_) => {}
            _ if type_has(obj.type_id(), id) => {
                return Ok(Value::Method(Rc::new(Method {
                    recv: Some(obj.clone()),
                    owner: obj.type_id(),
                    name: id,
                })));
            }
            _ => {}
        }
    }
    num::data_attr(obj, name).unwrap_or_else(|| Err(Exc::no_attr(obj, name)))
}

/// The handler of method `id` in `table`, or the AttributeError of `recv`.
#[inline]
fn handler<F>(table: &'static Methods<F>, recv: &Value, id: MethodId) -> R<&'static F> {
    table.get(id).ok_or_else(|| Exc::no_attr(recv, id.name()))
}

/// Calls a method on a receiver of the right type.
pub(crate) fn call_method(
    it: &mut Interp,
    recv: &Value,
    id: MethodId,
    args: &[Value],
    kwargs: &[(Rc<str>, Value)],
) -> R<Value> {
    match recv {
        Value::Str(s) => handler(&str::METHODS, recv, id)?(&mut it.budget, s, args, kwargs),
        Value::List(l) => handler(&list::LIST, recv, id)?(it, l, args, kwargs),
        Value::Tuple(t) => handler(&list::TUPLE, recv, id)?(t, args, kwargs),
        Value::Range(r) => handler(&list::RANGE, recv, id)?(r, args, kwargs),
        Value::Dict(d) => handler(&dict::DICT, recv, id)?(it, d, args, kwargs),
        Value::View(v) if v.kind != ViewKind::Values => {
            handler(&dict::VIEWS, recv, id)?(v, args, kwargs)
        }
        Value::Set(s) => set::call(
            &mut it.budget,
            s,
            *handler(&set::METHODS, recv, id)?,
            args,
            kwargs,
        ),
        Value::Bytes(b) => handler(&bytes::BYTES, recv, id)?(&mut it.budget, b, args, kwargs),
        Value::Int(_, _) | Value::Big(_) | Value::Bool(_) => {
            handler(&num::INT, recv, id)?(recv, args, kwargs)
        }
        Value::Float(_, f) => handler(&num::FLOAT, recv, id)?(f.get(), args, kwargs),
        Value::Complex(c) => handler(&num::COMPLEX, recv, id)?(c, args, kwargs),
        Value::Type(t) => call_unbound(it, *t, id, args, kwargs),
        _ => Err(Exc::no_attr(recv, id.name())),
    }
}

/// Calls `type.method(self, ...)` (an unbound method), checking `self`.
pub(crate) fn call_unbound(
    it: &mut Interp,
    owner: TypeId,
    id: MethodId,
    args: &[Value],
    kwargs: &[(Rc<str>, Value)],
) -> R<Value> {
    if owner == TypeId::Dict && id == MethodId::Fromkeys {
        return dict::fromkeys(args, kwargs);
    }
    if owner == TypeId::Str && id == MethodId::Maketrans {
        return str::translate::maketrans(args, kwargs);
    }
    let Some((recv, rest)) = args.split_first() else {
        return Err(Exc::type_error(format!(
            "unbound method {}.{}() needs an argument",
            owner.name(),
            id.name()
        )));
    };
    let matches_owner =
        recv.type_id() == owner || (owner == TypeId::Int && recv.type_id() == TypeId::Bool);
    if !matches_owner {
        return Err(Exc::type_error(format!(
            "descriptor '{}' for '{}' objects doesn't apply to a '{}' object",
            id.name(),
            owner.name(),
            recv.type_name()
        )));
    }
    call_method(it, recv, id, rest, kwargs)
}
