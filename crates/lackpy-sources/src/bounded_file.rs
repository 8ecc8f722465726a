//! Reading a file that a program or a config names, without trusting it:
//! regular files only (a FIFO would block forever, `/dev/zero` never ends),
//! and never more than a cap — checked by its size before reading, and by a
//! bounded read, so a file that grows meanwhile cannot take more. The file
//! is opened without blocking and its type checked again on the open
//! handle, so nothing swapped in between the two looks can block.

use std::fmt;
use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Read};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

use nix::fcntl::OFlag;

/// Why a file was not read.
#[derive(Debug)]
pub(crate) enum BoundedReadError {
    /// The OS refused.
    Io(io::Error),
    /// Not a regular file: what it is instead.
    NotRegular(&'static str),
    /// Over the cap: its size (or how much was there before the read stopped).
    TooLarge {
        /// Bytes found.
        size: u64,
        /// The cap.
        cap: u64,
    },
}

impl fmt::Display for BoundedReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoundedReadError::Io(e) => write!(f, "{e}"),
            BoundedReadError::NotRegular(what) => write!(f, "it is {what}, not a regular file"),
            BoundedReadError::TooLarge { size, cap } => {
                write!(f, "it is {size} bytes, over the limit of {cap} bytes")
            }
        }
    }
}

impl From<BoundedReadError> for io::Error {
    fn from(e: BoundedReadError) -> io::Error {
        match e {
            BoundedReadError::Io(e) => e,
            other => io::Error::new(io::ErrorKind::InvalidData, other.to_string()),
        }
    }
}

/// What a file that is not regular is, for messages.
pub(crate) fn non_regular_kind(meta: &Metadata) -> Option<&'static str> {
    let t = meta.file_type();
    if t.is_file() {
        None
    } else if t.is_fifo() {
        Some("a named pipe (FIFO)")
    } else if t.is_socket() {
        Some("a socket")
    } else if t.is_char_device() || t.is_block_device() {
        Some("a device")
    } else if t.is_dir() {
        Some("a directory")
    } else {
        Some("not a regular file")
    }
}

/// Flags for opening a file named by someone else: never wait for a FIFO's
/// other end, never follow a symlink raced in at the last component.
pub(crate) fn open_flags() -> i32 {
    (OFlag::O_NONBLOCK | OFlag::O_NOFOLLOW).bits()
}

/// Reads all of the regular file at `path` (symlinks followed), at most
/// `cap` bytes.
pub(crate) fn read_regular(path: &Path, cap: u64) -> Result<Vec<u8>, BoundedReadError> {
    let meta = std::fs::metadata(path).map_err(BoundedReadError::Io)?;
    if let Some(what) = non_regular_kind(&meta) {
        return Err(BoundedReadError::NotRegular(what));
    }
    if meta.len() > cap {
        return Err(BoundedReadError::TooLarge {
            size: meta.len(),
            cap,
        });
    }
    // The path was followed above; the open follows no further link at
    // its end (a canonical path has none).
    let real = path.canonicalize().map_err(BoundedReadError::Io)?;
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(open_flags())
        .open(real)
        .map_err(BoundedReadError::Io)?;
    read_open(file, cap)
}

/// Reads an open file after checking, on the handle, that it is regular.
fn read_open(file: File, cap: u64) -> Result<Vec<u8>, BoundedReadError> {
    let meta = file.metadata().map_err(BoundedReadError::Io)?;
    if let Some(what) = non_regular_kind(&meta) {
        return Err(BoundedReadError::NotRegular(what));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len().min(cap)).unwrap_or(0));
    file.take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(BoundedReadError::Io)?;
    let size = bytes.len() as u64;
    if size > cap {
        return Err(BoundedReadError::TooLarge { size, cap });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_and_pipes_fail_fast_and_caps_hold() {
        match read_regular(Path::new("/dev/zero"), 1024) {
            Err(BoundedReadError::NotRegular(what)) => assert_eq!(what, "a device"),
            other => panic!("expected a refusal, got {other:?}"),
        }
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let fifo = dir.path().join("fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(
            read_regular(&fifo, 1024),
            Err(BoundedReadError::NotRegular("a named pipe (FIFO)"))
        ));
        let big = dir.path().join("big");
        std::fs::write(&big, vec![b'x'; 2000]).unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(
            read_regular(&big, 1000),
            Err(BoundedReadError::TooLarge {
                size: 2000,
                cap: 1000
            })
        ));
        assert_eq!(read_regular(&big, 2000).map(|b| b.len()).ok(), Some(2000));
    }
}
