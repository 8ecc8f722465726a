//! The `inputSchema` a tool advertises, derived from its arguments' type.
//!
//! schemars writes the type's schema; a few of its habits are undone so
//! that clients see the plain shapes lackpy has always advertised: an
//! optional argument is described by its type alone (a null is read as an
//! absent argument, but not advertised), integers carry their `minimum`
//! but no Rust `format`, an object of any values is just `object`, and a
//! description wrapped over several doc-comment lines is one line.

use std::any::TypeId;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use rmcp::model::JsonObject;
use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::Value;

/// `T`'s input schema, derived once per process.
pub(crate) fn input_schema<T: JsonSchema + 'static>() -> Arc<JsonObject> {
    static DERIVED: OnceLock<Mutex<HashMap<TypeId, Arc<JsonObject>>>> = OnceLock::new();
    let derived = DERIVED.get_or_init(Default::default);
    let mut derived = derived
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    Arc::clone(
        derived
            .entry(TypeId::of::<T>())
            .or_insert_with(|| Arc::new(derive::<T>())),
    )
}

fn derive<T: JsonSchema>() -> JsonObject {
    let schema = SchemaSettings::draft2020_12()
        .for_deserialize()
        .with(|s| s.meta_schema = None)
        .into_generator()
        .into_root_schema_for::<T>();
    let Value::Object(mut root) = schema.to_value() else {
        return JsonObject::new();
    };
    // The type's own name and doc comment are for Rust readers; the
    // tool's description says what the arguments are for.
    root.remove("title");
    root.remove("description");
    root.entry("properties")
        .or_insert_with(|| Value::Object(JsonObject::new()));
    if let Some(Value::Object(properties)) = root.get_mut("properties") {
        for property in properties.values_mut() {
            if let Value::Object(p) = property {
                plain(p);
            }
        }
    }
    root
}

/// One argument's schema as clients have always seen it.
fn plain(p: &mut JsonObject) {
    if let Some(Value::Array(types)) = p.get_mut("type") {
        types.retain(|t| t != "null");
        if let [only] = types.as_slice() {
            let only = only.clone();
            p.insert("type".into(), only);
        }
    }
    p.remove("format");
    if p.get("additionalProperties") == Some(&Value::Bool(true)) {
        p.remove("additionalProperties");
    }
    if let Some(Value::String(d)) = p.get_mut("description") {
        *d = d.replace('\n', " ");
    }
}
