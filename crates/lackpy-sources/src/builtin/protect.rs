//! The trust boundary inside the workspace: paths the file tools must not
//! write (or read), because lackpy or another program trusts what is there.
//!
//! Confinement keeps the file tools inside the workspace, but the workspace
//! also holds code that runs with more power than a program has: lackpy's
//! own config (its MCP servers are commands), the Python modules and scripts
//! of configured tools, git hooks, editor and agent configs. A program that
//! could write them would escape the sandbox on the next run (or the next
//! call). So writes are refused, with `PermissionError` naming why, to:
//!
//! * the built-in set: any path with a component named like an entry of
//!   [`BUILTIN`] (at any depth, so a nested repository's `.git/hooks` too);
//! * every file a configured tool or MCP server runs (path-like argv
//!   items, Python tool modules and their packages);
//! * the host configs listed in `[mcp].host_configs`;
//! * `[files].protected`.
//!
//! Reads are refused for `.lackpy/` and the listed host configs, which can
//! hold secrets (MCP headers). A path is checked as written (normalized) and
//! as it really resolves, and against where each protected path really
//! resolves, so no symlink leads into the set or smuggles it out.

use std::path::{Component, Path, PathBuf};

use lackpy_lang::str_repr;

use super::confine::{Resolved, lexical_normalize};
use crate::config::{Config, ToolImpl};
use crate::error::{ToolError, ToolErrorKind};
use crate::expand::ExpandContext;

/// The largest file `read_file` reads unless `[files].max_read_bytes` says
/// otherwise: 64 MiB.
pub const DEFAULT_MAX_READ_BYTES: u64 = 64 * 1024 * 1024;

/// Names protected wherever they appear in a path, with why.
pub const BUILTIN: &[(&str, &str)] = &[
    (
        ".lackpy",
        "lackpy's config lives in .lackpy/; it starts commands and can hold secrets",
    ),
    (".git", "git runs hooks and reads its config from .git/"),
    (".mcp.json", "MCP hosts start the servers .mcp.json lists"),
    (
        ".vscode",
        ".vscode/ is an editor config that other programs trust",
    ),
    (
        ".cursor",
        ".cursor/ is an editor config that other programs trust",
    ),
    (
        ".idea",
        ".idea/ is an editor config that other programs trust",
    ),
    (
        ".zed",
        ".zed/ is an editor config that other programs trust",
    ),
    (
        ".claude",
        ".claude/ is an agent config that other programs trust",
    ),
    (
        ".windsurf",
        ".windsurf/ is an agent config that other programs trust",
    ),
    (".envrc", "direnv runs .envrc"),
    (
        "__pycache__",
        "Python loads compiled modules from __pycache__/",
    ),
];

/// The built-in name whose contents are never read.
const READ_PROTECTED: &str = ".lackpy";
/// What lackpy reads inside `.lackpy/`.
const LACKPY_FILES: &[&str] = &["config.toml", "kits"];

/// What a tool is about to do with a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Access {
    /// `read_file`, and `edit_file` before it writes.
    Read,
    /// `write_file`, `edit_file`.
    Write,
}

/// How a protected entry matches.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Shape {
    /// The path and everything below it.
    Path(Vec<String>),
    /// A Python module: `dir/stem.*` and `dir/stem/…`.
    Module { dir: Vec<String>, stem: String },
}

/// One protected entry from the config.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    shape: Shape,
    why: String,
    /// From `[files].protected`: holds even with `allow_protected_writes`.
    user: bool,
}

/// What the builtin file tools may touch in a workspace, and how much they
/// may read: built from the config ([`FilePolicy::from_config`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilePolicy {
    entries: Vec<Entry>,
    host_configs: Vec<String>,
    allow_protected_writes: bool,
    allow_hardlinks: bool,
    max_read_bytes: u64,
}

impl Default for FilePolicy {
    fn default() -> FilePolicy {
        FilePolicy {
            entries: Vec::new(),
            host_configs: Vec::new(),
            allow_protected_writes: false,
            allow_hardlinks: false,
            max_read_bytes: DEFAULT_MAX_READ_BYTES,
        }
    }
}

