//! `+` and `*` of strings.

use crate::runtime::Budget;
use crate::runtime::error::{Exc, R};
use crate::types::str::PyStr;
use crate::value::{StrRc, Value};

/// `x + y`. An empty operand gives the other one itself (CPython's
/// `unicode_concat`), which `is` sees; a left operand nothing else holds
/// is extended where it lies.
pub(crate) fn concat(budget: &mut Budget, mut x: StrRc, y: StrRc) -> R<Value> {
    if y.as_str().is_empty() {
        return Ok(Value::Str(x));
    }
    if x.as_str().is_empty() {
        return Ok(Value::Str(y));
    }
    budget.check_memory(x.as_str().len() + y.as_str().len())?;
    if let Some(s) = StrRc::get_mut(&mut x) {
        s.push_str(&y);
        return Ok(Value::Str(x));
    }
    // Sized once (inline when short); the length is the sum.
    Ok(Value::Str(StrRc::new(PyStr::concat(&x, &y))))
}

/// `s * n` (`seq` is `s` as a value: repeated once, it is itself).
pub(crate) fn repeat(budget: &mut Budget, s: &StrRc, seq: &Value, n: usize) -> R<Value> {
    let len = s.as_str().len();
    if (s.char_len() as u128) * (n as u128) > isize::MAX as u128 {
        return Err(Exc::overflow("repeated string is too long"));
    }
    let total = len.checked_mul(n).ok_or_else(Exc::memory)?;
    budget.check_memory(total)?;
    if n == 1 {
        return Ok(seq.clone());
    }
    Ok(Value::str(s.as_str().repeat(n)))
}
