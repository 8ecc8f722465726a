//! Reading a call's arguments into their type, with errors in the words
//! the tools have always used (`argument 'tools' must be a list of
//! strings`, `argument 'program' (a string) is required`, `unknown
//! argument 'x' (expected: …)`).
//!
//! The advertised schema is the one source: an unknown or a missing
//! argument is found from its `properties` and `required`, and a value
//! serde refuses is named by the argument it was given for and described
//! by that argument's schema (`a positive integer` for `minimum: 1`).

use rmcp::model::JsonObject;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::schema::input_schema;
use super::selection::SelectionArgs;

/// `args` as a `T`, or the message for the caller. A null argument is an
/// absent one.
pub(crate) fn read<T: DeserializeOwned + JsonSchema + 'static>(
    mut args: JsonObject,
) -> Result<T, String> {
    let schema = input_schema::<T>();
    let empty = JsonObject::new();
    let properties = match schema.get("properties") {
        Some(Value::Object(p)) => p,
        _ => &empty,
    };
    args.retain(|_, v| !v.is_null());
    if let Some(unknown) = args.keys().find(|k| !properties.contains_key(*k)) {
        let expected: Vec<&str> = properties.keys().map(String::as_str).collect();
        return Err(format!(
            "unknown argument '{unknown}' (expected: {})",
            expected.join(", ")
        ));
    }
    let required = schema.get("required").and_then(Value::as_array);
    for name in required.into_iter().flatten().filter_map(Value::as_str) {
        if !args.contains_key(name) {
            return Err(missing(name, properties.get(name)));
        }
    }
    let args = Value::Object(args);
    T::deserialize(&args).map_err(|e| match refused_argument::<T>(&args) {
        Some(name) => format!("argument '{name}' must be {}", kind(properties.get(&name))),
        None => e.to_string(),
    })
}

/// The message for a required argument that is absent.
pub(crate) fn missing(name: &str, schema: Option<&Value>) -> String {
    format!("argument '{name}' ({}) is required", kind(schema))
}

/// The argument a path into the arguments starts at.
fn argument_of(path: &serde_path_to_error::Path) -> Option<String> {
    match path.iter().next()? {
        serde_path_to_error::Segment::Map { key } => Some(key.clone()),
        _ => None,
    }
}

/// The argument serde refused, read again with its path tracked (only
/// when reading failed: tracking costs a little on every value). serde
/// reads a flattened struct from a buffer, so an error there has no path:
/// the shared part is then read alone.
fn refused_argument<T: DeserializeOwned>(args: &Value) -> Option<String> {
    let path_of = |e: serde_path_to_error::Error<serde_json::Error>| argument_of(e.path());
    let e = serde_path_to_error::deserialize::<_, T>(args).err()?;
    path_of(e).or_else(|| {
        serde_path_to_error::deserialize::<_, SelectionArgs>(args)
            .err()
            .and_then(path_of)
    })
}

/// What an argument's schema asks for, in words.
fn kind(schema: Option<&Value>) -> String {
    let Some(s) = schema else {
        return "valid".to_string();
    };
    let of = |v: &Value| {
        v.get("type")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    match of(s).as_str() {
        "string" => "a string".into(),
        "boolean" => "a boolean".into(),
        "object" => "an object".into(),
        "array" => match s.get("items").map(of).as_deref() {
            Some("string") => "a list of strings".into(),
            _ => "a list".into(),
        },
        "integer" => match s.get("minimum").and_then(Value::as_u64) {
            Some(1) => "a positive integer".into(),
            Some(0) => "a non-negative integer".into(),
            _ => "an integer".into(),
        },
        _ => "valid".into(),
    }
}
