//! Methods of the builtin types: one table per type, declared next to its
//! handlers in the type's folder (`str/methods.rs`, `list/methods.rs`, …),
//! each row ([`crate::interp::table`]) naming a method, the positional arguments
//! it takes and the function that runs it. Attribute lookup (`type_has`, `get_attr`) and dispatch
//! (`call_method`) read the same tables, so a method exists exactly where
//! a row declares it.

use std::rc::Rc;

use super::bytes::methods as bytes;
use super::caller::Caller;
use super::complex::methods as complex;
use super::dict::methods as dict;
use super::float::methods as float;
use super::int::methods as int;
use super::list::methods as list;
use super::range::methods as range;
use super::set::methods as set;
use super::str::methods as str;
use super::table::{MethodIndex, Methods};
use super::tuple::methods as tuple;
use crate::runtime::error::{Exc, R};
use crate::syntax::catalog::{MethodId, TypeId};
use crate::value::{Method, Value, ViewKind};

/// The declared methods of type `t` (`None` for a type without methods).
pub(crate) fn methods_of(t: TypeId) -> Option<&'static MethodIndex> {
    Some(match t {
        TypeId::Str => &str::METHODS.index,
        TypeId::Bytes => &bytes::BYTES.index,
        TypeId::List => &list::LIST.index,
        TypeId::Tuple => &tuple::TUPLE.index,
        TypeId::Range => &range::RANGE.index,
        TypeId::Dict => &dict::DICT.index,
        TypeId::DictKeys | TypeId::DictItems => &dict::VIEWS.index,
        TypeId::Set => &set::METHODS.index,
        TypeId::Int | TypeId::Bool => &int::INT.index,
        TypeId::Float => &float::FLOAT.index,
        TypeId::Complex => &complex::COMPLEX.index,
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
    data_attr(obj, name).unwrap_or_else(|| Err(Exc::no_attr(obj, name)))
}

/// The handler of method `id` in `table`, or the AttributeError of `recv`.
#[inline]
fn handler<F>(table: &'static Methods<F>, recv: &Value, id: MethodId) -> R<&'static F> {
    table.get(id).ok_or_else(|| Exc::no_attr(recv, id.name()))
}

/// Calls a method on a receiver of the right type.
pub(crate) fn call_method(
    it: &mut dyn Caller,
    recv: &Value,
    id: MethodId,
    args: &[Value],
    kwargs: &[(Rc<str>, Value)],
) -> R<Value> {
    match recv {
        Value::Str(s) => handler(&str::METHODS, recv, id)?(it.budget(), s, args, kwargs),
        Value::List(l) => handler(&list::LIST, recv, id)?(it, l, args, kwargs),
        Value::Tuple(t) => handler(&tuple::TUPLE, recv, id)?(t, args, kwargs),
        Value::Range(r) => handler(&range::RANGE, recv, id)?(r, args, kwargs),
        Value::Dict(d) => handler(&dict::DICT, recv, id)?(it, d, args, kwargs),
        Value::View(v) if v.kind != ViewKind::Values => {
            handler(&dict::VIEWS, recv, id)?(v, args, kwargs)
        }
        Value::Set(s) => set::call(
            it.budget(),
            s,
            *handler(&set::METHODS, recv, id)?,
            args,
            kwargs,
        ),
        Value::Bytes(b) => handler(&bytes::BYTES, recv, id)?(it.budget(), b, args, kwargs),
        Value::Int(_, _) | Value::Big(_) | Value::Bool(_) => {
            handler(&int::INT, recv, id)?(recv, args, kwargs)
        }
        Value::Float(_, f) => handler(&float::FLOAT, recv, id)?(f.get(), args, kwargs),
        Value::Complex(c) => handler(&complex::COMPLEX, recv, id)?(c, args, kwargs),
        Value::Type(t) => call_unbound(it, *t, id, args, kwargs),
        _ => Err(Exc::no_attr(recv, id.name())),
    }
}

/// Calls `type.method(self, ...)` (an unbound method), checking `self`.
pub(crate) fn call_unbound(
    it: &mut dyn Caller,
    owner: TypeId,
    id: MethodId,
    args: &[Value],
    kwargs: &[(Rc<str>, Value)],
) -> R<Value> {
    if owner == TypeId::Dict && id == MethodId::Fromkeys {
        return dict::fromkeys(args, kwargs);
    }
    if owner == TypeId::Str && id == MethodId::Maketrans {
        return super::str::translate::maketrans(args, kwargs);
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

/// A data attribute (`x.real`, `r.start`, …), or `None` if there is none.
pub(crate) fn data_attr(obj: &Value, name: &str) -> Option<R<Value>> {
    match (obj, name) {
        (Value::Int(_, _) | Value::Big(_), "real" | "numerator") => Some(Ok(obj.clone())),
        (Value::Bool(b), "real" | "numerator") => Some(Ok(Value::int(*b as i64))),
        (Value::Int(_, _) | Value::Big(_) | Value::Bool(_), "imag") => Some(Ok(Value::int(0))),
        (Value::Int(_, _) | Value::Big(_) | Value::Bool(_), "denominator") => {
            Some(Ok(Value::int(1)))
        }
        (Value::Float(..), "real") => Some(Ok(obj.clone())),
        (Value::Float(_, _), "imag") => Some(Ok(Value::float(0.0))),
        (Value::Complex(c), "real") => Some(Ok(Value::float(c.0))),
        (Value::Complex(c), "imag") => Some(Ok(Value::float(c.1))),
        (Value::Range(r), "start") => Some(Ok(r.attrs().0)),
        (Value::Range(r), "stop") => Some(Ok(r.attrs().1)),
        (Value::Range(r), "step") => Some(Ok(r.attrs().2)),
        _ => None,
    }
}
