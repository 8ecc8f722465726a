//! `+` and `*` of bytes.

use std::rc::Rc;

use super::PyBytes;
use crate::runtime::Budget;
use crate::runtime::error::{Exc, R};
use crate::value::Value;

/// `x + y`.
pub(crate) fn concat(x: &PyBytes, y: &PyBytes) -> Value {
    let mut v = x.to_vec();
    v.extend_from_slice(y);
    Value::Bytes(Rc::new(PyBytes::new(v)))
}

/// `b * n`.
pub(crate) fn repeat(budget: &mut Budget, b: &PyBytes, n: usize) -> R<Value> {
    let total = b.len().checked_mul(n).ok_or_else(Exc::memory)?;
    budget.check_memory(total)?;
    Ok(Value::Bytes(Rc::new(PyBytes::new(b.repeat(n)))))
}
