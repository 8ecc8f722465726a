//! Statements: simple statements, compound statements and blocks, with
//! CPython's indentation and colon messages.

use super::error::{PResult, err};
use super::parser::{Parser, mk, starts_expr};
use super::token::{Pos, Tok};
use crate::syntax::ast::{
    Alias, ExceptHandler, Expr, ExprContext, ExprKind, For, FunctionDef, Operator, Stmt, StmtKind,
    Try, WithItem,
};

fn augop(t: Tok) -> Option<Operator> {
    Some(match t {
        Tok::PlusEqual => Operator::Add,
        Tok::MinEqual => Operator::Sub,
        Tok::StarEqual => Operator::Mult,
        Tok::AtEqual => Operator::MatMult,
        Tok::SlashEqual => Operator::Div,
        Tok::PercentEqual => Operator::Mod,
        Tok::AmperEqual => Operator::BitAnd,
        Tok::VBarEqual => Operator::BitOr,
        Tok::CircumflexEqual => Operator::BitXor,
        Tok::LeftShiftEqual => Operator::LShift,
        Tok::RightShiftEqual => Operator::RShift,
        Tok::DoubleStarEqual => Operator::Pow,
        Tok::DoubleSlashEqual => Operator::FloorDiv,
        _ => return None,
    })
}

fn stmt(at: Pos, kind: StmtKind) -> Stmt {
    Stmt {
        line: at.line,
        col: at.col,
        kind,
    }
}

impl<'a> Parser<'a> {
    /// `file`: statements up to the end marker.
    pub fn file(&mut self) -> PResult<Vec<Stmt>> {
        let mut body = Vec::new();
        while self.peek() != Tok::EndMarker {
            self.statement(&mut body)?;
        }
        Ok(body)
    }

    /// One statement line (a compound statement, or `;`-separated simple
    /// statements), appended to `out`.
    fn statement(&mut self, out: &mut Vec<Stmt>) -> PResult<()> {
        self.chain = 0;
        let compound = match self.peek() {
            Tok::Def
            | Tok::If
            | Tok::Class
            | Tok::With
            | Tok::For
            | Tok::Try
            | Tok::While
            | Tok::At => true,
            Tok::Async => matches!(self.peek_at(1), Tok::Def | Tok::For | Tok::With),
            Tok::Name => return self.match_or_simple(out),
            _ => false,
        };
        if compound {
            return self.compound_into(out);
        }
        self.simple_stmts(out)
    }

    #[inline(never)]
    fn compound_into(&mut self, out: &mut Vec<Stmt>) -> PResult<()> {
        self.enter()?;
        let s = self.compound();
        self.leave();
        out.push(s?);
        Ok(())
    }

    /// `match` is a soft keyword: a match statement, else simple statements.
    #[inline(never)]
    fn match_or_simple(&mut self, out: &mut Vec<Stmt>) -> PResult<()> {
        if self.at_soft("match") {
            self.enter()?;
            let s = self.match_stmt();
            self.leave();
            if let Some(s) = s? {
                out.push(s);
                return Ok(());
            }
        }
        self.simple_stmts(out)
    }

    /// `simple_stmts`: `;`-separated simple statements and a newline.
    pub fn simple_stmts(&mut self, out: &mut Vec<Stmt>) -> PResult<()> {
        loop {
            self.chain = 0;
            out.push(self.simple_stmt()?);
            if self.eat(Tok::Semi) {
                if self.peek() == Tok::Newline {
                    break;
                }
                continue;
            }
            break;
        }
        self.expect(Tok::Newline)?;
        Ok(())
    }

    /// A block after a compound statement header's colon.
    pub fn block(&mut self, what: &str, header_line: u32) -> PResult<Vec<Stmt>> {
        let mut body = Vec::new();
        if self.peek() != Tok::Newline {
            self.simple_stmts(&mut body)?;
            return Ok(body);
        }
        if self.peek_at(1) != Tok::Indent {
            self.bump();
            let line = self.line();
            return Err(err(
                format!("expected an indented block after {what} on line {header_line}"),
                line,
            ));
        }
        self.bump();
        self.bump();
        while !matches!(self.peek(), Tok::Dedent | Tok::EndMarker) {
            self.statement(&mut body)?;
        }
        self.expect(Tok::Dedent)?;
        Ok(body)
    }

