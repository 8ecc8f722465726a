//! The one-byte codecs: ASCII and Latin-1.

use super::{BadBytes, CodecError, Handler, POLL_EVERY, Poll, tick};

/// Encodes `text` with every code point below `limit` as its byte; each
/// run of others goes to the handler at once (CPython reports the run).
pub(crate) fn encode(
    text: &str,
    limit: u32,
    codec: &str,
    errors: &Handler,
    poll: Poll<'_>,
) -> Result<Vec<u8>, CodecError> {
    let mut out = Vec::with_capacity(text.len());
    let reason = if limit == 0x80 {
        "ordinal not in range(128)"
    } else {
        "ordinal not in range(256)"
    };
    let mut bad: Vec<char> = Vec::new();
    let mut bad_start = 0;
    for (i, c) in text.chars().enumerate() {
        tick(poll, i + 1, out.len())?;
        let n = u32::from(c);
        if n < limit {
            if !bad.is_empty() {
                errors.on_encode(&bad, bad_start, codec, reason, &mut out)?;
                bad.clear();
            }
            // n < 256: the byte is the code point.
            out.push(u8::try_from(n).unwrap_or(b'?'));
        } else {
            if bad.is_empty() {
                bad_start = i;
            }
            bad.push(c);
        }
    }
    if !bad.is_empty() {
        errors.on_encode(&bad, bad_start, codec, reason, &mut out)?;
    }
    Ok(out)
}

/// The ASCII decoder's step: bytes below 128 are text, each other byte
/// is an error of its own.
pub(crate) fn next_bad_ascii(
    data: &[u8],
    at: usize,
    out: &mut String,
    poll: Poll<'_>,
) -> Result<Option<BadBytes>, CodecError> {
    let rest = data.get(at..).unwrap_or_default();
    let good = rest.iter().take_while(|b| b.is_ascii()).count();
    for chunk in rest[..good].chunks(POLL_EVERY) {
        tick(poll, 0, out.len())?;
        out.extend(chunk.iter().map(|&b| char::from(b)));
    }
    let start = at + good;
    Ok((start < data.len()).then_some(BadBytes {
        start,
        end: start + 1,
        reason: "ordinal not in range(128)",
    }))
}
