//! The bytes value and argument readers that the bytes methods share.

use std::rc::Rc;

use crate::runtime::error::{Exc, R};
use crate::types::bytes::PyBytes;
use crate::value::Value;

/// A new bytes value.
pub(super) fn bytes_val(b: Vec<u8>) -> Value {
    Value::Bytes(Rc::new(PyBytes::new(b)))
}

/// A bytes argument: `a bytes-like object is required, not 'str'`.
pub(super) fn bytes_like(v: &Value) -> R<&[u8]> {
    match v {
        Value::Bytes(b) => Ok(b),
        other => Err(Exc::type_error(format!(
            "a bytes-like object is required, not '{}'",
            other.type_name()
        ))),
    }
}
