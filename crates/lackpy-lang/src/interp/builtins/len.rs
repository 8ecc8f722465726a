//! `len(x)`.

use super::super::args::{Kw, no_kwargs};
use super::super::ops;
use crate::runtime::error::{Exc, R};
use crate::value::Value;

/// `len(x)`.
pub(super) fn len(args: &[Value], kwargs: Kw) -> R<Value> {
    no_kwargs("len", kwargs)?;
    match args {
        [x] => Ok(Value::int(ops::py_len(x)? as i64)),
        _ => Err(Exc::type_error(format!(
            "len() takes exactly one argument ({} given)",
            args.len()
        ))),
    }
}
