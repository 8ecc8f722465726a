//! `read_file`, `write_file`, `edit_file`: lackpy's file tools (Python's
//! `Path.read_text` / `write_text` semantics and messages), confined to the
//! workspace and recorded in the run's file log.

use std::io::Write;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};

use lackpy_lang::{Data, str_repr};
use nix::errno::Errno;

use super::confine::{Resolved, canonical_workspace, check_lexically, resolve};
use super::oserror::{errno_error, os_error};
use super::protect::{Access, FilePolicy};
use crate::bounded_file::{BoundedReadError, non_regular_kind, open_flags, read_regular};
use crate::error::{ToolError, ToolErrorKind};
use crate::tool::{CallContext, ToolResult};

/// `Path(p)` accepts only text here (lackpy's programs have no bytes or path objects).
fn path_arg(v: &Data) -> Result<&str, ToolError> {
    match v {
        Data::Str(s) if s.contains('\0') => Err(ToolError::value_error("embedded null byte")),
        Data::Str(s) => Ok(s),
        other => Err(ToolError::type_error(format!(
            "expected str, bytes or os.PathLike object, not {}",
            other.type_name()
        ))),
    }
}

/// A file's text and its hard-link count when it was read.
struct ReadText {
    text: String,
    links: u64,
}

/// Reads a resolved file as text: UTF-8, universal newlines. Only regular
/// files, and none over the policy's cap (see [`crate::bounded_file`]).
fn read_text(r: &Resolved, user_path: &str, policy: &FilePolicy) -> Result<ReadText, ToolError> {
    if !r.exists {
        return Err(errno_error(Errno::ENOENT, &r.display));
    }
    let meta = std::fs::metadata(&r.real).map_err(|e| os_error(&e, &r.display))?;
    if meta.is_dir() {
        return Err(errno_error(Errno::EISDIR, &r.display));
    }
    if user_path.ends_with('/') {
        // `open('h.txt/')`: a file named as a directory.
        return Err(errno_error(Errno::ENOTDIR, user_path));
    }
    let bytes = read_regular(&r.real, policy.max_read_bytes()).map_err(|e| match e {
        BoundedReadError::Io(e) => os_error(&e, &r.display),
        BoundedReadError::NotRegular(what) => not_regular(&r.display, what),
        BoundedReadError::TooLarge { size, cap } => too_large(&r.display, size, cap),
    })?;
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => return Err(decode_error(e.as_bytes(), e.utf8_error())),
    };
    Ok(ReadText {
        text: universal_newlines(text),
        links: meta.nlink(),
    })
}

/// A read of a file with other hard links is allowed (reading cannot change
/// what lies outside), but the trace says so: another link may lie outside
/// the workspace.
fn note_links(ctx: &CallContext, r: &Resolved, links: u64) {
    if links > 1 {
        ctx.files.note(format!(
            "read {} through one of its {links} hard links (another may lie outside the workspace)",
            str_repr(&r.display)
        ));
    }
}

/// A write through a hard link changes every other name of the file, which
/// may lie outside the workspace: refused unless `[files] allow_hardlinks`.
fn hardlink_error(display: &str, links: u64) -> ToolError {
    ToolError::new(
        ToolErrorKind::Os,
        format!(
            "refusing to write {}: it has {links} hard links, and another may lie outside the workspace ([files] allow_hardlinks = true allows it)",
            str_repr(display)
        ),
    )
    .with_type("PermissionError")
}

/// The file tools read and write regular files only: a FIFO would block
/// forever, a device can be endless.
fn not_regular(display: &str, what: &str) -> ToolError {
    ToolError::new(
        ToolErrorKind::Os,
        format!(
            "not a regular file: {} is {what}; the file tools only use regular files",
            str_repr(display)
        ),
    )
    .with_type("OSError")
}

fn check_regular(meta: &std::fs::Metadata, display: &str) -> Result<(), ToolError> {
    match non_regular_kind(meta) {
        None => Ok(()),
        Some(what) => Err(not_regular(display, what)),
    }
}

/// A file over the read cap.
fn too_large(display: &str, size: u64, cap: u64) -> ToolError {
    ToolError::new(
        ToolErrorKind::Os,
        format!(
            "file too large to read: {} is {size} bytes, over the limit of {cap} bytes ([files] max_read_bytes)",
            str_repr(display)
        ),
    )
    .with_type("OSError")
}

/// Text mode reading turns `\r\n` and lone `\r` into `\n`.
fn universal_newlines(text: String) -> String {
    if !text.contains('\r') {
        return text;
    }
    text.replace("\r\n", "\n").replace('\r', "\n")
}

/// Python's `UnicodeDecodeError` text for the first bad sequence.
fn decode_error(bytes: &[u8], err: std::str::Utf8Error) -> ToolError {
    let pos = err.valid_up_to();
    let first = bytes.get(pos).copied().unwrap_or(0);
    let (len, reason) = match err.error_len() {
        Some(n) => {
            let starts_sequence = matches!(first, 0xc2..=0xf4);
            let reason = if starts_sequence {
                "invalid continuation byte"
            } else {
                "invalid start byte"
            };
            (n, reason)
        }
        None => (bytes.len() - pos, "unexpected end of data"),
    };
    let what = if len <= 1 {
        format!("byte 0x{first:02x} in position {pos}")
    } else {
        format!("bytes in position {pos}-{}", pos + len - 1)
    };
    ToolError::value_error(format!("'utf-8' codec can't decode {what}: {reason}"))
        .with_type("UnicodeDecodeError")
}

