//! String, bytes and f-string literals: prefixes, escapes, implicit
//! concatenation and CPython 3.11's f-string field syntax.
//!
//! In 3.11 an f-string is one STRING token; its replacement fields are
//! parsed afterwards by a fresh parser over `(expression)`, starting at the
//! line where the field is, which is what CPython does too.

use super::error::PResult;
use super::parser::{Parser, mk};
use super::token::{Pos, Token};
use crate::syntax::ast::{Constant, Expr, ExprKind};

/// One literal's prefix flags and body (the text between the quotes).
pub(super) struct Lit<'s> {
    pub bytes: bool,
    pub raw: bool,
    pub fstr: bool,
    /// The quote character.
    pub quote: u8,
    /// `'''`/`"""`.
    pub triple: bool,
    pub body: &'s str,
    /// Where `body` starts in the token's text.
    pub body_start: usize,
    tok: Token,
}

pub(super) fn split(text: &str, tok: Token) -> Lit<'_> {
    let (mut bytes, mut raw, mut fstr) = (false, false, false);
    let mut i = 0;
    for c in text.bytes() {
        match c {
            b'b' | b'B' => bytes = true,
            b'r' | b'R' => raw = true,
            b'f' | b'F' => fstr = true,
            b'u' | b'U' => {}
            _ => break,
        }
        i += 1;
    }
    let rest = text.get(i..).unwrap_or("");
    let q = rest.as_bytes().first().copied().unwrap_or(b'"');
    let triple =
        rest.len() >= 6 && rest.as_bytes().get(1) == Some(&q) && rest.as_bytes().get(2) == Some(&q);
    let n = if triple { 3 } else { 1 };
    let body = rest.get(n..rest.len().saturating_sub(n)).unwrap_or("");
    Lit {
        bytes,
        raw,
        fstr,
        quote: q,
        triple,
        body,
        body_start: i + n,
        tok,
    }
}

/// Concatenates the STRING tokens `first..last` into one node.
/// `after_line` is the line of the token after them, where CPython
/// reports errors found while decoding.
pub(crate) fn concat(p: &Parser<'_>, first: usize, last: usize, after_line: u32) -> PResult<Expr> {
    let toks = p.toks.get(first..last).unwrap_or_default();
    let at = toks.first().map_or(
        Pos {
            line: after_line,
            col: 0,
        },
        |t| t.pos(),
    );
    // Fast path: one plain str literal.
    if let [t] = toks {
        let l = split(p.text(*t), *t);
        if !l.bytes && !l.fstr {
            if l.raw || !l.body.contains('\\') {
                // Nothing to decode: a short text is held inline, unallocated.
                return Ok(mk(at, ExprKind::Constant(Constant::Str(l.body.into()))));
            }
            let mut s = String::with_capacity(l.body.len());
            decode_str(l.body, l.raw, &mut s).map_err(|m| p.error_at(m, after_line))?;
            return Ok(mk(at, ExprKind::Constant(Constant::Str(s.into()))));
        }
    }
    let lits: Vec<Lit<'_>> = toks.iter().map(|&t| split(p.text(t), t)).collect();
    let any_bytes = lits.iter().any(|l| l.bytes);
    if any_bytes && lits.iter().any(|l| !l.bytes) {
        return Err(p.error_at("cannot mix bytes and nonbytes literals", after_line));
    }
    if any_bytes {
        let mut out = Vec::new();
        for l in &lits {
            if !l.body.is_ascii() {
                return Err(p.error_at(
                    "bytes can only contain ASCII literal characters",
                    l.tok.line,
                ));
            }
            decode_bytes(l.body, l.raw, &mut out).map_err(|m| p.error_at(m, after_line))?;
        }
        return Ok(mk(at, ExprKind::Constant(Constant::Bytes(out))));
    }
    if !lits.iter().any(|l| l.fstr) {
        let mut s = String::new();
        for l in &lits {
            decode_str(l.body, l.raw, &mut s).map_err(|m| p.error_at(m, after_line))?;
        }
        return Ok(mk(at, ExprKind::Constant(Constant::Str(s.into()))));
    }
    let mut parts = Parts::new(at, at);
    for l in &lits {
        if l.fstr {
            let mut f = FCtx {
                p,
                lit: l,
                after_line,
                at,
                nl_pos: 0,
                nl_count: 0,
                last_nl: None,
                rec: None,
            };
            let mut pos = 0;
            f.parse(&mut pos, 0, &mut parts)?;
        } else {
            decode_str(l.body, l.raw, &mut parts.last).map_err(|m| p.error_at(m, after_line))?;
        }
    }
    Ok(mk(at, ExprKind::JoinedStr(parts.finish())))
}