/// The workspace-relative parts of a configured path, or `None` when it is
/// empty (the workspace itself) or leaves the workspace lexically.
fn relative_parts(text: &str) -> Option<Vec<String>> {
    if text.starts_with('/') || text.starts_with('~') || text.contains("${") {
        return None;
    }
    let mut parts: Vec<String> = Vec::new();
    for part in text.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p.to_string()),
        }
    }
    (!parts.is_empty()).then_some(parts)
}

/// Whether an argv item names a file: a path with a `/`, or a name with an
/// extension (`tool.py`). Flags and bare words (`python3`, `-c`) do not.
fn path_like(arg: &str) -> bool {
    !arg.starts_with('-') && (arg.contains('/') || arg.contains('.')) && !arg.contains(' ')
}

impl FilePolicy {
    /// The built-in set only, with the default read cap.
    pub fn new() -> FilePolicy {
        FilePolicy::default()
    }

    /// The policy of a config: the built-in set, the files its tools and
    /// MCP servers run, its host configs, `[files].protected`, and
    /// `[files].max_read_bytes`.
    pub fn from_config(config: &Config) -> FilePolicy {
        let mut policy = FilePolicy::new();
        for def in &config.tools {
            match &def.implementation {
                ToolImpl::Builtin { .. } => {}
                ToolImpl::Command(c) => {
                    let why = format!("the configured tool '{}' runs it", def.name);
                    policy.add_argv(&c.argv, &why);
                }
                ToolImpl::Python { module, .. } => {
                    let why = format!("the configured tool '{}' imports it", def.name);
                    policy.add_module(module, &why);
                }
            }
        }
        for (id, server) in config.mcp_servers.0.iter() {
            let why = format!("the MCP server '{id}' runs it");
            let argv: Vec<String> = server
                .command
                .iter()
                .chain(server.args.iter())
                .cloned()
                .collect();
            // A server runs in its `cwd`; relative paths are taken from there.
            let base = server.cwd.as_deref().and_then(relative_parts);
            policy.add_argv_in(base.as_deref().unwrap_or_default(), &argv, &why);
        }
        policy.host_configs = config.mcp.host_configs.clone();
        for p in &config.files.protected {
            if let Some(parts) = relative_parts(p) {
                policy.entries.push(Entry {
                    shape: Shape::Path(parts),
                    why: "it is listed in [files].protected".to_string(),
                    user: true,
                });
            } else {
                tracing::warn!(path = %p, "[files].protected entry is not a path inside the workspace; ignored");
            }
        }
        if config.files.allow_protected_writes {
            tracing::warn!(
                "[files].allow_protected_writes = true: programs may write lackpy's config, tool code and editor configs"
            );
            policy.allow_protected_writes = true;
        }
        if let Some(max) = config.files.max_read_bytes {
            policy.max_read_bytes = max;
        }
        if config.files.allow_hardlinks {
            tracing::warn!(
                "[files].allow_hardlinks = true: programs may write files whose other hard links lie outside the workspace"
            );
            policy.allow_hardlinks = true;
        }
        policy
    }

    /// Whether the file tools may write a file with more than one hard link.
    pub fn allow_hardlinks(&self) -> bool {
        self.allow_hardlinks
    }

    /// The same policy, allowing or refusing writes through hard links.
    pub fn with_allow_hardlinks(mut self, allow: bool) -> FilePolicy {
        self.allow_hardlinks = allow;
        self
    }

    /// The largest file the file tools read, in bytes.
    pub fn max_read_bytes(&self) -> u64 {
        self.max_read_bytes
    }

    /// The same policy with another read cap.
    pub fn with_max_read_bytes(mut self, max: u64) -> FilePolicy {
        self.max_read_bytes = max;
        self
    }

    fn add_argv(&mut self, argv: &[String], why: &str) {
        self.add_argv_in(&[], argv, why);
    }

    /// Path-like argv items, relative to the workspace path `base`.
    fn add_argv_in(&mut self, base: &[String], argv: &[String], why: &str) {
        for arg in argv.iter().filter(|a| path_like(a)) {
            let joined = if base.is_empty() || arg.starts_with('/') {
                arg.clone()
            } else {
                format!("{}/{arg}", base.join("/"))
            };
            if let Some(parts) = relative_parts(&joined) {
                self.entries.push(Entry {
                    shape: Shape::Path(parts),
                    why: why.to_string(),
                    user: false,
                });
            }
        }
    }

