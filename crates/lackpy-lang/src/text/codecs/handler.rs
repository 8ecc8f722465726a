//! The error handlers: what replaces a character an encoder cannot write
//! or bytes a decoder cannot read. As in CPython, a handler's name is only
//! looked up when an error happens (`'a'.encode('ascii', 'bogus')` works).

use super::codec::{BadBytes, CodecError, Poll, decode_message, tick};

/// An error handler, by its `errors=` name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Handler {
    /// `strict` (also what `surrogateescape` and `surrogatepass` do with
    /// text that holds no lone surrogates, as lackpy's never does).
    Strict,
    /// `ignore`: drop it.
    Ignore,
    /// `replace`: `?` (encoding) or U+FFFD (decoding).
    Replace,
    /// `backslashreplace`: `\xe9`, `\u20ac`, `\U0001f600`.
    Backslash,
    /// `xmlcharrefreplace` (encoding only): `&#233;`.
    XmlCharRef,
    /// Any other name: an error when it is needed.
    Unknown(String),
}

impl Handler {
    /// The handler named `name` (exact, case-sensitive names, as CPython).
    pub(crate) fn named(name: &str) -> Handler {
        match name {
            "strict" | "surrogateescape" | "surrogatepass" => Handler::Strict,
            "ignore" => Handler::Ignore,
            "replace" => Handler::Replace,
            "backslashreplace" => Handler::Backslash,
            "xmlcharrefreplace" => Handler::XmlCharRef,
            other => Handler::Unknown(other.to_owned()),
        }
    }

    /// Handles the characters `bad` (at code point offsets `start..`) an
    /// encoder cannot write, appending the replacement to `out`.
    pub(crate) fn on_encode(
        &self,
        bad: &[char],
        start: usize,
        codec: &str,
        reason: &str,
        out: &mut Vec<u8>,
    ) -> Result<(), CodecError> {
        match self {
            Handler::Strict => Err(CodecError::Unicode {
                class: "UnicodeEncodeError",
                message: encode_message(bad, start, codec, reason),
            }),
            Handler::Ignore => Ok(()),
            Handler::Replace => {
                out.extend(std::iter::repeat_n(b'?', bad.len()));
                Ok(())
            }
            Handler::Backslash => {
                for &c in bad {
                    out.extend_from_slice(escape(c).as_bytes());
                }
                Ok(())
            }
            Handler::XmlCharRef => {
                for &c in bad {
                    out.extend_from_slice(format!("&#{};", u32::from(c)).as_bytes());
                }
                Ok(())
            }
            Handler::Unknown(name) => Err(CodecError::UnknownHandler(name.clone())),
        }
    }

    /// Handles the bytes `bad` of `data` a decoder cannot read, appending
    /// the replacement to `out`.
    pub(crate) fn on_decode(
        &self,
        data: &[u8],
        codec: &str,
        bad: BadBytes,
        out: &mut String,
    ) -> Result<(), CodecError> {
        match self {
            Handler::Strict => Err(CodecError::Unicode {
                class: "UnicodeDecodeError",
                message: decode_message(data, codec, bad),
            }),
            Handler::Ignore => Ok(()),
            Handler::Replace => {
                out.push('\u{fffd}');
                Ok(())
            }
            Handler::Backslash => {
                for b in data.get(bad.start..bad.end).unwrap_or_default() {
                    out.push_str(&format!("\\x{b:02x}"));
                }
                Ok(())
            }
            Handler::XmlCharRef => Err(CodecError::WrongHandler("UnicodeDecodeError")),
            Handler::Unknown(name) => Err(CodecError::UnknownHandler(name.clone())),
        }
    }
}

/// `\xe9`, `\u20ac` or `\U0001f600`.
fn escape(c: char) -> String {
    let n = u32::from(c);
    if n <= 0xff {
        format!("\\x{n:02x}")
    } else if n <= 0xffff {
        format!("\\u{n:04x}")
    } else {
        format!("\\U{n:08x}")
    }
}

/// CPython's `UnicodeEncodeError` text.
fn encode_message(bad: &[char], start: usize, codec: &str, reason: &str) -> String {
    match bad {
        [one] => format!(
            "'{codec}' codec can't encode character '{}' in position {start}: {reason}",
            escape(*one)
        ),
        _ => format!(
            "'{codec}' codec can't encode characters in position {start}-{}: {reason}",
            start + bad.len().saturating_sub(1)
        ),
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
