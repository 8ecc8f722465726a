//! The config file as the `lackpy://config` resource shows it: the file's
//! own tables, with every value that may be a secret redacted.

use std::path::Path;

use serde_json::{Map, Value};

/// What a redacted value reads.
const REDACTED: &str = "<redacted>";

/// Tables whose every value is redacted: environment variables and
/// request headers carry tokens.
const SECRET_TABLES: &[&str] = &["env", "headers"];

/// Key fragments that mark a single value as secret.
const SECRET_KEYS: &[&str] = &[
    "key", "token", "secret", "password", "passwd", "auth", "cookie",
];

/// The file at `file` as JSON with secrets redacted; `null` when there is
/// no file or it can no longer be read.
pub(super) fn redacted(file: Option<&Path>) -> Value {
    let Some(file) = file else {
        return Value::Null;
    };
    let Ok(text) = std::fs::read_to_string(file) else {
        return Value::Null;
    };
    let Ok(table) = text.parse::<toml::Table>() else {
        return Value::Null;
    };
    let Ok(json) = serde_json::to_value(table) else {
        return Value::Null;
    };
    redact(json)
}

fn redact(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| {
                    let v = if SECRET_TABLES.contains(&k.as_str()) {
                        redact_all(v)
                    } else if is_secret_key(&k) && !matches!(v, Value::Object(_) | Value::Array(_))
                    {
                        Value::String(REDACTED.to_string())
                    } else {
                        redact(v)
                    };
                    (k, v)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(redact).collect()),
        Value::String(text) => Value::String(lackpy_sources::redact_urls(&text).into_owned()),
        other => other,
    }
}

/// Keeps the keys of a table, replacing every value.
fn redact_all(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, _)| (k, Value::String(REDACTED.to_string())))
                .collect::<Map<String, Value>>(),
        ),
        _ => Value::String(REDACTED.to_string()),
    }
}

/// `api_key_env` names a variable, not its value: it is not a secret.
fn is_secret_key(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    !k.ends_with("_env") && SECRET_KEYS.iter().any(|s| k.contains(s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn env_headers_and_keys_are_redacted_names_kept() {
        let v = json!({
            "mcp_servers": {"a": {"command": "x", "env": {"TOKEN": "s3cret"},
                                  "headers": {"Authorization": "Bearer s3cret"}}},
            "inference": {"providers": {"p": {"api_key": "s3cret", "api_key_env": "KEY_VAR"}}},
            "limits": {"timeout_ms": 5}
        });
        let r = redact(v);
        let text = r.to_string();
        assert!(!text.contains("s3cret"), "{text}");
        assert_eq!(r["mcp_servers"]["a"]["env"]["TOKEN"], REDACTED);
        assert_eq!(r["mcp_servers"]["a"]["command"], "x");
        assert_eq!(r["inference"]["providers"]["p"]["api_key_env"], "KEY_VAR");
        assert_eq!(r["limits"]["timeout_ms"], 5);
    }

    #[test]
    fn credentials_in_urls_are_redacted() {
        let v = json!({
            "mcp_servers": {"w": {"url": "https://u:pw@h/mcp?key=Q"}},
            "inference": {"providers": {"p": {"base_url": "http://h/v1?key=Q"}}}
        });
        let r = redact(v);
        assert_eq!(
            r["mcp_servers"]["w"]["url"],
            "https://<redacted>@h/mcp?key=<redacted>"
        );
        assert_eq!(
            r["inference"]["providers"]["p"]["base_url"],
            "http://h/v1?key=<redacted>"
        );
    }
}