    /// `a.b.c`: `a/__init__.py`, `a/b/__init__.py`, and `a/b/c.*`, `a/b/c/`.
    fn add_module(&mut self, module: &str, why: &str) {
        let parts: Vec<&str> = module.split('.').collect();
        if parts.iter().any(|p| p.is_empty() || p.contains('/')) {
            return;
        }
        let Some((stem, dirs)) = parts.split_last() else {
            return;
        };
        for depth in 1..=dirs.len() {
            let mut init: Vec<String> = dirs[..depth].iter().map(|s| s.to_string()).collect();
            init.push("__init__.py".to_string());
            self.entries.push(Entry {
                shape: Shape::Path(init),
                why: why.to_string(),
                user: false,
            });
        }
        self.entries.push(Entry {
            shape: Shape::Module {
                dir: dirs.iter().map(|s| s.to_string()).collect(),
                stem: stem.to_string(),
            },
            why: why.to_string(),
            user: false,
        });
    }

    /// `Err(PermissionError)` when `access` to the path as written touches
    /// the protected set: checked before the path is resolved, so a
    /// protected path is refused as such even where it does not exist yet.
    pub(crate) fn check_written(
        &self,
        ws: &Path,
        user_path: &str,
        access: Access,
    ) -> Result<(), ToolError> {
        match self.reason(ws, user_path, None, access) {
            None => Ok(()),
            Some(why) => Err(protected_error(user_path, access, &why)),
        }
    }

    /// `Err(PermissionError)` when `access` to `r` (written as `user_path`)
    /// touches the protected set; `ws` is the canonical workspace.
    pub(crate) fn check(
        &self,
        ws: &Path,
        user_path: &str,
        r: &Resolved,
        access: Access,
    ) -> Result<(), ToolError> {
        match self.reason(ws, user_path, Some(&r.real), access) {
            None => Ok(()),
            Some(why) => Err(protected_error(user_path, access, &why)),
        }
    }

    fn reason(
        &self,
        ws: &Path,
        user_path: &str,
        real_path: Option<&Path>,
        access: Access,
    ) -> Option<String> {
        let lexical = lexical_parts(user_path);
        let real = real_path
            .and_then(|p| parts_under(ws, p))
            .unwrap_or_default();
        let views = [lexical.as_slice(), real.as_slice()];
        // Where it really is; before resolving, where it is written to be.
        let written = lexical_normalize(&ws.join(user_path));
        let real_path = real_path.unwrap_or(&written);
        let builtin_applies = access == Access::Read || !self.allow_protected_writes;
        // The built-in names, as written and as resolved.
        for (name, why) in BUILTIN {
            if access == Access::Read && *name != READ_PROTECTED {
                continue;
            }
            if !builtin_applies {
                break;
            }
            let named = views
                .iter()
                .any(|v| v.iter().any(|c| c.eq_ignore_ascii_case(name)));
            // A top-level one that is a symlink to elsewhere in the workspace.
            let linked = ws
                .join(name)
                .canonicalize()
                .is_ok_and(|target| target != ws && real_path.starts_with(&target));
            if named || linked {
                return Some((*why).to_string());
            }
            // lackpy reads these wherever `.lackpy` leads, even to the
            // workspace itself (`.lackpy -> .`).
            if *name == READ_PROTECTED
                && LACKPY_FILES.iter().any(|f| {
                    let at = locate(&ws.join(READ_PROTECTED).join(f));
                    at != ws && real_path.starts_with(&at)
                })
            {
                return Some((*why).to_string());
            }
        }
        if access == Access::Write {
            for e in &self.entries {
                if self.allow_protected_writes && !e.user {
                    continue;
                }
                if e.matches(&views) || e.resolved_holds(ws, real_path) {
                    return Some(e.why.clone());
                }
            }
        }
        if builtin_applies && self.host_config_holds(ws, real_path, &views) {
            return Some("it is a host config listed in [mcp].host_configs".to_string());
        }
        None
    }

    fn host_config_holds(&self, ws: &Path, real: &Path, views: &[&[String]]) -> bool {
        if self.host_configs.is_empty() {
            return false;
        }
        let ctx = ExpandContext::from_env(Some(ws.to_path_buf()));
        self.host_configs.iter().any(|configured| {
            let Ok(path) = ctx.expand_path(configured) else {
                return false;
            };
            let located = locate(&path);
            if real.starts_with(&located) {
                return true;
            }
            match parts_under(ws, &located) {
                Some(parts) if !parts.is_empty() => views.iter().any(|v| v.starts_with(&parts)),
                _ => false,
            }
        })
    }
}

