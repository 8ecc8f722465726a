//! UTF-16 and UTF-32, in either byte order or with a byte order mark.

use super::codec::{BadBytes, CodecError, Order, Poll, tick};
use super::handler::{Handler, decode_with};

/// The codec's name in messages (`utf-16-le`, ...).
fn name(width: usize, order: Order) -> &'static str {
    match (width, order) {
        (2, Order::Little) => "utf-16-le",
        (2, Order::Big) => "utf-16-be",
        (_, Order::Little) => "utf-32-le",
        (_, Order::Big) => "utf-32-be",
    }
}

/// Writes one code unit.
fn push_unit(out: &mut Vec<u8>, unit: u32, width: usize, order: Order) {
    let bytes = unit.to_le_bytes();
    let bytes = bytes.get(..width).unwrap_or(&bytes);
    match order {
        Order::Little => out.extend_from_slice(bytes),
        Order::Big => out.extend(bytes.iter().rev()),
    }
}

/// Encodes `text`; without an order, a little-endian mark comes first (as
/// CPython writes on a little-endian machine), even for empty text.
pub(crate) fn encode(
    text: &str,
    width: usize,
    order: Option<Order>,
    poll: Poll<'_>,
) -> Result<Vec<u8>, CodecError> {
    let mut out = Vec::with_capacity(text.len() * width + width);
    let order = order.unwrap_or_else(|| {
        push_unit(&mut out, 0xfeff, width, Order::Little);
        Order::Little
    });
    for (i, c) in text.chars().enumerate() {
        tick(poll, i + 1, out.len())?;
        if width == 4 {
            push_unit(&mut out, u32::from(c), 4, order);
        } else {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                push_unit(&mut out, u32::from(*u), 2, order);
            }
        }
    }
    Ok(out)
}

/// Decodes `data`; without an order, a leading mark picks it (and is
/// dropped), else little-endian.
pub(crate) fn decode(
    data: &[u8],
    width: usize,
    order: Option<Order>,
    errors: &Handler,
    poll: Poll<'_>,
) -> Result<String, CodecError> {
    let (order, skip) = match order {
        Some(o) => (o, 0),
        None => match (width, data) {
            (2, [0xff, 0xfe, ..]) | (4, [0xff, 0xfe, 0, 0, ..]) => (Order::Little, width),
            (2, [0xfe, 0xff, ..]) | (4, [0, 0, 0xfe, 0xff, ..]) => (Order::Big, width),
            _ => (Order::Little, 0),
        },
    };
    let unit = |at: usize| -> Option<u32> {
        let b = data.get(at..at + width)?;
        Some(match order {
            Order::Little => b.iter().rev().fold(0, |acc, &x| (acc << 8) | u32::from(x)),
            Order::Big => b.iter().fold(0, |acc, &x| (acc << 8) | u32::from(x)),
        })
    };
    decode_with(
        data,
        name(width, order),
        errors,
        poll,
        |data, at, out, poll| {
            // The mark is not text.
            let mut at = at.max(skip);
            let mut units = 0usize;
            loop {
                units += 1;
                tick(poll, units, out.len())?;
                if at >= data.len() {
                    return Ok(None);
                }
                let Some(u) = unit(at) else {
                    return Ok(Some(bad(at, data.len(), "truncated data")));
                };
                if width == 4 {
                    match char::from_u32(u) {
                        Some(c) => out.push(c),
                        None if u > 0x10ffff => {
                            return Ok(Some(bad(at, at + 4, "code point not in range(0x110000)")));
                        }
                        None => {
                            return Ok(Some(bad(
                                at,
                                at + 4,
                                "code point in surrogate code point range(0xd800, 0xe000)",
                            )));
                        }
                    }
                    at += 4;
                    continue;
                }
                match u {
                    0xdc00..=0xdfff => return Ok(Some(bad(at, at + 2, "illegal encoding"))),
                    0xd800..=0xdbff => match unit(at + 2) {
                        None => return Ok(Some(bad(at, data.len(), "unexpected end of data"))),
                        Some(lo @ 0xdc00..=0xdfff) => {
                            let c = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
                            out.push(char::from_u32(c).unwrap_or('\u{fffd}'));
                            at += 4;
                        }
                        Some(_) => return Ok(Some(bad(at, at + 2, "illegal UTF-16 surrogate"))),
                    },
                    _ => {
                        out.push(char::from_u32(u).unwrap_or('\u{fffd}'));
                        at += 2;
                    }
                }
            }
        },
    )
}

fn bad(start: usize, end: usize, reason: &'static str) -> BadBytes {
    BadBytes { start, end, reason }
}