    /// The `:` ending a header whose grammar reports `expected ':'` when
    /// the line ends instead.
    pub fn header_colon(&mut self) -> PResult<()> {
        match self.peek() {
            Tok::Colon => {
                self.bump();
                Ok(())
            }
            Tok::Newline => Err(self.error_last("expected ':'")),
            _ => Err(self.syntax_error()),
        }
    }

    fn compound(&mut self) -> PResult<Stmt> {
        match self.peek() {
            Tok::At => {
                let mut decorators = Vec::new();
                while self.eat(Tok::At) {
                    decorators.push(self.named_expression()?);
                    self.expect(Tok::Newline)?;
                }
                match self.peek() {
                    Tok::Def => self.funcdef(decorators, false),
                    Tok::Async if self.peek_at(1) == Tok::Def => self.funcdef(decorators, true),
                    Tok::Class => self.classdef(decorators),
                    _ => Err(self.syntax_error()),
                }
            }
            Tok::Def => self.funcdef(Vec::new(), false),
            Tok::Class => self.classdef(Vec::new()),
            Tok::If => self.if_stmt(),
            Tok::While => self.while_stmt(),
            Tok::For => self.for_stmt(false),
            Tok::With => self.with_stmt(false),
            Tok::Try => self.try_stmt(),
            Tok::Async => match self.peek_at(1) {
                Tok::Def => self.funcdef(Vec::new(), true),
                Tok::For => self.for_stmt(true),
                _ => self.with_stmt(true),
            },
            _ => Err(self.syntax_error()),
        }
    }

    fn funcdef(&mut self, decorator_list: Vec<Expr>, is_async: bool) -> PResult<Stmt> {
        let at = self.here();
        if is_async {
            self.bump();
        }
        let def_line = self.bump().line;
        let name = self.expect(Tok::Name)?;
        self.expect_forced(Tok::LPar, "(")?;
        self.level += 1;
        let args = self.parameters(Tok::RPar, true);
        self.level -= 1;
        let args = args?;
        self.expect(Tok::RPar)?;
        let returns = if self.peek() == Tok::RArrow {
            let arrow = self.bump();
            match self.expression() {
                Ok(e) => Some(Box::new(e)),
                // The optional `-> annotation` failed: CPython then wants
                // the `:` where the arrow is.
                Err(e) if super::parser::is_generic(&e) => {
                    self.first_pass_error.set(true);
                    return Err(self.error_at("expected ':'", arrow.line));
                }
                Err(e) => return Err(e),
            }
        } else {
            None
        };
        self.expect_forced(Tok::Colon, ":")?;
        let body = self.block("function definition", def_line)?;
        let f = FunctionDef {
            name: self.text(name).to_string(),
            args: Box::new(args),
            body,
            decorator_list,
            returns,
        };
        let kind = if is_async {
            StmtKind::AsyncFunctionDef(f)
        } else {
            StmtKind::FunctionDef(f)
        };
        Ok(stmt(at, kind))
    }

    fn classdef(&mut self, decorator_list: Vec<Expr>) -> PResult<Stmt> {
        let at = self.bump().pos();
        let line = at.line;
        let name = self.expect(Tok::Name)?;
        let (bases, keywords) = if self.eat(Tok::LPar) {
            self.level += 1;
            let r = self.arguments(Tok::RPar, None);
            self.level -= 1;
            r?
        } else {
            (Vec::new(), Vec::new())
        };
        self.header_colon()?;
        let body = self.block("class definition", line)?;
        Ok(stmt(
            at,
            StmtKind::ClassDef {
                name: self.text(name).to_string(),
                bases,
                keywords,
                body,
                decorator_list,
            },
        ))
    }