fn write_text(
    r: &Resolved,
    user_path: &str,
    content: &str,
    policy: &FilePolicy,
) -> Result<(), ToolError> {
    if r.exists {
        let meta = std::fs::metadata(&r.real).map_err(|e| os_error(&e, &r.display))?;
        if meta.is_dir() {
            return Err(errno_error(Errno::EISDIR, &r.display));
        }
        if user_path.ends_with('/') {
            return Err(errno_error(Errno::ENOTDIR, user_path));
        }
        check_regular(&meta, &r.display)?;
    } else if user_path.ends_with('/') {
        // `open('new.txt/', 'w')` cannot create a directory.
        return Err(errno_error(Errno::EISDIR, user_path));
    }
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .custom_flags(open_flags())
        .open(&r.real)
        .map_err(|e| os_error(&e, &r.display))?;
    // Truncate only once it is known to be a regular file with no other
    // name (checked on the open file, so no link made meanwhile slips by).
    let meta = f.metadata().map_err(|e| os_error(&e, &r.display))?;
    check_regular(&meta, &r.display)?;
    if meta.nlink() > 1 && !policy.allow_hardlinks() {
        return Err(hardlink_error(&r.display, meta.nlink()));
    }
    f.set_len(0).map_err(|e| os_error(&e, &r.display))?;
    f.write_all(content.as_bytes())
        .map_err(|e| os_error(&e, &r.display))
}

/// `read_file(path) -> str`.
pub(crate) fn read_file(args: &[Data], ctx: &CallContext, policy: &FilePolicy) -> ToolResult {
    let path = path_arg(&args[0])?;
    let ws = canonical_workspace(&ctx.workspace)?;
    check_lexically(path)?;
    policy.check_written(&ws, path, Access::Read)?;
    let r = resolve(&ws, path)?;
    policy.check(&ws, path, &r, Access::Read)?;
    let read = read_text(&r, path, policy)?;
    ctx.files.record_read(&r.relative);
    note_links(ctx, &r, read.links);
    Ok(Data::Str(read.text))
}

/// `write_file(path, content) -> bool`: creates or truncates; never creates
/// directories.
pub(crate) fn write_file(args: &[Data], ctx: &CallContext, policy: &FilePolicy) -> ToolResult {
    let path = path_arg(&args[0])?;
    let Data::Str(content) = &args[1] else {
        return Err(ToolError::type_error(format!(
            "data must be str, not {}",
            args[1].type_name()
        )));
    };
    let ws = canonical_workspace(&ctx.workspace)?;
    check_lexically(path)?;
    policy.check_written(&ws, path, Access::Write)?;
    let r = resolve(&ws, path)?;
    policy.check(&ws, path, &r, Access::Write)?;
    write_text(&r, path, content, policy)?;
    ctx.files.record_modified(&r.relative);
    Ok(Data::Bool(true))
}

/// `edit_file(path, old_str, new_str) -> bool`: replaces the first
/// occurrence; `False` (file untouched) when `old_str` is absent.
pub(crate) fn edit_file(args: &[Data], ctx: &CallContext, policy: &FilePolicy) -> ToolResult {
    let path = path_arg(&args[0])?;
    let ws = canonical_workspace(&ctx.workspace)?;
    check_lexically(path)?;
    policy.check_written(&ws, path, Access::Write)?;
    policy.check_written(&ws, path, Access::Read)?;
    let r = resolve(&ws, path)?;
    // Both checks first: whether `old_str` was found would tell a reader.
    policy.check(&ws, path, &r, Access::Write)?;
    policy.check(&ws, path, &r, Access::Read)?;
    let ReadText { text, links } = read_text(&r, path, policy)?;
    ctx.files.record_read(&r.relative);
    note_links(ctx, &r, links);
    let Data::Str(old) = &args[1] else {
        return Err(ToolError::type_error(format!(
            "'in <string>' requires string as left operand, not {}",
            args[1].type_name()
        )));
    };
    if !text.contains(old.as_str()) {
        return Ok(Data::Bool(false));
    }
    let Data::Str(new) = &args[2] else {
        return Err(ToolError::type_error(format!(
            "replace() argument 2 must be str, not {}",
            args[2].type_name()
        )));
    };
    write_text(&r, path, &text.replacen(old.as_str(), new, 1), policy)?;
    ctx.files.record_modified(&r.relative);
    Ok(Data::Bool(true))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(bytes: &[u8]) -> String {
        match std::str::from_utf8(bytes) {
            Ok(_) => "ok".into(),
            Err(e) => decode_error(bytes, e).message().to_string(),
        }
    }

    #[test]
    fn decode_errors_read_like_python() {
        assert_eq!(
            decode(b"\xff"),
            "'utf-8' codec can't decode byte 0xff in position 0: invalid start byte"
        );
        assert_eq!(
            decode(b"ab\xe4x"),
            "'utf-8' codec can't decode byte 0xe4 in position 2: invalid continuation byte"
        );
        assert_eq!(
            decode(b"\xe4\xb8x"),
            "'utf-8' codec can't decode bytes in position 0-1: invalid continuation byte"
        );
        assert_eq!(
            decode(b"a\xe4\xb8"),
            "'utf-8' codec can't decode bytes in position 1-2: unexpected end of data"
        );
    }

    #[test]
    fn newlines_are_universal() {
        assert_eq!(universal_newlines("a\r\nb\rc\n".into()), "a\nb\nc\n");
    }
}
