//! `len(x)`.

use crate::runtime::error::{Exc, R};
use crate::types::args::{Kw, no_kwargs};
use crate::types::ops;
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