    /// `if`/`elif` chains, built iteratively so long `elif` ladders do not
    /// recurse.
    fn if_stmt(&mut self) -> PResult<Stmt> {
        let mut arms = Vec::new();
        let mut keyword = "'if' statement";
        loop {
            let at = self.bump().pos();
            let test = self.named_expression()?;
            self.header_colon()?;
            let body = self.block(keyword, at.line)?;
            arms.push((at, test, body));
            if self.peek() == Tok::Elif {
                keyword = "'elif' statement";
                continue;
            }
            break;
        }
        let mut orelse = self.else_block()?;
        let mut result = None;
        while let Some((at, test, body)) = arms.pop() {
            let s = stmt(
                at,
                StmtKind::If {
                    test: Box::new(test),
                    body,
                    orelse,
                },
            );
            orelse = Vec::new();
            if arms.is_empty() {
                result = Some(s);
                break;
            }
            orelse.push(s);
        }
        result.ok_or_else(|| self.syntax_error())
    }

    /// An optional `else:` block.
    fn else_block(&mut self) -> PResult<Vec<Stmt>> {
        if self.peek() != Tok::Else {
            return Ok(Vec::new());
        }
        let line = self.bump().line;
        self.expect_forced(Tok::Colon, ":")?;
        self.block("'else' statement", line)
    }

    fn while_stmt(&mut self) -> PResult<Stmt> {
        let at = self.bump().pos();
        let test = self.named_expression()?;
        self.header_colon()?;
        let body = self.block("'while' statement", at.line)?;
        let orelse = self.else_block()?;
        Ok(stmt(
            at,
            StmtKind::While {
                test: Box::new(test),
                body,
                orelse,
            },
        ))
    }

    fn for_stmt(&mut self, is_async: bool) -> PResult<Stmt> {
        let at = self.here();
        if is_async {
            self.bump();
        }
        let for_line = self.bump().line;
        let target_line = self.line();
        let target = self.for_target()?;
        self.expect_in(target_line)?;
        let iter = self.star_expressions()?;
        self.header_colon()?;
        let body = self.block("'for' statement", for_line)?;
        let orelse = self.else_block()?;
        let f = For {
            target: Box::new(target),
            iter: Box::new(iter),
            body,
            orelse,
        };
        Ok(stmt(
            at,
            if is_async {
                StmtKind::AsyncFor(f)
            } else {
                StmtKind::For(f)
            },
        ))
    }

    fn with_stmt(&mut self, is_async: bool) -> PResult<Stmt> {
        let at = self.here();
        if is_async {
            self.bump();
        }
        let with_line = self.bump().line;
        let items = self.with_items()?;
        self.header_colon()?;
        let body = self.block("'with' statement", with_line)?;
        Ok(stmt(
            at,
            if is_async {
                StmtKind::AsyncWith { items, body }
            } else {
                StmtKind::With { items, body }
            },
        ))
    }

    /// `with` items: first the parenthesized form `with (a as b, c):`,
    /// then (backtracking, as CPython's PEG parser does) the plain form.
    fn with_items(&mut self) -> PResult<Vec<WithItem>> {
        if self.peek() == Tok::LPar {
            let start = self.pos;
            let (chain, level) = (self.chain, self.level);
            let attempt = self.paren_with_items();
            match attempt {
                Ok(items) if self.peek() == Tok::Colon => return Ok(items),
                Ok(_) => {}
                Err(e) if !super::parser::is_generic(&e) && !e.message.starts_with("expected") => {
                    return Err(e);
                }
                Err(_) => {}
            }
            self.pos = start;
            self.chain = chain;
            self.level = level;
        }
        let mut items = vec![self.with_item()?];
        while self.eat(Tok::Comma) {
            items.push(self.with_item()?);
        }
        Ok(items)
    }

    fn paren_with_items(&mut self) -> PResult<Vec<WithItem>> {
        self.bump();
        self.level += 1;
        let mut items = vec![self.with_item()?];
        while self.eat(Tok::Comma) {
            if self.peek() == Tok::RPar {
                break;
            }
            items.push(self.with_item()?);
        }
        self.level -= 1;
        self.expect(Tok::RPar)?;
        Ok(items)
    }

    fn with_item(&mut self) -> PResult<WithItem> {
        let context_expr = self.expression()?;
        let optional_vars = if self.eat(Tok::As) {
            Some(Box::new(self.star_target()?))
        } else {
            None
        };
        Ok(WithItem {
            context_expr,
            optional_vars,
        })
    }

