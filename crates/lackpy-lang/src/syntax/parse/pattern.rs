//! `match` statement cases and patterns (PEP 634), as CPython 3.11
//! parses them.

use super::error::PResult;
use super::parser::{Parser, mk, pos_of};
use super::token::{Pos, Tok};
use crate::syntax::ast::{
    Constant, Expr, ExprContext, ExprKind, MatchCase, Operator, Pattern, PatternKind, UnaryOp,
};

fn pat(at: Pos, kind: PatternKind) -> Pattern {
    Pattern {
        line: at.line,
        col: at.col,
        kind,
    }
}

impl<'a> Parser<'a> {
    /// `case patterns [if guard]: block`.
    pub fn case_block(&mut self) -> PResult<MatchCase> {
        let case_line = self.bump().line;
        let pattern = self.patterns()?;
        let guard = if self.eat(Tok::If) {
            Some(Box::new(self.named_expression()?))
        } else {
            None
        };
        self.header_colon()?;
        let body = self.block("'case' statement", case_line)?;
        Ok(MatchCase {
            pattern,
            guard,
            body,
        })
    }

    /// `patterns`: an open sequence (`case a, *b:`) or one pattern.
    fn patterns(&mut self) -> PResult<Pattern> {
        let at = self.here();
        let first = self.maybe_star_pattern()?;
        if self.peek() != Tok::Comma {
            if matches!(first.kind, PatternKind::MatchStar(_)) {
                return Err(self.syntax_error());
            }
            return Ok(first);
        }
        let mut ps = vec![first];
        while self.eat(Tok::Comma) {
            if matches!(self.peek(), Tok::Colon | Tok::If) {
                break;
            }
            ps.push(self.maybe_star_pattern()?);
        }
        Ok(pat(at, PatternKind::MatchSequence(ps)))
    }

    fn maybe_star_pattern(&mut self) -> PResult<Pattern> {
        if self.peek() != Tok::Star {
            return self.pattern();
        }
        let star = self.bump();
        let name = self.expect(Tok::Name)?;
        let text = self.text(name);
        let capture = (text != "_").then(|| text.to_string());
        Ok(pat(star.pos(), PatternKind::MatchStar(capture)))
    }

    /// `pattern`: an or-pattern, optionally `as name`.
    fn pattern(&mut self) -> PResult<Pattern> {
        self.enter()?;
        let r = self.as_pattern();
        self.leave();
        r
    }

    fn as_pattern(&mut self) -> PResult<Pattern> {
        let at = self.here();
        let p = self.or_pattern()?;
        if !self.eat(Tok::As) {
            return Ok(p);
        }
        if self.peek() != Tok::Name {
            return Err(self.error_here("invalid pattern target"));
        }
        let n = self.bump();
        let text = self.text(n);
        if text == "_" {
            return Err(self.error_at("cannot use '_' as a target", n.line));
        }
        Ok(pat(
            at,
            PatternKind::MatchAs {
                pattern: Some(Box::new(p)),
                name: Some(text.to_string()),
            },
        ))
    }

    fn or_pattern(&mut self) -> PResult<Pattern> {
        let at = self.here();
        let first = self.closed_pattern()?;
        if self.peek() != Tok::VBar {
            return Ok(first);
        }
        let mut ps = vec![first];
        while self.eat(Tok::VBar) {
            ps.push(self.closed_pattern()?);
        }
        Ok(pat(at, PatternKind::MatchOr(ps)))
    }

    fn closed_pattern(&mut self) -> PResult<Pattern> {
        let t = self.tok();
        match self.peek() {
            Tok::Number | Tok::Minus | Tok::String => {
                let e = self.literal_expr()?;
                Ok(pat(pos_of(&e), PatternKind::MatchValue(Box::new(e))))
            }
            Tok::None | Tok::True | Tok::False => {
                self.bump();
                let c = match t.kind {
                    Tok::None => Constant::None,
                    k => Constant::Bool(k == Tok::True),
                };
                Ok(pat(t.pos(), PatternKind::MatchSingleton(c)))
            }
            Tok::Name => {
                let text = self.text(t);
                if text == "_" && !matches!(self.peek_at(1), Tok::Dot | Tok::LPar | Tok::Equal) {
                    self.bump();
                    return Ok(pat(
                        t.pos(),
                        PatternKind::MatchAs {
                            pattern: None,
                            name: None,
                        },
                    ));
                }
                let (e, dotted) = self.name_or_attr()?;
                if self.peek() == Tok::LPar {
                    return self.class_pattern(e);
                }
                if dotted {
                    return Ok(pat(pos_of(&e), PatternKind::MatchValue(Box::new(e))));
                }
                let ExprKind::Name { id, .. } = e.kind else {
                    return Err(self.syntax_error());
                };
                Ok(pat(
                    t.pos(),
                    PatternKind::MatchAs {
                        pattern: None,
                        name: Some(id.into()),
                    },
                ))
            }
            Tok::LPar => {
                self.bump();
                if self.eat(Tok::RPar) {
                    return Ok(pat(t.pos(), PatternKind::MatchSequence(Vec::new())));
                }
                let p = self.maybe_star_pattern()?;
                if self.peek() == Tok::Comma {
                    let mut ps = vec![p];
                    while self.eat(Tok::Comma) {
                        if self.peek() == Tok::RPar {
                            break;
                        }
                        ps.push(self.maybe_star_pattern()?);
                    }
                    self.expect(Tok::RPar)?;
                    return Ok(pat(t.pos(), PatternKind::MatchSequence(ps)));
                }
                self.expect(Tok::RPar)?;
                if matches!(p.kind, PatternKind::MatchStar(_)) {
                    return Err(self.syntax_error());
                }
                Ok(p)
            }
            Tok::LSqb => {
                self.bump();
                let mut ps = Vec::new();
                while self.peek() != Tok::RSqb {
                    ps.push(self.maybe_star_pattern()?);
                    if !self.eat(Tok::Comma) {
                        break;
                    }
                }
                self.expect(Tok::RSqb)?;
                Ok(pat(t.pos(), PatternKind::MatchSequence(ps)))
            }
            Tok::LBrace => self.mapping_pattern(),
            _ => Err(self.syntax_error()),
        }
    }

