//! Where a Python source's string literals and comments are: just enough
//! lexing for delegation's text rewrites (template substitution, cleanup),
//! which must never take a quote inside a string, or a `#` inside a
//! string, for code.
//!
//! The scan never fails: an unterminated string runs to the end of its line
//! (or of the text, when triple-quoted), as far as the rewrites care; the
//! validator reports the syntax error afterwards.

/// How a string literal is written: its quote and prefix letters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StrKind {
    /// `'` or `"`.
    pub quote: u8,
    /// `'''…'''` / `"""…"""`.
    pub triple: bool,
    /// An `r` prefix: backslashes are kept as written.
    pub raw: bool,
    /// A `b` prefix: bytes, ASCII only.
    pub bytes: bool,
    /// An `f` prefix: braces open replacement fields.
    pub fstring: bool,
}

/// What a stretch of source is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Region {
    /// Code (names, operators, numbers, brackets, whitespace).
    Code,
    /// A string literal, prefix and quotes included.
    Str(StrKind),
    /// A `#` comment, up to (not including) its newline.
    Comment,
}

/// A stretch of source: `start..end` in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
    /// What it is.
    pub region: Region,
}

/// Splits `src` into code, string and comment spans that cover it in order.
pub(crate) fn scan(src: &str) -> Vec<Span> {
    let b = src.as_bytes();
    let mut spans = Vec::new();
    let mut code_start = 0;
    let mut i = 0;
    let push = |spans: &mut Vec<Span>, start: usize, end: usize, region: Region| {
        if end > start {
            spans.push(Span { start, end, region });
        }
    };
    while i < b.len() {
        match b[i] {
            b'#' => {
                let end = find_byte(b, i, b'\n');
                push(&mut spans, code_start, i, Region::Code);
                push(&mut spans, i, end, Region::Comment);
                i = end;
                code_start = i;
            }
            q @ (b'\'' | b'"') => {
                let (start, kind) = string_start(b, code_start, i, q);
                let end = string_end(b, i, kind);
                push(&mut spans, code_start, start, Region::Code);
                push(&mut spans, start, end, Region::Str(kind));
                i = end;
                code_start = i;
            }
            _ => i += 1,
        }
    }
    push(&mut spans, code_start, b.len(), Region::Code);
    spans
}

/// The byte offsets of the physical lines that begin a logical line: not
/// inside a string, a bracket or a backslash continuation.
pub(crate) fn statement_lines(src: &str, spans: &[Span]) -> Vec<usize> {
    let b = src.as_bytes();
    let mut starts = vec![0];
    let mut depth: usize = 0;
    for span in spans {
        if span.region != Region::Code {
            continue;
        }
        let mut i = span.start;
        while i < span.end {
            match b[i] {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth = depth.saturating_sub(1),
                b'\\' if b.get(i + 1) == Some(&b'\n') => i += 1,
                b'\n' if depth == 0 => starts.push(i + 1),
                _ => {}
            }
            i += 1;
        }
    }
    starts.retain(|&s| s < b.len());
    starts
}

fn find_byte(b: &[u8], from: usize, byte: u8) -> usize {
    b[from..]
        .iter()
        .position(|&c| c == byte)
        .map_or(b.len(), |p| from + p)
}

fn is_ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80
}

