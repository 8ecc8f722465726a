//! The shipped defaults: `default_tools.toml`, embedded in the binary and
//! read like any config file.

use std::path::Path;
use std::sync::Arc;

use crate::config::{ConfigError, ToolDef, parse_config};
use crate::config_source::ConfigToolSource;
use crate::python::PythonRuntime;

/// The embedded file's text.
pub const DEFAULT_TOOLS_TOML: &str = include_str!("default_tools.toml");

/// The name the defaults' source and messages use.
pub const DEFAULTS_SOURCE: &str = "defaults";

/// The shipped tool definitions.
pub fn default_tools() -> Result<Vec<ToolDef>, ConfigError> {
    let loaded = parse_config(
        DEFAULT_TOOLS_TOML,
        Path::new("<embedded default_tools.toml>"),
    )?;
    Ok(loaded.config.tools)
}

/// The shipped defaults as a source (to add at [`crate::Precedence::DEFAULTS`]).
pub fn defaults_source(python: Arc<PythonRuntime>) -> Result<ConfigToolSource, ConfigError> {
    Ok(ConfigToolSource::new(
        DEFAULTS_SOURCE,
        default_tools()?,
        python,
    ))
}
