//! Atoms: names, literals and the bracketed displays (tuples, groups,
//! lists, dicts, sets and their comprehensions).

use super::error::PResult;
use super::parser::{Parser, mk};
use super::token::{Pos, Tok};
use crate::syntax::ast::{Constant, Expr, ExprContext, ExprKind};

impl<'a> Parser<'a> {
    /// `atom`.
    pub fn atom(&mut self) -> PResult<Expr> {
        match self.peek() {
            Tok::LPar | Tok::LSqb | Tok::LBrace => self.bracket(),
            _ => self.simple_atom(),
        }
    }

    /// A bracketed atom; the only recursive path through atoms.
    #[inline(never)]
    pub(crate) fn bracket(&mut self) -> PResult<Expr> {
        let open = self.bump();
        self.level += 1;
        self.enter()?;
        let r = match open.kind {
            Tok::LPar => self.paren(open.pos()),
            Tok::LSqb => self.list(open.pos()),
            _ => self.brace(open.pos()),
        };
        self.leave();
        self.level -= 1;
        r
    }

    /// Names and literals.
    #[inline(never)]
    pub(crate) fn simple_atom(&mut self) -> PResult<Expr> {
        let t = self.tok();
        let constant = |c| Ok(mk(t.pos(), ExprKind::Constant(c)));
        match self.peek() {
            Tok::Name => {
                self.bump();
                Ok(mk(
                    t.pos(),
                    ExprKind::Name {
                        id: self.text(t).into(),
                        ctx: ExprContext::Load,
                    },
                ))
            }
            Tok::Number => {
                self.bump();
                match super::number::value(self.text(t)) {
                    Ok(c) => constant(c),
                    Err(m) => {
                        let e = self.error_at(m, t.line);
                        self.set_fatal(&e);
                        Err(e)
                    }
                }
            }
            Tok::String => {
                let r = self.strings();
                if let Err(e) = &r {
                    self.set_fatal(e);
                }
                r
            }
            Tok::None => {
                self.bump();
                constant(Constant::None)
            }
            Tok::True => {
                self.bump();
                constant(Constant::Bool(true))
            }
            Tok::False => {
                self.bump();
                constant(Constant::Bool(false))
            }
            Tok::Ellipsis => {
                self.bump();
                constant(Constant::Ellipsis)
            }
            _ => Err(self.syntax_error()),
        }
    }

    /// Adjacent string literals, concatenated into one node.
    fn strings(&mut self) -> PResult<Expr> {
        let first = self.pos;
        while self.peek() == Tok::String {
            self.bump();
        }
        let last = self.pos;
        let after_line = self.line();
        super::strings::concat(self, first, last, after_line)
    }

    /// After `(`: the empty tuple, a group, a tuple, a generator
    /// expression or a parenthesized yield.
    fn paren(&mut self, at: Pos) -> PResult<Expr> {
        match self.peek() {
            Tok::RPar | Tok::Yield | Tok::DoubleStar => return self.paren_special(at),
            _ => {}
        }
        let first = self.expr_mode(super::expr::Mode::StarNamed)?;
        match self.peek() {
            Tok::For | Tok::Async => self.comprehension(at, first, Tok::RPar),
            Tok::Comma => self.sequence(at, first, Tok::RPar),
            Tok::RPar => {
                if matches!(first.kind, ExprKind::Starred { .. }) {
                    return Err(self.error_at("cannot use starred expression here", first.line));
                }
                self.bump();
                Ok(first)
            }
            _ => Err(self.syntax_error()),
        }
    }

    #[inline(never)]
    fn paren_special(&mut self, at: Pos) -> PResult<Expr> {
        match self.peek() {
            Tok::RPar => {
                self.bump();
                Ok(tuple(at, Vec::new()))
            }
            Tok::Yield => {
                let e = self.yield_expr()?;
                self.expect(Tok::RPar)?;
                Ok(e)
            }
            _ => Err(self.error_here("cannot use double starred expression here")),
        }
    }

    /// The rest of a tuple, list or set display after its first element.
    #[inline(never)]
    fn sequence(&mut self, at: Pos, first: Expr, close: Tok) -> PResult<Expr> {
        let mut elts = vec![first];
        let mut sib = self.siblings();
        while self.eat(Tok::Comma) {
            if self.peek() == close {
                break;
            }
            self.unparenthesized_target(&elts[0], close)?;
            elts.push(self.expr_mode(super::expr::Mode::StarNamed)?);
            self.next_sibling(&mut sib);
        }
        self.end_siblings(sib);
        if elts.len() > 1 {
            self.unparenthesized_target(&elts[0], close)?;
        }
        self.expect(close)?;
        Ok(match close {
            Tok::RPar => tuple(at, elts),
            Tok::RSqb => list(at, elts),
            _ => mk(at, ExprKind::Set(elts)),
        })
    }

    /// A generator expression, list or set comprehension after its element.
    #[inline(never)]
    fn comprehension(&mut self, at: Pos, elt: Expr, close: Tok) -> PResult<Expr> {
        self.no_star_in_comprehension(&elt)?;
        let generators = self.comprehension_clauses()?;
        self.expect(close)?;
        let elt = Box::new(elt);
        Ok(mk(
            at,
            match close {
                Tok::RPar => ExprKind::GeneratorExp { elt, generators },
                Tok::RSqb => ExprKind::ListComp { elt, generators },
                _ => ExprKind::SetComp { elt, generators },
            },
        ))
    }

