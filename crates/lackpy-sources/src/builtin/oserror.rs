//! OS errors as Python words them: `[Errno 2] No such file or directory: 'x.txt'`,
//! raised as the `OSError` subclass Python picks for the errno.

use std::io;

use lackpy_lang::str_repr;

use crate::error::{ToolError, ToolErrorKind};

/// The Python exception class for an errno.
fn class_for(errno: i32) -> &'static str {
    use nix::errno::Errno;
    match Errno::from_raw(errno) {
        Errno::ENOENT => "FileNotFoundError",
        Errno::EISDIR => "IsADirectoryError",
        Errno::ENOTDIR => "NotADirectoryError",
        Errno::EACCES | Errno::EPERM => "PermissionError",
        Errno::EEXIST => "FileExistsError",
        Errno::ETIMEDOUT => "TimeoutError",
        Errno::EINTR => "InterruptedError",
        _ => "OSError",
    }
}

/// `[Errno N] strerror: 'path'`, of the matching class.
pub(crate) fn os_error(err: &io::Error, path: &str) -> ToolError {
    match err.raw_os_error() {
        Some(code) => {
            let text = err.to_string();
            let suffix = format!(" (os error {code})");
            let strerror = text.strip_suffix(&suffix).unwrap_or(&text);
            ToolError::new(
                ToolErrorKind::Os,
                format!("[Errno {code}] {strerror}: {}", str_repr(path)),
            )
            .with_type(class_for(code))
        }
        None => ToolError::new(ToolErrorKind::Os, format!("{err}: {}", str_repr(path))),
    }
}

/// The error for an errno that did not come from a syscall here.
pub(crate) fn errno_error(errno: nix::errno::Errno, path: &str) -> ToolError {
    os_error(&io::Error::from_raw_os_error(errno as i32), path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_like_python() {
        let e = errno_error(nix::errno::Errno::ENOENT, "x.txt");
        assert_eq!(e.message(), "[Errno 2] No such file or directory: 'x.txt'");
        assert_eq!(e.error_type(), "FileNotFoundError");
        let e = errno_error(nix::errno::Errno::EISDIR, "src");
        assert_eq!(e.message(), "[Errno 21] Is a directory: 'src'");
        assert_eq!(e.error_type(), "IsADirectoryError");
        let e = errno_error(nix::errno::Errno::ELOOP, "loop");
        assert_eq!(
            e.message(),
            "[Errno 40] Too many levels of symbolic links: 'loop'"
        );
        assert_eq!(e.error_type(), "OSError");
    }
}
