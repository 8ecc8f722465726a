//! Complex numbers: their methods. A complex is held as `Rc<(f64, f64)>`
//! in the value itself ([`crate::value::Value::Complex`]).

pub(crate) mod methods;
pub(crate) mod repr;
