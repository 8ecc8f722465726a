//! Misconfiguration and misuse: the typed errors of the service API.
//!
//! Expected failures of a program (validation, tool errors, limits) are
//! results, never these.

use lackpy_sources::ConfigError;

/// Why the service could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The config file is unreadable or wrong.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// A profile that neither the config nor a kit file defines.
    #[error("unknown profile '{name}' (known: {known})")]
    UnknownProfile {
        /// The name asked for.
        name: String,
        /// The profiles that exist, comma-separated (or `none`).
        known: String,
    },
    /// A tool name that no source offers.
    #[error("unknown tool '{name}' in {origin} (tools: {known})")]
    UnknownTool {
        /// The name asked for.
        name: String,
        /// Where it was named (`--tools`, `profile 'x'`, …).
        origin: String,
        /// The tools that exist, comma-separated.
        known: String,
    },
    /// A kit file that cannot be read or understood.
    #[error("{file}:{line}: {message}")]
    KitFile {
        /// The kit file.
        file: String,
        /// The 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A rule name that is not known.
    #[error(transparent)]
    Rule(#[from] lackpy_lang::RuleParseError),
    /// Params that are not a JSON object.
    #[error("params must be a JSON object: {0}")]
    Params(String),
    /// A `delegate` or `generate` call without an intent.
    #[error("the intent is empty: say in words what the program should do")]
    EmptyIntent,
    /// The workspace directory is missing or not a directory.
    #[error("workspace '{0}' is not a directory")]
    Workspace(String),
}
