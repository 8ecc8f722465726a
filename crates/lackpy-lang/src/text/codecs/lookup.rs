//! Finding a codec by name as CPython 3.11 does: the name is normalized
//! (ASCII letters lowered, each run of characters other than ASCII letters,
//! digits and `.` made one `_`, none at either end), then looked up among
//! the aliases of `encodings.aliases` (also with `.` as `_`), else taken as
//! a codec module name.

use super::{Codec, Order};

/// The aliases (from CPython's `encodings.aliases`) of the supported
/// codecs, by normalized name, with the codec module each names.
const ALIASES: &[(&str, &str)] = &[
    ("646", "ascii"),
    ("ansi_x3.4_1968", "ascii"),
    ("ansi_x3_4_1968", "ascii"),
    ("ansi_x3.4_1986", "ascii"),
    ("cp367", "ascii"),
    ("csascii", "ascii"),
    ("ibm367", "ascii"),
    ("iso646_us", "ascii"),
    ("iso_646.irv_1991", "ascii"),
    ("iso_ir_6", "ascii"),
    ("us", "ascii"),
    ("us_ascii", "ascii"),
    ("8859", "latin_1"),
    ("cp819", "latin_1"),
    ("csisolatin1", "latin_1"),
    ("ibm819", "latin_1"),
    ("iso8859", "latin_1"),
    ("iso8859_1", "latin_1"),
    ("iso_8859_1", "latin_1"),
    ("iso_8859_1_1987", "latin_1"),
    ("iso_ir_100", "latin_1"),
    ("l1", "latin_1"),
    ("latin", "latin_1"),
    ("latin1", "latin_1"),
    ("u16", "utf_16"),
    ("utf16", "utf_16"),
    ("unicodebigunmarked", "utf_16_be"),
    ("utf_16be", "utf_16_be"),
    ("unicodelittleunmarked", "utf_16_le"),
    ("utf_16le", "utf_16_le"),
    ("u32", "utf_32"),
    ("utf32", "utf_32"),
    ("utf_32be", "utf_32_be"),
    ("utf_32le", "utf_32_le"),
    ("cp65001", "utf_8"),
    ("u8", "utf_8"),
    ("utf", "utf_8"),
    ("utf8", "utf_8"),
    ("utf8_ucs2", "utf_8"),
    ("utf8_ucs4", "utf_8"),
];

/// The codec a name means, or `None` (`LookupError: unknown encoding`).
pub(crate) fn lookup(name: &str) -> Option<Codec> {
    let norm = normalize(name);
    let alias = |n: &str| ALIASES.iter().find(|(a, _)| *a == n).map(|(_, m)| *m);
    let module = alias(&norm)
        .or_else(|| alias(&norm.replace('.', "_")))
        .unwrap_or(&norm);
    let wide = |width, order| Codec::Wide { width, order };
    Some(match module {
        "utf_8" => Codec::Utf8,
        "ascii" => Codec::Ascii,
        "latin_1" => Codec::Latin1,
        "utf_16" => wide(2, None),
        "utf_16_le" => wide(2, Some(Order::Little)),
        "utf_16_be" => wide(2, Some(Order::Big)),
        "utf_32" => wide(4, None),
        "utf_32_le" => wide(4, Some(Order::Little)),
        "utf_32_be" => wide(4, Some(Order::Big)),
        _ => return None,
    })
}

/// Whether CPython runs codec `name` directly (`str.encode`'s and
/// `bytes.decode`'s shortcuts for the common spellings) rather than
/// through the codec registry, which words a handler's failure as
/// `encoding with 'utf-16-le' codec failed (LookupError: ...)`.
pub(crate) fn is_shortcut(name: &str) -> bool {
    matches!(
        normalize(name).as_str(),
        "utf_8"
            | "utf8"
            | "utf_16"
            | "utf16"
            | "utf_32"
            | "utf32"
            | "ascii"
            | "us_ascii"
            | "latin1"
            | "latin_1"
            | "iso_8859_1"
            | "iso8859_1"
    )
}

/// CPython's `_Py_normalize_encoding`.
fn normalize(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut punct = false;
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || c == '.' {
            if punct && !out.is_empty() {
                out.push('_');
            }
            punct = false;
            out.push(c.to_ascii_lowercase());
        } else {
            punct = true;
        }
    }
    out
}
