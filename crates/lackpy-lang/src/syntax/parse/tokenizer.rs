//! The tokenizer: source text to a vector of tokens, with Python's layout
//! rules (INDENT/DEDENT, implicit joining inside brackets, backslash
//! continuation, comments, blank lines).
//!
//! It runs over the whole source before parsing. That matches CPython's
//! error priority: CPython re-tokenizes the rest of the file after a parser
//! error and lets any tokenizer error win, so the first tokenizer error in
//! the file is always the one reported. The one exception, a bracket still
//! open at end of file, is returned as [`Tokens::unclosed`] for the parser
//! to weigh against its own error.

use super::error::{PResult, ParseError, err};
use super::token::{Tok, Token, keyword};
use crate::text::unicode;

/// CPython's limit on nested brackets (`MAXLEVEL`).
const MAX_PAREN_LEVEL: usize = 200;
/// CPython's limit on indentation levels (`MAXINDENT`).
const MAX_INDENT: usize = 100;

/// The tokenizer's output.
pub(crate) struct Tokens {
    pub toks: Vec<Token>,
    /// The innermost bracket left open at end of file (or at a soft
    /// error), with its line.
    pub unclosed: Option<(u8, u32)>,
    /// The tokenizer's error, if any; the token list then ends with a
    /// [`Tok::Unknown`] at its index.
    pub error: Option<TokError>,
}

/// A tokenizer error and where it stopped the token stream.
pub(crate) struct TokError {
    pub err: ParseError,
    /// Index of the token standing for the error.
    pub index: usize,
    /// "Soft" errors (indentation, line continuation) are ones CPython's
    /// tokenizer signals without raising: they count only if the parser
    /// reads that far. Hard ones (bad characters, literals, brackets) win
    /// even when the parser failed earlier.
    pub soft: bool,
}

struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
    line: u32,
    /// Where the current line starts, so that a token's column is
    /// `start - line_start`. Wrapping: the first line of an f-string field
    /// starts before its text (see [`tokenize`]).
    line_start: u32,
    toks: Vec<Token>,
    /// Indentation stack: (column with tabs to 8, column with tabs to 1).
    indents: Vec<(u32, u32)>,
    parens: Vec<(u8, u32)>,
    /// Set when the error being returned is a soft one.
    soft: bool,
}

/// Tokenizes `src`; line numbers start at `first_line`, and columns on
/// that line at `first_col` (an f-string field's text sits that far into
/// its line of the enclosing source; later lines are whole lines of it).
pub(crate) fn tokenize(src: &str, first_line: u32, first_col: u32) -> Tokens {
    let mut lx = Lexer {
        src: src.as_bytes(),
        pos: 0,
        line: first_line,
        line_start: 0u32.wrapping_sub(first_col),
        toks: Vec::with_capacity(src.len() / 3 + 8),
        indents: vec![(0, 0)],
        parens: Vec::new(),
        soft: false,
    };
    let mut error = None;
    if let Err(e) = lx.run() {
        let line = e.line;
        error = Some(TokError {
            err: e,
            index: lx.toks.len(),
            soft: lx.soft,
        });
        lx.toks.push(Token {
            kind: Tok::Unknown,
            line,
            col: lx.col_at(lx.pos),
            start: lx.pos as u32,
            end: lx.pos as u32,
        });
    }
    let unclosed = lx.parens.last().copied();
    Tokens {
        toks: lx.toks,
        unclosed,
        error,
    }
}

fn is_id_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c >= 128
}

fn is_id_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c >= 128
}

impl<'a> Lexer<'a> {
    fn peek(&self) -> u8 {
        self.src.get(self.pos).copied().unwrap_or(0)
    }

    fn peek_at(&self, off: usize) -> u8 {
        self.src.get(self.pos + off).copied().unwrap_or(0)
    }

    fn at_eof(&self) -> bool {
        self.pos >= self.src.len()
    }

    /// The line CPython gives end of file: the last line that has text
    /// (a final newline does not start a new line).
    fn eof_line(&self) -> u32 {
        if self.src.last() == Some(&b'\n') && self.line > 1 {
            self.line - 1
        } else {
            self.line
        }
    }

    /// A soft error: one CPython's tokenizer signals without raising, so
    /// it only counts if the parser gets that far.
    fn soft(&mut self, msg: &str, line: u32) -> ParseError {
        self.soft = true;
        err(msg, line)
    }

    /// The column of byte `pos` of the current line.
    #[inline]
    fn col_at(&self, pos: usize) -> u32 {
        (pos as u32).wrapping_sub(self.line_start)
    }

    /// Counts a line break; the cursor is just past it.
    #[inline]
    fn newline(&mut self) {
        self.line += 1;
        self.line_start = self.pos as u32;
    }

