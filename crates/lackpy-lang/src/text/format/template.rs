//! `str.format` templates: literal text, `{{`/`}}` escapes and replacement
//! fields `{name!conversion:spec}`.
//!
//! Field names are an auto number, an index or a keyword, nothing more:
//! attribute and index lookup (`'{0.__class__}'`, `'{0[x]}'`) would let a
//! runtime-built template reach into values, so it is a `ValueError` here
//! (CPython would perform the lookup).

use std::iter::FusedIterator;

use super::{FormatError, code_char};

/// `ValueError` for `'{}{0}'`.
pub const AUTO_TO_MANUAL_NUMBERING: &str =
    "cannot switch from automatic field numbering to manual field specification";
/// `ValueError` for `'{0}{}'`.
pub const MANUAL_TO_AUTO_NUMBERING: &str =
    "cannot switch from manual field specification to automatic field numbering";
/// `ValueError` when a spec nested in a spec has fields (`'{:{:{}}}'`):
/// the top-level template may expand fields inside its specs, those
/// expanded specs may not contain fields in their own specs.
pub const MAX_STRING_RECURSION: &str = "Max string recursion exceeded";
/// `ValueError` for attribute or index lookup in a field name (lackpy's
/// rule, not CPython's).
pub const LOOKUP_NOT_ALLOWED: &str = "attribute and index lookup are not allowed in format fields";

/// `IndexError` message for a positional field with no argument.
pub fn replacement_index_out_of_range(index: usize) -> String {
    format!("Replacement index {index} out of range for positional args tuple")
}

/// A piece of a `str.format` template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TemplatePiece {
    /// Text copied as is (`{{` and `}}` already unescaped).
    Literal(String),
    /// A replacement field.
    Field(Field),
}

/// A replacement field `{name!conversion:spec}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// Which argument.
    pub name: FieldName,
    /// `'r'`, `'s'` or `'a'`.
    pub conversion: Option<char>,
    /// The raw spec after `:`. It may contain nested fields (`{:>{w}}`):
    /// the interpreter expands them by parsing it with [`parse_template`]
    /// and then parses the result as a format spec.
    pub spec: String,
}

/// The argument a field refers to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldName {
    /// `{}`: the next positional argument.
    Auto,
    /// `{0}`: a positional argument.
    Index(usize),
    /// `{name}`: a keyword argument.
    Keyword(String),
}

/// Parses a whole template. Errors (`ValueError`) as CPython's: `Single '}'
/// encountered in format string`, `Single '{' encountered in format
/// string`, `expected '}' before end of string`, `unmatched '{' in format
/// spec`, `unexpected '{' in field name`, `end of string while looking for
/// conversion specifier`, `expected ':' after conversion specifier`,
/// `Unknown conversion specifier x`, `Too many decimal digits in format
/// string`, plus [`LOOKUP_NOT_ALLOWED`].
///
/// CPython formats each field before it parses the rest of the template, so
/// an error in a field's value comes before a syntax error further on; use
/// [`template_pieces`] and stop at the first failure to match that order.
/// (An unknown conversion is reported before the field's argument is
/// looked up, where CPython looks it up first.)
#[cfg(test)]
pub(crate) fn parse_template(t: &str) -> Result<Vec<TemplatePiece>, FormatError> {
    template_pieces(t).collect()
}

/// Parses a template lazily: each item is the next piece or the error at
/// that point; the iterator ends after an error.
pub fn template_pieces(t: &str) -> TemplatePieces<'_> {
    TemplatePieces {
        text: t,
        pos: 0,
        failed: false,
    }
}

/// Iterator returned by [`template_pieces`].
#[derive(Debug, Clone)]
pub struct TemplatePieces<'a> {
    text: &'a str,
    /// Byte offset of the next character.
    pos: usize,
    failed: bool,
}

