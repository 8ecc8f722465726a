//! Generic aliases: `list[str]`, `dict[str, list[int]]` (CPython's
//! `types.GenericAlias`), which annotations evaluate to.

use super::{Alias, Value};
use crate::syntax::catalog::TypeId;

/// Whether `t[...]` makes an alias (the types with `__class_getitem__`).
pub(crate) fn subscriptable(t: TypeId) -> bool {
    matches!(
        t,
        TypeId::List
            | TypeId::Dict
            | TypeId::Tuple
            | TypeId::Set
            | TypeId::Type
            | TypeId::Enumerate
    )
}

/// `t[idx]` for a subscriptable type.
pub(crate) fn of(origin: TypeId, idx: &Value) -> Value {
    let args = match idx {
        Value::Tuple(t) => t.items.iter().cloned().collect(),
        other => vec![other.clone()],
    };
    Value::Alias(std::rc::Rc::new(Alias { origin, args }))
}
