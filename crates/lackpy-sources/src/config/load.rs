//! Reading `.lackpy/config.toml` into a [`Config`].
//!
//! One pass through serde with two wrappers: `serde_ignored` collects every
//! key the structs do not know (returned as warnings and logged at WARN),
//! `serde_path_to_error` names the key a type error is about; toml's spans
//! give the line. Checks across keys run last ([`super::check`]) and are
//! placed by finding their key in the document.

use std::path::{Path, PathBuf};

use super::check::check;
use super::error::{ConfigError, ConfigWarning};
use super::keypath::KeyPath;
use super::nesting::{MAX_NESTING, too_deep};
use super::notes;
use super::schema::Config;
use crate::bounded_file::{BoundedReadError, read_regular};

/// The largest config file read: 4 MiB (real ones are a few KiB).
pub const MAX_CONFIG_BYTES: u64 = 4 * 1024 * 1024;

/// A config as read, with the warnings it produced.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LoadedConfig {
    /// The typed config (defaults when there was no file).
    pub config: Config,
    /// The file it came from; `None` when there was none.
    pub file: Option<PathBuf>,
    /// Unknown keys.
    pub warnings: Vec<ConfigWarning>,
}

/// Where a workspace's config lives: `<workspace>/.lackpy/config.toml`.
pub fn config_path(workspace: &Path) -> PathBuf {
    workspace.join(".lackpy").join("config.toml")
}

/// Reads `<workspace>/.lackpy/config.toml`; a missing file means defaults.
pub fn load_config(workspace: &Path) -> Result<LoadedConfig, ConfigError> {
    load_config_file(&config_path(workspace))
}

/// Reads a config file; a missing file means defaults. Only a regular
/// file of at most [`MAX_CONFIG_BYTES`] is read (a FIFO or device fails at
/// once instead of blocking or filling memory).
pub fn load_config_file(file: &Path) -> Result<LoadedConfig, ConfigError> {
    let bytes = match read_regular(file, MAX_CONFIG_BYTES) {
        Ok(b) => b,
        Err(BoundedReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(LoadedConfig::default());
        }
        Err(e) => {
            return Err(ConfigError::Read {
                file: file.to_path_buf(),
                source: e.into(),
            });
        }
    };
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let bad = e.utf8_error().valid_up_to();
            let line = 1 + e.as_bytes()[..bad].iter().filter(|b| **b == b'\n').count();
            return Err(ConfigError::NotUtf8 {
                file: file.to_path_buf(),
                line,
            });
        }
    };
    parse_config(&text, file)
}

/// Parses config text; `file` is only used in messages. Text nested more
/// than [`MAX_NESTING`] levels deep is refused before it is parsed.
pub fn parse_config(text: &str, file: &Path) -> Result<LoadedConfig, ConfigError> {
    if let Some((line, column)) = too_deep(text) {
        return Err(ConfigError::Syntax {
            file: file.to_path_buf(),
            line,
            column,
            key: None,
            message: format!(
                "tables, keys and values nest more than {MAX_NESTING} levels deep here"
            ),
        });
    }
    let de = toml::Deserializer::parse(text).map_err(|e| {
        let (line, column) = position(text, e.span().map_or(0, |s| s.start));
        ConfigError::Syntax {
            file: file.to_path_buf(),
            line,
            column,
            key: key_near_line(text, line),
            message: e.message().trim().replace('\n', "; "),
        }
    })?;
    let mut unknown = Vec::new();
    let mut record = |path: serde_ignored::Path<'_>| unknown.push(KeyPath::from_ignored(&path));
    let ignored = serde_ignored::Deserializer::new(de, &mut record);
    let parsed: Result<Config, _> = serde_path_to_error::deserialize(ignored);
    let config = parsed.map_err(|e| {
        let key = e.path().to_string();
        let inner = e.into_inner();
        let mut message = inner.message().trim().replace('\n', "; ");
        let (mut line, mut column) = match inner.span() {
            Some(span) => position(text, span.start),
            None => find_key_line(text, &key),
        };
        // A table refused as incomplete (`needs command or url`) because a
        // key was misspelt: the misspelt key is the news, and its line.
        if let Some(typo) = unknown.iter().find(|u| u.parent_is(&key)) {
            message = format!("{}; {message}", notes::unknown_key_message(typo));
            if let Some(at) = typo.offset_in(text) {
                (line, column) = position(text, at);
            }
        }
        ConfigError::Invalid {
            file: file.to_path_buf(),
            line,
            column,
            key,
            message,
        }
    })?;
    check(&config, &unknown).map_err(|problem| {
        let key = problem.path.to_string();
        let (line, column) = match problem.path.offset_in(text) {
            Some(at) => position(text, at),
            None => find_key_line(text, &key),
        };
        ConfigError::Invalid {
            file: file.to_path_buf(),
            line,
            column,
            key,
            message: problem.message,
        }
    })?;
    let warnings: Vec<ConfigWarning> = notes::warnings(&config, &unknown, text, file);
    for w in &warnings {
        tracing::warn!("{w}");
    }
    Ok(LoadedConfig {
        config,
        file: Some(file.to_path_buf()),
        warnings,
    })
}

/// 1-based line and column (in characters) of a byte offset.
pub(super) fn position(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text.as_bytes()[..offset];
    let line = 1 + before.iter().filter(|b| **b == b'\n').count();
    let line_start = before
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |i| i + 1);
    let column = 1 + text
        .get(line_start..offset)
        .map_or(0, |s| s.chars().count());
    (line, column)
}

/// The key a syntax error is probably about: the `key = …` on that line
/// (prefixed by the table header above it), or the header itself.
fn key_near_line(text: &str, line: usize) -> Option<String> {
    let mut header: Option<String> = None;
    for (i, raw) in text.lines().enumerate() {
        let l = raw.trim();
        let is_header = l.starts_with('[');
        if is_header {
            let h = l.trim_start_matches('[');
            let h = h.split(']').next().unwrap_or(h).trim();
            header = Some(h.to_string());
        }
        if i + 1 == line {
            if is_header {
                return header;
            }
            let (lhs, _) = l.split_once('=')?;
            let lhs = lhs.trim().trim_matches('"');
            if lhs.is_empty() || lhs.starts_with('#') {
                return header;
            }
            return Some(match header {
                Some(h) => format!("{h}.{lhs}"),
                None => lhs.to_string(),
            });
        }
    }
    header
}

/// Where a key path's last component is written, when toml gave no span.
fn find_key_line(text: &str, key: &str) -> (usize, usize) {
    let last = key
        .rsplit('.')
        .next()
        .unwrap_or(key)
        .split('[')
        .next()
        .unwrap_or(key);
    if !last.is_empty() {
        for (i, l) in text.lines().enumerate() {
            if let Some(col) = l.find(last) {
                return (i + 1, col + 1);
            }
        }
    }
    (1, 1)
}