    fn try_stmt(&mut self) -> PResult<Stmt> {
        let at = self.bump().pos();
        self.expect_forced(Tok::Colon, ":")?;
        let body = self.block("'try' statement", at.line)?;
        let mut handlers = Vec::new();
        let mut star: Option<bool> = None;
        while self.peek() == Tok::Except {
            let et = self.bump();
            let is_star = self.eat(Tok::Star);
            if star.is_some_and(|s| s != is_star) {
                return Err(self.error_at(
                    "cannot have both 'except' and 'except*' on the same 'try'",
                    et.line,
                ));
            }
            star = Some(is_star);
            let mut type_ = None;
            let mut name = None;
            if self.peek() != Tok::Colon || is_star {
                if is_star && matches!(self.peek(), Tok::Colon | Tok::Newline) {
                    return Err(self.error_here("expected one or more exception types"));
                }
                let t = self.expression()?;
                if self.peek() == Tok::Comma && self.checks {
                    return Err(
                        self.error_at("multiple exception types must be parenthesized", t.line)
                    );
                }
                type_ = Some(Box::new(t));
                if self.eat(Tok::As) {
                    let n = self.expect(Tok::Name)?;
                    name = Some(self.text(n).to_string());
                }
            }
            self.header_colon()?;
            let what = if is_star {
                "'except*' statement"
            } else {
                "'except' statement"
            };
            let body = self.block(what, et.line)?;
            handlers.push(ExceptHandler {
                line: et.line,
                col: et.col,
                type_,
                name,
                body,
            });
        }
        let orelse = if handlers.is_empty() {
            Vec::new()
        } else {
            self.else_block()?
        };
        let finalbody = if self.peek() == Tok::Finally {
            let fl = self.bump().line;
            self.expect_forced(Tok::Colon, ":")?;
            self.block("'finally' statement", fl)?
        } else {
            Vec::new()
        };
        if handlers.is_empty() && finalbody.is_empty() && self.peek() != Tok::Finally {
            return Err(self.error_last("expected 'except' or 'finally' block"));
        }
        let t = Try {
            body,
            handlers,
            orelse,
            finalbody,
        };
        Ok(stmt(
            at,
            if star == Some(true) {
                StmtKind::TryStar(t)
            } else {
                StmtKind::Try(t)
            },
        ))
    }

    /// One simple statement.
    fn simple_stmt(&mut self) -> PResult<Stmt> {
        let at = self.here();
        let kind = match self.peek() {
            Tok::Pass => {
                self.bump();
                StmtKind::Pass
            }
            Tok::Break => {
                self.bump();
                StmtKind::Break
            }
            Tok::Continue => {
                self.bump();
                StmtKind::Continue
            }
            Tok::Return => {
                self.bump();
                let t = self.peek();
                if starts_expr(t) || t == Tok::Star {
                    StmtKind::Return(Some(Box::new(self.star_expressions()?)))
                } else {
                    StmtKind::Return(None)
                }
            }
            Tok::Raise => {
                self.bump();
                if starts_expr(self.peek()) {
                    let exc = self.expression()?;
                    let cause = if self.eat(Tok::From) {
                        Some(Box::new(self.expression()?))
                    } else {
                        None
                    };
                    StmtKind::Raise {
                        exc: Some(Box::new(exc)),
                        cause,
                    }
                } else {
                    StmtKind::Raise {
                        exc: None,
                        cause: None,
                    }
                }
            }
            Tok::Global | Tok::Nonlocal => {
                let global = self.bump().kind == Tok::Global;
                let mut names = Vec::new();
                loop {
                    let n = self.expect(Tok::Name)?;
                    names.push(self.text(n).to_string());
                    if !self.eat(Tok::Comma) {
                        break;
                    }
                }
                if global {
                    StmtKind::Global(names)
                } else {
                    StmtKind::Nonlocal(names)
                }
            }
            Tok::Del => self.del_stmt()?,
            Tok::Assert => {
                self.bump();
                let test = self.expression()?;
                let msg = if self.eat(Tok::Comma) {
                    Some(Box::new(self.expression()?))
                } else {
                    None
                };
                StmtKind::Assert {
                    test: Box::new(test),
                    msg,
                }
            }
            Tok::Import => self.import()?,
            Tok::From => self.import_from()?,
            _ => return self.expr_stmt(),
        };
        Ok(stmt(at, kind))
    }

