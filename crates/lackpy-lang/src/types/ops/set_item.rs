//! Item assignment: `obj[idx] = v`.

use crate::runtime::error::{Exc, R};
use crate::types::caller::Caller;
use crate::types::int::as_int;
use crate::value::Value;

/// `obj[idx] = v`.
pub(crate) fn set_item(it: &mut dyn Caller, obj: &Value, idx: Value, v: Value) -> R<()> {
    match obj {
        Value::List(l) => {
            let container = v.is_container();
            {
                let mut lb = l
                    .try_borrow_mut()
                    .map_err(|_| Exc::runtime_error("list busy"))?;
                let n = lb.items.len();
                let j = match as_int(&idx) {
                    Some(i) => {
                        let i = i.to_i64().ok_or_else(|| {
                            Exc::index_error("cannot fit 'int' into an index-sized integer")
                        })?;
                        let j = if i < 0 { i + n as i64 } else { i };
                        if j < 0 || j >= n as i64 {
                            return Err(Exc::index_error("list assignment index out of range"));
                        }
                        j as usize
                    }
                    None => {
                        return Err(Exc::type_error(format!(
                            "list indices must be integers or slices, not {}",
                            idx.type_name()
                        )));
                    }
                };
                if let Some(slot) = lb.items.get_mut(j) {
                    *slot = v;
                }
            }
            if container {
                it.note_list_cycle(l);
            }
            Ok(())
        }
        Value::Dict(d) => {
            let container = v.is_container() || idx.is_container();
            d.try_borrow_mut()
                .map_err(|_| Exc::runtime_error("dict busy"))?
                .put(idx, v)?;
            if container {
                it.note_dict_cycle(d);
            }
            Ok(())
        }
        other => Err(Exc::type_error(format!(
            "'{}' object does not support item assignment",
            other.type_name()
        ))),
    }
}
