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
    /// A tool name that no source offers. The message names where it was
    /// asked for; a surface names its own tool list with
    /// [`ServiceError::message_for`].
    #[error("unknown tool '{name}' in {origin} (tools: {known})")]
    UnknownTool {
        /// The name asked for.
        name: String,
        /// Where it was named.
        origin: ToolOrigin,
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
    /// The run store (`[runs] store`, `LACKPY_RUNS_STORE`) cannot be used:
    /// the message names it.
    #[error("{0}")]
    RunStore(String),
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
    /// A run that cannot be resumed (unknown, expired, corrupt, …).
    #[error(transparent)]
    Run(#[from] crate::runs::RunError),
    /// The config's files cannot be watched (`--watch`).
    #[error("cannot watch the config's files: {0}")]
    Watch(String),
}

/// Where the tool names of a request came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolOrigin {
    /// The request's own list of tools (`--tools` on the command line, the
    /// `tools` argument over MCP).
    Request,
    /// A profile: a config table or a kit file.
    Profile(String),
}

impl std::fmt::Display for ToolOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ToolOrigin::Request => f.write_str("the tool list"),
            ToolOrigin::Profile(name) => write!(f, "profile '{name}'"),
        }
    }
}

impl ServiceError {
    /// The message as a surface shows it, `list` being how that surface
    /// spells the request's own tool list (`--tools` on the command line,
    /// `the 'tools' argument` over MCP).
    pub fn message_for(&self, list: &str) -> String {
        match self {
            ServiceError::UnknownTool {
                name,
                origin: ToolOrigin::Request,
                known,
            } => format!("unknown tool '{name}' in {list} (tools: {known})"),
            other => other.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unknown(origin: ToolOrigin) -> ServiceError {
        ServiceError::UnknownTool {
            name: "nope".into(),
            origin,
            known: "read_file, find_files".into(),
        }
    }

    #[test]
    fn each_surface_names_its_own_tool_list() {
        let e = unknown(ToolOrigin::Request);
        insta::assert_snapshot!(e.to_string(), @"unknown tool 'nope' in the tool list (tools: read_file, find_files)");
        insta::assert_snapshot!(e.message_for("--tools"), @"unknown tool 'nope' in --tools (tools: read_file, find_files)");
        insta::assert_snapshot!(e.message_for("the 'tools' argument"), @"unknown tool 'nope' in the 'tools' argument (tools: read_file, find_files)");
    }

    #[test]
    fn a_profile_is_named_the_same_everywhere() {
        let e = unknown(ToolOrigin::Profile("core".into()));
        insta::assert_snapshot!(e.message_for("--tools"), @"unknown tool 'nope' in profile 'core' (tools: read_file, find_files)");
        assert_eq!(e.message_for("x"), e.to_string());
    }
}
