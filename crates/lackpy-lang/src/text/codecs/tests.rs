//! CPython 3.11's answers (`python3`), checked against the codecs: bytes
//! as hex digits, text as its code points.

use super::*;

/// `(text, encoding, errors, answer)`.
const ENCODE: &[(&str, &str, &str, &str)] = &[
    (
        "aéé€b😀",
        "ascii",
        "strict",
        "UnicodeEncodeError: 'ascii' codec can't encode characters in position 1-3: ordinal not in range(128)",
    ),
    ("aéé€b😀", "ascii", "replace", "Ok:613f3f3f623f"),
    (
        "aéé€b😀",
        "ascii",
        "xmlcharrefreplace",
        "Ok:6126233233333b26233233333b2623383336343b6226233132383531323b",
    ),
    (
        "aéé€b😀",
        "ascii",
        "backslashreplace",
        "Ok:615c7865395c7865395c7532306163625c553030303166363030",
    ),
    ("aéé€b😀", "ascii", "ignore", "Ok:6162"),
    (
        "aéé€b😀",
        "latin-1",
        "strict",
        "UnicodeEncodeError: 'latin-1' codec can't encode character '\\u20ac' in position 3: ordinal not in range(256)",
    ),
    ("aé€", "latin-1", "backslashreplace", "Ok:61e95c7532306163"),
    (
        "a€",
        "latin-1",
        "bogus",
        "LookupError: unknown error handler name 'bogus'",
    ),
    ("a", "latin-1", "bogus", "Ok:61"),
    ("hi", "utf-16", "strict", "Ok:fffe68006900"),
    ("", "utf-16", "strict", "Ok:fffe"),
    ("", "utf-32", "strict", "Ok:fffe0000"),
    ("hi😀", "utf-16-be", "strict", "Ok:00680069d83dde00"),
    ("hi😀", "utf-16-le", "strict", "Ok:680069003dd800de"),
    ("h😀", "utf-32-be", "strict", "Ok:000000680001f600"),
    ("h😀", "utf-32", "strict", "Ok:fffe00006800000000f60100"),
    (
        "é",
        "ascii",
        "surrogateescape",
        "UnicodeEncodeError: 'ascii' codec can't encode character '\\xe9' in position 0: ordinal not in range(128)",
    ),
    (
        "é",
        "ascii",
        "STRICT",
        "LookupError: unknown error handler name 'STRICT'",
    ),
];

/// `(bytes, encoding, errors, answer)`.
const DECODE: &[(&[u8], &str, &str, &str)] = &[
    (
        b"a\xe9b",
        "utf-8",
        "strict",
        "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xe9 in position 1: invalid continuation byte",
    ),
    (
        b"\xe2\x82a",
        "utf-8",
        "strict",
        "UnicodeDecodeError: 'utf-8' codec can't decode bytes in position 0-1: invalid continuation byte",
    ),
    (
        b"a\xe2\x82",
        "utf-8",
        "strict",
        "UnicodeDecodeError: 'utf-8' codec can't decode bytes in position 1-2: unexpected end of data",
    ),
    (
        b"\xf0\x9f\x98",
        "utf-8",
        "strict",
        "UnicodeDecodeError: 'utf-8' codec can't decode bytes in position 0-2: unexpected end of data",
    ),
    (
        b"\xed\xa0\x80",
        "utf-8",
        "strict",
        "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xed in position 0: invalid continuation byte",
    ),
    (
        b"\xf4\x90\x80\x80",
        "utf-8",
        "strict",
        "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xf4 in position 0: invalid continuation byte",
    ),
    (b"\xe2\x82a", "utf-8", "replace", "Ok:fffd,61"),
    (b"\xed\xa0\x80", "utf-8", "replace", "Ok:fffd,fffd,fffd"),
    (b"\xf0\x9f\x98", "utf-8", "replace", "Ok:fffd"),
    (
        b"\xf0\x9f\x98",
        "utf-8",
        "backslashreplace",
        "Ok:5c,78,66,30,5c,78,39,66,5c,78,39,38",
    ),
    (b"\xc0\xafx\x80", "utf-8", "replace", "Ok:fffd,fffd,78,fffd"),
    (
        b"a\x00b",
        "utf-16",
        "strict",
        "UnicodeDecodeError: 'utf-16-le' codec can't decode byte 0x62 in position 2: truncated data",
    ),
    (
        b"a\x00b",
        "utf-16-be",
        "strict",
        "UnicodeDecodeError: 'utf-16-be' codec can't decode byte 0x62 in position 2: truncated data",
    ),
    (
        b"\x00\xd8a\x00",
        "utf-16",
        "strict",
        "UnicodeDecodeError: 'utf-16-le' codec can't decode bytes in position 0-1: illegal UTF-16 surrogate",
    ),
    (
        b"\x00\xdca\x00",
        "utf-16-le",
        "strict",
        "UnicodeDecodeError: 'utf-16-le' codec can't decode bytes in position 0-1: illegal encoding",
    ),
    (
        b"\x00\xd8",
        "utf-16-le",
        "strict",
        "UnicodeDecodeError: 'utf-16-le' codec can't decode bytes in position 0-1: unexpected end of data",
    ),
    (b"\xfe\xff\x00a", "utf-16", "strict", "Ok:61"),
    (b"\xff\xfea\x00", "utf-16-be", "strict", "Ok:fffe,6100"),
    (
        b"a\x00\x00",
        "utf-32",
        "strict",
        "UnicodeDecodeError: 'utf-32-le' codec can't decode bytes in position 0-2: truncated data",
    ),
    (
        b"\x00\x00\x11\x00",
        "utf-32-le",
        "strict",
        "UnicodeDecodeError: 'utf-32-le' codec can't decode bytes in position 0-3: code point not in range(0x110000)",
    ),
    (
        b"\x00\xd8\x00\x00",
        "utf-32",
        "strict",
        "UnicodeDecodeError: 'utf-32-le' codec can't decode bytes in position 0-3: code point in surrogate code point range(0xd800, 0xe000)",
    ),
    (
        b"\xe9",
        "ascii",
        "strict",
        "UnicodeDecodeError: 'ascii' codec can't decode byte 0xe9 in position 0: ordinal not in range(128)",
    ),
    (b"\xe9\xe9", "ascii", "replace", "Ok:fffd,fffd"),
    (
        b"\xe9",
        "ascii",
        "bogus",
        "LookupError: unknown error handler name 'bogus'",
    ),
    (b"a", "ascii", "bogus", "Ok:61"),
    (
        b"\xe9",
        "ascii",
        "xmlcharrefreplace",
        "TypeError: don't know how to handle UnicodeDecodeError in error callback",
    ),
    (b"\x00\xd8\x00\xd8", "utf-16", "replace", "Ok:fffd,fffd"),
    (b"\x00\xd8a", "utf-16", "replace", "Ok:fffd"),
    (
        b"\xff\xfe\x00\x00a\x00\x00\x00",
        "utf-32",
        "strict",
        "Ok:61",
    ),
    (b"\xe9x", "latin-1", "strict", "Ok:e9,78"),
    (
        b"\xe9",
        "utf-32",
        "strict",
        "UnicodeDecodeError: 'utf-32-le' codec can't decode byte 0xe9 in position 0: truncated data",
    ),
    (
        b"\x00\x00\xfe\xff\x00\x00\x00a",
        "utf-32",
        "strict",
        "Ok:61",
    ),
];