    /// CPython's `invalid_comprehension`: `[a, b for x in y]` (or `{…}`,
    /// or `[a, for x in y]`) is a comprehension over a tuple left
    /// unparenthesized, when the clauses parse.
    fn unparenthesized_target(&mut self, first: &Expr, close: Tok) -> PResult<()> {
        if self.checks
            && close != Tok::RPar
            && matches!(self.peek(), Tok::For | Tok::Async)
            && self.probe(|p| p.comprehension_clauses()).is_some()
        {
            return Err(self.error_at(
                "did you forget parentheses around the comprehension target?",
                first.line,
            ));
        }
        Ok(())
    }

    fn no_star_in_comprehension(&self, e: &Expr) -> PResult<()> {
        if matches!(e.kind, ExprKind::Starred { .. }) {
            return Err(self.error_at("iterable unpacking cannot be used in comprehension", e.line));
        }
        Ok(())
    }

    /// After `[`: a list display or a list comprehension.
    fn list(&mut self, at: Pos) -> PResult<Expr> {
        if self.eat(Tok::RSqb) {
            return Ok(list(at, Vec::new()));
        }
        let first = self.expr_mode(super::expr::Mode::StarNamed)?;
        if matches!(self.peek(), Tok::For | Tok::Async) {
            return self.comprehension(at, first, Tok::RSqb);
        }
        self.sequence(at, first, Tok::RSqb)
    }

    /// After `{`: a dict or set display or comprehension.
    fn brace(&mut self, at: Pos) -> PResult<Expr> {
        match self.peek() {
            Tok::RBrace | Tok::DoubleStar => return self.brace_special(at),
            _ => {}
        }
        let first = self.expr_mode(super::expr::Mode::StarNamed)?;
        if self.peek() == Tok::Colon && !matches!(first.kind, ExprKind::Starred { .. }) {
            return self.dict_first(at, first);
        }
        if matches!(self.peek(), Tok::For | Tok::Async) {
            return self.comprehension(at, first, Tok::RBrace);
        }
        self.sequence(at, first, Tok::RBrace)
    }

    #[inline(never)]
    fn brace_special(&mut self, at: Pos) -> PResult<Expr> {
        if self.eat(Tok::RBrace) {
            return Ok(mk(
                at,
                ExprKind::Dict {
                    keys: Vec::new(),
                    values: Vec::new(),
                },
            ));
        }
        self.bump();
        let value = self.bitwise_or()?;
        if matches!(self.peek(), Tok::For | Tok::Async) {
            return Err(self.error_at(
                "dict unpacking cannot be used in dict comprehension",
                value.line,
            ));
        }
        self.dict_rest(at, vec![None], vec![value])
    }

    /// A dict display or comprehension after its first key.
    #[inline(never)]
    fn dict_first(&mut self, at: Pos, key: Expr) -> PResult<Expr> {
        let colon = self.bump();
        if matches!(self.peek(), Tok::Comma | Tok::RBrace) && self.checks {
            return Err(self.error_at(
                "expression expected after dictionary key and ':'",
                colon.line,
            ));
        }
        let value = self.expression()?;
        if matches!(self.peek(), Tok::For | Tok::Async) {
            let generators = self.comprehension_clauses()?;
            self.expect(Tok::RBrace)?;
            return Ok(mk(
                at,
                ExprKind::DictComp {
                    key: Box::new(key),
                    value: Box::new(value),
                    generators,
                },
            ));
        }
        self.dict_rest(at, vec![Some(key)], vec![value])
    }

    fn dict_rest(
        &mut self,
        at: Pos,
        mut keys: Vec<Option<Expr>>,
        mut values: Vec<Expr>,
    ) -> PResult<Expr> {
        let mut sib = self.siblings();
        while self.eat(Tok::Comma) {
            self.next_sibling(&mut sib);
            match self.peek() {
                Tok::RBrace => break,
                Tok::DoubleStar => {
                    self.bump();
                    keys.push(None);
                    values.push(self.bitwise_or()?);
                }
                _ => {
                    let key_pos = self.pos;
                    let k = match self.expression() {
                        Ok(k) => k,
                        // CPython's `invalid_kvpair` takes the longest key
                        // that parses (`{1: 2, x +}`).
                        Err(e) if self.checks && super::parser::is_generic(&e) => {
                            let end = self.pos;
                            self.pos = key_pos;
                            if let Some(k) = self.probe(|p| p.expression()) {
                                return Err(
                                    self.error_at("':' expected after dictionary key", k.line)
                                );
                            }
                            self.pos = end;
                            return Err(e);
                        }
                        Err(e) => return Err(e),
                    };
                    if self.peek() != Tok::Colon {
                        // CPython's `invalid_kvpair`: whatever follows the key.
                        if self.checks {
                            return Err(self.error_at("':' expected after dictionary key", k.line));
                        }
                        return Err(self.syntax_error());
                    }
                    self.bump();
                    if matches!(self.peek(), Tok::Comma | Tok::RBrace) && self.checks {
                        return Err(self.error_at(
                            "expression expected after dictionary key and ':'",
                            self.line(),
                        ));
                    }
                    keys.push(Some(k));
                    values.push(self.expression()?);
                }
            }
        }
        self.end_siblings(sib);
        self.expect(Tok::RBrace)?;
        Ok(mk(at, ExprKind::Dict { keys, values }))
    }
}

fn tuple(at: Pos, elts: Vec<Expr>) -> Expr {
    mk(
        at,
        ExprKind::Tuple {
            elts,
            ctx: ExprContext::Load,
        },
    )
}

fn list(at: Pos, elts: Vec<Expr>) -> Expr {
    mk(
        at,
        ExprKind::List {
            elts,
            ctx: ExprContext::Load,
        },
    )
}
