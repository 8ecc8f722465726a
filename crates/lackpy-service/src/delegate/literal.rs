//! Text from an intent, made safe to put into a program: as a Python string
//! literal of its own, or escaped for the string literal it lands in. Either
//! way the text can only ever be a string's contents, never code.

use std::fmt::Write;

use super::scan::StrKind;

/// `text` as a Python string literal, written as Python's `repr` would
/// (single quotes unless the text holds one and no double quote).
pub(crate) fn py_str_literal(text: &str) -> String {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(text.len() + 2);
    out.push(quote);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c => push_char(&mut out, c, false),
        }
    }
    out.push(quote);
    out
}

/// `text` escaped to sit inside a literal of `kind`, or why it cannot be.
///
/// Both quote characters are escaped (inside an f-string's replacement
/// field a backslash is a syntax error, so a quote there can never close
/// a nested string), as are backslashes and every control or non-space
/// whitespace character; an f-string's braces are doubled; bytes get
/// their UTF-8 bytes as `\xNN`. A raw literal cannot escape anything, so
/// text that would need it is refused.
pub(crate) fn escape_in(kind: StrKind, text: &str) -> Result<String, String> {
    if kind.raw {
        return raw_contents(kind, text);
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' | '"' => {
                out.push('\\');
                out.push(c);
            }
            '{' if kind.fstring => out.push_str("{{"),
            '}' if kind.fstring => out.push_str("}}"),
            c => push_char(&mut out, c, kind.bytes),
        }
    }
    Ok(out)
}

/// Text for a raw literal: only what needs no escape.
fn raw_contents(kind: StrKind, text: &str) -> Result<String, String> {
    let unsafe_char = text.chars().find(|&c| {
        c == '\\' || c == '\'' || c == '"' || needs_escape(c) || (kind.bytes && !c.is_ascii())
    });
    if let Some(c) = unsafe_char {
        return Err(format!(
            "the text {} cannot go into a raw string literal (it holds {c:?})",
            py_str_literal(text)
        ));
    }
    Ok(if kind.fstring {
        text.replace('{', "{{").replace('}', "}}")
    } else {
        text.to_string()
    })
}

/// Control characters and whitespace other than a space: escaped, so a
/// literal never spans lines and shows what it holds.
pub(crate) fn needs_escape(c: char) -> bool {
    c.is_control() || (c.is_whitespace() && c != ' ')
}

fn push_char(out: &mut String, c: char, bytes: bool) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c if bytes && !c.is_ascii() => {
            let mut buf = [0u8; 4];
            for byte in c.encode_utf8(&mut buf).bytes() {
                let _ = write!(out, "\\x{byte:02x}");
            }
        }
        c if needs_escape(c) => {
            let n = u32::from(c);
            let _ = match n {
                0..=0xff => write!(out, "\\x{n:02x}"),
                0x100..=0xffff => write!(out, "\\u{n:04x}"),
                _ => write!(out, "\\U{n:08x}"),
            };
        }
        c => out.push(c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(quote: u8) -> StrKind {
        StrKind {
            quote,
            triple: false,
            raw: false,
            bytes: false,
            fstring: false,
        }
    }

    #[test]
    fn literals_read_as_python_reprs() {
        assert_eq!(py_str_literal("a.txt"), "'a.txt'");
        assert_eq!(py_str_literal("it's"), "\"it's\"");
        assert_eq!(py_str_literal("'\""), r#"'\'"'"#);
        assert_eq!(
            py_str_literal("a\\b\nc\u{7}\u{2028}é"),
            r"'a\\b\nc\x07\u2028é'"
        );
    }

    #[test]
    fn escapes_for_the_literal_they_land_in() {
        assert_eq!(
            escape_in(kind(b'\''), "x'); y('").as_deref(),
            Ok(r#"x\'); y(\'"#)
        );
        let f = StrKind {
            fstring: true,
            ..kind(b'"')
        };
        assert_eq!(escape_in(f, "{a}\"").as_deref(), Ok(r#"{{a}}\""#));
        let b = StrKind {
            bytes: true,
            ..kind(b'\'')
        };
        assert_eq!(escape_in(b, "é").as_deref(), Ok(r"\xc3\xa9"));
    }

    #[test]
    fn raw_literals_take_only_plain_text() {
        let r = StrKind {
            raw: true,
            ..kind(b'\'')
        };
        assert_eq!(escape_in(r, "a b.txt").as_deref(), Ok("a b.txt"));
        assert!(escape_in(r, "a'b").is_err());
        assert!(escape_in(r, "a\\").is_err());
        assert!(escape_in(r, "a\nb").is_err());
    }
}
