//! The methods of `complex`: their table and one function per method.

use std::rc::Rc;

use crate::runtime::error::R;
use crate::syntax::catalog::MethodId as M;
use crate::types::args::{Kw, none};
use crate::types::table::{Methods, m};
use crate::value::Value;

/// A method of `complex`: the receiver, positional and keyword arguments.
pub(crate) type ComplexMethod = fn(&(f64, f64), &[Value], Kw<'_>) -> R<Value>;

/// The methods of `complex`.
pub(crate) static COMPLEX: Methods<ComplexMethod> =
    Methods::new(&[m(M::Conjugate, 0, 0, complex_conjugate)]);

fn complex_conjugate(c: &(f64, f64), args: &[Value], kwargs: Kw) -> R<Value> {
    none("complex.conjugate", args, kwargs)?;
    Ok(Value::Complex(Rc::new((c.0, -c.1))))
}
