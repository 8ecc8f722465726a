//! What each stretch of a source is, as the tokenizer and the f-string
//! parser read it: code, a comment, a literal's text, an f-string's
//! doubled brace or field delimiter, or code inside a replacement field.
//!
//! For hosts that rewrite program text (lackpy's delegation templates put
//! intent text into a body) and must know, byte for byte, what Python will
//! take each position for. The answer comes from the real tokenizer and
//! the real f-string parser, so it cannot disagree with [`parse`]
//! (crate::syntax::parse) about where a string or a field begins and ends.

use super::error::{ParseError, err};
use super::parser::Parser;
use super::strings::{FWhat, fstring_pieces, split};
use super::token::Tok;
use super::tokenizer;

/// Deepest nesting of literals inside replacement fields followed (3.11's
/// quoting rules allow only a few levels; this is a safety bound).
const MAX_NESTING: usize = 16;

/// How a string literal is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StringKind {
    /// The quote character: `'` or `"`.
    pub quote: char,
    /// Triple-quoted (`'''…'''`, `"""…"""`).
    pub triple: bool,
    /// An `r` prefix: backslashes are kept as written.
    pub raw: bool,
    /// A `b` prefix: a bytes literal (ASCII text only).
    pub bytes: bool,
    /// An `f` prefix: braces open replacement fields.
    pub fstring: bool,
}

/// What one stretch of source is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SourcePart {
    /// Code: names, numbers, operators, brackets, blanks and line ends,
    /// at the top level or inside an f-string's replacement field (then
    /// [`SourceRegion::within`] names the f-strings around it).
    Code,
    /// A `#` comment, up to (not including) its line end.
    Comment,
    /// A literal's prefix and quotes; a replacement field's braces and its
    /// `=`, `!c` and `:` markers.
    Delimiter,
    /// The text of a string or bytes literal, or the literal text of an
    /// f-string (a format spec's included, see
    /// [`SourceRegion::format_spec`]).
    Text,
    /// A doubled `{{` or `}}` in an f-string's literal text (one brace of
    /// text).
    DoubledBrace,
}

/// One stretch of source, `start..end` in bytes of the text given to
/// [`source_regions`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SourceRegion {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
    /// What it is.
    pub part: SourcePart,
    /// The string literals it lies in, outermost first. For a literal's
    /// own text, delimiters and doubled braces, the last one is that
    /// literal; for code, the f-strings whose replacement fields hold it
    /// (empty at the top level, as for comments).
    pub within: Vec<StringKind>,
    /// Text, a doubled brace or a delimiter inside a format spec (after a
    /// field's `:`), where braces cannot be doubled.
    pub format_spec: bool,
}

/// Splits `src` into regions that cover it in order, or returns the error
/// that stops its tokenizing (an unterminated string, an unclosed
/// bracket, a bad f-string field, a literal that does not decode).
///
/// Only the tokens are read, not the grammar: a source whose statements
/// do not parse still gets its regions. `src` must use `\n` line ends
/// (a `\r` or a NUL byte is an error).
pub fn source_regions(src: &str) -> Result<Vec<SourceRegion>, ParseError> {
    if let Some(i) = src.find(['\0', '\r']) {
        let line = 1 + src.get(..i).map_or(0, |s| s.matches('\n').count()) as u32;
        return Err(err(
            "a NUL byte or a carriage return is not read here",
            line,
        ));
    }
    let mut out = Vec::new();
    regions_into(src, 0, 1, &[], &mut out)?;
    Ok(out)
}

fn region(
    out: &mut Vec<SourceRegion>,
    start: usize,
    end: usize,
    part: SourcePart,
    within: &[StringKind],
    format_spec: bool,
) {
    if end > start {
        out.push(SourceRegion {
            start,
            end,
            part,
            within: within.to_vec(),
            format_spec,
        });
    }
}

/// Code between tokens and inside non-string tokens: `#` starts a comment
/// (it cannot occur in any other token).
fn code(
    out: &mut Vec<SourceRegion>,
    src: &str,
    base: usize,
    from: usize,
    to: usize,
    within: &[StringKind],
) {
    let b = src.as_bytes();
    let mut i = from;
    let mut start = from;
    while i < to {
        if b.get(i) == Some(&b'#') {
            region(out, base + start, base + i, SourcePart::Code, within, false);
            let end = b
                .get(i..to)
                .and_then(|r| r.iter().position(|&c| c == b'\n'))
                .map_or(to, |p| i + p);
            region(
                out,
                base + i,
                base + end,
                SourcePart::Comment,
                within,
                false,
            );
            i = end;
            start = end;
        } else {
            i += 1;
        }
    }
    region(
        out,
        base + start,
        base + to,
        SourcePart::Code,
        within,
        false,
    );
}

