//! The model tiers of `[inference]`: each `[inference.providers.<name>]`
//! table read as an OpenAI-compatible chat-completions endpoint.
//!
//! Ours: `base_url`, `model`, `api_key_env`, `temperature`,
//! `retry_temperature`, `max_tokens`, `timeout_ms`, `connect_timeout_ms`,
//! `max_corrections`, `max_response_bytes`, `params` (extra top-level
//! request fields). lackpy's entries read as the same thing:
//! `plugin = "woollama"` with `model = "<provider>/<model>"` (`ollama/…`
//! gets `http://localhost:11434/v1` when no `base_url` is given; hosted
//! providers their public endpoint and their usual key variable). A key
//! written into the file (`api_key`) is never used: keys come from the
//! environment only.
//!
//! Tiers follow `[inference].order` (its `templates` and `rules` entries
//! name the tiers that always come first); without `order`, every table in
//! file order. A table that cannot be used is a tier that is unavailable,
//! with the reason (`lackpy status` shows it): a bad table never stops
//! `lackpy run`. (An order naming no table is refused by the config
//! loader, with the nearest name; a config given in code that does so
//! gets an unavailable tier here.)

use std::time::Duration;

use lackpy_sources::InferenceSection;
use serde_json::{Map, Value};

/// How long a model may take to answer, by default.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);
/// How long connecting may take, by default.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// The largest answer read, by default (a program is a few KiB).
pub const DEFAULT_MAX_RESPONSE_BYTES: u64 = 1024 * 1024;
/// Correction rounds after the first answer, by default.
pub const DEFAULT_MAX_CORRECTIONS: u32 = 2;

/// One model endpoint.
#[derive(Debug, Clone, PartialEq)]
pub struct ProviderSettings {
    /// The base URL; requests go to `<base_url>/chat/completions`.
    pub base_url: String,
    /// The model name sent in each request.
    pub model: String,
    /// The environment variable holding the API key, if one is needed.
    pub api_key_env: Option<String>,
    /// Sampling temperature of the first answer (default 0.2).
    pub temperature: f64,
    /// Temperature of correction rounds (default 0.6).
    pub retry_temperature: f64,
    /// `max_tokens` sent with each request.
    pub max_tokens: Option<u64>,
    /// Limit of one HTTP request, connect to the answer's last byte.
    pub timeout: Duration,
    /// Limit of connecting.
    pub connect_timeout: Duration,
    /// Correction rounds after an invalid first answer.
    pub max_corrections: u32,
    /// The largest answer body read.
    pub max_response_bytes: u64,
    /// Extra top-level request fields (lackpy's `params`).
    pub extra: Map<String, Value>,
}

/// A configured tier: its settings, or why it cannot be used.
#[derive(Debug, Clone, PartialEq)]
pub struct ProviderEntry {
    /// The table's name (the tier's name in results).
    pub name: String,
    /// The settings, or the reason the tier is unavailable.
    pub settings: Result<ProviderSettings, String>,
}

/// The model tiers of `[inference]`, in order.
pub fn read(inference: &InferenceSection) -> Vec<ProviderEntry> {
    let names: Vec<String> = match &inference.order {
        Some(order) => order
            .iter()
            .filter(|n| *n != "templates" && *n != "rules")
            .cloned()
            .collect(),
        None => inference
            .providers
            .iter()
            .map(|(k, _)| k.to_string())
            .collect(),
    };
    let mut out: Vec<ProviderEntry> = Vec::new();
    for name in names {
        if out.iter().any(|e| e.name == name) {
            continue;
        }
        let table = inference.providers.iter().find(|(k, _)| *k == name);
        let settings = match table {
            Some((_, t)) => settings(t),
            None => Err(format!(
                "[inference].order names '{name}' but there is no [inference.providers.{name}] table"
            )),
        };
        if let Err(why) = &settings {
            tracing::warn!("inference provider '{name}' is unavailable: {why}");
        }
        out.push(ProviderEntry { name, settings });
    }
    out
}

/// Where a hosted provider of lackpy's `<provider>/<model>` strings
/// listens, and the variable its key usually lives in.
fn known_provider(prefix: &str) -> Option<(&'static str, Option<&'static str>)> {
    Some(match prefix {
        "ollama" => ("http://localhost:11434/v1", None),
        "openai" => ("https://api.openai.com/v1", Some("OPENAI_API_KEY")),
        "anthropic" => ("https://api.anthropic.com/v1", Some("ANTHROPIC_API_KEY")),
        "groq" => ("https://api.groq.com/openai/v1", Some("GROQ_API_KEY")),
        "together" => ("https://api.together.xyz/v1", Some("TOGETHER_API_KEY")),
        "openrouter" => ("https://openrouter.ai/api/v1", Some("OPENROUTER_API_KEY")),
        _ => return None,
    })
}

