//! Method names, attribute lookup and method dispatch by receiver type;
//! the methods themselves, one file per receiver type.

pub(crate) mod dict;
pub(crate) mod list;
pub(crate) mod num;
pub(crate) mod set;
pub(crate) mod str;

use std::rc::Rc;

use crate::catalog::MethodId;
use crate::interp::Interp;
use crate::value::errors::{Exc, R};
use crate::value::{Method, TypeId, Value};

/// Whether values of type `t` have method `id`.
pub(crate) fn type_has(t: TypeId, id: MethodId) -> bool {
    use MethodId as M;
    match t {
        TypeId::Str => matches!(
            id,
            M::Capitalize
                | M::Casefold
                | M::Center
                | M::Count
                | M::Encode
                | M::Endswith
                | M::Expandtabs
                | M::Find
                | M::Format
                | M::FormatMap
                | M::Index
                | M::Isalnum
                | M::Isalpha
                | M::Isascii
                | M::Isdecimal
                | M::Isdigit
                | M::Isidentifier
                | M::Islower
                | M::Isnumeric
                | M::Isprintable
                | M::Isspace
                | M::Istitle
                | M::Isupper
                | M::Join
                | M::Ljust
                | M::Lower
                | M::Lstrip
                | M::Partition
                | M::Removeprefix
                | M::Removesuffix
                | M::Replace
                | M::Rfind
                | M::Rindex
                | M::Rjust
                | M::Rpartition
                | M::Rsplit
                | M::Rstrip
                | M::Split
                | M::Splitlines
                | M::Startswith
                | M::Strip
                | M::Swapcase
                | M::Title
                | M::Upper
                | M::Zfill
        ),
        TypeId::Bytes => matches!(
            id,
            M::Decode | M::Hex | M::Count | M::Startswith | M::Endswith
        ),
        TypeId::List => matches!(
            id,
            M::Append
                | M::Clear
                | M::Copy
                | M::Count
                | M::Extend
                | M::Index
                | M::Insert
                | M::Pop
                | M::Remove
                | M::Reverse
                | M::Sort
        ),
        TypeId::Tuple => matches!(id, M::Count | M::Index),
        TypeId::Dict => matches!(
            id,
            M::Clear
                | M::Copy
                | M::Fromkeys
                | M::Get
                | M::Items
                | M::Keys
                | M::Pop
                | M::Popitem
                | M::Setdefault
                | M::Update
                | M::Values
        ),
        TypeId::Set => matches!(
            id,
            M::Add
                | M::Clear
                | M::Copy
                | M::Difference
                | M::DifferenceUpdate
                | M::Discard
                | M::Intersection
                | M::IntersectionUpdate
                | M::Isdisjoint
                | M::Issubset
                | M::Issuperset
                | M::Pop
                | M::Remove
                | M::SymmetricDifference
                | M::SymmetricDifferenceUpdate
                | M::Union
                | M::Update
        ),
        TypeId::Int | TypeId::Bool => matches!(
            id,
            M::BitLength | M::BitCount | M::Conjugate | M::AsIntegerRatio
        ),
        TypeId::Float => matches!(id, M::IsInteger | M::AsIntegerRatio | M::Conjugate | M::Hex),
        TypeId::Complex => matches!(id, M::Conjugate),
        TypeId::Range => matches!(id, M::Count | M::Index),
        TypeId::DictKeys | TypeId::DictItems => matches!(id, M::Isdisjoint),
        _ => false,
    }
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

/// Calls a method on a receiver of the right type.
pub(crate) fn call_method(
    it: &mut Interp,
    recv: &Value,
    id: MethodId,
    args: &[Value],
    kwargs: &[(Rc<str>, Value)],
) -> R<Value> {
    match recv {
        Value::Str(s) => str::call(it, s, id, args, kwargs),
        Value::List(l) => list::call(it, l, id, args, kwargs),
        Value::Tuple(_) | Value::Range(_) => list::call_seq(it, recv, id, args, kwargs),
        Value::Dict(d) => dict::call(it, d, id, args, kwargs),
        Value::Set(s) => set::call(it, s, id, args, kwargs),
        Value::Type(t) => call_unbound(it, *t, id, args, kwargs),
        _ => num::call(it, recv, id, args, kwargs),
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
        return dict::fromkeys(it, args, kwargs);
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
