//! The parser: Python 3.11 source to an [`ast::Module`](crate::syntax::ast::Module)
//! that mirrors CPython's `ast` module, with CPython's error messages and
//! line numbers.
//!
//! A hand-written tokenizer (`tokenizer`) feeds a recursive-descent parser
//! over CPython 3.11's grammar: expressions in `expr` (operators by
//! precedence climbing on explicit stacks) and `atom`, statements in
//! `stmt`, parameters in `params`, `match` patterns in `pattern`, targets
//! in `targets`, literals in `strings` and `number`.
//!
//! Errors follow CPython's reporting rules, not only its messages: a plain
//! `invalid syntax` sits at the furthest token the parser read; the checks
//! of CPython's second pass (`invalid_*` rules) run where the parse fails;
//! tokenizer errors are weighed against parser errors as CPython does
//! (see `tokenizer_priority`).
//!
//! Limits, each a clean [`ParseError`]: 200 nested brackets (CPython's
//! tokenizer limit) and 99 indentation levels (CPython's), a combined
//! nesting depth of 200 for brackets, compound statements, lambdas,
//! conditional expressions and patterns, and a per-statement budget of
//! 3,000 for operator and trailer chains (`a.b.c`, `1+1+1`; CPython's own
//! AST construction refuses trees much deeper). Every recursive path is
//! bounded by these, so parsing fits comfortably in a 2 MiB stack.
//!
//! Known deviations: `\N{...}` escapes know a few hundred common names
//! plus the algorithmic ones (unknown names are a clean error), non-ASCII
//! identifiers are checked with Rust's alphabetic/alphanumeric classes and
//! not NFKC-normalized, and lone surrogates in `\u` escapes become U+FFFD.
//! A few exotic error cases report a different message than CPython.

mod atom;
mod error;
mod expr;
mod names;
mod number;
mod params;
mod parser;
mod pattern;
mod regions;
mod stmt;
mod strings;
mod targets;
mod token;
mod tokenizer;

use std::borrow::Cow;

pub use error::ParseError;
pub use regions::{SourcePart, SourceRegion, StringKind, source_regions};

use crate::syntax::ast::{Expr, Module};
use error::err;
use parser::Parser;
use token::Tok;

/// Parses a program.
///
/// Errors carry CPython 3.11's message (for the common cases) and always
/// the line CPython reports.
pub fn parse(source: &str) -> Result<Module, ParseError> {
    if let Some(i) = source.find('\0') {
        let line = 1 + source.get(..i).map_or(0, |s| s.matches('\n').count()) as u32;
        return Err(err("source code string cannot contain null bytes", line));
    }
    let src = normalize_newlines(source);
    let toks = tokenizer::tokenize(&src, 1, 0);
    let mut p = Parser::new(&src, toks.toks, 0);
    match p.file() {
        Ok(body) => match toks.error {
            // Unreachable in practice: the error token matches no rule.
            Some(te) => Err(te.err),
            None => Ok(Module { body }),
        },
        Err(e) => {
            let fatal = p.fatal.borrow_mut().take();
            // A tokenizer error the parser ran into, or a literal error,
            // ends CPython's parse before its second pass.
            let reached = toks.error.as_ref().is_some_and(|te| p.fetched >= te.index);
            let pass1_furthest = p.furthest;
            let (e, from_second) = match fatal {
                Some(f) => (f, false),
                None if reached => (e, false),
                None => second_pass(&mut p, e),
            };
            // An error from the second pass stopped CPython before its
            // lookahead got past the first pass's furthest token.
            if from_second {
                p.fetched = pass1_furthest;
            }
            Err(tokenizer_priority(&p, e, toks.unclosed, toks.error))
        }
    }
}

/// CPython re-parses a failing program with extra rules that can report an
/// error earlier in the file, even on code that is otherwise valid (`print
/// -x` reads as a Python 2 print statement, `match (x=1)` fails as a
/// match statement). This parser checks most of those rules in its single
/// pass, at the point of failure; the ones that can fire on valid text
/// are replayed here.
fn second_pass(p: &mut Parser<'_>, e: ParseError) -> (ParseError, bool) {
    if p.first_pass_error.get() {
        return (e, false);
    }
    let furthest = p.furthest;
    p.reset();
    p.legacy_print = true;
    let r = p.file();
    p.furthest = furthest;
    match r {
        Err(e2) if !parser::is_generic(&e2) && e2 != e => (e2, true),
        _ => (e, false),
    }
}

