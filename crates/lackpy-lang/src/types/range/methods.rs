//! The methods of `range`: their table and one function per method.

use num_traits::{One, Zero};

use crate::runtime::error::{Exc, R};
use crate::syntax::catalog::MethodId as M;
use crate::types::args::{Kw, one};
use crate::types::int::{as_int, f64_to_int};
use crate::types::ops::range_contains;
use crate::types::table::{Methods, m};
use crate::value::{Range, Value, repr};

/// A `range` method: the receiver, positional and keyword arguments.
pub(crate) type RangeMethod = fn(&Range, &[Value], Kw<'_>) -> R<Value>;

/// The methods of `range`.
pub(crate) static RANGE: Methods<RangeMethod> = Methods::new(&[
    m(M::Count, 1, 1, range_count),
    m(M::Index, 1, 1, range_index),
]);

fn range_count(r: &Range, args: &[Value], kwargs: Kw) -> R<Value> {
    let x = one("range.count", args, kwargs)?;
    Ok(Value::int(range_contains(r, x) as i64))
}

fn range_index(r: &Range, args: &[Value], kwargs: Kw) -> R<Value> {
    let x = one("range.index", args, kwargs)?;
    if !range_contains(r, x) {
        // CPython answers exact ints and bools itself and leaves
        // anything else to the generic sequence search.
        return Err(Exc::value_error(match x {
            Value::Int(_, _) | Value::Big(_) | Value::Bool(_) => {
                format!("{} is not in range", repr::repr(x)?)
            }
            _ => "sequence.index(x): x not in sequence".to_string(),
        }));
    }
    let i = match x {
        Value::Float(_, f) => match f64_to_int(f.get()) {
            Some(v) => as_int(&v).map(|i| i.to_big()),
            None => None,
        },
        _ => as_int(x).map(|i| i.to_big()),
    };
    match i {
        Some(i) => Ok(Value::from_big(r.position(&i))),
        None => Err(Exc::not_index(x)),
    }
}

/// A range's attributes and hash as values.
impl Range {
    /// `r.start`, `r.stop`, `r.step` as values.
    pub(crate) fn attrs(&self) -> (Value, Value, Value) {
        match self {
            Range::Small { start, stop, step } => {
                (Value::int(*start), Value::int(*stop), Value::int(*step))
            }
            Range::Big(b) => (
                Value::from_big(b.start.clone()),
                Value::from_big(b.stop.clone()),
                Value::from_big(b.step.clone()),
            ),
        }
    }

    /// The values CPython hashes for a range: `(len, start, step)`, with
    /// `start` and `step` as `None` where they do not matter.
    pub(crate) fn hash_key(&self) -> Vec<Value> {
        let n = self.len_big();
        let (start, _, step) = self.bounds();
        let (start, step) = if n.is_zero() {
            (Value::None, Value::None)
        } else if n.is_one() {
            (Value::from_big(start), Value::None)
        } else {
            (Value::from_big(start), Value::from_big(step))
        };
        vec![Value::from_big(n), start, step]
    }
}
