//! Params: JSON in, program values out.

use lackpy_lang::Data;

use super::error::ServiceError;

/// Params from a JSON object's text, exactly (big ints keep every digit),
/// in the object's order.
pub fn params_from_json(text: &str) -> Result<Vec<(String, Data)>, ServiceError> {
    match Data::from_json(text).map_err(ServiceError::Params)? {
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