/// The regions of `src`, whose byte 0 is byte `base` of the original text.
fn regions_into(
    src: &str,
    base: usize,
    first_line: u32,
    within: &[StringKind],
    out: &mut Vec<SourceRegion>,
) -> Result<(), ParseError> {
    if within.len() > MAX_NESTING {
        return Err(err("f-string: expressions nested too deeply", first_line));
    }
    let toks = tokenizer::tokenize(src, first_line, 0);
    if let Some(te) = toks.error {
        return Err(te.err);
    }
    if let Some((c, line)) = toks.unclosed {
        return Err(err(format!("'{}' was never closed", c as char), line));
    }
    let strings: Vec<usize> = toks
        .toks
        .iter()
        .enumerate()
        .filter(|(_, t)| t.kind == Tok::String)
        .map(|(i, _)| i)
        .collect();
    let mut p = Parser::new(src, toks.toks, 0);
    p.in_fstring = !within.is_empty();
    let mut from = 0;
    for i in strings {
        let Some(&tok) = p.toks.get(i) else { continue };
        let (start, end) = (tok.start as usize, tok.end as usize);
        code(out, src, base, from, start, within);
        from = end;
        let lit = split(p.text(tok), tok);
        let kind = StringKind {
            quote: char::from(lit.quote),
            triple: lit.triple,
            raw: lit.raw,
            bytes: lit.bytes,
            fstring: lit.fstr,
        };
        let mut inner = within.to_vec();
        inner.push(kind);
        let body_start = start + lit.body_start;
        let body_end = body_start + lit.body.len();
        region(
            out,
            base + start,
            base + body_start,
            SourcePart::Delimiter,
            &inner,
            false,
        );
        if lit.fstr {
            for piece in fstring_pieces(&p, i)? {
                let (s, e) = (body_start + piece.start, body_start + piece.end);
                let part = match piece.what {
                    FWhat::Text => SourcePart::Text,
                    FWhat::Doubled => SourcePart::DoubledBrace,
                    FWhat::Delimiter => SourcePart::Delimiter,
                    FWhat::Expr => {
                        // Read as the parser reads it: `(expression)`.
                        let text = src.get(s..e).unwrap_or("");
                        let wrapped = format!("({text})");
                        let line = tok.line
                            + src.get(start..s).map_or(0, |t| t.matches('\n').count()) as u32;
                        let mut nested = Vec::new();
                        regions_into(&wrapped, 0, line, &inner, &mut nested)?;
                        for mut r in nested {
                            // Drop the added parentheses; shift into place.
                            r.start = r.start.clamp(1, wrapped.len() - 1) - 1 + base + s;
                            r.end = r.end.clamp(1, wrapped.len() - 1) - 1 + base + s;
                            if r.end > r.start {
                                out.push(r);
                            }
                        }
                        continue;
                    }
                };
                region(out, base + s, base + e, part, &inner, piece.spec);
            }
        } else {
            // Decoded as the parser decodes it, so a bad escape or a
            // non-ASCII bytes literal is the parser's error.
            super::strings::concat(&p, i, i + 1, tok.line)?;
            region(
                out,
                base + body_start,
                base + body_end,
                SourcePart::Text,
                &inner,
                false,
            );
        }
        region(
            out,
            base + body_end,
            base + end,
            SourcePart::Delimiter,
            &inner,
            false,
        );
    }
    code(out, src, base, from, src.len(), within);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(src: &str) -> Vec<(&str, char, usize, bool)> {
        source_regions(src)
            .expect("tokenizes")
            .into_iter()
            .map(|r| {
                let tag = match r.part {
                    SourcePart::Code => 'c',
                    SourcePart::Comment => '#',
                    SourcePart::Delimiter => 'd',
                    SourcePart::Text => 't',
                    SourcePart::DoubledBrace => 'b',
                };
                (&src[r.start..r.end], tag, r.within.len(), r.format_spec)
            })
            .collect()
    }

    #[test]
    fn code_strings_and_comments() {
        assert_eq!(
            show("x = rb'a#b' # it's\ny"),
            [
                ("x = ", 'c', 0, false),
                ("rb'", 'd', 1, false),
                ("a#b", 't', 1, false),
                ("'", 'd', 1, false),
                (" ", 'c', 0, false),
                ("# it's", '#', 0, false),
                ("\ny", 'c', 0, false),
            ]
        );
    }

    #[test]
    fn fstring_fields_specs_and_nesting() {
        assert_eq!(
            show("f'a{{{len(\"{x}\")!r:>{w}}}}'"),
            [
                ("f'", 'd', 1, false),
                ("a", 't', 1, false),
                ("{{", 'b', 1, false),
                ("{", 'd', 1, false),
                ("len(", 'c', 1, false),
                ("\"", 'd', 2, false),
                ("{x}", 't', 2, false),
                ("\"", 'd', 2, false),
                (")", 'c', 1, false),
                ("!r:", 'd', 1, false),
                (">", 't', 1, true),
                ("{", 'd', 1, true),
                ("w", 'c', 1, false),
                ("}", 'd', 1, true),
                ("}", 'd', 1, false),
                ("}}", 'b', 1, false),
                ("'", 'd', 1, false),
            ]
        );
        let r = source_regions("f'''{ f\"{ {1} }\" }'''").expect("tokenizes");
        let set = r
            .iter()
            .find(|r| r.part == SourcePart::Code && r.within.len() == 2);
        assert!(set.is_some(), "{r:?}");
    }

    #[test]
    fn errors_are_the_parsers() {
        for (src, msg) in [
            ("x = 'abc", "unterminated string literal"),
            ("f'{x'", "f-string: expecting '}'"),
            ("f'{{x}'", "f-string: single '}' is not allowed"),
            ("b'é'", "bytes can only contain ASCII literal characters"),
            ("(1,", "'(' was never closed"),
            ("f'{x:{y:{z}}}'", "f-string: expressions nested too deeply"),
        ] {
            let e = source_regions(src).expect_err(src);
            assert!(e.message.contains(msg), "{src}: {}", e.message);
        }
    }
}