    fn del_stmt(&mut self) -> PResult<StmtKind> {
        self.bump();
        let start = self.pos;
        // Targets are read at the `bitwise_or` level, as CPython's
        // `del_targets` (which cannot contain comparisons or conditionals).
        let mut targets = Vec::new();
        let mut valid = true;
        loop {
            let e = if self.peek() == Tok::Star {
                self.starred()?
            } else {
                self.bitwise_or()?
            };
            valid &= super::targets::invalid_target(&e, ExprContext::Del).is_none();
            targets.push(e);
            if !self.eat(Tok::Comma) {
                break;
            }
            let t = self.peek();
            if !(starts_expr(t) || t == Tok::Star) {
                break;
            }
        }
        if valid && matches!(self.peek(), Tok::Semi | Tok::Newline) {
            let targets = targets
                .into_iter()
                .map(|e| self.make_target(e, ExprContext::Del))
                .collect::<PResult<Vec<_>>>()?;
            return Ok(StmtKind::Delete(targets));
        }
        // CPython's `invalid_del_stmt` re-reads them as `star_expressions`.
        let end = self.pos;
        self.pos = start;
        let wide = self.probe(|p| p.star_expressions());
        self.pos = end;
        match wide
            .as_ref()
            .and_then(|w| super::targets::invalid_target(w, ExprContext::Del))
        {
            Some(bad) => Err(self.target_error(bad, ExprContext::Del)),
            None => Err(self.syntax_error()),
        }
    }

    /// `a.b.c` in imports.
    fn dotted_name(&mut self) -> PResult<String> {
        let first = self.expect(Tok::Name)?;
        let mut name = self.text(first).to_string();
        while self.peek() == Tok::Dot {
            self.bump();
            let n = self.expect(Tok::Name)?;
            name.push('.');
            name.push_str(self.text(n));
        }
        Ok(name)
    }

    fn as_name(&mut self) -> PResult<Option<String>> {
        if self.eat(Tok::As) {
            let n = self.expect(Tok::Name)?;
            return Ok(Some(self.text(n).to_string()));
        }
        Ok(None)
    }

