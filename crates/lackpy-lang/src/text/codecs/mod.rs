//! Text encodings for `str.encode`, `bytes.decode` and `str(bytes, ...)`:
//! the codecs lackpy supports (UTF-8, ASCII, Latin-1, UTF-16 and UTF-32
//! with either byte order), found by CPython's name normalization and
//! aliases, and the error handlers `strict`, `ignore`, `replace`,
//! `backslashreplace` and (encoding) `xmlcharrefreplace`, with CPython
//! 3.11's results and messages.
//!
//! Plain data in, plain data out: the interpreter turns a [`CodecError`]
//! into its exception.

mod codec;
mod handler;
mod lookup;
mod single;
mod utf8;
mod wide;

pub(crate) use codec::{BadBytes, Codec, CodecError, Order, POLL_EVERY, Poll, tick};
pub(crate) use handler::{Handler, decode_with};
pub(crate) use lookup::{is_shortcut, lookup};

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

#[cfg(test)]
mod tests;