    /// `NAME ('.' NAME)*` as a load expression; also says if it had dots.
    fn name_or_attr(&mut self) -> PResult<(Expr, bool)> {
        let n = self.expect(Tok::Name)?;
        let mut e = mk(
            n.pos(),
            ExprKind::Name {
                id: self.text(n).into(),
                ctx: ExprContext::Load,
            },
        );
        let mut dotted = false;
        while self.peek() == Tok::Dot {
            self.bump();
            let a = self.expect(Tok::Name)?;
            dotted = true;
            self.link()?;
            e = mk(
                pos_of(&e),
                ExprKind::Attribute {
                    value: Box::new(e),
                    attr: self.text(a).into(),
                    ctx: ExprContext::Load,
                },
            );
        }
        Ok((e, dotted))
    }

    /// Literal values in patterns: signed numbers, complex numbers
    /// (`-1+2j`) and strings.
    fn literal_expr(&mut self) -> PResult<Expr> {
        if self.peek() == Tok::String {
            let e = self.atom()?;
            if matches!(e.kind, ExprKind::JoinedStr(_)) {
                return Err(self.error_at(
                    "patterns may only match literals and attribute lookups",
                    e.line,
                ));
            }
            return Ok(e);
        }
        let left = self.signed_number()?;
        let op = match self.peek() {
            Tok::Plus => Operator::Add,
            Tok::Minus => Operator::Sub,
            _ => return Ok(left),
        };
        self.bump();
        let t = self.expect(Tok::Number)?;
        let right = self.number_expr(t)?;
        if !matches!(right.kind, ExprKind::Constant(Constant::Complex(_))) {
            return Err(self.error_at("imaginary number required in complex literal", t.line));
        }
        Ok(mk(
            pos_of(&left),
            ExprKind::BinOp {
                left: Box::new(left),
                op,
                right: Box::new(right),
            },
        ))
    }

    fn signed_number(&mut self) -> PResult<Expr> {
        if self.peek() == Tok::Minus {
            let m = self.bump();
            let t = self.expect(Tok::Number)?;
            let n = self.number_expr(t)?;
            return Ok(mk(
                m.pos(),
                ExprKind::UnaryOp {
                    op: UnaryOp::USub,
                    operand: Box::new(n),
                },
            ));
        }
        let t = self.expect(Tok::Number)?;
        self.number_expr(t)
    }

    fn number_expr(&self, t: super::token::Token) -> PResult<Expr> {
        match super::number::value(self.text(t)) {
            Ok(c) => Ok(mk(t.pos(), ExprKind::Constant(c))),
            Err(m) => Err(self.error_at(m, t.line)),
        }
    }

    fn class_pattern(&mut self, cls: Expr) -> PResult<Pattern> {
        let at = pos_of(&cls);
        self.bump();
        let mut patterns = Vec::new();
        let mut kwd_attrs = Vec::new();
        let mut kwd_patterns = Vec::new();
        while self.peek() != Tok::RPar {
            if self.peek() == Tok::Name && self.peek_at(1) == Tok::Equal {
                let n = self.bump();
                self.bump();
                kwd_attrs.push(self.text(n).to_string());
                kwd_patterns.push(self.pattern()?);
            } else {
                let p = self.pattern()?;
                if !kwd_attrs.is_empty() {
                    return Err(
                        self.error_at("positional patterns follow keyword patterns", p.line)
                    );
                }
                patterns.push(p);
            }
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::RPar)?;
        Ok(pat(
            at,
            PatternKind::MatchClass {
                cls: Box::new(cls),
                patterns,
                kwd_attrs,
                kwd_patterns,
            },
        ))
    }

    fn mapping_pattern(&mut self) -> PResult<Pattern> {
        let at = self.bump().pos();
        let mut keys = Vec::new();
        let mut patterns = Vec::new();
        let mut rest = None;
        while self.peek() != Tok::RBrace {
            if self.eat(Tok::DoubleStar) {
                let n = self.expect(Tok::Name)?;
                rest = Some(self.text(n).to_string());
                self.eat(Tok::Comma);
                break;
            }
            let key = match self.peek() {
                Tok::None | Tok::True | Tok::False => self.atom()?,
                Tok::Name => {
                    let (e, dotted) = self.name_or_attr()?;
                    if !dotted {
                        return Err(self.syntax_error());
                    }
                    e
                }
                _ => self.literal_expr()?,
            };
            self.expect(Tok::Colon)?;
            keys.push(key);
            patterns.push(self.pattern()?);
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::RBrace)?;
        Ok(pat(
            at,
            PatternKind::MatchMapping {
                keys,
                patterns,
                rest,
            },
        ))
    }
}
