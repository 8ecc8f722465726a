//! The exceptions that name a value: their messages are made from it (its
//! repr, its type name). The exception itself is the runtime's
//! ([`crate::runtime::error`]).

use crate::runtime::error::{Exc, ExceptionKind};
use crate::value::Value;

impl Exc {
    /// `KeyError(key)`: its message is the key's repr.
    #[cold]
    pub(crate) fn key_error(key: &Value) -> Box<Exc> {
        let msg = crate::value::repr::repr(key).unwrap_or_else(|e| e.msg);
        Exc::new(ExceptionKind::KeyError, msg)
    }

    /// `KeyError('text')`.
    #[cold]
    pub(crate) fn key_error_text(text: &str) -> Box<Exc> {
        let mut msg = String::new();
        crate::types::str::repr::push_str_repr(&mut msg, text, false);
        Exc::new(ExceptionKind::KeyError, msg)
    }

    /// TypeError for a value that is not iterable.
    #[cold]
    pub(crate) fn not_iterable(v: &Value) -> Box<Exc> {
        Exc::type_error(format!("'{}' object is not iterable", v.type_name()))
    }

    /// TypeError for an int-like argument of the wrong type.
    #[cold]
    pub(crate) fn not_index(v: &Value) -> Box<Exc> {
        Exc::type_error(format!(
            "'{}' object cannot be interpreted as an integer",
            v.type_name()
        ))
    }

    /// AttributeError for a missing attribute.
    #[cold]
    pub(crate) fn no_attr(v: &Value, name: &str) -> Box<Exc> {
        match v {
            Value::Type(t) => Exc::attribute_error(format!(
                "type object '{}' has no attribute '{}'",
                t.name(),
                name
            )),
            _ => Exc::attribute_error(format!(
                "'{}' object has no attribute '{}'",
                v.type_name(),
                name
            )),
        }
    }
}