    fn import(&mut self) -> PResult<StmtKind> {
        self.bump();
        let mut names = Vec::new();
        loop {
            let at = self.here();
            let name = self.dotted_name()?;
            let asname = self.as_name()?;
            names.push(Alias {
                line: at.line,
                col: at.col,
                name,
                asname,
            });
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        Ok(StmtKind::Import(names))
    }

    fn import_from(&mut self) -> PResult<StmtKind> {
        self.bump();
        let mut level = 0;
        loop {
            match self.peek() {
                Tok::Dot => level += 1,
                Tok::Ellipsis => level += 3,
                _ => break,
            }
            self.bump();
        }
        let module = if self.peek() == Tok::Name || level == 0 {
            Some(self.dotted_name()?)
        } else {
            None
        };
        self.expect(Tok::Import)?;
        let mut names = Vec::new();
        if self.peek() == Tok::Star {
            let t = self.bump();
            names.push(Alias {
                line: t.line,
                col: t.col,
                name: "*".into(),
                asname: None,
            });
        } else {
            let paren = self.eat(Tok::LPar);
            loop {
                let n = self.expect(Tok::Name)?;
                let asname = self.as_name()?;
                names.push(Alias {
                    line: n.line,
                    col: n.col,
                    name: self.text(n).to_string(),
                    asname,
                });
                if !self.eat(Tok::Comma) {
                    break;
                }
                if paren && self.peek() == Tok::RPar {
                    break;
                }
                if !paren && self.peek() == Tok::Newline {
                    return Err(self
                        .error_last("trailing comma not allowed without surrounding parentheses"));
                }
            }
            if paren {
                self.expect(Tok::RPar)?;
            }
        }
        Ok(StmtKind::ImportFrom {
            module,
            names,
            level,
        })
    }

    /// Expression statements and the assignment forms.
    fn expr_stmt(&mut self) -> PResult<Stmt> {
        let start = self.pos;
        let first = self.peek();
        let at = self.here();
        let lhs = if first == Tok::Yield {
            self.yield_expr()?
        } else {
            self.star_expressions()?
        };
        match self.peek() {
            Tok::Colon => self.ann_assign(at, lhs, first),
            Tok::Equal => self.assign(at, lhs, start),
            t => {
                if let Some(op) = augop(t) {
                    self.bump();
                    let value = self.rhs()?;
                    let target = match lhs.kind {
                        ExprKind::Name { .. }
                        | ExprKind::Attribute { .. }
                        | ExprKind::Subscript { .. } => {
                            self.make_target(lhs, ExprContext::Store)?
                        }
                        ExprKind::Yield(_) | ExprKind::YieldFrom(_) => {
                            return Err(self.syntax_error());
                        }
                        _ => {
                            return Err(self.error_at(
                                format!(
                                    "'{}' is an illegal expression for augmented assignment",
                                    super::targets::expr_name(&lhs)
                                ),
                                lhs.line,
                            ));
                        }
                    };
                    return Ok(stmt(
                        at,
                        StmtKind::AugAssign {
                            target: Box::new(target),
                            op,
                            value: Box::new(value),
                        },
                    ));
                }
                Ok(stmt(at, StmtKind::Expr(Box::new(lhs))))
            }
        }
    }

    /// The right-hand side of an assignment: a yield or star expressions.
    fn rhs(&mut self) -> PResult<Expr> {
        if self.peek() == Tok::Yield {
            self.yield_expr()
        } else {
            self.star_expressions()
        }
    }

    fn ann_assign(&mut self, at: Pos, lhs: Expr, first: Tok) -> PResult<Stmt> {
        let simple = matches!(lhs.kind, ExprKind::Name { .. }) && first == Tok::Name;
        self.bump();
        let what = match &lhs.kind {
            ExprKind::Name { .. } | ExprKind::Attribute { .. } | ExprKind::Subscript { .. } => None,
            ExprKind::Tuple { .. } => Some("only single target (not tuple) can be annotated"),
            ExprKind::List { .. } => Some("only single target (not list) can be annotated"),
            _ => Some("illegal target for annotation"),
        };
        // CPython only blames the target once (a prefix of) the annotation
        // has parsed.
        let ann_start = self.pos;
        let annotation = match self.expression() {
            Ok(a) => a,
            Err(e) if what.is_some() && super::parser::is_generic(&e) => {
                let end = self.pos;
                self.pos = ann_start;
                let prefix = self.probe(|p| p.atom()).is_some();
                self.pos = end;
                return Err(match (prefix, what) {
                    (true, Some(msg)) => self.error_at(msg, lhs.line),
                    _ => e,
                });
            }
            Err(e) => return Err(e),
        };
        if let Some(msg) = what {
            return Err(self.error_at(msg, lhs.line));
        }
        let target = self.make_target(lhs, ExprContext::Store)?;
        let value = if self.eat(Tok::Equal) {
            Some(Box::new(self.rhs()?))
        } else {
            None
        };
        Ok(stmt(
            at,
            StmtKind::AnnAssign {
                target: Box::new(target),
                annotation: Box::new(annotation),
                value,
                simple,
            },
        ))
    }

    fn assign(&mut self, at: Pos, lhs: Expr, start: usize) -> PResult<Stmt> {
        let mut targets = Vec::new();
        let mut e = lhs;
        // Each target is checked as soon as its `=` is seen, as CPython's
        // `invalid_assignment` does, before the rest is parsed.
        while self.peek() == Tok::Equal {
            if let Some(bad) = super::targets::invalid_target(&e, ExprContext::Store) {
                return Err(self.assign_error(start, &e, bad));
            }
            targets.push(self.make_target(e, ExprContext::Store)?);
            self.bump();
            e = self.rhs()?;
        }
        Ok(stmt(
            at,
            StmtKind::Assign {
                targets,
                value: Box::new(e),
            },
        ))
    }

    /// CPython's message for an invalid assignment target: the
    /// `invalid_named_expression` form ("... here. Maybe you meant '=='")
    /// when the statement reads `bitwise_or = bitwise_or`, else
    /// "cannot assign to ...".
    #[cold]
    fn assign_error(
        &mut self,
        start: usize,
        target: &Expr,
        bad: &Expr,
    ) -> super::error::ParseError {
        // CPython first reads the statement as `star_named_expression`s,
        // whose `invalid_named_expression` rule may fire on any element.
        let end = self.pos;
        let mut el = start;
        loop {
            if let Some(e) = self.named_assign_error_at(el) {
                self.pos = end;
                return e;
            }
            self.pos = el;
            let next = self.probe(|p| {
                p.star_named_expression()?;
                Ok(p.pos)
            });
            match next {
                Some(n)
                    if n + 1 < end && self.toks.get(n).is_some_and(|t| t.kind == Tok::Comma) =>
                {
                    el = n + 1
                }
                _ => break,
            }
        }
        self.pos = end;
        if matches!(target.kind, ExprKind::Yield(_) | ExprKind::YieldFrom(_)) {
            return self.error_at("assignment to yield expression not possible", target.line);
        }
        self.target_error(bad, ExprContext::Store)
    }

    /// `match subject:` with its cases, or `None` when the line is not a
    /// match statement (`match` is a soft keyword).
    fn match_stmt(&mut self) -> PResult<Option<Stmt>> {
        let start = self.pos;
        let chain = self.chain;
        let at = self.bump().pos();
        let line = at.line;
        let subject_line = self.line();
        // Speculative: CPython's first pass just fails here when this is
        // not a match statement, so the error-message checks stay off.
        let checks = self.checks;
        self.checks = checks && self.legacy_print;
        let subject = self.match_subject();
        self.checks = checks;
        let subject = match subject {
            Ok(s) => s,
            Err(e) if !super::parser::is_generic(&e) || self.fatal.borrow().is_some() => {
                return Err(e);
            }
            Err(_) => {
                self.pos = start;
                self.chain = chain;
                return Ok(None);
            }
        };
        match self.peek() {
            Tok::Colon => {}
            Tok::Newline => {
                self.pos = start;
                self.chain = chain;
                // CPython's second pass raises this even when the line is a
                // valid expression statement (`match (x)`); its first pass
                // reads the line as one.
                if self.legacy_print || self.probe(|p| p.simple_stmts(&mut Vec::new())).is_none() {
                    let _ = subject_line;
                    return Err(self.error_last("expected ':'"));
                }
                return Ok(None);
            }
            _ => {
                self.pos = start;
                self.chain = chain;
                return Ok(None);
            }
        }
        self.bump();
        if self.peek() != Tok::Newline {
            // Not a match statement after all: `match[x]: int` annotates a
            // subscript, as CPython's PEG rules find on backtracking.
            self.pos = start;
            self.chain = chain;
            return Ok(None);
        }
        if self.peek_at(1) != Tok::Indent {
            self.bump();
            return Err(err(
                format!("expected an indented block after 'match' statement on line {line}"),
                self.line(),
            ));
        }
        self.bump();
        self.bump();
        let mut cases = Vec::new();
        while self.at_soft("case") {
            cases.push(self.case_block()?);
        }
        if cases.is_empty() {
            return Err(self.syntax_error());
        }
        self.expect(Tok::Dedent)?;
        Ok(Some(stmt(
            at,
            StmtKind::Match {
                subject: Box::new(subject),
                cases,
            },
        )))
    }

    /// `subject_expr`: a named expression or an unparenthesized tuple.
    fn match_subject(&mut self) -> PResult<Expr> {
        let at = self.here();
        let first = self.star_named_expression()?;
        if self.peek() != Tok::Comma {
            if matches!(first.kind, ExprKind::Starred { .. }) {
                return Err(self.syntax_error());
            }
            return Ok(first);
        }
        let mut elts = vec![first];
        while self.eat(Tok::Comma) {
            let t = self.peek();
            if !(starts_expr(t) || t == Tok::Star) {
                break;
            }
            elts.push(self.star_named_expression()?);
        }
        Ok(mk(
            at,
            ExprKind::Tuple {
                elts,
                ctx: ExprContext::Load,
            },
        ))
    }
}