fn string(t: &toml::Table, key: &str) -> Result<Option<String>, String> {
    match t.get(key) {
        None => Ok(None),
        Some(toml::Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(format!("`{key}` must be a string")),
    }
}

fn number(t: &toml::Table, key: &str, default: f64) -> Result<f64, String> {
    let v = match t.get(key) {
        None => return Ok(default),
        Some(toml::Value::Float(f)) => *f,
        Some(toml::Value::Integer(i)) => *i as f64,
        Some(_) => return Err(format!("`{key}` must be a number")),
    };
    if v.is_finite() && v >= 0.0 {
        Ok(v)
    } else {
        Err(format!("`{key}` must be a number of at least 0"))
    }
}

fn count(t: &toml::Table, key: &str) -> Result<Option<u64>, String> {
    match t.get(key) {
        None => Ok(None),
        Some(toml::Value::Integer(i)) => u64::try_from(*i)
            .map(Some)
            .map_err(|_| format!("`{key}` must be a whole number of at least 0")),
        Some(_) => Err(format!("`{key}` must be a whole number")),
    }
}

fn millis(t: &toml::Table, key: &str, default: Duration) -> Result<Duration, String> {
    match count(t, key)? {
        None => Ok(default),
        Some(0) => Err(format!("`{key}` must be at least 1")),
        Some(ms) => Ok(Duration::from_millis(ms)),
    }
}

/// Reads one `[inference.providers.<name>]` table.
pub fn settings(t: &toml::Table) -> Result<ProviderSettings, String> {
    let plugin = string(t, "plugin")?;
    let mut model = string(t, "model")?.unwrap_or_default();
    let mut base_url = string(t, "base_url")?;
    let mut api_key_env = string(t, "api_key_env")?;
    match plugin.as_deref() {
        None | Some("openai" | "openai-compatible") => {}
        Some("woollama") => {
            let Some((prefix, name)) = model.split_once('/') else {
                return Err(format!(
                    "plugin = \"woollama\" needs model = \"<provider>/<model>\" (got '{model}')"
                ));
            };
            let Some((url, key_env)) = known_provider(prefix) else {
                return Err(format!(
                    "unknown woollama provider '{prefix}' in model '{model}' (known: ollama, openai, anthropic, groq, together, openrouter)"
                ));
            };
            base_url = base_url.or_else(|| Some(url.to_string()));
            api_key_env = api_key_env.or_else(|| key_env.map(String::from));
            model = name.to_string();
        }
        Some(retired @ ("ollama" | "anthropic")) => {
            return Err(format!(
                "plugin = \"{retired}\" was retired by lackpy; write plugin = \"woollama\" and model = \"{retired}/<model>\""
            ));
        }
        Some(other) => {
            return Err(format!(
                "plugin = \"{other}\" is not supported (an OpenAI-compatible endpoint needs no plugin, or plugin = \"woollama\")"
            ));
        }
    }
    // An `api_key` written here is never read: the config loader warns
    // of it (`status` shows the warning).
    let base_url = base_url
        .filter(|u| !u.trim().is_empty())
        .ok_or("`base_url` is missing (e.g. \"http://localhost:11434/v1\")")?;
    let base_url = base_url.trim().trim_end_matches('/').to_string();
    match reqwest::Url::parse(&base_url) {
        Ok(u) if matches!(u.scheme(), "http" | "https") => {}
        _ => return Err("`base_url` must be an http:// or https:// URL".to_string()),
    }
    if model.trim().is_empty() {
        return Err("`model` is missing".to_string());
    }
    let extra = match t.get("params") {
        None => Map::new(),
        Some(toml::Value::Table(p)) => match serde_json::to_value(p) {
            Ok(Value::Object(m)) => m,
            _ => return Err("`params` must be a table of request fields".to_string()),
        },
        Some(_) => return Err("`params` must be a table of request fields".to_string()),
    };
    Ok(ProviderSettings {
        base_url,
        model,
        api_key_env: api_key_env.filter(|e| !e.is_empty()),
        temperature: number(t, "temperature", 0.2)?,
        retry_temperature: number(t, "retry_temperature", 0.6)?,
        max_tokens: count(t, "max_tokens")?,
        timeout: millis(t, "timeout_ms", DEFAULT_TIMEOUT)?,
        connect_timeout: millis(t, "connect_timeout_ms", DEFAULT_CONNECT_TIMEOUT)?,
        max_corrections: count(t, "max_corrections")?.map_or(DEFAULT_MAX_CORRECTIONS, |n| {
            u32::try_from(n).unwrap_or(u32::MAX)
        }),
        max_response_bytes: count(t, "max_response_bytes")?.unwrap_or(DEFAULT_MAX_RESPONSE_BYTES),
        extra,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inference(text: &str) -> InferenceSection {
        #[derive(serde::Deserialize)]
        struct File {
            inference: InferenceSection,
        }
        let f: File = toml::from_str(text).expect("toml");
        f.inference
    }

    #[test]
    fn lackpy_woollama_entries_read_as_openai_compatible() {
        let inf = inference(
            "[inference]\norder = [\"templates\", \"rules\", \"local\"]\n\
             [inference.providers.local]\nplugin = \"woollama\"\nmodel = \"ollama/qwen2.5-coder:1.5b\"\n\
             base_url = \"http://localhost:11434/v1/\"\nretry_temperature = 0.7\napi_key = \"inline\"\n",
        );
        let entries = read(&inf);
        assert_eq!(entries.len(), 1);
        let s = entries[0].settings.as_ref().expect("usable");
        assert_eq!(entries[0].name, "local");
        assert_eq!(s.base_url, "http://localhost:11434/v1");
        assert_eq!(s.model, "qwen2.5-coder:1.5b");
        assert_eq!((s.temperature, s.retry_temperature), (0.2, 0.7));
        assert_eq!(s.api_key_env, None);
        let hosted = settings(
            &toml::from_str("plugin = \"woollama\"\nmodel = \"openrouter/meta-llama/llama-3\"")
                .expect("toml"),
        )
        .expect("usable");
        assert_eq!(hosted.base_url, "https://openrouter.ai/api/v1");
        assert_eq!(hosted.model, "meta-llama/llama-3");
        assert_eq!(hosted.api_key_env.as_deref(), Some("OPENROUTER_API_KEY"));
    }

    #[test]
    fn our_own_form_and_its_defaults() {
        let inf = inference(
            "[inference.providers.a]\nbase_url = \"http://127.0.0.1:8080/v1\"\nmodel = \"m/with-slash\"\n\
             api_key_env = \"MY_KEY\"\ntemperature = 0\nmax_tokens = 512\ntimeout_ms = 1500\n\
             params = { top_p = 0.9 }\n[inference.providers.b]\nbase_url = \"x\"\nmodel = \"m\"\n",
        );
        let entries = read(&inf);
        assert_eq!(entries.len(), 2, "every table when there is no order");
        let a = entries[0].settings.as_ref().expect("usable");
        assert_eq!(a.model, "m/with-slash");
        assert_eq!(a.temperature, 0.0);
        assert_eq!(a.max_tokens, Some(512));
        assert_eq!(a.timeout, Duration::from_millis(1500));
        assert_eq!(a.max_corrections, DEFAULT_MAX_CORRECTIONS);
        assert_eq!(a.extra.get("top_p"), Some(&serde_json::json!(0.9)));
        assert!(
            entries[1]
                .settings
                .as_ref()
                .is_err_and(|e| e.contains("base_url"))
        );
    }

    #[test]
    fn unusable_tables_say_why() {
        for (table, why) in [
            ("plugin = \"ollama\"\nmodel = \"q\"", "retired"),
            ("plugin = \"cascade\"", "not supported"),
            ("plugin = \"woollama\"\nmodel = \"q\"", "<provider>/<model>"),
            (
                "plugin = \"woollama\"\nmodel = \"acme/q\"",
                "unknown woollama provider",
            ),
            ("base_url = \"http://h/v1\"", "`model` is missing"),
            (
                "base_url = \"http://h/v1\"\nmodel = \"m\"\ntemperature = \"hot\"",
                "number",
            ),
            (
                "base_url = \"http://h/v1\"\nmodel = \"m\"\ntimeout_ms = 0",
                "at least 1",
            ),
        ] {
            let t: toml::Table = toml::from_str(table).expect("toml");
            let e = settings(&t).expect_err(table);
            assert!(e.contains(why), "{table}: {e}");
        }
        let inf = inference("[inference]\norder = [\"templates\", \"gone\"]\n");
        let entries = read(&inf);
        assert!(
            entries[0]
                .settings
                .as_ref()
                .is_err_and(|e| e.contains("no [inference.providers.gone]"))
        );
    }
}
