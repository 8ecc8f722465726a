//! Where each `{var}` placeholder of a template body sits, decided once per
//! template from lackpy-lang's own tokenizer and f-string parser
//! ([`lackpy_lang::source_regions`]), and how a capture is written there so
//! that it can only ever be a string's contents:
//!
//! * in code (or a comment): a string literal of its own;
//! * inside a replacement field's code (`f'{len({p})}'`): a string literal
//!   quoted with a quote no enclosing f-string uses, holding no backslash
//!   (3.11 allows none in a field);
//! * in a literal's text: escaped for that literal (`literal.rs`); inside a
//!   field (a literal nested in an f-string's expression) without any
//!   backslash or enclosing quote; in a format spec without braces;
//! * a whole field `{p}` of an f-string: as that f-string's literal text;
//!   `{{p}}`: the text between the doubled braces.
//!
//! A body that does not tokenize, or a placeholder in any other position,
//! is refused when the template is read; a capture that its position
//! cannot represent (a quote in a raw string, a backslash in a field) is
//! refused when it is substituted.

use lackpy_lang::{SourcePart, SourceRegion, StringKind, source_regions};

use super::literal::{escape_in, needs_escape, py_str_literal};
use super::scan::StrKind;

/// How a placeholder's capture is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Place {
    /// Top-level code or a comment: a string literal.
    Code,
    /// Code inside the replacement fields of these f-strings (outermost
    /// first): a string literal they can hold.
    FieldCode(Vec<StringKind>),
    /// Text of the last literal of `within`; `spec`: in a format spec.
    /// Replaces the whole `{var}`; `braces` keeps one brace either side
    /// (`{{var}}` in an f-string).
    Text {
        within: Vec<StringKind>,
        spec: bool,
        braces: bool,
    },
}

/// One placeholder of a body: `start..end` is its `{var}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Placement {
    pub start: usize,
    pub end: usize,
    pub var: String,
    pub place: Place,
}

/// The placements of the placeholders of `body` named in `vars`, or why
/// the body cannot take captures safely. `\r\n` line ends are read as
/// Python reads them (as `\n`) and kept in the body.
pub(crate) fn plan(
    body: &str,
    vars: &[String],
    placeholders: &regex::Regex,
) -> Result<Vec<Placement>, String> {
    if !body.contains("\r\n") {
        return plan_lf(body, vars, placeholders);
    }
    // Where each `\r` of a `\r\n` was: a placement moves forward by
    // the number of them before it.
    let crs: Vec<usize> = body.match_indices("\r\n").map(|(i, _)| i).collect();
    let lf = body.replace("\r\n", "\n");
    let mut placed = plan_lf(&lf, vars, placeholders)?;
    let shift = |at: usize| {
        let mut k = 0;
        while crs.get(k).is_some_and(|&cr| cr < at + k) {
            k += 1;
        }
        at + k
    };
    for p in &mut placed {
        p.start = shift(p.start);
        p.end = shift(p.end);
    }
    Ok(placed)
}

fn plan_lf(
    body: &str,
    vars: &[String],
    placeholders: &regex::Regex,
) -> Result<Vec<Placement>, String> {
    let mut found = Vec::new();
    let mut regions: Option<Vec<SourceRegion>> = None;
    for m in placeholders.captures_iter(body) {
        let (Some(whole), Some(name)) = (m.get(0), m.get(1)) else {
            continue;
        };
        if !vars.iter().any(|v| v == name.as_str()) {
            continue;
        }
        let regions = match &regions {
            Some(r) => r,
            None => {
                let r = source_regions(body).map_err(|e| {
                    format!(
                        "its body cannot be read as Python, so where its placeholders sit is unknown: {} (line {})",
                        e.message, e.line
                    )
                })?;
                regions.insert(r)
            }
        };
        let place = place_of(regions, whole.start(), whole.end()).ok_or_else(|| {
            format!(
                "its placeholder {} sits where a capture cannot be placed safely",
                whole.as_str()
            )
        })?;
        if let Place::FieldCode(within) = &place
            && free_quote(within).is_none()
        {
            return Err(format!(
                "its placeholder {} is inside an f-string field whose enclosing quotes leave no quote for a string",
                whole.as_str()
            ));
        }
        found.push(Placement {
            start: whole.start(),
            end: whole.end(),
            var: name.as_str().to_string(),
            place,
        });
    }
    Ok(found)
}