/// Where the literal whose opening quote is at `quote_at` starts (its
/// prefix letters, when they are a prefix), and its kind.
fn string_start(b: &[u8], floor: usize, quote_at: usize, quote: u8) -> (usize, StrKind) {
    let mut p = quote_at;
    while p > floor && b[p - 1].is_ascii_alphabetic() {
        p -= 1;
    }
    let prefix = &b[p..quote_at];
    let standalone = p == 0 || !is_ident_byte(b[p - 1]);
    let mut kind = StrKind {
        quote,
        triple: b[quote_at..].starts_with(&[quote; 3]),
        raw: false,
        bytes: false,
        fstring: false,
    };
    if !standalone || prefix.len() > 2 {
        return (quote_at, kind);
    }
    for &c in prefix {
        match c.to_ascii_lowercase() {
            b'r' => kind.raw = true,
            b'b' => kind.bytes = true,
            b'f' => kind.fstring = true,
            b'u' if prefix.len() == 1 => {}
            _ => {
                return (
                    quote_at,
                    StrKind {
                        raw: false,
                        bytes: false,
                        fstring: false,
                        ..kind
                    },
                );
            }
        }
    }
    if kind.bytes && kind.fstring {
        return (
            quote_at,
            StrKind {
                raw: false,
                bytes: false,
                fstring: false,
                ..kind
            },
        );
    }
    (p, kind)
}

/// One past the closing quote of the literal opened at `quote_at`.
fn string_end(b: &[u8], quote_at: usize, kind: StrKind) -> usize {
    let open = if kind.triple { 3 } else { 1 };
    let mut j = quote_at + open;
    while j < b.len() {
        match b[j] {
            // A backslash always takes the next character along, in raw
            // strings too (`r'\''` is a backslash and a quote).
            b'\\' => j += 2,
            b'\n' if !kind.triple => return j,
            c if c == kind.quote => {
                if !kind.triple {
                    return j + 1;
                }
                if b[j..].starts_with(&[kind.quote; 3]) {
                    return j + 3;
                }
                j += 1;
            }
            _ => j += 1,
        }
    }
    b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn regions(src: &str) -> Vec<(&str, char)> {
        scan(src)
            .iter()
            .map(|s| {
                let tag = match s.region {
                    Region::Code => 'c',
                    Region::Str(_) => 's',
                    Region::Comment => '#',
                };
                (&src[s.start..s.end], tag)
            })
            .collect()
    }

    #[test]
    fn strings_comments_and_code() {
        assert_eq!(
            regions("x = read_file('a#b') # it's\ny"),
            [
                ("x = read_file(", 'c'),
                ("'a#b'", 's'),
                (") ", 'c'),
                ("# it's", '#'),
                ("\ny", 'c')
            ]
        );
    }

    #[test]
    fn prefixes_triples_and_escapes() {
        let src = r#"a = rb'x\'y' + f"""q"r""" + u'z' + name'w'"#;
        let spans = scan(src);
        let strs: Vec<(&str, StrKind)> = spans
            .iter()
            .filter_map(|s| match s.region {
                Region::Str(k) => Some((&src[s.start..s.end], k)),
                _ => None,
            })
            .collect();
        assert_eq!(strs[0].0, r"rb'x\'y'");
        assert!(strs[0].1.raw && strs[0].1.bytes && !strs[0].1.triple);
        assert_eq!(strs[1].0, r#"f"""q"r""""#);
        assert!(strs[1].1.fstring && strs[1].1.triple);
        assert_eq!(strs[2].0, "u'z'");
        // `name'w'` is no prefix: the literal starts at the quote.
        assert_eq!(strs[3].0, "'w'");
    }

    #[test]
    fn unterminated_strings_stop_at_the_line_end() {
        assert_eq!(
            regions("x = 'abc\ny"),
            [("x = ", 'c'), ("'abc", 's'), ("\ny", 'c')]
        );
        assert_eq!(
            regions("x = '''abc\ny"),
            [("x = ", 'c'), ("'''abc\ny", 's')]
        );
    }

    #[test]
    fn statement_lines_skip_brackets_strings_and_continuations() {
        let src = "a = f(1,\n  2)\nb = '''x\nimport y'''\nc = 1 + \\\n  2\nd";
        let spans = scan(src);
        let lines: Vec<&str> = statement_lines(src, &spans)
            .iter()
            .map(|&s| src[s..].lines().next().unwrap_or(""))
            .collect();
        assert_eq!(lines, ["a = f(1,", "b = '''x", "c = 1 + \\", "d"]);
    }
}