    /// Pushes a token that starts on the current line.
    fn push(&mut self, kind: Tok, start: usize, line: u32) {
        let col = self.col_at(start);
        self.push_at(kind, start, line, col);
    }

    fn push_at(&mut self, kind: Tok, start: usize, line: u32, col: u32) {
        self.toks.push(Token {
            kind,
            line,
            col,
            start: start as u32,
            end: self.pos as u32,
        });
    }

    fn run(&mut self) -> PResult<()> {
        let mut at_bol = true;
        // Whether the current logical line has produced a token yet.
        let mut line_has_tokens = false;
        loop {
            if at_bol {
                at_bol = false;
                if self.parens.is_empty() && !self.indentation()? {
                    at_bol = true;
                    continue;
                }
            }
            // Skip blanks.
            while matches!(self.peek(), b' ' | b'\t' | b'\x0c') {
                self.pos += 1;
            }
            if self.at_eof() {
                break;
            }
            let c = self.peek();
            let start = self.pos;
            match c {
                b'#' => {
                    while !self.at_eof() && self.peek() != b'\n' {
                        self.pos += 1;
                    }
                }
                b'\n' => {
                    if self.parens.is_empty() && line_has_tokens {
                        self.pos += 1;
                        self.push(Tok::Newline, start, self.line);
                        line_has_tokens = false;
                    } else {
                        self.pos += 1;
                    }
                    self.newline();
                    at_bol = true;
                }
                b'\\' => match self.peek_at(1) {
                    b'\n' => {
                        self.pos += 2;
                        self.newline();
                        if self.at_eof() {
                            return Err(self.soft("unexpected EOF while parsing", self.eof_line()));
                        }
                    }
                    _ if self.pos + 1 >= self.src.len() => {
                        return Err(self.soft("unexpected EOF while parsing", self.line));
                    }
                    _ => {
                        return Err(self.soft(
                            "unexpected character after line continuation character",
                            self.line,
                        ));
                    }
                },
                _ => {
                    self.token(c)?;
                    line_has_tokens = true;
                }
            }
        }
        // End of file: close the logical line, then unwind indentation.
        let eof = self.eof_line();
        if line_has_tokens && self.parens.is_empty() {
            self.push(Tok::Newline, self.pos, eof);
        }
        if self.parens.is_empty() {
            for _ in 1..self.indents.len() {
                self.push(Tok::Dedent, self.pos, eof);
            }
        }
        self.push(Tok::EndMarker, self.pos, eof);
        Ok(())
    }

    /// Measures the indentation of a new line and emits INDENT/DEDENT.
    /// Returns false for a blank or comment-only line (already consumed up
    /// to its newline, which the caller then skips).
    fn indentation(&mut self) -> PResult<bool> {
        let (mut col, mut alt) = (0u32, 0u32);
        // Indentation continues across a backslash continuation; the
        // column at the first backslash, if not zero, is the one that
        // counts (CPython's `cont_line_col`).
        let mut cont = 0u32;
        loop {
            match self.peek() {
                b' ' => {
                    col += 1;
                    alt += 1;
                }
                b'\t' => {
                    col = (col / 8 + 1) * 8;
                    alt += 1;
                }
                b'\x0c' => {
                    col = 0;
                    alt = 0;
                }
                b'\\' if self.peek_at(1) == b'\n' => {
                    if cont == 0 {
                        cont = col;
                    }
                    self.pos += 2;
                    self.newline();
                    if self.at_eof() {
                        return Err(self.soft("unexpected EOF while parsing", self.eof_line()));
                    }
                    continue;
                }
                _ => break,
            }
            self.pos += 1;
        }
        if cont != 0 {
            col = cont;
            alt = cont;
        }
        match self.peek() {
            b'#' => {
                while !self.at_eof() && self.peek() != b'\n' {
                    self.pos += 1;
                }
                if self.at_eof() {
                    return Ok(true);
                }
                self.pos += 1;
                self.newline();
                return Ok(false);
            }
            b'\n' => {
                self.pos += 1;
                self.newline();
                return Ok(false);
            }
            _ if self.at_eof() => return Ok(true),
            _ => {}
        }
        let (top, top_alt) = self.indents.last().copied().unwrap_or((0, 0));
        let tab_err = "inconsistent use of tabs and spaces in indentation";
        if col == top {
            if alt != top_alt {
                return Err(self.soft(tab_err, self.line));
            }
        } else if col > top {
            if self.indents.len() >= MAX_INDENT {
                return Err(self.soft("too many levels of indentation", self.line));
            }
            if alt <= top_alt {
                return Err(self.soft(tab_err, self.line));
            }
            self.indents.push((col, alt));
            self.push(Tok::Indent, self.pos, self.line);
        } else {
            // Check the target level before emitting any DEDENT, as CPython
            // reports a bad dedent in place of the whole line.
            let mut dedents = 0;
            while self.indents.len() > 1 && self.indents.last().is_some_and(|t| col < t.0) {
                self.indents.pop();
                dedents += 1;
            }
            let (top, top_alt) = self.indents.last().copied().unwrap_or((0, 0));
            if col != top {
                return Err(self.soft(
                    "unindent does not match any outer indentation level",
                    self.line,
                ));
            }
            if alt != top_alt {
                return Err(self.soft(tab_err, self.line));
            }
            for _ in 0..dedents {
                self.push(Tok::Dedent, self.pos, self.line);
            }
        }
        Ok(true)
    }

