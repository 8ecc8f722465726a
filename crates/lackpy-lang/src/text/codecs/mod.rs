//! Text encodings for `str.encode`, `bytes.decode` and `str(bytes, ...)`:
//! the codecs lackpy supports (UTF-8, ASCII, Latin-1, UTF-16 and UTF-32
//! with either byte order), found by CPython's name normalization and
//! aliases, and the error handlers `strict`, `ignore`, `replace`,
//! `backslashreplace` and (encoding) `xmlcharrefreplace`, with CPython
//! 3.11's results and messages.
//!
//! Plain data in, plain data out: the interpreter turns a [`CodecError`]
//! into its exception.

mod handler;
mod lookup;
mod single;
mod utf8;
mod wide;

pub(crate) use handler::Handler;
pub(crate) use lookup::{is_shortcut, lookup};

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

/// `text.encode(codec, errors)`.
pub(crate) fn encode(
    text: &str,
    codec: Codec,
    errors: &Handler,
    poll: Poll<'_>,
) -> Result<Vec<u8>, CodecError> {
    match codec {
        Codec::Utf8 => Ok(text.as_bytes().to_vec()),
        Codec::Ascii => single::encode(text, 0x80, "ascii", errors, poll),
        Codec::Latin1 => single::encode(text, 0x100, "latin-1", errors, poll),
        Codec::Wide { width, order } => wide::encode(text, width, order, poll),
    }
}

/// `data.decode(codec, errors)`.
pub(crate) fn decode(
    data: &[u8],
    codec: Codec,
    errors: &Handler,
    poll: Poll<'_>,
) -> Result<String, CodecError> {
    match codec {
        Codec::Utf8 => {
            // Valid text (the common case) is copied as is.
            if let Ok(s) = std::str::from_utf8(data) {
                return Ok(s.to_owned());
            }
            decode_with(data, "utf-8", errors, poll, utf8::next_bad)
        }
        Codec::Ascii => decode_with(data, "ascii", errors, poll, single::next_bad_ascii),
        Codec::Latin1 => {
            let mut out = String::with_capacity(data.len() * 2);
            for chunk in data.chunks(POLL_EVERY) {
                tick(poll, 0, out.len())?;
                out.extend(chunk.iter().map(|&b| char::from(b)));
            }
            Ok(out)
        }
        Codec::Wide { width, order } => wide::decode(data, width, order, errors, poll),
    }
}

/// Decodes `data` with a decoder that answers, from an offset, the text up
/// to the next bad run and that run (`None` at the end); each run goes to
/// the error handler. The decoder polls through its last argument.
pub(crate) fn decode_with(
    data: &[u8],
    codec: &'static str,
    errors: &Handler,
    poll: Poll<'_>,
    mut next: impl FnMut(&[u8], usize, &mut String, Poll<'_>) -> Result<Option<BadBytes>, CodecError>,
) -> Result<String, CodecError> {
    let mut out = String::with_capacity(data.len());
    let mut at = 0;
    let mut runs = 0usize;
    while let Some(bad) = next(data, at, &mut out, &mut *poll)? {
        errors.on_decode(data, codec, bad, &mut out)?;
        at = bad.end;
        runs += 1;
        tick(poll, runs, out.len())?;
    }
    Ok(out)
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

#[cfg(test)]
mod tests;
