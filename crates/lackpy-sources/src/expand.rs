//! `~` and `${…}` expansion for MCP server settings and host config paths.
//!
//! Supported: a leading `~` (the home directory), `${VAR}`,
//! `${VAR:-default}` (the default when VAR is unset or empty),
//! `${env:VAR}`, `${workspaceFolder}`, `${workspaceFolderBasename}`,
//! `${userHome}`, `${pathSeparator}`. `${input:…}` needs a host's prompt and
//! cannot be supplied; other `${kind:…}` forms are unsupported. A bare `$VAR`
//! is left as written.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Why a value cannot be expanded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExpandError {
    /// `${VAR}` with VAR unset and no default.
    Unset(String),
    /// `${input:id}`: only the host that defines the input can prompt for it.
    Input(String),
    /// A `${…}` form this crate does not know.
    Unsupported(String),
    /// `~` or `${userHome}` without a home directory.
    NoHome,
    /// `${workspaceFolder}` without a workspace.
    NoWorkspace,
}

impl fmt::Display for ExpandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExpandError::Unset(v) => write!(f, "variable ${{{v}}} is not set and has no default"),
            ExpandError::Input(id) => write!(f, "it needs the host's input '${{input:{id}}}'"),
            ExpandError::Unsupported(s) => write!(f, "unsupported variable '${{{s}}}'"),
            ExpandError::NoHome => f.write_str("there is no home directory to expand '~'"),
            ExpandError::NoWorkspace => f.write_str("there is no workspace for ${workspaceFolder}"),
        }
    }
}

impl std::error::Error for ExpandError {}

type Lookup = dyn Fn(&str) -> Option<String> + Send + Sync;

/// What expansion reads: the workspace, the home directory and variables.
#[derive(Clone)]
pub struct ExpandContext {
    workspace: Option<PathBuf>,
    home: Option<PathBuf>,
    vars: Arc<Lookup>,
}

impl fmt::Debug for ExpandContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Variable values are secrets; never print them.
        f.debug_struct("ExpandContext")
            .field("workspace", &self.workspace)
            .field("home", &self.home)
            .finish_non_exhaustive()
    }
}

impl ExpandContext {
    /// The process environment, `$HOME`, and `workspace`.
    pub fn from_env(workspace: Option<PathBuf>) -> ExpandContext {
        ExpandContext {
            workspace,
            home: std::env::var_os("HOME").map(PathBuf::from),
            vars: Arc::new(|k: &str| std::env::var(k).ok()),
        }
    }