    fn token(&mut self, c: u8) -> PResult<()> {
        let start = self.pos;
        let line = self.line;
        if is_id_start(c) {
            return self.name_or_string();
        }
        if c.is_ascii_digit() || (c == b'.' && self.peek_at(1).is_ascii_digit()) {
            return self.number();
        }
        if c == b'"' || c == b'\'' {
            return self.string(start);
        }
        let (kind, len) = self.operator(c);
        if let Some(kind) = kind {
            self.pos += len;
            match kind {
                Tok::LPar | Tok::LSqb | Tok::LBrace => {
                    if self.parens.len() >= MAX_PAREN_LEVEL {
                        return Err(err("too many nested parentheses", line));
                    }
                    self.parens.push((c, line));
                }
                Tok::RPar | Tok::RSqb | Tok::RBrace => self.close(c, line)?,
                _ => {}
            }
            self.push(kind, start, line);
            return Ok(());
        }
        if c < 0x20 || c == 0x7f {
            return Err(err(
                format!("invalid non-printable character U+{:04X}", c),
                line,
            ));
        }
        // `$`, `?`, `!`, backtick: no token; the parser rejects it.
        self.pos += 1;
        self.push(Tok::Unknown, start, line);
        Ok(())
    }

    fn close(&mut self, c: u8, line: u32) -> PResult<()> {
        let Some((open, open_line)) = self.parens.pop() else {
            return Err(err(format!("unmatched '{}'", c as char), line));
        };
        let expected = match open {
            b'(' => b')',
            b'[' => b']',
            _ => b'}',
        };
        if c != expected {
            let msg = if open_line != line {
                format!(
                    "closing parenthesis '{}' does not match opening parenthesis '{}' on line {}",
                    c as char, open as char, open_line
                )
            } else {
                format!(
                    "closing parenthesis '{}' does not match opening parenthesis '{}'",
                    c as char, open as char
                )
            };
            return Err(err(msg, line));
        }
        Ok(())
    }

    /// Operator at the cursor: its kind and length, longest match first.
    fn operator(&self, c: u8) -> (Option<Tok>, usize) {
        let c2 = self.peek_at(1);
        let c3 = self.peek_at(2);
        let three = match (c, c2, c3) {
            (b'*', b'*', b'=') => Some(Tok::DoubleStarEqual),
            (b'/', b'/', b'=') => Some(Tok::DoubleSlashEqual),
            (b'<', b'<', b'=') => Some(Tok::LeftShiftEqual),
            (b'>', b'>', b'=') => Some(Tok::RightShiftEqual),
            (b'.', b'.', b'.') => Some(Tok::Ellipsis),
            _ => None,
        };
        if three.is_some() {
            return (three, 3);
        }
        let two = match (c, c2) {
            (b'!', b'=') => Some(Tok::NotEqual),
            (b'%', b'=') => Some(Tok::PercentEqual),
            (b'&', b'=') => Some(Tok::AmperEqual),
            (b'*', b'*') => Some(Tok::DoubleStar),
            (b'*', b'=') => Some(Tok::StarEqual),
            (b'+', b'=') => Some(Tok::PlusEqual),
            (b'-', b'=') => Some(Tok::MinEqual),
            (b'-', b'>') => Some(Tok::RArrow),
            (b'/', b'/') => Some(Tok::DoubleSlash),
            (b'/', b'=') => Some(Tok::SlashEqual),
            (b':', b'=') => Some(Tok::ColonEqual),
            (b'<', b'<') => Some(Tok::LeftShift),
            (b'<', b'=') => Some(Tok::LessEqual),
            (b'=', b'=') => Some(Tok::EqEqual),
            (b'>', b'=') => Some(Tok::GreaterEqual),
            (b'>', b'>') => Some(Tok::RightShift),
            (b'@', b'=') => Some(Tok::AtEqual),
            (b'^', b'=') => Some(Tok::CircumflexEqual),
            (b'|', b'=') => Some(Tok::VBarEqual),
            _ => None,
        };
        if two.is_some() {
            return (two, 2);
        }
        let one = match c {
            b'(' => Tok::LPar,
            b')' => Tok::RPar,
            b'[' => Tok::LSqb,
            b']' => Tok::RSqb,
            b'{' => Tok::LBrace,
            b'}' => Tok::RBrace,
            b':' => Tok::Colon,
            b',' => Tok::Comma,
            b';' => Tok::Semi,
            b'+' => Tok::Plus,
            b'-' => Tok::Minus,
            b'*' => Tok::Star,
            b'/' => Tok::Slash,
            b'|' => Tok::VBar,
            b'&' => Tok::Amper,
            b'<' => Tok::Less,
            b'>' => Tok::Greater,
            b'=' => Tok::Equal,
            b'.' => Tok::Dot,
            b'%' => Tok::Percent,
            b'~' => Tok::Tilde,
            b'^' => Tok::Circumflex,
            b'@' => Tok::At,
            _ => return (None, 0),
        };
        (Some(one), 1)
    }