/// The values of a JoinedStr under construction: adjacent literal text is
/// merged into one `Constant`, as CPython does.
struct Parts {
    vals: Vec<Expr>,
    last: String,
    /// Position of literal parts flushed before a field: the whole
    /// string's.
    at: Pos,
    /// Position of the final literal part. CPython gives a format spec's
    /// trailing literal (and the spec itself) the position of the f-string
    /// token holding it, but earlier literals the first token's.
    end: Pos,
}

impl Parts {
    fn new(at: Pos, end: Pos) -> Self {
        Parts {
            vals: Vec::new(),
            last: String::new(),
            at,
            end,
        }
    }

    fn flush_at(&mut self, at: Pos) {
        if !self.last.is_empty() {
            let s = std::mem::take(&mut self.last);
            self.vals
                .push(mk(at, ExprKind::Constant(Constant::Str(s.into()))));
        }
    }

    fn flush(&mut self) {
        self.flush_at(self.at);
    }

    fn finish(mut self) -> Vec<Expr> {
        self.flush_at(self.end);
        self.vals
    }
}

/// Parsing state for one f-string literal.
struct FCtx<'p, 'a, 's> {
    p: &'p Parser<'a>,
    lit: &'s Lit<'s>,
    after_line: u32,
    /// Where the whole string starts: CPython's position for its fields.
    at: Pos,
    /// Newlines counted in `body[..nl_pos]` (positions only move forward),
    /// and the last of them.
    nl_pos: usize,
    nl_count: u32,
    last_nl: Option<usize>,
    /// Where the parse saw each piece of the body, when asked
    /// ([`fstring_pieces`]); `None` for an ordinary parse.
    rec: Option<Vec<FPiece>>,
}

/// What a stretch of an f-string's body is, as its parse read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum FWhat {
    /// Literal text (format specs included).
    Text,
    /// A doubled `{{` or `}}`.
    Doubled,
    /// A field's braces and its `=`, `!c` and `:` markers.
    Delimiter,
    /// A field's expression.
    Expr,
}

/// One stretch of an f-string's body: `start..end` in body bytes, and
/// whether it lies in a format spec.
#[derive(Debug, Clone, Copy)]
pub(super) struct FPiece {
    pub start: usize,
    pub end: usize,
    pub what: FWhat,
    pub spec: bool,
}

/// Parses the f-string literal of token `index` on its own, as
/// [`concat`] would, and returns where its text, doubled braces, field
/// delimiters and expressions lie in its body.
pub(super) fn fstring_pieces(p: &Parser<'_>, index: usize) -> PResult<Vec<FPiece>> {
    let Some(&tok) = p.toks.get(index) else {
        return Ok(Vec::new());
    };
    let after_line = p.toks.get(index + 1).map_or(tok.line, |t| t.line);
    let lit = split(p.text(tok), tok);
    let mut f = FCtx {
        p,
        lit: &lit,
        after_line,
        at: tok.pos(),
        nl_pos: 0,
        nl_count: 0,
        last_nl: None,
        rec: Some(Vec::new()),
    };
    let mut parts = Parts::new(tok.pos(), tok.pos());
    let mut pos = 0;
    f.parse(&mut pos, 0, &mut parts)?;
    Ok(f.rec.unwrap_or_default())
}

