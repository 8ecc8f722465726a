//! A `lambda` value.
//!
//! The one place `value` reaches into `interp`: a lambda holds its lowered
//! code ([`LambdaDef`]), which only the interpreter reads. `cargo xtask
//! check-layers` allows this import here and nowhere else in `value`.

use std::rc::Rc;

use super::Value;
use crate::interp::ir::LambdaDef;

/// A lambda value: its definition plus the values it captured.
pub(crate) struct Lambda {
    pub def: Rc<LambdaDef>,
    /// Default values of the positional parameters, right-aligned.
    pub defaults: Vec<Value>,
    /// Defaults of keyword-only parameters (`None` where absent).
    pub kw_defaults: Vec<Option<Value>>,
    /// Values of enclosing comprehension/lambda locals, snapshot at creation.
    pub captured: Vec<Option<Value>>,
}