impl TemplatePieces<'_> {
    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn peek_second(&self) -> Option<char> {
        self.text[self.pos..].chars().nth(1)
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    /// Parses a field; `pos` is at its `{`.
    fn field(&mut self) -> Result<Field, FormatError> {
        self.bump();
        let name_start = self.pos;
        let stop = loop {
            match self.peek() {
                None => return Err(FormatError::value("expected '}' before end of string")),
                Some('{') => return Err(FormatError::value("unexpected '{' in field name")),
                Some('[') => {
                    // Brackets hide ':' and '!' (CPython's element index syntax).
                    while let Some(c) = self.bump() {
                        if c == ']' {
                            break;
                        }
                    }
                }
                Some(c @ ('}' | ':' | '!')) => break c,
                Some(_) => {
                    self.bump();
                }
            }
        };
        let name = &self.text[name_start..self.pos];
        self.bump();

        let mut conversion = None;
        let mut stop = stop;
        if stop == '!' {
            let c = self.bump().ok_or_else(|| {
                FormatError::value("end of string while looking for conversion specifier")
            })?;
            conversion = Some(c);
            stop = match self.bump() {
                None => return Err(FormatError::value("unmatched '{' in format spec")),
                Some(c @ (':' | '}')) => c,
                Some(_) => {
                    return Err(FormatError::value(
                        "expected ':' after conversion specifier",
                    ));
                }
            };
        }

        let mut spec = String::new();
        if stop == ':' {
            let spec_start = self.pos;
            let mut depth = 1usize;
            loop {
                let end = self.pos;
                match self.bump() {
                    None => return Err(FormatError::value("unmatched '{' in format spec")),
                    Some('{') => depth += 1,
                    Some('}') => {
                        depth -= 1;
                        if depth == 0 {
                            spec = self.text[spec_start..end].to_string();
                            break;
                        }
                    }
                    Some(_) => {}
                }
            }
        }

        let name = field_name(name)?;
        if let Some(c) = conversion.filter(|c| !matches!(c, 'r' | 's' | 'a')) {
            return Err(FormatError::value(format!(
                "Unknown conversion specifier {}",
                code_char(c)
            )));
        }
        Ok(Field {
            name,
            conversion,
            spec,
        })
    }
}

/// Classifies a field name; lookups are refused.
fn field_name(name: &str) -> Result<FieldName, FormatError> {
    if name.contains(['.', '[']) {
        return Err(FormatError::value(LOOKUP_NOT_ALLOWED));
    }
    if name.is_empty() {
        return Ok(FieldName::Auto);
    }
    if !name.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(FieldName::Keyword(name.to_string()));
    }
    let mut index: u64 = 0;
    for digit in name.bytes().map(|b| u64::from(b - b'0')) {
        if index > (i64::MAX as u64 - digit) / 10 {
            return Err(FormatError::value(
                "Too many decimal digits in format string",
            ));
        }
        index = index * 10 + digit;
    }
    Ok(FieldName::Index(
        usize::try_from(index).unwrap_or(usize::MAX),
    ))
}

impl Iterator for TemplatePieces<'_> {
    type Item = Result<TemplatePiece, FormatError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed || self.pos >= self.text.len() {
            return None;
        }
        let mut literal = String::new();
        let result = loop {
            match self.peek() {
                None => break Ok(TemplatePiece::Literal(literal)),
                Some(c @ ('{' | '}')) if self.peek_second() == Some(c) => {
                    literal.push(c);
                    self.bump();
                    self.bump();
                }
                Some('}') => {
                    break Err(FormatError::value(
                        "Single '}' encountered in format string",
                    ));
                }
                Some('{') if self.peek_second().is_none() => {
                    break Err(FormatError::value(
                        "Single '{' encountered in format string",
                    ));
                }
                Some('{') if !literal.is_empty() => break Ok(TemplatePiece::Literal(literal)),
                Some('{') => break self.field().map(TemplatePiece::Field),
                Some(c) => {
                    literal.push(c);
                    self.bump();
                }
            }
        };
        self.failed = result.is_err();
        Some(result)
    }
}