fn at(s: &[u8], i: usize) -> u8 {
    s.get(i).copied().unwrap_or(0)
}

impl FCtx<'_, '_, '_> {
    /// Notes a piece of the body, when recording.
    fn note(&mut self, start: usize, end: usize, what: FWhat, level: u32) {
        if let Some(rec) = self.rec.as_mut()
            && end > start
        {
            rec.push(FPiece {
                start,
                end,
                what,
                spec: level > 0,
            });
        }
    }

    fn fail(&self, msg: &str) -> super::error::ParseError {
        // Through the parser, so a nested f-string's error gets CPython's
        // second `f-string: ` prefix.
        self.p.error_at(format!("f-string: {msg}"), self.after_line)
    }

    /// The physical line and column of body offset `pos`.
    fn pos_at(&mut self, pos: usize) -> Pos {
        let b = self.lit.body.as_bytes();
        if pos > self.nl_pos {
            let seen = b.get(self.nl_pos..pos).unwrap_or_default();
            self.nl_count += seen.iter().filter(|&&c| c == b'\n').count() as u32;
            if let Some(i) = memchr::memrchr(b'\n', seen) {
                self.last_nl = Some(self.nl_pos + i);
            }
            self.nl_pos = pos;
        }
        let col = match self.last_nl {
            Some(nl) => pos - nl - 1,
            // On the token's first line: counted from the token's column.
            None => self.lit.tok.col as usize + self.lit.body_start + pos,
        };
        Pos {
            line: self.lit.tok.line + self.nl_count,
            col: col as u32,
        }
    }

    /// Literal text and fields until the end (level 0) or the `}` that
    /// closes a format spec (level 1).
    fn parse(&mut self, pos: &mut usize, level: u32, out: &mut Parts) -> PResult<()> {
        let s = self.lit.body.as_bytes();
        loop {
            let start = *pos;
            let (end, doubled) = self.find_literal(pos, level)?;
            if self.rec.is_some() {
                if doubled {
                    self.note(start, end - 1, FWhat::Text, level);
                    self.note(end - 1, end + 1, FWhat::Doubled, level);
                } else {
                    self.note(start, end, FWhat::Text, level);
                }
            }
            if end > start {
                let text = self.lit.body.get(start..end).unwrap_or("");
                if self.lit.raw {
                    out.last.push_str(text);
                } else {
                    decode_str(text, false, &mut out.last)
                        .map_err(|m| self.p.error_at(m, self.after_line))?;
                }
            }
            if doubled {
                continue;
            }
            if *pos >= s.len() || at(s, *pos) == b'}' {
                break;
            }
            let (text, value) = self.field(pos, level)?;
            if let Some(t) = text {
                out.last.push_str(&t);
            }
            out.flush();
            out.vals.push(value);
        }
        if level > 0 && at(s, *pos) != b'}' {
            return Err(self.fail("expecting '}'"));
        }
        Ok(())
    }

    /// Scans literal text; returns where it ends and whether it ended at
    /// a doubled brace (which contributes one brace and is skipped).
    fn find_literal(&self, pos: &mut usize, level: u32) -> PResult<(usize, bool)> {
        let s = self.lit.body.as_bytes();
        let raw = self.lit.raw;
        while *pos < s.len() {
            let mut ch = at(s, *pos);
            *pos += 1;
            if !raw && ch == b'\\' && *pos < s.len() {
                ch = at(s, *pos);
                *pos += 1;
                if ch == b'N' {
                    // `\N{NAME}`: its braces are not a field.
                    if *pos < s.len() {
                        let c = at(s, *pos);
                        *pos += 1;
                        if c == b'{' {
                            while *pos < s.len() {
                                let c = at(s, *pos);
                                *pos += 1;
                                if c == b'}' {
                                    break;
                                }
                            }
                        }
                    }
                    continue;
                }
            }
            if ch == b'{' || ch == b'}' {
                if level == 0 {
                    if at(s, *pos) == ch && *pos < s.len() {
                        let end = *pos;
                        *pos += 1;
                        return Ok((end, true));
                    }
                    if ch == b'}' {
                        return Err(self.fail("single '}' is not allowed"));
                    }
                }
                *pos -= 1;
                return Ok((*pos, false));
            }
        }
        Ok((*pos, false))
    }

    /// One `{expression[=][!c][:spec]}` field, at the `{`.
    fn field(&mut self, pos: &mut usize, level: u32) -> PResult<(Option<String>, Expr)> {
        let s = self.lit.body.as_bytes();
        let body = self.lit.body;
        if level >= 2 {
            return Err(self.fail("expressions nested too deeply"));
        }
        let brace = *pos;
        *pos += 1;
        let expr_start = *pos;
        let mut quote = 0u8;
        let mut triple = false;
        let mut stack: Vec<u8> = Vec::new();
        while *pos < s.len() {
            let ch = at(s, *pos);
            if ch == b'\\' {
                return Err(self.p.error_at(
                    "f-string expression part cannot include a backslash",
                    self.after_line,
                ));
            }
            if quote != 0 {
                if ch == quote {
                    if triple {
                        if at(s, *pos + 1) == ch && at(s, *pos + 2) == ch && *pos + 2 < s.len() {
                            *pos += 3;
                            quote = 0;
                            continue;
                        }
                    } else {
                        quote = 0;
                    }
                }
                *pos += 1;
                continue;
            }
            match ch {
                b'\'' | b'"' => {
                    triple = *pos + 2 < s.len() && at(s, *pos + 1) == ch && at(s, *pos + 2) == ch;
                    if triple {
                        *pos += 2;
                    }
                    quote = ch;
                }
                b'[' | b'{' | b'(' => {
                    if stack.len() >= 200 {
                        return Err(self.fail("too many nested parenthesis"));
                    }
                    stack.push(ch);
                }
                b'#' => {
                    return Err(self.p.error_at(
                        "f-string expression part cannot include '#'",
                        self.after_line,
                    ));
                }
                b'!' | b':' | b'}' | b'=' | b'>' | b'<' if stack.is_empty() => {
                    let next = at(s, *pos + 1);
                    if next == b'=' && *pos + 1 < s.len() && ch != b':' && ch != b'}' {
                        *pos += 2;
                        continue;
                    }
                    if ch != b'>' && ch != b'<' {
                        break;
                    }
                }
                b']' | b'}' | b')' => {
                    let Some(open) = stack.pop() else {
                        return Err(self.fail(&format!("unmatched '{}'", ch as char)));
                    };
                    let ok = matches!((open, ch), (b'(', b')') | (b'[', b']') | (b'{', b'}'));
                    if !ok {
                        return Err(self.fail(&format!(
                            "closing parenthesis '{}' does not match opening parenthesis '{}'",
                            ch as char, open as char
                        )));
                    }
                }
                _ => {}
            }
            *pos += 1;
        }
        let expr_end = *pos;
        if quote != 0 {
            return Err(self.fail("unterminated string"));
        }
        if let Some(open) = stack.last() {
            return Err(self.fail(&format!("unmatched '{}'", *open as char)));
        }
        if *pos >= s.len() {
            return Err(self.fail("expecting '}'"));
        }
        let expr_src = body.get(expr_start..expr_end).unwrap_or("");
        if expr_src
            .bytes()
            .all(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\x0c'))
        {
            let c = at(s, expr_end);
            if matches!(c, b'!' | b':' | b'=') {
                return Err(self.fail(&format!("expression required before '{}'", c as char)));
            }
            return Err(self.fail("empty expression not allowed"));
        }
        // The field is parsed as `(text)`, its `(` standing where the `{` is.
        let brace_at = self.pos_at(brace);
        let value = super::parse_fstring_field(expr_src, brace_at, self.p.depth + 1)?;
        self.note(brace, expr_start, FWhat::Delimiter, level);
        self.note(expr_start, expr_end, FWhat::Expr, level);
        let tail_start = *pos;
        // `=`: the field's own text becomes literal text.
        let mut text = None;
        if at(s, *pos) == b'=' {
            *pos += 1;
            while matches!(
                at(s, *pos),
                b' ' | b'\t' | b'\n' | b'\r' | b'\x0b' | b'\x0c'
            ) {
                *pos += 1;
            }
            if *pos >= s.len() {
                return Err(self.fail("expecting '}'"));
            }
            text = Some(body.get(expr_start..*pos).unwrap_or("").to_string());
        }
        let mut conversion = -1i32;
        if at(s, *pos) == b'!' {
            *pos += 1;
            if *pos >= s.len() {
                return Err(self.fail("expecting '}'"));
            }
            let c = at(s, *pos);
            *pos += 1;
            if !matches!(c, b's' | b'r' | b'a') {
                return Err(self.fail("invalid conversion character: expected 's', 'r', or 'a'"));
            }
            conversion = i32::from(c);
        }
        let mut format_spec = None;
        if *pos < s.len() && at(s, *pos) == b':' {
            *pos += 1;
            self.note(tail_start, *pos, FWhat::Delimiter, level);
            if *pos >= s.len() {
                return Err(self.fail("expecting '}'"));
            }
            let t_at = self.lit.tok.pos();
            let mut spec = Parts::new(self.at, t_at);
            self.parse(pos, level + 1, &mut spec)?;
            format_spec = Some(Box::new(mk(t_at, ExprKind::JoinedStr(spec.finish()))));
        }
        if *pos >= s.len() || at(s, *pos) != b'}' {
            return Err(self.fail("expecting '}'"));
        }
        if format_spec.is_none() {
            self.note(tail_start, *pos + 1, FWhat::Delimiter, level);
        } else {
            self.note(*pos, *pos + 1, FWhat::Delimiter, level);
        }
        *pos += 1;
        if text.is_some() && format_spec.is_none() && conversion == -1 {
            conversion = i32::from(b'r');
        }
        let fv = mk(
            self.at,
            ExprKind::FormattedValue {
                value: Box::new(value),
                conversion,
                format_spec,
            },
        );
        Ok((text, fv))
    }
}

