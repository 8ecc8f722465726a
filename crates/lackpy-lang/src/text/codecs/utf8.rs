//! The UTF-8 decoder's error ranges, as CPython's: each maximal subpart
//! of an ill-formed sequence is one error (`invalid start byte`, `invalid
//! continuation byte` or, at the end of the data, `unexpected end of
//! data`).

use super::{BadBytes, CodecError, Poll};

/// The valid text from `at` up to the next ill-formed sequence (appended
/// to `out`), and that sequence; `None` when the rest is valid.
pub(crate) fn next_bad(
    data: &[u8],
    at: usize,
    out: &mut String,
    _poll: Poll<'_>,
) -> Result<Option<BadBytes>, CodecError> {
    // The scan and copy of a valid run run at memory speed: no poll.
    let Some(rest) = data.get(at..) else {
        return Ok(None);
    };
    let (good, bad_at) = match std::str::from_utf8(rest) {
        Ok(s) => (s, None),
        Err(e) => {
            let n = e.valid_up_to();
            (
                std::str::from_utf8(&rest[..n]).unwrap_or_default(),
                Some(at + n),
            )
        }
    };
    out.push_str(good);
    Ok(bad_at.map(|start| bad_sequence(data, start)))
}

/// The ill-formed sequence starting at `start`.
fn bad_sequence(data: &[u8], start: usize) -> BadBytes {
    let lead = data.get(start).copied().unwrap_or(0);
    let bad = |len: usize, reason| BadBytes {
        start,
        end: start + len,
        reason,
    };
    // The continuation bytes a lead byte needs, and the range the first
    // of them must fall in (narrower after E0, ED, F0, F4).
    let (need, first) = match lead {
        0xc2..=0xdf => (1, 0x80..=0xbf),
        0xe0 => (2, 0xa0..=0xbf),
        0xed => (2, 0x80..=0x9f),
        0xe1..=0xef => (2, 0x80..=0xbf),
        0xf0 => (3, 0x90..=0xbf),
        0xf4 => (3, 0x80..=0x8f),
        0xf1..=0xf3 => (3, 0x80..=0xbf),
        _ => return bad(1, "invalid start byte"),
    };
    for k in 1..=need {
        let Some(&b) = data.get(start + k) else {
            return bad(data.len() - start, "unexpected end of data");
        };
        let ok = if k == 1 {
            first.contains(&b)
        } else {
            (0x80..=0xbf).contains(&b)
        };
        if !ok {
            return bad(k, "invalid continuation byte");
        }
    }
    // Unreachable for data `from_utf8` refused; one byte keeps progress.
    bad(1, "invalid start byte")
}
