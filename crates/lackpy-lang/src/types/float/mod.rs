//! Floats: their methods. A float is held in the value itself
//! ([`crate::value::Value::Float`]); its repr and formatting are the text
//! layer's ([`crate::text::format`]).

pub(crate) mod methods;