/// The region holding byte `at`.
fn at(regions: &[SourceRegion], at: usize) -> Option<&SourceRegion> {
    let i = regions.partition_point(|r| r.end <= at);
    regions.get(i).filter(|r| r.start <= at)
}

/// What the placeholder `start..end` (`{`, a name, `}`) is in the body.
fn place_of(regions: &[SourceRegion], start: usize, end: usize) -> Option<Place> {
    let open = at(regions, start)?;
    let close = at(regions, end - 1)?;
    let name = at(regions, start + 1)?;
    let same = |a: &SourceRegion, b: &SourceRegion| a.within == b.within;
    use SourcePart::*;
    match (open.part, name.part, close.part) {
        (Code | Comment, _, _) if open.end >= end => Some(if open.within.is_empty() {
            Place::Code
        } else {
            Place::FieldCode(open.within.clone())
        }),
        (Text, Text, Text) if open.end >= end => Some(Place::Text {
            within: open.within.clone(),
            spec: open.format_spec,
            braces: false,
        }),
        // A whole replacement field `{var}`.
        (Delimiter, Code, Delimiter)
            if open.end == start + 1
                && close.start == end - 1
                && name.start == start + 1
                && name.end == end - 1
                && open.within.last().is_some_and(|k| k.fstring)
                && same(open, close) =>
        {
            Some(Place::Text {
                within: open.within.clone(),
                spec: open.format_spec,
                braces: false,
            })
        }
        // `{{var}}`: the placeholder's braces are the second of `{{` and
        // the first of `}}`.
        (DoubledBrace, Text, DoubledBrace)
            if open.end == start + 1
                && close.start == end - 1
                && name.start == start + 1
                && name.end == end - 1
                && same(open, close) =>
        {
            Some(Place::Text {
                within: open.within.clone(),
                spec: false,
                braces: true,
            })
        }
        _ => None,
    }
}

/// A quote that none of the f-strings around a field uses.
fn free_quote(within: &[StringKind]) -> Option<char> {
    ['\'', '"']
        .into_iter()
        .find(|q| within.iter().all(|k| k.quote != *q))
}

fn str_kind(k: &StringKind) -> StrKind {
    StrKind {
        quote: if k.quote == '"' { b'"' } else { b'\'' },
        triple: k.triple,
        raw: k.raw,
        bytes: k.bytes,
        fstring: k.fstring,
    }
}

/// Text inside a replacement field cannot hold a backslash (3.11), so
/// nothing can be escaped there: a character that would need it, or an
/// enclosing literal's quote, is refused.
fn plain_in_field(
    within: &[StringKind],
    text: &str,
    extra_quote: Option<char>,
) -> Result<(), String> {
    let bad = text.chars().find(|&c| {
        c == '\\'
            || needs_escape(c)
            || within.iter().any(|k| k.quote == c)
            || extra_quote == Some(c)
    });
    match bad {
        Some(c) => Err(format!(
            "the text {} cannot go inside an f-string's replacement field (it holds {c:?}, which would need a backslash there)",
            py_str_literal(text)
        )),
        None => Ok(()),
    }
}

