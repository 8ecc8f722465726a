//! The parser state shared by the expression, statement and pattern
//! modules: token cursor, error helpers and nesting guards.
//!
//! The parser is recursive descent over CPython 3.11's PEG grammar. It
//! remembers the furthest token it ever looked at, because that is where
//! CPython reports a plain `invalid syntax`.

use super::error::{PResult, ParseError, err};
use super::token::{Pos, Tok, Token};
use crate::syntax::ast::{Expr, ExprKind, Line};

/// Deepest nesting the parser accepts, counting brackets, compound
/// statements, lambdas, conditional expressions, patterns and f-string
/// fields together (the language spec's parse nesting limit). CPython's
/// tokenizer refuses more than 200 nested brackets on its own; sharing one
/// budget keeps the stack bounded whatever the mix of nested constructs.
pub(crate) const MAX_DEPTH: u32 = 200;

/// Bound on the tree depth one statement may build through operator and
/// trailer chains (`a.b.c`, `1+1+1`, `- - x`), which nest without
/// recursing in the parser. Dropping or walking a tree recurses over its
/// depth, so this keeps every tree shallow enough for a small stack.
/// Chains add up; elements of a display or argument list take the
/// maximum, so wide literals are not penalized. CPython's own AST
/// construction refuses trees deeper than about 3,000 levels.
pub(crate) const MAX_CHAIN: u32 = 3_000;

pub(crate) struct Parser<'a> {
    pub src: &'a str,
    pub toks: Vec<Token>,
    pub pos: usize,
    /// The furthest token index looked at (restored after speculative
    /// checks, as CPython reports plain syntax errors at its first pass's
    /// furthest token).
    pub furthest: usize,
    /// The furthest token index ever read, speculative checks included:
    /// what CPython's tokenizer had produced when the parse failed.
    pub fetched: usize,
    /// Current recursion depth.
    pub depth: u32,
    /// Left-nesting operations used by the current statement.
    pub chain: u32,
    /// Bracket nesting of the current position (for the "forgot a comma"
    /// check, which CPython applies only inside brackets).
    pub level: u32,
    /// Whether speculative checks (which re-parse on error paths) are on.
    pub checks: bool,
    /// Parsing an f-string replacement field: errors get `f-string: `.
    pub in_fstring: bool,
    /// An error was raised the way CPython raises it during its first pass
    /// (forced tokens), which skips its second pass.
    pub first_pass_error: std::cell::Cell<bool>,
    /// The first literal-decoding error (strings, f-strings, numbers).
    /// CPython raises these from rule actions, so they end the parse even
    /// when met inside a speculative check.
    pub fatal: std::cell::RefCell<Option<ParseError>>,
    /// Second pass: report `print x` anywhere, as CPython's
    /// `invalid_legacy_expression` does once a program has failed.
    pub legacy_print: bool,
}

impl<'a> Parser<'a> {
    pub fn new(src: &'a str, toks: Vec<Token>, depth: u32) -> Self {
        Parser {
            src,
            toks,
            pos: 0,
            furthest: 0,
            fetched: 0,
            depth,
            chain: 0,
            level: 0,
            checks: true,
            in_fstring: false,
            legacy_print: false,
            first_pass_error: std::cell::Cell::new(false),
            fatal: std::cell::RefCell::new(None),
        }
    }

    /// Records a literal-decoding error (see [`Parser::fatal`]).
    pub fn set_fatal(&self, e: &ParseError) {
        let mut f = self.fatal.borrow_mut();
        if f.is_none() {
            *f = Some(e.clone());
        }
    }

    /// Rewinds for a second pass over the same tokens.
    pub fn reset(&mut self) {
        self.pos = 0;
        self.furthest = 0;
        self.chain = 0;
        self.level = 0;
        self.checks = true;
    }

    /// The current token (the end marker once past the end).
    #[inline]
    pub fn tok(&self) -> Token {
        match self.toks.get(self.pos) {
            Some(t) => *t,
            None => self.last_tok(),
        }
    }

    fn last_tok(&self) -> Token {
        self.toks.last().copied().unwrap_or(Token {
            kind: Tok::EndMarker,
            line: 1,
            col: 0,
            start: 0,
            end: 0,
        })
    }