impl FusedIterator for TemplatePieces<'_> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::format::FormatErrorKind;
    use crate::text::format::test_rng::{Rng, random_text};

    fn field(name: FieldName, conversion: Option<char>, spec: &str) -> TemplatePiece {
        TemplatePiece::Field(Field {
            name,
            conversion,
            spec: spec.to_string(),
        })
    }

    fn lit(text: &str) -> TemplatePiece {
        TemplatePiece::Literal(text.to_string())
    }

    #[test]
    fn parses_fields_and_escapes() {
        use FieldName::{Auto, Index, Keyword};
        let cases: Vec<(&str, Vec<TemplatePiece>)> = vec![
            ("", vec![]),
            ("plain", vec![lit("plain")]),
            ("a{{b}}c", vec![lit("a{b}c")]),
            ("{{}}", vec![lit("{}")]),
            (
                "{} + {} = {}",
                vec![
                    field(Auto, None, ""),
                    lit(" + "),
                    field(Auto, None, ""),
                    lit(" = "),
                    field(Auto, None, ""),
                ],
            ),
            (
                "{1}{0}{1}",
                vec![
                    field(Index(1), None, ""),
                    field(Index(0), None, ""),
                    field(Index(1), None, ""),
                ],
            ),
            (
                "{name} is {age}",
                vec![
                    field(Keyword("name".into()), None, ""),
                    lit(" is "),
                    field(Keyword("age".into()), None, ""),
                ],
            ),
            ("{!r:>5}", vec![field(Auto, Some('r'), ">5")]),
            (
                "{0!s}{x!a:}",
                vec![
                    field(Index(0), Some('s'), ""),
                    field(Keyword("x".into()), Some('a'), ""),
                ],
            ),
            // Nested fields stay in the raw spec for the interpreter.
            ("{:>{w}}|", vec![field(Auto, None, ">{w}"), lit("|")]),
            ("{:{fill}<{n}}", vec![field(Auto, None, "{fill}<{n}")]),
            ("{0:{1}}", vec![field(Index(0), None, "{1}")]),
            ("{:{:{}}}", vec![field(Auto, None, "{:{}}")]),
            ("{0:{{}}}", vec![field(Index(0), None, "{{}}")]),
            // Odd but legal names are keywords, as in CPython.
            (
                "{ }{0a}{-1}{a]}",
                vec![
                    field(Keyword(" ".into()), None, ""),
                    field(Keyword("0a".into()), None, ""),
                    field(Keyword("-1".into()), None, ""),
                    field(Keyword("a]".into()), None, ""),
                ],
            ),
            (
                "é{0}😀",
                vec![lit("é"), field(Index(0), None, ""), lit("😀")],
            ),
            ("{0:!r}", vec![field(Index(0), None, "!r")]),
        ];
        for (template, want) in cases {
            assert_eq!(parse_template(template), Ok(want), "{template:?}");
        }
    }

    // PARSE_ERRORS: CPython's answers, written by `cargo xtask codegen`.
    include!("template_cases.rs");

    #[test]
    fn parse_errors_like_cpython() {
        for (template, want) in PARSE_ERRORS {
            let got = match parse_template(template) {
                Ok(pieces) => format!("parsed: {pieces:?}"),
                Err(e) => e.to_string(),
            };
            assert_eq!(got, *want, "{template:?}");
        }
    }

    #[test]
    fn lookups_are_refused() {
        for template in [
            "{0.__class__}",
            "{0[x]}",
            "{a.b}",
            "{[0]}",
            "{.x}",
            "{0[:]}",
            "{0.}",
            "{0[]}",
            "{x[0]!r:>5}",
        ] {
            let e = parse_template(template).expect_err(template);
            assert_eq!(e.kind, FormatErrorKind::ValueError, "{template}");
            assert_eq!(e.message, LOOKUP_NOT_ALLOWED, "{template}");
        }
    }

    #[test]
    fn lazy_pieces_stop_at_the_error() {
        let mut it = template_pieces("a{0:d} }{1}");
        assert_eq!(it.next(), Some(Ok(lit("a"))));
        assert_eq!(it.next(), Some(Ok(field(FieldName::Index(0), None, "d"))));
        let e = it.next().and_then(Result::err).expect("error");
        assert_eq!(e.message, "Single '}' encountered in format string");
        assert_eq!(it.next(), None);
    }

    #[test]
    fn messages_for_the_interpreter() {
        assert_eq!(
            replacement_index_out_of_range(5),
            "Replacement index 5 out of range for positional args tuple"
        );
        assert_eq!(
            MANUAL_TO_AUTO_NUMBERING,
            "cannot switch from manual field specification to automatic field numbering"
        );
        assert_eq!(
            AUTO_TO_MANUAL_NUMBERING,
            "cannot switch from automatic field numbering to manual field specification"
        );
        assert_eq!(MAX_STRING_RECURSION, "Max string recursion exceeded");
    }

    #[test]
    fn random_templates_never_panic() {
        let alphabet = [
            "{",
            "}",
            "{",
            "}",
            "!",
            ":",
            "r",
            "s",
            "x",
            "0",
            "9",
            "k",
            ".",
            "[",
            "]",
            "<",
            "é",
            "{}",
            "{{",
            "}}",
            "99999999999999999999",
        ];
        let mut rng = Rng::new(0xf00d);
        for _ in 0..50_000 {
            let template = random_text(&mut rng, &alphabet, 12);
            if let Ok(pieces) = parse_template(&template) {
                for piece in pieces {
                    if let TemplatePiece::Field(f) = piece {
                        assert!(f.conversion.is_none_or(|c| "rsa".contains(c)));
                        let _ = parse_template(&f.spec);
                    }
                }
            }
        }
    }
}