/// Decodes a str literal body into `out`.
pub(crate) fn decode_str(body: &str, raw: bool, out: &mut String) -> Result<(), String> {
    if raw || !body.contains('\\') {
        out.push_str(body);
        return Ok(());
    }
    let b = body.as_bytes();
    let mut i = 0;
    let mut lit_start = 0;
    while i < b.len() {
        if at(b, i) != b'\\' {
            i += 1;
            continue;
        }
        out.push_str(body.get(lit_start..i).unwrap_or(""));
        let esc = i;
        i += 1;
        if i >= b.len() {
            out.push('\\');
            lit_start = i;
            break;
        }
        let c = at(b, i);
        i += 1;
        let unicode_err = |end: usize, what: &str| {
            format!(
                "(unicode error) 'unicodeescape' codec can't decode bytes in position {esc}-{end}: {what}"
            )
        };
        match c {
            b'\n' => {}
            b'\\' => out.push('\\'),
            b'\'' => out.push('\''),
            b'"' => out.push('"'),
            b'a' => out.push('\x07'),
            b'b' => out.push('\x08'),
            b'f' => out.push('\x0c'),
            b'n' => out.push('\n'),
            b'r' => out.push('\r'),
            b't' => out.push('\t'),
            b'v' => out.push('\x0b'),
            b'0'..=b'7' => {
                let mut v = u32::from(c - b'0');
                for _ in 0..2 {
                    let d = at(b, i);
                    if (b'0'..=b'7').contains(&d) {
                        v = v * 8 + u32::from(d - b'0');
                        i += 1;
                    } else {
                        break;
                    }
                }
                out.push(char::from_u32(v).unwrap_or('\u{FFFD}'));
            }
            b'x' | b'u' | b'U' => {
                let n = match c {
                    b'x' => 2,
                    b'u' => 4,
                    _ => 8,
                };
                let mut v: u32 = 0;
                for k in 0..n {
                    let Some(d) = (at(b, i) as char).to_digit(16) else {
                        let name = match c {
                            b'x' => "\\xXX",
                            b'u' => "\\uXXXX",
                            _ => "\\UXXXXXXXX",
                        };
                        return Err(unicode_err(
                            esc + 1 + k,
                            &format!("truncated {name} escape"),
                        ));
                    };
                    v = v * 16 + d;
                    i += 1;
                }
                if v > 0x10FFFF {
                    return Err(unicode_err(i - 1, "illegal Unicode character"));
                }
                // Ours: a Rust string holds Unicode scalar values only, so a
                // surrogate escape is refused here rather than silently
                // replaced (language.md, "Strings").
                match char::from_u32(v) {
                    Some(ch) => out.push(ch),
                    None => {
                        return Err(unicode_err(
                            i - 1,
                            &format!(
                                "lone surrogate \\u{v:04x} is not supported \
                                 (lackpy strings hold Unicode scalar values only)"
                            ),
                        ));
                    }
                }
            }
            b'N' => {
                if at(b, i) != b'{' {
                    return Err(unicode_err(i - 1, "malformed \\N character escape"));
                }
                let name_start = i + 1;
                let Some(len) = b
                    .get(name_start..)
                    .and_then(|r| r.iter().position(|&x| x == b'}'))
                else {
                    return Err(unicode_err(i, "malformed \\N character escape"));
                };
                let name = body.get(name_start..name_start + len).unwrap_or("");
                i = name_start + len + 1;
                match super::names::lookup_name(name) {
                    Some(ch) => out.push(ch),
                    None => return Err(unicode_err(i - 1, "unknown Unicode character name")),
                }
            }
            _ => {
                // Unknown escapes keep their backslash (a warning in CPython).
                out.push('\\');
                i -= 1;
            }
        }
        lit_start = i;
    }
    out.push_str(body.get(lit_start..).unwrap_or(""));
    Ok(())
}