    /// The kind of the current token, recording how far we looked.
    #[inline]
    pub fn peek(&mut self) -> Tok {
        if self.pos > self.furthest {
            self.furthest = self.pos;
            if self.pos > self.fetched {
                self.fetched = self.pos;
            }
        }
        self.tok().kind
    }

    /// The kind of the token `n` ahead, recording how far we looked.
    pub fn peek_at(&mut self, n: usize) -> Tok {
        let i = (self.pos + n).min(self.toks.len().saturating_sub(1));
        if i > self.furthest {
            self.furthest = i;
            if i > self.fetched {
                self.fetched = i;
            }
        }
        self.toks.get(i).map_or(Tok::EndMarker, |t| t.kind)
    }

    /// The line of the current token.
    #[inline]
    pub fn line(&self) -> Line {
        self.tok().line
    }

    /// Where the current token starts: where a node beginning with it
    /// starts.
    #[inline]
    pub fn here(&self) -> Pos {
        self.tok().pos()
    }

    /// Consumes the current token (never moving past the end marker).
    #[inline]
    pub fn bump(&mut self) -> Token {
        let t = self.tok();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    /// Consumes the current token if it is `kind`.
    #[inline]
    pub fn eat(&mut self, kind: Tok) -> bool {
        if self.peek() == kind {
            self.bump();
            true
        } else {
            false
        }
    }

    /// Consumes a `kind` token or fails with `invalid syntax`.
    pub fn expect(&mut self, kind: Tok) -> PResult<Token> {
        if self.peek() == kind {
            Ok(self.bump())
        } else {
            Err(self.syntax_error())
        }
    }

    /// Consumes a forced token (`&&':'` in the grammar): CPython reports
    /// `expected ':'` at the current token when it is missing.
    pub fn expect_forced(&mut self, kind: Tok, what: &str) -> PResult<Token> {
        if self.peek() == kind {
            Ok(self.bump())
        } else {
            self.first_pass_error.set(true);
            Err(self.error_here(format!("expected '{what}'")))
        }
    }

    /// The source text of a token.
    pub fn text(&self, t: Token) -> &'a str {
        self.src.get(t.start as usize..t.end as usize).unwrap_or("")
    }

    /// Whether the current token is the name `word` (soft keywords).
    pub fn at_soft(&mut self, word: &str) -> bool {
        self.peek() == Tok::Name && self.text(self.tok()) == word
    }

    /// CPython's generic error at the furthest token it read.
    #[cold]
    pub fn syntax_error(&self) -> ParseError {
        let t = self
            .toks
            .get(self.furthest)
            .copied()
            .unwrap_or_else(|| self.last_tok());
        match t.kind {
            Tok::Indent => err("unexpected indent", t.line),
            Tok::Dedent => err("unexpected unindent", t.line),
            _ => self.error_at("invalid syntax", t.line),
        }
    }

    /// An error at the current token.
    #[cold]
    pub fn error_here(&self, msg: impl Into<String>) -> ParseError {
        self.error_at(msg, self.line())
    }

    /// An error at the furthest token ever read: `RAISE_SYNTAX_ERROR`
    /// without a location uses CPython's last tokenized token, which may lie
    /// beyond the construct being reported.
    #[cold]
    pub fn error_last(&self, msg: impl Into<String>) -> ParseError {
        let i = self.fetched.max(self.furthest).max(self.pos);
        let t = self.toks.get(i).copied().unwrap_or_else(|| self.last_tok());
        self.error_at(msg, t.line)
    }

    /// An error at `line`, prefixed inside f-string fields as CPython does.
    #[cold]
    pub fn error_at(&self, msg: impl Into<String>, line: Line) -> ParseError {
        let msg = msg.into();
        if self.in_fstring {
            err(format!("f-string: {msg}"), line)
        } else {
            err(msg, line)
        }
    }