/// How `text` is written at `place`.
pub(crate) fn write(place: &Place, text: &str) -> Result<String, String> {
    match place {
        Place::Code => Ok(py_str_literal(text)),
        Place::FieldCode(within) => {
            let q = free_quote(within).ok_or("no quote is free in this f-string field")?;
            plain_in_field(within, text, Some(q))?;
            Ok(format!("{q}{text}{q}"))
        }
        Place::Text {
            within,
            spec,
            braces,
        } => {
            let Some((kind, outer)) = within.split_last() else {
                return Ok(py_str_literal(text));
            };
            if *spec && text.contains(['{', '}']) {
                return Err(format!(
                    "the text {} cannot go into a format spec (braces cannot be escaped there)",
                    py_str_literal(text)
                ));
            }
            let escaped = if outer.is_empty() {
                escape_in(str_kind(kind), text)?
            } else {
                plain_in_field(within, text, None)?;
                if kind.bytes && !text.is_ascii() {
                    return Err(format!(
                        "the text {} cannot go into a bytes literal inside an f-string field (not ASCII)",
                        py_str_literal(text)
                    ));
                }
                if kind.fstring {
                    text.replace('{', "{{").replace('}', "}}")
                } else {
                    text.to_string()
                }
            };
            Ok(if *braces {
                format!("{{{escaped}}}")
            } else {
                escaped
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use lackpy_lang::ast::{Constant, ExprKind};
    use lackpy_lang::{NodeRef, walk};

    use super::super::templates::substitute;

    /// Every placement the body syntax offers, `{p}` the placeholder.
    const PLACEMENTS: &[&str] = &[
        // Code and comments.
        "x = {p}",
        "x = [{p}, 1]\ny = {{p}}",
        "# {p}\nx = 1",
        // Each quote kind.
        "x = '{p}'",
        "x = \"{p}\"",
        "x = '''{p}'''",
        "x = \"\"\"{p}\"\"\"",
        "x = 'a{p}b' 'c'",
        "x = u'{p}'",
        // Raw and bytes.
        "x = r'{p}'",
        "x = r\"\"\"{p}\"\"\"",
        "x = b'{p}'",
        "x = b\"\"\"{p}\"\"\"",
        "x = br'{p}'",
        // f-string literal parts.
        "x = f'{p}'",
        "x = f\"a{p}b\"",
        "x = f'''{p}'''",
        "x = f\"hello {{p}}\"",
        "x = f'{{{p}}}'",
        "x = rf'{p}'",
        "x = fr\"\"\"a{p}\"\"\"",
        // f-string expression parts.
        "n = f'{len({p})} chars'",
        "x = f'{ {p} }'",
        "x = f\"{ {p} }\"",
        "x = f'''{ {p} }'''",
        "x = f\"\"\"{ {p} }\"\"\"",
        "x = f'{len(\"{p}\")}'",
        "x = f\"{len('''{p}''')}\"",
        "x = f'{ {p}!r}'",
        "x = f'{ {p}=}'",
        "x = f'{str({p}).upper()}'",
        // Nested fields.
        "x = f'{f\"{p}\"}'",
        "x = f'''{f\"{ {p} }\"}'''",
        "x = f'{f\"{ {p} }\"}'",
        "x = f'{f\"a{{p}}\"}'",
        // Format specs.
        "w = 5\nx = f'{w:{p}}'",
        "w = 5\nx = f'{w:>{p}}'",
        "x = f'{ {p}:>10}'",
        "w = 5\nx = f'{w!r:{ {p} }}'",
        // Not Python: refused at load.
        "x = f'{{p}'",
        "x = '{p}",
    ];

    /// Captures full of what could end a literal or open code.
    const HOSTILE: &[&str] = &[
        "write_file(str(1), str(2))",
        "x'); write_file('a', 'b'); ('",
        "x\"); write_file(\"a\", \"b\"); (\"",
        "'''\"\"\"",
        "{write_file('a', 'b')}",
        "}}{write_file()}{{",
        "} + write_file() + {",
        "a\\",
        "\\'",
        "\\\" + write_file() + \\\"",
        "a\nwrite_file('a', 'b')\n",
        "a\r\nb\tc\u{0}",
        "\u{2019}\u{201c}\u{201d} « write_file() »",
        "é{}",
        "!r:>{9}",
        "#",
    ];

    /// Node kinds and names, breadth first: the program's code.
    fn shape(src: &str) -> Result<Vec<String>, String> {
        let module = lackpy_lang::parse(src).map_err(|e| e.to_string())?;
        Ok(walk(NodeRef::Module(&module))
            .map(|n| match n {
                NodeRef::Expr(e) => match &e.kind {
                    ExprKind::Name { id, .. } => format!("Name {id}"),
                    ExprKind::Attribute { attr, .. } => format!("Attribute {attr}"),
                    _ => n.kind().to_string(),
                },
                _ => n.kind().to_string(),
            })
            .collect())
    }

    /// Whether a string (or bytes) constant holds `text`.
    fn in_a_constant(src: &str, text: &str) -> bool {
        let Ok(module) = lackpy_lang::parse(src) else {
            return false;
        };
        walk(NodeRef::Module(&module)).any(|n| match n {
            NodeRef::Expr(e) => match &e.kind {
                ExprKind::Constant(Constant::Str(s)) => s.contains(text),
                ExprKind::Constant(Constant::Bytes(b)) => {
                    b.windows(text.len().max(1)).any(|w| w == text.as_bytes())
                }
                _ => false,
            },
            _ => false,
        })
    }

    /// More captures: random mixes of the hostile characters (fixed seed).
    fn generated() -> Vec<String> {
        const ALPHABET: &[&str] = &[
            "'",
            "\"",
            "'''",
            "{",
            "}",
            "{{",
            "\\",
            "\n",
            "\r",
            "\u{2019}",
            "é",
            "(",
            ")",
            "!",
            ":",
            "=",
            "#",
            "a",
            " ",
            "write_file()",
            "\u{7}",
            "\u{2028}",
        ];
        let mut state: u64 = 0x2701;
        let mut next = |n: usize| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as usize % n
        };
        (0..200)
            .map(|_| {
                let len = 1 + next(6);
                (0..len).map(|_| ALPHABET[next(ALPHABET.len())]).collect()
            })
            .collect()
    }

    #[test]
    fn a_capture_is_only_ever_inside_a_string_constant() {
        let mut captures: Vec<String> = HOSTILE.iter().map(|s| s.to_string()).collect();
        captures.extend(generated());
        let (mut placed, mut refused) = (0, 0);
        for body in PLACEMENTS {
            let caps = |text: &str| vec![("p".to_string(), text.to_string())];
            let Ok(benign) = substitute(body, &caps("Q")) else {
                // Refused for every capture: the template itself.
                for c in &captures {
                    assert!(substitute(body, &caps(c)).is_err(), "{body}");
                }
                refused += captures.len();
                continue;
            };
            let expected = shape(&benign).unwrap_or_else(|e| panic!("{body} -> {benign}: {e}"));
            for c in &captures {
                let Ok(program) = substitute(body, &caps(c)) else {
                    refused += 1;
                    continue;
                };
                placed += 1;
                let got = shape(&program)
                    .unwrap_or_else(|e| panic!("{body} with {c:?} -> {program}: {e}"));
                assert_eq!(got, expected, "{body} with {c:?} -> {program}");
                let is_comment = body.starts_with('#');
                let is_bytes = body.contains("b'") || body.contains("b\"");
                if !is_comment && !is_bytes {
                    assert!(in_a_constant(&program, c), "{body} with {c:?} -> {program}");
                }
                if is_bytes {
                    assert!(
                        in_a_constant(&program, c) || !c.is_ascii(),
                        "{body} with {c:?} -> {program}"
                    );
                }
            }
        }
        // Both outcomes happen: the test exercises placing and refusing.
        assert!(
            placed > 1000 && refused > 100,
            "{placed} placed, {refused} refused"
        );
    }

    #[test]
    fn the_issues_templates_are_placed_as_strings_or_refused() {
        let caps = vec![("p".to_string(), "write_file(str(1), str(2))".to_string())];
        assert_eq!(
            substitute("n = f'{len({p})} chars'", &caps).as_deref(),
            Ok("n = f'{len(\"write_file(str(1), str(2))\")} chars'")
        );
        assert_eq!(
            substitute("x = f\"hello {{p}}\"", &caps).as_deref(),
            Ok("x = f\"hello {{write_file(str(1), str(2))}}\"")
        );
        assert_eq!(
            substitute("f'{ {p} }'", &caps).as_deref(),
            Ok("f'{ \"write_file(str(1), str(2))\" }'")
        );
        let e = substitute("f'{f\"{ {p} }\"}'", &caps).expect_err("no quote is free");
        assert!(e.contains("no quote"), "{e}");
        let e = substitute("x = f'{{p}'", &caps).expect_err("not Python");
        assert!(e.contains("cannot be read as Python"), "{e}");
    }
}
