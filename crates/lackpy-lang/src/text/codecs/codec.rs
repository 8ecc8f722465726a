//! A codec and what every codec shares: byte order, errors, the bytes
//! an error names, and the poll that lets a long run of text stop.

/// A supported codec.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Codec {
    /// UTF-8.
    Utf8,
    /// ASCII (code points below 128).
    Ascii,
    /// Latin-1 (code points below 256).
    Latin1,
    /// UTF-16 or UTF-32 (`width` 2 or 4 bytes a unit) in byte order
    /// `order`, or with a byte order mark (`None`: written little-endian,
    /// read as the mark says).
    Wide {
        /// Bytes per code unit: 2 or 4.
        width: usize,
        /// The byte order, or `None` for the mark.
        order: Option<Order>,
    },
}

/// A byte order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Order {
    /// Least significant byte first.
    Little,
    /// Most significant byte first.
    Big,
}

/// Why encoding or decoding failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CodecError {
    /// `UnicodeEncodeError` or `UnicodeDecodeError`, with its message.
    Unicode {
        /// The exception class.
        class: &'static str,
        /// `str(exc)`.
        message: String,
    },
    /// `LookupError: unknown error handler name 'x'`.
    UnknownHandler(String),
    /// A handler that cannot handle this direction (`TypeError: don't know
    /// how to handle UnicodeDecodeError in error callback`).
    WrongHandler(&'static str),
    /// The caller's poll asked to stop (a deadline, a cancellation).
    Stopped,
}

/// Asked every [`POLL_EVERY`] units of work, with the bytes of output so
/// far, whether to go on (`false`: stop with [`CodecError::Stopped`]), so
/// a long conversion stays within the run's deadline and memory budget.
pub(crate) type Poll<'a> = &'a mut dyn FnMut(usize) -> bool;

/// Code points or bytes converted between two polls.
pub(crate) const POLL_EVERY: usize = 1 << 16;

/// Polls `poll` (with `produced` bytes of output) when `n`, a running
/// count, reaches a multiple of [`POLL_EVERY`].
#[inline]
pub(crate) fn tick(
    poll: &mut dyn FnMut(usize) -> bool,
    n: usize,
    produced: usize,
) -> Result<(), CodecError> {
    if n.is_multiple_of(POLL_EVERY) && !poll(produced) {
        Err(CodecError::Stopped)
    } else {
        Ok(())
    }
}

impl CodecError {
    /// The exception class name.
    pub(crate) fn class(&self) -> &'static str {
        match self {
            CodecError::Unicode { class, .. } => class,
            CodecError::UnknownHandler(_) => "LookupError",
            CodecError::WrongHandler(_) | CodecError::Stopped => "TypeError",
        }
    }

    /// `str(exc)`.
    pub(crate) fn message(&self) -> String {
        match self {
            CodecError::Unicode { message, .. } => message.clone(),
            CodecError::UnknownHandler(name) => format!("unknown error handler name '{name}'"),
            CodecError::WrongHandler(class) => {
                format!("don't know how to handle {class} in error callback")
            }
            CodecError::Stopped => "stopped".to_owned(),
        }
    }
}

/// One undecodable run of bytes: `[start, end)` and CPython's reason.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BadBytes {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset past the last byte.
    pub end: usize,
    /// Why (`invalid start byte`, `truncated data`, ...).
    pub reason: &'static str,
}

/// CPython's `UnicodeDecodeError` text.
pub(crate) fn decode_message(data: &[u8], codec: &str, bad: BadBytes) -> String {
    if bad.end == bad.start + 1 {
        format!(
            "'{codec}' codec can't decode byte 0x{:02x} in position {}: {}",
            data.get(bad.start).copied().unwrap_or(0),
            bad.start,
            bad.reason
        )
    } else {
        format!(
            "'{codec}' codec can't decode bytes in position {}-{}: {}",
            bad.start,
            bad.end.saturating_sub(1),
            bad.reason
        )
    }
}