    /// Fixed variables (tests, embedders that pass their own environment).
    pub fn with_vars(
        workspace: Option<PathBuf>,
        home: Option<PathBuf>,
        vars: Vec<(String, String)>,
    ) -> ExpandContext {
        ExpandContext {
            workspace,
            home,
            vars: Arc::new(move |k: &str| {
                vars.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone())
            }),
        }
    }

    /// The workspace, if any.
    pub fn workspace(&self) -> Option<&Path> {
        self.workspace.as_deref()
    }

    fn home_text(&self) -> Result<String, ExpandError> {
        self.home
            .as_ref()
            .map(|h| h.to_string_lossy().into_owned())
            .ok_or(ExpandError::NoHome)
    }

    /// Expands `${…}` in `text`.
    pub fn expand(&self, text: &str) -> Result<String, ExpandError> {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(at) = rest.find("${") {
            out.push_str(&rest[..at]);
            let after = &rest[at + 2..];
            let Some(end) = after.find('}') else {
                // No closing brace: not a variable.
                out.push_str(&rest[at..]);
                return Ok(out);
            };
            out.push_str(&self.variable(&after[..end])?);
            rest = &after[end + 1..];
        }
        out.push_str(rest);
        Ok(out)
    }

    /// Expands a leading `~`, then `${…}`.
    pub fn expand_tilde(&self, text: &str) -> Result<String, ExpandError> {
        let text = if text == "~" {
            self.home_text()?
        } else if let Some(rest) = text.strip_prefix("~/") {
            format!("{}/{rest}", self.home_text()?)
        } else {
            text.to_string()
        };
        self.expand(&text)
    }

    /// A path setting: `~` and `${…}` expanded, relative paths taken from
    /// the workspace.
    pub fn expand_path(&self, text: &str) -> Result<PathBuf, ExpandError> {
        let p = PathBuf::from(self.expand_tilde(text)?);
        Ok(match (&self.workspace, p.is_relative()) {
            (Some(ws), true) => ws.join(p),
            _ => p,
        })
    }

    fn variable(&self, inner: &str) -> Result<String, ExpandError> {
        match inner {
            "workspaceFolder" => {
                return self
                    .workspace
                    .as_ref()
                    .map(|w| w.to_string_lossy().into_owned())
                    .ok_or(ExpandError::NoWorkspace);
            }
            "workspaceFolderBasename" => {
                return self
                    .workspace
                    .as_ref()
                    .and_then(|w| w.file_name())
                    .map(|n| n.to_string_lossy().into_owned())
                    .ok_or(ExpandError::NoWorkspace);
            }
            "userHome" => return self.home_text(),
            "pathSeparator" | "/" => return Ok("/".to_string()),
            _ => {}
        }
        if let Some((name, default)) = inner.split_once(":-")
            && is_var_name(name)
        {
            return Ok(match (self.vars)(name) {
                Some(v) if !v.is_empty() => v,
                _ => default.to_string(),
            });
        }
        if let Some(name) = inner.strip_prefix("env:") {
            return (self.vars)(name).ok_or_else(|| ExpandError::Unset(name.to_string()));
        }
        if let Some(id) = inner.strip_prefix("input:") {
            return Err(ExpandError::Input(id.to_string()));
        }
        if is_var_name(inner) {
            return (self.vars)(inner).ok_or_else(|| ExpandError::Unset(inner.to_string()));
        }
        Err(ExpandError::Unsupported(inner.to_string()))
    }
}

fn is_var_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx() -> ExpandContext {
        ExpandContext::with_vars(
            Some(PathBuf::from("/ws/proj")),
            Some(PathBuf::from("/home/u")),
            vec![
                ("TOKEN".into(), "abc".into()),
                ("EMPTY".into(), String::new()),
            ],
        )
    }

    #[test]
    fn forms() {
        let c = ctx();
        assert_eq!(c.expand("Bearer ${TOKEN}"), Ok("Bearer abc".into()));
        assert_eq!(c.expand("${env:TOKEN}"), Ok("abc".into()));
        assert_eq!(
            c.expand("${MISSING:-dflt}/${EMPTY:-e}"),
            Ok("dflt/e".into())
        );
        assert_eq!(c.expand("${workspaceFolder}/x"), Ok("/ws/proj/x".into()));
        assert_eq!(c.expand("${workspaceFolderBasename}"), Ok("proj".into()));
        assert_eq!(c.expand("${userHome}/.cfg"), Ok("/home/u/.cfg".into()));
        assert_eq!(c.expand("$TOKEN and ${"), Ok("$TOKEN and ${".into()));
        assert_eq!(
            c.expand("${MISSING}"),
            Err(ExpandError::Unset("MISSING".into()))
        );
        assert_eq!(
            c.expand("${input:key}"),
            Err(ExpandError::Input("key".into()))
        );
        assert_eq!(
            c.expand("${command:pick}"),
            Err(ExpandError::Unsupported("command:pick".into()))
        );
        assert_eq!(
            c.expand_tilde("~/.cursor/mcp.json"),
            Ok("/home/u/.cursor/mcp.json".into())
        );
        assert_eq!(
            c.expand_path(".mcp.json"),
            Ok(PathBuf::from("/ws/proj/.mcp.json"))
        );
    }
}