    fn name_or_string(&mut self) -> PResult<()> {
        let start = self.pos;
        let line = self.line;
        // String prefixes: b, r, u, f and the pairs br/rb/fr/rf, any case.
        let (mut b, mut r, mut u, mut f) = (false, false, false, false);
        loop {
            let c = self.peek();
            match c {
                b'b' | b'B' if !(b || u || f) => b = true,
                b'u' | b'U' if !(b || u || r || f) => u = true,
                b'r' | b'R' if !(r || u) => r = true,
                b'f' | b'F' if !(f || b || u) => f = true,
                _ => break,
            }
            self.pos += 1;
            if matches!(self.peek(), b'"' | b'\'') {
                return self.string(start);
            }
        }
        let mut nonascii = false;
        while is_id_char(self.peek()) {
            nonascii |= self.peek() >= 128;
            self.pos += 1;
        }
        let text = self.src.get(start..self.pos).unwrap_or_default();
        if nonascii {
            self.verify_identifier(start)?;
        }
        let kind = keyword(text).unwrap_or(Tok::Name);
        self.push(kind, start, line);
        Ok(())
    }

    /// Checks a non-ASCII identifier the way CPython does, reporting the
    /// first character that cannot be part of one.
    fn verify_identifier(&self, start: usize) -> PResult<()> {
        let text = std::str::from_utf8(self.src.get(start..self.pos).unwrap_or_default())
            .unwrap_or_default();
        for (i, ch) in text.chars().enumerate() {
            let ok = if i == 0 {
                unicode::is_id_start(ch)
            } else {
                unicode::is_id_continue(ch)
            };
            if !ok {
                let msg = if unicode::is_printable(ch) {
                    format!("invalid character '{}' (U+{:04X})", ch, ch as u32)
                } else {
                    format!("invalid non-printable character U+{:04X}", ch as u32)
                };
                return Err(err(msg, self.line));
            }
        }
        Ok(())
    }

    fn number(&mut self) -> PResult<()> {
        let start = self.pos;
        let line = self.line;
        super::number::scan(self.src, &mut self.pos).map_err(|m| err(m, line))?;
        self.push(Tok::Number, start, line);
        Ok(())
    }

    /// Scans a string literal whose quote is at the cursor; `start` is
    /// where its prefix began.
    fn string(&mut self, start: usize) -> PResult<()> {
        let first_line = self.line;
        // Taken now: a triple-quoted string may end lines further down.
        let col = self.col_at(start);
        let quote = self.peek();
        let triple = self.peek_at(1) == quote && self.peek_at(2) == quote;
        let size = if triple { 3 } else { 1 };
        self.pos += size;
        let mut closing = 0;
        loop {
            if self.at_eof() || (!triple && self.peek() == b'\n') {
                let detected = if self.at_eof() {
                    self.eof_line()
                } else {
                    self.line
                };
                let msg = if triple {
                    format!(
                        "unterminated triple-quoted string literal (detected at line {detected})"
                    )
                } else {
                    format!("unterminated string literal (detected at line {detected})")
                };
                return Err(err(msg, first_line));
            }
            let c = self.peek();
            self.pos += 1;
            if c == quote {
                closing += 1;
                if closing == size {
                    break;
                }
                continue;
            }
            closing = 0;
            match c {
                b'\\' => {
                    let escaped_newline = self.peek() == b'\n';
                    if !self.at_eof() {
                        self.pos += 1;
                    }
                    if escaped_newline {
                        self.newline();
                    }
                }
                b'\n' => self.newline(),
                _ => {}
            }
        }
        self.push_at(Tok::String, start, first_line, col);
        Ok(())
    }
}