impl Entry {
    fn matches(&self, views: &[&[String]]) -> bool {
        views.iter().any(|v| match &self.shape {
            Shape::Path(parts) => v.starts_with(parts),
            Shape::Module { dir, stem } => {
                v.len() > dir.len()
                    && v.starts_with(dir)
                    && v.get(dir.len()).is_some_and(|leaf| {
                        leaf == stem
                            || leaf
                                .strip_prefix(stem.as_str())
                                .is_some_and(|rest| rest.starts_with('.'))
                    })
            }
        })
    }

    /// Whether the entry, resolved for real, holds `real` (a symlink in the
    /// configured path leads elsewhere in the workspace).
    fn resolved_holds(&self, ws: &Path, real: &Path) -> bool {
        let holds = |parts: &[String]| {
            let mut p = ws.to_path_buf();
            p.extend(parts);
            p.canonicalize()
                .is_ok_and(|target| target != ws && real.starts_with(target))
        };
        match &self.shape {
            Shape::Path(parts) => holds(parts),
            Shape::Module { dir, stem } => {
                let mut as_file = dir.clone();
                as_file.push(format!("{stem}.py"));
                let mut as_dir = dir.clone();
                as_dir.push(stem.clone());
                holds(&as_file) || holds(&as_dir)
            }
        }
    }
}

/// The refusal a protected path gets, shaped like the workspace escape.
fn protected_error(user_path: &str, access: Access, why: &str) -> ToolError {
    let what = match access {
        Access::Read => "path is protected from reading",
        Access::Write => "path is protected",
    };
    ToolError::new(
        ToolErrorKind::Os,
        format!("{what}: {} ({why})", str_repr(user_path)),
    )
    .with_type("PermissionError")
}

/// The user path's parts with `.` and `..` collapsed (confinement already
/// refused any `..` that climbs out).
fn lexical_parts(user_path: &str) -> Vec<String> {
    let mut parts: Vec<String> = Vec::new();
    for part in user_path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p.to_string()),
        }
    }
    parts
}

/// `p`'s parts below `ws`, if it is there.
fn parts_under(ws: &Path, p: &Path) -> Option<Vec<String>> {
    let rel = p.strip_prefix(ws).ok()?;
    Some(
        rel.components()
            .filter_map(|c| match c {
                Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
                _ => None,
            })
            .collect(),
    )
}

/// Where a configured file really is: canonical when it exists, else its
/// canonical parent joined with the name, else as written.
fn locate(path: &Path) -> PathBuf {
    if let Ok(p) = path.canonicalize() {
        return p;
    }
    let normal = lexical_normalize(path);
    match (normal.parent(), normal.file_name()) {
        (Some(parent), Some(name)) => match parent.canonicalize() {
            Ok(p) => p.join(name),
            Err(_) => normal,
        },
        _ => normal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(p: &str) -> Vec<String> {
        lexical_parts(p)
    }

    #[test]
    fn modules_protect_their_files_packages_and_inits() {
        let mut p = FilePolicy::new();
        p.add_module("pkg.tools", "t");
        let hit = |path: &str| {
            let v = parts(path);
            p.entries.iter().any(|e| e.matches(&[v.as_slice()]))
        };
        assert!(hit("pkg/tools.py"));
        assert!(hit("pkg/tools/__init__.py"));
        assert!(hit("pkg/__init__.py"));
        assert!(hit("pkg/tools.cpython-311-x86_64-linux-gnu.so"));
        assert!(!hit("pkg/toolsx.py"));
        assert!(!hit("pkg/other.py"));
        assert!(!hit("tools.py"));
    }

    #[test]
    fn only_path_like_argv_items_are_protected() {
        assert!(path_like("./run.sh"));
        assert!(path_like("scripts/tool"));
        assert!(path_like("tool.py"));
        assert!(!path_like("python3"));
        assert!(!path_like("-c"));
        assert!(!path_like("echo hi; id"));
        assert_eq!(relative_parts("."), None);
        assert_eq!(relative_parts("/usr/bin/x"), None);
        assert_eq!(relative_parts("../x"), None);
        assert_eq!(
            relative_parts("a/./b/../c"),
            Some(vec!["a".into(), "c".into()])
        );
    }
}
