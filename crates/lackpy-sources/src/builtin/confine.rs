//! Workspace confinement for the file tools.
//!
//! A path is first checked lexically — absolute paths and any `..` that
//! climbs above the workspace are refused — and then for real: the path (or,
//! for a file still to be created, its parent) is canonicalized and must lie
//! inside the canonical workspace, so a symlink that leads out is refused
//! too. Symlink loops fail cleanly with Python's ELOOP text.

use std::io;
use std::path::{Component, Path, PathBuf};

use lackpy_lang::str_repr;
use nix::errno::Errno;

use super::oserror::{errno_error, os_error};
use crate::error::{ToolError, ToolErrorKind};

/// Symlinks followed by hand (dangling links) before giving up, as the OS does.
const MAX_LINK_HOPS: usize = 40;

/// The refusal every escape gets.
pub(crate) fn escape_error(user_path: &str) -> ToolError {
    ToolError::new(
        ToolErrorKind::Os,
        format!("path escapes the workspace: {}", str_repr(user_path)),
    )
    .with_type("PermissionError")
}

/// A user path resolved inside the workspace.
#[derive(Debug)]
pub(crate) struct Resolved {
    /// The path as `str(pathlib.Path(p))` writes it, for messages.
    pub(crate) display: String,
    /// The real location: canonical when it exists, else the canonical parent
    /// joined with the final name.
    pub(crate) real: PathBuf,
    /// Whether something exists there.
    pub(crate) exists: bool,
    /// `real` relative to the workspace, for `files_read` / `files_modified`.
    pub(crate) relative: String,
}

/// `str(pathlib.PurePosixPath(p))`: repeated slashes and `.` parts dropped,
/// no trailing slash, `.` for nothing.
pub(crate) fn pathlib_str(p: &str) -> String {
    let root = if p.starts_with("//") && !p.starts_with("///") {
        "//"
    } else if p.starts_with('/') {
        "/"
    } else {
        ""
    };
    let parts: Vec<&str> = p
        .split('/')
        .filter(|s| !s.is_empty() && *s != ".")
        .collect();
    if parts.is_empty() && root.is_empty() {
        return ".".to_string();
    }
    format!("{root}{}", parts.join("/"))
}

/// The canonical workspace root.
pub(crate) fn canonical_workspace(workspace: &Path) -> Result<PathBuf, ToolError> {
    workspace.canonicalize().map_err(|e| {
        ToolError::new(
            ToolErrorKind::Os,
            format!("the workspace {} is not usable: {e}", workspace.display()),
        )
    })
}

/// Refuses absolute paths and `..` that climbs above the start.
pub(crate) fn check_lexically(user_path: &str) -> Result<(), ToolError> {
    if user_path.starts_with('/') {
        return Err(escape_error(user_path));
    }
    let mut depth: i64 = 0;
    for part in user_path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                depth -= 1;
                if depth < 0 {
                    return Err(escape_error(user_path));
                }
            }
            _ => depth += 1,
        }
    }
    Ok(())
}

/// Resolves `user_path` against the canonical workspace `ws`.
pub(crate) fn resolve(ws: &Path, user_path: &str) -> Result<Resolved, ToolError> {
    check_lexically(user_path)?;
    let display = pathlib_str(user_path);
    let mut full = ws.to_path_buf();
    for part in user_path.split('/').filter(|s| !s.is_empty() && *s != ".") {
        full.push(part);
    }
    let (real, exists) = match full.canonicalize() {
        Ok(real) => (real, true),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            (resolve_missing(ws, &full, user_path, &display, 0)?, false)
        }
        Err(e) => return Err(os_error(&e, &display)),
    };
    if !real.starts_with(ws) {
        return Err(escape_error(user_path));
    }
    let relative = relative_text(ws, &real);
    Ok(Resolved {
        display,
        real,
        exists,
        relative,
    })
}

fn relative_text(ws: &Path, real: &Path) -> String {
    match real.strip_prefix(ws) {
        Ok(rel) if rel.as_os_str().is_empty() => ".".to_string(),
        Ok(rel) => rel.to_string_lossy().into_owned(),
        Err(_) => real.to_string_lossy().into_owned(),
    }
}

/// `full` does not exist: resolve its parent for real, refuse if that is
/// outside, and follow a dangling symlink at the end by hand.
fn resolve_missing(
    ws: &Path,
    full: &Path,
    user_path: &str,
    display: &str,
    hops: usize,
) -> Result<PathBuf, ToolError> {
    let (Some(parent), Some(name)) = (full.parent(), full.file_name()) else {
        return Err(errno_error(Errno::ENOENT, display));
    };
    let parent_real = match parent.canonicalize() {
        Ok(p) => p,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            // Some ancestor is missing; refuse if the part that exists leads out.
            let mut anc = parent.parent();
            while let Some(a) = anc {
                if let Ok(real) = a.canonicalize() {
                    if !real.starts_with(ws) {
                        return Err(escape_error(user_path));
                    }
                    break;
                }
                anc = a.parent();
            }
            return Err(errno_error(Errno::ENOENT, display));
        }
        Err(e) => return Err(os_error(&e, display)),
    };
    if !parent_real.starts_with(ws) {
        return Err(escape_error(user_path));
    }
    let leaf = parent_real.join(name);
    match leaf.symlink_metadata() {
        Ok(m) if m.file_type().is_symlink() => {
            if hops >= MAX_LINK_HOPS {
                return Err(errno_error(Errno::ELOOP, display));
            }
            let target = std::fs::read_link(&leaf).map_err(|e| os_error(&e, display))?;
            let next = lexical_normalize(&parent_real.join(target));
            if !next.starts_with(ws) {
                return Err(escape_error(user_path));
            }
            resolve_missing(ws, &next, user_path, display, hops + 1)
        }
        _ => Ok(leaf),
    }
}

/// Collapses `.` and `..` without touching the filesystem.
pub(crate) fn lexical_normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pathlib_normalization() {
        assert_eq!(pathlib_str("a.txt"), "a.txt");
        assert_eq!(pathlib_str("./a//b/"), "a/b");
        assert_eq!(pathlib_str(""), ".");
        assert_eq!(pathlib_str("src/../a"), "src/../a");
        assert_eq!(pathlib_str("/etc/x"), "/etc/x");
    }

    #[test]
    fn lexical_escapes() {
        assert!(check_lexically("a/../b").is_ok());
        assert!(check_lexically("../x").is_err());
        assert!(check_lexically("a/../../x").is_err());
        assert!(check_lexically("/etc/passwd").is_err());
        assert_eq!(
            check_lexically("../x").map_err(|e| e.message().to_string()),
            Err("path escapes the workspace: '../x'".to_string())
        );
    }
}
