//! Parameter lists of `def` and `lambda`, with `/`, `*`, `**`, defaults
//! and annotations, and CPython's messages for misplaced ones.

use super::error::PResult;
use super::parser::Parser;
use super::token::Tok;
use crate::syntax::ast::{Arg, Arguments};

impl<'a> Parser<'a> {
    /// Parameters up to (not including) `close`; `annotated` is true for
    /// `def` (annotations allowed), false for `lambda`.
    pub fn parameters(&mut self, close: Tok, annotated: bool) -> PResult<Arguments> {
        let mut a = Arguments::default();
        let (mut slash, mut star, mut seen_default) = (false, false, false);
        let mut bare_star: Option<u32> = None;
        loop {
            let t = self.peek();
            if t == close {
                break;
            }
            match t {
                Tok::Slash => {
                    let at = self.bump().line;
                    if star {
                        return Err(self.error_at("/ must be ahead of *", at));
                    }
                    if slash {
                        return Err(self.error_at("/ may appear only once", at));
                    }
                    if a.args.is_empty() {
                        return Err(self.error_at("at least one argument must precede /", at));
                    }
                    slash = true;
                    a.posonlyargs = std::mem::take(&mut a.args);
                }
                Tok::Star => {
                    let at = self.bump().line;
                    if star {
                        return Err(self.error_at("* argument may appear only once", at));
                    }
                    star = true;
                    if matches!(self.peek(), Tok::Comma) || self.peek() == close {
                        bare_star = Some(at);
                    } else {
                        a.vararg = Some(self.param(annotated, true)?);
                        if self.peek() == Tok::Equal {
                            return Err(self
                                .error_here("var-positional argument cannot have default value"));
                        }
                    }
                }
                Tok::DoubleStar => {
                    self.bump();
                    a.kwarg = Some(self.param(annotated, false)?);
                    if self.peek() == Tok::Equal {
                        return Err(
                            self.error_here("var-keyword argument cannot have default value")
                        );
                    }
                    self.eat(Tok::Comma);
                    if self.peek() != close {
                        if self.peek() == Tok::Name || self.peek() == Tok::Star {
                            return Err(
                                self.error_here("arguments cannot follow var-keyword argument")
                            );
                        }
                        return Err(self.syntax_error());
                    }
                    break;
                }
                Tok::Name => {
                    let arg = self.param(annotated, false)?;
                    let default = if self.peek() == Tok::Equal {
                        let eq = self.bump();
                        if self.peek() == Tok::Comma || self.peek() == close {
                            return Err(self.error_at("expected default value expression", eq.line));
                        }
                        Some(self.expression()?)
                    } else {
                        None
                    };
                    if star {
                        a.kwonlyargs.push(arg);
                        a.kw_defaults.push(default);
                    } else {
                        match default {
                            Some(d) => {
                                a.defaults.push(d);
                                seen_default = true;
                            }
                            None if seen_default => {
                                return Err(self.error_at(
                                    "non-default argument follows default argument",
                                    arg.line,
                                ));
                            }
                            None => {}
                        }
                        a.args.push(arg);
                    }
                }
                _ => return Err(self.syntax_error()),
            }
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        if let (Some(at), true) = (bare_star, a.kwonlyargs.is_empty()) {
            return Err(self.error_at("named arguments must follow bare *", at));
        }
        Ok(a)
    }

    /// One parameter name with its optional annotation.
    fn param(&mut self, annotated: bool, star: bool) -> PResult<Arg> {
        let name = self.expect(Tok::Name)?;
        let annotation = if annotated && self.eat(Tok::Colon) {
            let e = if star && self.peek() == Tok::Star {
                self.starred()?
            } else {
                self.expression()?
            };
            Some(Box::new(e))
        } else {
            None
        };
        Ok(Arg {
            line: name.line,
            col: name.col,
            arg: self.text(name).to_string(),
            annotation,
        })
    }
}
