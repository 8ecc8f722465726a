//! What can go wrong reading the config file, and the warnings it yields.

use std::fmt;
use std::path::PathBuf;

/// The config file could not be used. Every variant names the file; those
/// about content name the line and the key.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file exists but cannot be read.
    #[error("{}: cannot read the config file: {source}", file.display())]
    Read {
        /// The file.
        file: PathBuf,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// The file is not UTF-8 text.
    #[error("{}:{line}: the config file is not valid UTF-8", file.display())]
    NotUtf8 {
        /// The file.
        file: PathBuf,
        /// The line holding the first bad byte.
        line: usize,
    },
    /// The file is not valid TOML.
    #[error("{}:{line}:{column}: invalid TOML{}: {message}", file.display(), near(key.as_deref()))]
    Syntax {
        /// The file.
        file: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The key on or above that line, when one can be told.
        key: Option<String>,
        /// What is wrong.
        message: String,
    },
    /// A key has a wrong type or value, or a table is incomplete.
    #[error("{}:{line}:{column}: key '{key}': {message}", file.display())]
    Invalid {
        /// The file.
        file: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The dotted key path (`tools[0].grade_w`).
        key: String,
        /// What is wrong.
        message: String,
    },
}

fn near(key: Option<&str>) -> String {
    key.map(|k| format!(" near key '{k}'")).unwrap_or_default()
}

/// Something in the config that is used anyway but probably not as its
/// author meant: a key the config does not know (ignored, with the known
/// key it is nearest), a provider table `[inference].order` leaves out, a
/// key written where only its variable's name belongs. Reported, so that a
/// typo never vanishes silently.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigWarning {
    /// The file.
    pub file: PathBuf,
    /// The line of the key, when it can be found.
    pub line: Option<usize>,
    /// The dotted key path (`tools[0].nmae`).
    pub key: String,
    /// What is wrong (`unknown config key 'nmae' in [tools[0]] (did you
    /// mean 'name'?)`).
    pub message: String,
}

impl fmt::Display for ConfigWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.file.display(), self.message),
            None => write!(f, "{}: {}", self.file.display(), self.message),
        }
    }
}
