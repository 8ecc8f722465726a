//! Params: JSON in, program values out.
//!
//! Two ways in: JSON text (`--params-json`), read by lackpy's own reader so
//! that a big int keeps every digit, and a JSON value some SDK already
//! parsed (an MCP call's `params` argument). Both become one [`Data`]
//! first and share the step from there to the module-level names.

use lackpy_lang::Data;
use serde_json::Value;

use super::error::ServiceError;

/// Params from a JSON object's text, exactly (big ints keep every digit),
/// in the object's order.
pub fn params_from_json(text: &str) -> Result<Vec<(String, Data)>, ServiceError> {
    names(Data::from_json(text).map_err(ServiceError::Params)?)
}

/// Params from a parsed JSON object, in its order: what
/// [`params_from_json`] gives for the value's text, without writing and
/// reading that text (the nesting limit is the same,
/// [`lackpy_lang::MAX_JSON_DEPTH`]).
pub fn params_from_value(v: &Value) -> Result<Vec<(String, Data)>, ServiceError> {
    names(Data::from_json_value(v).map_err(ServiceError::Params)?)
}

/// The module-level names a JSON object's value gives.
fn names(object: Data) -> Result<Vec<(String, Data)>, ServiceError> {
    match object {
        Data::Dict(pairs) => pairs
            .into_iter()
            .map(|(k, v)| match k {
                Data::Str(k) => Ok((k, v)),
                other => Err(ServiceError::Params(format!(
                    "key {} is not a string",
                    other.py_repr()
                ))),
            })
            .collect(),
        other => Err(ServiceError::Params(format!("got {}", other.py_repr()))),
    }
}

#[cfg(test)]
mod tests;
