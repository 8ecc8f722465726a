//! The repr of a string, as CPython writes it: its quote choice and
//! escapes (`ascii()` escapes every non-ASCII character too).

/// CPython's quote choice for a string's repr.
pub(crate) fn quote_for(s: &str) -> char {
    if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    }
}

/// Appends the repr of a string: CPython's quote choice and escapes.
pub(crate) fn push_str_repr(out: &mut String, s: &str, ascii: bool) {
    let quote = quote_for(s);
    out.push(quote);
    push_escaped(out, s, quote, ascii);
    out.push(quote);
}

/// Appends the characters of a string repr between its quotes.
pub(crate) fn push_escaped(out: &mut String, s: &str, quote: char, ascii: bool) {
    // Runs of printable ASCII other than the quote and the backslash (most
    // text) are copied at once; the rest is escaped character by character.
    let q = quote as u8;
    let mut rest = s;
    while !rest.is_empty() {
        let plain = rest
            .bytes()
            .position(|b| !(0x20..0x7f).contains(&b) || b == q || b == b'\\')
            .unwrap_or(rest.len());
        let (run, tail) = rest.split_at(plain);
        out.push_str(run);
        let mut chars = tail.chars();
        let Some(c) = chars.next() else {
            break;
        };
        push_escaped_char(out, c, quote, ascii);
        rest = chars.as_str();
    }
}

/// Appends one character of a string repr that is not plain ASCII.
fn push_escaped_char(out: &mut String, c: char, quote: char, ascii: bool) {
    use std::fmt::Write;
    match c {
        '\\' => out.push_str("\\\\"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c if c == quote => {
            out.push('\\');
            out.push(c);
        }
        c if (' '..='~').contains(&c) => out.push(c),
        c if c.is_ascii() => {
            let _ = write!(out, "\\x{:02x}", c as u32);
        }
        c if !ascii && crate::text::unicode::is_printable(c) => out.push(c),
        c => {
            let cp = c as u32;
            if cp < 0x100 {
                let _ = write!(out, "\\x{cp:02x}");
            } else if cp < 0x10000 {
                let _ = write!(out, "\\u{cp:04x}");
            } else {
                let _ = write!(out, "\\U{cp:08x}");
            }
        }
    }
}