fn answer<T>(r: Result<T, CodecError>, shown: impl Fn(T) -> String) -> String {
    match r {
        Ok(v) => format!("Ok:{}", shown(v)),
        Err(e) => format!("{}: {}", e.class(), e.message()),
    }
}

/// Bytes as hex digits (the tables hold CPython's results so).
fn hex(b: Vec<u8>) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Text as its code points in hex, comma-separated.
fn code_points(s: String) -> String {
    s.chars()
        .map(|c| format!("{:x}", u32::from(c)))
        .collect::<Vec<_>>()
        .join(",")
}

#[test]
fn encodes_like_cpython() {
    for (text, encoding, errors, want) in ENCODE {
        let codec = lookup(encoding).expect("a supported codec");
        let got = answer(
            encode(text, codec, &Handler::named(errors), &mut |_| true),
            hex,
        );
        assert_eq!(got, *want, "{text:?}.encode({encoding:?}, {errors:?})");
    }
}

#[test]
fn decodes_like_cpython() {
    for (data, encoding, errors, want) in DECODE {
        let codec = lookup(encoding).expect("a supported codec");
        let got = answer(
            decode(data, codec, &Handler::named(errors), &mut |_| true),
            code_points,
        );
        assert_eq!(got, *want, "{data:?}.decode({encoding:?}, {errors:?})");
    }
}

#[test]
fn names_are_normalized_and_aliased_as_cpython() {
    for name in [
        "utf-8", "UTF-8", "u8", "utf8", " utf-8", "utf 8", "utf-8 ", "cp65001", "U8",
    ] {
        assert_eq!(lookup(name), Some(Codec::Utf8), "{name}");
    }
    for name in [
        "Latin-1",
        "latin1",
        "iso-8859-1",
        "iso8859-1",
        "8859",
        "l1",
        "ISO_8859-1",
    ] {
        assert_eq!(lookup(name), Some(Codec::Latin1), "{name}");
    }
    for name in [
        "us-ascii",
        "US_ASCII",
        "646",
        "ansi_x3.4_1968",
        "ansi-x3.4-1968",
    ] {
        assert_eq!(lookup(name), Some(Codec::Ascii), "{name}");
    }
    assert_eq!(
        lookup("utf_16-le"),
        Some(Codec::Wide {
            width: 2,
            order: Some(Order::Little)
        })
    );
    for name in ["", "bogus", "utf-8-sig", "utf.8", "cp1252", "utf-7"] {
        assert_eq!(lookup(name), None, "{name}");
    }
}

#[test]
fn the_shortcut_spellings_are_cpythons() {
    for name in [
        "utf-8",
        "UTF8",
        "utf 16",
        "utf_32",
        "US-ASCII",
        "latin-1",
        "ISO-8859-1",
    ] {
        assert!(is_shortcut(name), "{name}");
    }
    for name in ["u8", "utf-16-le", "l1", "646", "utf16le", "cp65001"] {
        assert!(!is_shortcut(name), "{name}");
    }
}

#[test]
fn a_poll_that_says_stop_stops_a_long_conversion() {
    let text = "\u{20ac}".repeat(3 * POLL_EVERY);
    let mut polls = 0;
    let mut poll = |_| {
        polls += 1;
        polls < 2
    };
    let got = encode(&text, Codec::Ascii, &Handler::Replace, &mut poll);
    assert!(matches!(got, Err(CodecError::Stopped)));
    let data = vec![0xffu8; 8 * POLL_EVERY];
    for codec in [
        Codec::Utf8,
        Codec::Ascii,
        Codec::Latin1,
        lookup("utf-16").expect("utf-16"),
    ] {
        let mut polls = 0;
        let mut poll = |_| {
            polls += 1;
            polls < 2
        };
        let got = decode(&data, codec, &Handler::Replace, &mut poll);
        assert!(matches!(got, Err(CodecError::Stopped)), "{codec:?}");
    }
}