    /// Enters one level of recursion.
    #[inline]
    pub fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.too_deep());
        }
        Ok(())
    }

    /// Leaves one level of recursion.
    #[inline]
    pub fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Counts one left-nesting operation of the current statement.
    #[inline]
    pub fn link(&mut self) -> PResult<()> {
        self.chain += 1;
        if self.chain > MAX_CHAIN {
            return Err(self.too_long());
        }
        Ok(())
    }

    #[cold]
    fn too_deep(&self) -> ParseError {
        err("too many nested parentheses", self.line())
    }

    #[cold]
    fn too_long(&self) -> ParseError {
        err(
            "maximum recursion depth exceeded during ast construction",
            self.line(),
        )
    }

    /// Starts a run of sibling elements: returns the chain budget to
    /// restore before each one.
    #[inline]
    pub fn siblings(&self) -> (u32, u32) {
        (self.chain, self.chain)
    }

    /// Ends one sibling element: remembers the deepest, restarts the next
    /// from the base.
    #[inline]
    pub fn next_sibling(&mut self, s: &mut (u32, u32)) {
        s.1 = s.1.max(self.chain);
        self.chain = s.0;
    }

    /// Ends a run of siblings: the budget used is the deepest element's.
    #[inline]
    pub fn end_siblings(&mut self, s: (u32, u32)) {
        self.chain = s.1.max(self.chain);
    }

    /// Runs `f` as a nested parse with error rules on (CPython's second
    /// pass runs some sub-rules that way): the cursor is restored, a
    /// specific error is returned, a plain failure is not.
    pub fn reparse<T>(
        &mut self,
        f: impl FnOnce(&mut Self) -> PResult<T>,
    ) -> Result<bool, ParseError> {
        let (pos, furthest, depth, chain, level) =
            (self.pos, self.furthest, self.depth, self.chain, self.level);
        let r = if self.depth + 8 >= MAX_DEPTH {
            None
        } else {
            Some(f(self))
        };
        self.pos = pos;
        self.furthest = furthest;
        self.depth = depth;
        self.chain = chain;
        self.level = level;
        match r {
            Some(Ok(_)) => Ok(true),
            Some(Err(e)) if !is_generic(&e) && !e.message.contains("too many nested") => Err(e),
            _ => Ok(false),
        }
    }

    /// Whether a failed sub-rule gives way to a shorter parse: in a probe
    /// (CPython's rules without their error alternatives, which backtrack
    /// on any failure), unless the error is a limit or a literal's, or the
    /// parse has read the end of the tokens (inside brackets, where CPython's
    /// tokenizer raises its own error on reading it).
    pub fn settles(&self, e: &ParseError) -> bool {
        !self.checks
            && !is_limit(e)
            && self.fatal.borrow().is_none()
            && self.fetched + 1 < self.toks.len()
    }

    /// Runs `f` speculatively: restores the cursor afterwards and reports
    /// whether it succeeded. Used only on error paths to pick CPython's
    /// more specific messages.
    pub fn probe<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> Option<T> {
        let (pos, furthest, depth, chain, level, checks) = (
            self.pos,
            self.furthest,
            self.depth,
            self.chain,
            self.level,
            self.checks,
        );
        self.checks = false;
        let r = f(self).ok();
        self.pos = pos;
        self.furthest = furthest;
        self.depth = depth;
        self.chain = chain;
        self.level = level;
        self.checks = checks;
        r
    }
}

/// Whether an error is a plain failure (CPython's PEG rules failing) rather
/// than a specific error some rule raised.
pub(crate) fn is_generic(e: &ParseError) -> bool {
    matches!(
        e.message.as_str(),
        "invalid syntax" | "f-string: invalid syntax" | "unexpected indent" | "unexpected unindent"
    )
}

/// Whether an error is one of the parser's own limits (nesting, length),
/// which no alternative gets around.
pub(crate) fn is_limit(e: &ParseError) -> bool {
    e.message.contains("too many nested") || e.message.starts_with("maximum recursion depth")
}

/// Builds an expression node starting at `at`.
#[inline]
pub(crate) fn mk(at: Pos, kind: ExprKind) -> Expr {
    Expr {
        line: at.line,
        col: at.col,
        kind,
    }
}

/// Where an expression node starts.
#[inline]
pub(crate) fn pos_of(e: &Expr) -> Pos {
    Pos {
        line: e.line,
        col: e.col,
    }
}

/// Whether a token can begin an expression.
pub(crate) fn starts_expr(t: Tok) -> bool {
    matches!(
        t,
        Tok::Name
            | Tok::Number
            | Tok::String
            | Tok::LPar
            | Tok::LSqb
            | Tok::LBrace
            | Tok::Minus
            | Tok::Plus
            | Tok::Tilde
            | Tok::Not
            | Tok::Lambda
            | Tok::Await
            | Tok::Ellipsis
            | Tok::None
            | Tok::True
            | Tok::False
    )
}