/// Parses a program given as bytes: invalid UTF-8 is a clean parse error
/// (CPython's message and line for an undecodable source).
pub fn parse_bytes(source: &[u8]) -> Result<Module, ParseError> {
    match std::str::from_utf8(source) {
        Ok(s) => parse(s),
        Err(e) => {
            let good = source.get(..e.valid_up_to()).unwrap_or_default();
            let line = 1 + good.iter().filter(|&&b| b == b'\n').count() as u32;
            let byte = source.get(e.valid_up_to()).copied().unwrap_or(0);
            Err(err(
                format!(
                    "(unicode error) 'utf-8' codec can't decode byte 0x{byte:02x} in position {}: invalid start byte",
                    e.valid_up_to()
                ),
                line,
            ))
        }
    }
}

/// CPython reads `\r\n` and lone `\r` as `\n`. Its translation also
/// leaves one extra newline after a final `\r\n`, which moves the end of
/// file down a line; that is reproduced for the error lines.
fn normalize_newlines(s: &str) -> Cow<'_, str> {
    if !s.contains('\r') {
        return Cow::Borrowed(s);
    }
    let mut out = s.replace("\r\n", "\n").replace('\r', "\n");
    if s.ends_with("\r\n") {
        out.push('\n');
    }
    Cow::Owned(out)
}

/// Weighs the parser's error against the tokenizer's, as CPython does:
/// a tokenizer error the parser read wins; a plain `unexpected indent`
/// stands; otherwise CPython tokenizes the rest of the file
/// (`_PyPegen_tokenize_full_source_to_check_for_errors`), where a hard
/// tokenizer error wins, and a bracket still open (at end of file, or at a
/// soft error) wins if the parser had read past the bracket's line.
fn tokenizer_priority(
    p: &Parser<'_>,
    e: ParseError,
    unclosed: Option<(u8, u32)>,
    error: Option<tokenizer::TokError>,
) -> ParseError {
    if let Some(te) = &error
        && p.fetched >= te.index
    {
        return te.err.clone();
    }
    let last = p.toks.get(p.furthest).copied();
    let at_eof = error.is_none() && last.is_none_or(|t| t.kind == Tok::EndMarker);
    if let (true, Some((c, line))) = (at_eof, unclosed) {
        return err(format!("'{}' was never closed", c as char), line);
    }
    if matches!(
        e.message.as_str(),
        "unexpected indent" | "unexpected unindent"
    ) {
        return e;
    }
    match error {
        Some(te) if !te.soft => return te.err,
        _ => {}
    }
    let Some((c, line)) = unclosed else {
        return e;
    };
    let read = p.toks.get(p.fetched).copied();
    if read.is_some_and(|t| t.line > line) {
        return err(format!("'{}' was never closed", c as char), line);
    }
    e
}

/// Parses the expression of an f-string replacement field whose `{` is
/// at `brace`. As CPython does, the text is parsed as `(expression)`, the
/// `(` standing for the `{`, so the field's nodes get their places in the
/// enclosing source.
pub(crate) fn parse_fstring_field(
    text: &str,
    brace: token::Pos,
    depth: u32,
) -> Result<Expr, ParseError> {
    let src = format!("({text})");
    let toks = tokenizer::tokenize(&src, brace.line, brace.col);
    let mut p = Parser::new(&src, toks.toks, depth);
    p.in_fstring = true;
    p.enter()?;
    let r = p.star_expressions();
    let fatal = p.fatal.borrow_mut().take();
    let r = match (r, fatal) {
        (Err(_), Some(f)) => Err(f),
        (r, _) => r,
    };
    match (r, toks.error) {
        (_, Some(te)) if p.fetched >= te.index || !te.soft => Err(te.err),
        (r, _) => r,
    }
}