/// Decodes a bytes literal body (already checked to be ASCII) into `out`.
fn decode_bytes(body: &str, raw: bool, out: &mut Vec<u8>) -> Result<(), String> {
    let b = body.as_bytes();
    if raw || !b.contains(&b'\\') {
        out.extend_from_slice(b);
        return Ok(());
    }
    let mut i = 0;
    while i < b.len() {
        let c = at(b, i);
        i += 1;
        if c != b'\\' {
            out.push(c);
            continue;
        }
        if i >= b.len() {
            out.push(b'\\');
            break;
        }
        let e = at(b, i);
        i += 1;
        match e {
            b'\n' => {}
            b'\\' | b'\'' | b'"' => out.push(e),
            b'a' => out.push(7),
            b'b' => out.push(8),
            b'f' => out.push(12),
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'v' => out.push(11),
            b'0'..=b'7' => {
                let mut v = u32::from(e - b'0');
                for _ in 0..2 {
                    let d = at(b, i);
                    if (b'0'..=b'7').contains(&d) {
                        v = v * 8 + u32::from(d - b'0');
                        i += 1;
                    } else {
                        break;
                    }
                }
                out.push((v & 0xFF) as u8);
            }
            b'x' => {
                let hi = (at(b, i) as char).to_digit(16);
                let lo = (at(b, i + 1) as char).to_digit(16);
                match (hi, lo) {
                    (Some(h), Some(l)) => {
                        out.push((h * 16 + l) as u8);
                        i += 2;
                    }
                    _ => {
                        return Err(format!(
                            "(value error) invalid \\x escape at position {}",
                            i - 2
                        ));
                    }
                }
            }
            _ => {
                out.push(b'\\');
                i -= 1;
            }
        }
    }
    Ok(())
}
