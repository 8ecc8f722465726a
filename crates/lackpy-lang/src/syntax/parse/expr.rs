//! Expressions: CPython 3.11's expression grammar, from `star_expressions`
//! down to atoms, with the error messages of its `invalid_*` rules for the
//! common mistakes.

use super::error::PResult;
use super::parser::{Parser, mk, pos_of, starts_expr};
use super::token::{Pos, Tok};
use crate::syntax::ast::{
    BoolOp, CmpOp, Comprehension, Constant, Expr, ExprContext, ExprKind, Keyword, Operator, UnaryOp,
};

/// Binary operators with their precedence (higher binds tighter).
fn binop(t: Tok) -> Option<(Operator, u8)> {
    Some(match t {
        Tok::VBar => (Operator::BitOr, 5),
        Tok::Circumflex => (Operator::BitXor, 6),
        Tok::Amper => (Operator::BitAnd, 7),
        Tok::LeftShift => (Operator::LShift, 8),
        Tok::RightShift => (Operator::RShift, 8),
        Tok::Plus => (Operator::Add, 9),
        Tok::Minus => (Operator::Sub, 9),
        Tok::Star => (Operator::Mult, 10),
        Tok::Slash => (Operator::Div, 10),
        Tok::DoubleSlash => (Operator::FloorDiv, 10),
        Tok::Percent => (Operator::Mod, 10),
        Tok::At => (Operator::MatMult, 10),
        _ => return None,
    })
}

const PREC_OR: u8 = 1;
const PREC_AND: u8 = 2;
const PREC_NOT: u8 = 3;
const PREC_CMP: u8 = 4;
const PREC_BITOR: u8 = 5;
const PREC_UNARY: u8 = 11;
const PREC_POW: u8 = 12;

/// An infix operator read at the cursor.
#[derive(Clone, Copy)]
enum Infix {
    Bool(BoolOp),
    Cmp(CmpOp),
    Bin(Operator, u8),
    Pow,
}

impl Infix {
    fn prec(self) -> u8 {
        match self {
            Infix::Bool(BoolOp::Or) => PREC_OR,
            Infix::Bool(BoolOp::And) => PREC_AND,
            Infix::Cmp(_) => PREC_CMP,
            Infix::Bin(_, p) => p,
            Infix::Pow => PREC_POW,
        }
    }
}

/// A pending operator on the stack. Prefix operators push a placeholder
/// operand carrying their position, replaced when they are reduced.
enum Op {
    Not,
    Unary(UnaryOp),
    Bin(Operator, u8),
    /// `and`/`or` with the number of operands gathered so far.
    Bool(BoolOp, usize),
    /// A comparison chain's operators.
    Cmp(Vec<CmpOp>),
}

impl Op {
    fn prec(&self) -> u8 {
        match self {
            Op::Not => PREC_NOT,
            Op::Unary(_) => PREC_UNARY,
            Op::Bin(_, p) => *p,
            Op::Bool(BoolOp::Or, _) => PREC_OR,
            Op::Bool(BoolOp::And, _) => PREC_AND,
            Op::Cmp(_) => PREC_CMP,
        }
    }
}

/// How an infix operator went onto the operator stack.
#[derive(Clone, Copy)]
enum Pushed {
    /// One more operand of the `and`/`or` on top.
    BoolCount,
    /// One more operator of the comparison chain on top.
    CmpOp,
    /// An operator of its own.
    Op,
}

/// What taking an infix operator changed, to give it back.
struct InfixUndo {
    /// The operator's token.
    pos: usize,
    pushed: Pushed,
}

impl InfixUndo {
    /// Puts the cursor back on the operator and takes it off the stack
    /// (what it reduced stays reduced: the same tree either way).
    fn apply(self, p: &mut Parser<'_>, ops: &mut Vec<Op>) {
        p.pos = self.pos;
        match (self.pushed, ops.last_mut()) {
            (Pushed::BoolCount, Some(Op::Bool(_, n))) => *n -= 1,
            (Pushed::CmpOp, Some(Op::Cmp(list))) => {
                list.pop();
            }
            (Pushed::Op, _) => {
                ops.pop();
            }
            _ => {}
        }
    }
}

/// Applies the top operator of `ops` to its operands (each with the
/// position of its first token).
fn reduce(ops: &mut Vec<Op>, operands: &mut Vec<(Expr, Pos)>) {
    let Some(op) = ops.pop() else {
        return;
    };
    let (node, start) = match op {
        Op::Not | Op::Unary(_) => {
            let (Some((operand, _)), Some((_, at))) = (operands.pop(), operands.pop()) else {
                return;
            };
            let op = match op {
                Op::Unary(u) => u,
                _ => UnaryOp::Not,
            };
            let node = mk(
                at,
                ExprKind::UnaryOp {
                    op,
                    operand: Box::new(operand),
                },
            );
            (node, at)
        }
        Op::Bin(op, _) => {
            let (Some((right, _)), Some((left, start))) = (operands.pop(), operands.pop()) else {
                return;
            };
            let node = mk(
                start,
                ExprKind::BinOp {
                    left: Box::new(left),
                    op,
                    right: Box::new(right),
                },
            );
            (node, start)
        }
        Op::Bool(op, n) => {
            let values = operands.split_off(operands.len().saturating_sub(n));
            let start = values.first().map_or(Pos { line: 0, col: 0 }, |v| v.1);
            let values = values.into_iter().map(|v| v.0).collect();
            (mk(start, ExprKind::BoolOp { op, values }), start)
        }
        Op::Cmp(ops) => {
            let comparators = operands.split_off(operands.len().saturating_sub(ops.len()));
            let Some((left, start)) = operands.pop() else {
                return;
            };
            let comparators = comparators.into_iter().map(|v| v.0).collect();
            let node = mk(
                start,
                ExprKind::Compare {
                    left: Box::new(left),
                    ops,
                    comparators,
                },
            );
            (node, start)
        }
    };
    operands.push((node, start));
}

/// A parsed trailer, before it is applied to its primary.
enum Trailer {
    Call(Vec<Expr>, Vec<Keyword>),
    Subscript(Expr),
    Attribute(String),
}

/// Which of the expression rules [`Parser::expr_mode`] parses.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// `expression`.
    Plain,
    /// `named_expression`: also `NAME := value`.
    Named,
    /// `star_named_expression`: also `*value`.
    StarNamed,
}

impl<'a> Parser<'a> {
    /// `star_expressions`: one expression, or an unparenthesized tuple.
    pub fn star_expressions(&mut self) -> PResult<Expr> {
        let at = self.here();
        let first = self.star_expression()?;
        if self.peek() != Tok::Comma {
            return Ok(first);
        }
        let mut elts = vec![first];
        let mut sib = self.siblings();
        while self.eat(Tok::Comma) {
            let t = self.peek();
            if !(starts_expr(t) || t == Tok::Star) {
                break;
            }
            elts.push(self.star_expression()?);
            self.next_sibling(&mut sib);
        }
        self.end_siblings(sib);
        Ok(mk(
            at,
            ExprKind::Tuple {
                elts,
                ctx: ExprContext::Load,
            },
        ))
    }

    /// `star_expression`: `*bitwise_or` or an expression.
    pub fn star_expression(&mut self) -> PResult<Expr> {
        if self.peek() == Tok::Star {
            return self.starred();
        }
        self.expression()
    }

    /// `'*' bitwise_or` as a `Starred` load.
    #[inline(never)]
    pub fn starred(&mut self) -> PResult<Expr> {
        let star = self.bump();
        let value = self.bitwise_or()?;
        Ok(mk(
            star.pos(),
            ExprKind::Starred {
                value: Box::new(value),
                ctx: ExprContext::Load,
            },
        ))
    }

    /// `star_named_expression`: `*bitwise_or` or a named expression.
    pub fn star_named_expression(&mut self) -> PResult<Expr> {
        self.expr_mode(Mode::StarNamed)
    }

    /// `named_expression`: `NAME := expression` or an expression.
    pub fn named_expression(&mut self) -> PResult<Expr> {
        self.expr_mode(Mode::Named)
    }

    /// `expression`: a conditional expression, a lambda or a disjunction.
    pub fn expression(&mut self) -> PResult<Expr> {
        self.expr_mode(Mode::Plain)
    }

    /// `expression`, `named_expression` and `star_named_expression` in one
    /// function, so each bracket level costs few stack frames.
    pub fn expr_mode(&mut self, mode: Mode) -> PResult<Expr> {
        if self.legacy_print && self.checks && self.peek() == Tok::Name {
            self.legacy_print_check()?;
        }
        match self.peek() {
            Tok::Star if mode == Mode::StarNamed => return self.starred(),
            Tok::Name if mode != Mode::Plain && self.peek_at(1) == Tok::ColonEqual => {
                return self.walrus();
            }
            Tok::Lambda => return self.lambdef(),
            _ => {}
        }
        let start = self.pos;
        let body = self.operators(PREC_OR)?;
        let t = self.peek();
        if t == Tok::If || (self.checks && starts_expr(t)) {
            return self.expression_tail(start, body);
        }
        if mode != Mode::Plain && self.checks {
            if t == Tok::ColonEqual
                && self
                    .probe(|p| {
                        p.bump();
                        p.expression()
                    })
                    .is_some()
            {
                return Err(self.walrus_error(&body));
            }
            if t == Tok::Equal {
                self.invalid_named_assign(start, &body)?;
            }
        }
        Ok(body)
    }

    #[inline(never)]
    fn walrus(&mut self) -> PResult<Expr> {
        let name = self.bump();
        self.bump();
        let value = self.expression()?;
        let target = mk(
            name.pos(),
            ExprKind::Name {
                id: self.text(name).into(),
                ctx: ExprContext::Store,
            },
        );
        Ok(mk(
            name.pos(),
            ExprKind::NamedExpr {
                target: Box::new(target),
                value: Box::new(value),
            },
        ))
    }

    /// CPython's `invalid_named_expression`: `x = 1` where a named
    /// expression was expected (`if x = 1:`).
    #[cold]
    #[inline(never)]
    fn invalid_named_assign(&mut self, start: usize, _a: &Expr) -> PResult<()> {
        match self.named_assign_error_at(start) {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// The error CPython's `invalid_named_expression` raises for the
    /// element starting at token `start` (`NAME = value` or `expr = value`
    /// where `value` is not followed by another `=`), if any.
    #[cold]
    #[inline(never)]
    pub fn named_assign_error_at(&mut self, start: usize) -> Option<super::error::ParseError> {
        let saved = self.pos;
        self.pos = start;
        let value_follows = |p: &mut Self| {
            p.expect(Tok::Equal)?;
            p.bitwise_or()?;
            if matches!(p.peek(), Tok::Equal | Tok::ColonEqual) {
                return Err(p.syntax_error());
            }
            Ok(())
        };
        let mut result = None;
        let first = self.tok();
        if first.kind == Tok::Name && self.peek_at(1) == Tok::Equal {
            let ok = self.probe(|p| {
                p.bump();
                value_follows(p)
            });
            if ok.is_some() {
                result = Some(self.error_at(
                    "invalid syntax. Maybe you meant '==' or ':=' instead of '='?",
                    first.line,
                ));
            }
        }
        if result.is_none() {
            let excluded = matches!(first.kind, Tok::True | Tok::None | Tok::False)
                || (matches!(first.kind, Tok::LPar | Tok::LSqb)
                    && self.probe(|p| p.atom()).is_some_and(|x| {
                        matches!(
                            x.kind,
                            ExprKind::List { .. }
                                | ExprKind::Tuple { .. }
                                | ExprKind::GeneratorExp { .. }
                        )
                    }));
            if !excluded {
                let found = self.probe(|p| {
                    let a = p.bitwise_or()?;
                    value_follows(p)?;
                    Ok(a)
                });
                if let Some(a) = found {
                    result = Some(self.error_at(
                        format!(
                            "cannot assign to {} here. Maybe you meant '==' instead of '='?",
                            super::targets::expr_name(&a)
                        ),
                        a.line,
                    ));
                }
            }
        }
        self.pos = saved;
        result
    }

    #[cold]
    #[inline(never)]
    fn walrus_error(&self, e: &Expr) -> super::error::ParseError {
        let what = super::targets::expr_name(e);
        self.error_at(
            format!("cannot use assignment expressions with {what}"),
            e.line,
        )
    }

    /// Second pass only: `print <expression>` anywhere is CPython's
    /// "Missing parentheses" error, even where the text would be valid.
    #[cold]
    #[inline(never)]
    fn legacy_print_check(&mut self) -> PResult<()> {
        let t = self.tok();
        let name = self.text(t);
        if !matches!(name, "print" | "exec") || self.peek_at(1) == Tok::LPar {
            return Ok(());
        }
        let found = self.probe(|p| {
            p.bump();
            p.star_expressions()
        });
        if found.is_some() {
            return Err(self.error_at(
                format!("Missing parentheses in call to '{name}'. Did you mean {name}(...)?"),
                t.line,
            ));
        }
        Ok(())
    }

    /// The rest of an expression after its disjunction: a conditional
    /// expression, or CPython's checks for a stray expression after it.
    #[inline(never)]
    fn expression_tail(&mut self, start: usize, body: Expr) -> PResult<Expr> {
        if self.peek() != Tok::If {
            self.invalid_expression(start, &body)?;
            return Ok(body);
        }
        let if_pos = self.pos;
        self.bump();
        let test_start = self.pos;
        let test = match self.disjunction() {
            Ok(t) => t,
            // CPython's PEG rule would settle for the longest prefix that
            // parses and then find no `else` after it.
            Err(e) if self.checks && super::parser::is_generic(&e) => {
                let end = self.pos;
                self.pos = test_start;
                let prefix = self.probe(|p| p.atom()).is_some();
                self.pos = end;
                if prefix {
                    return Err(self.error_at("expected 'else' after 'if' expression", body.line));
                }
                return Err(e);
            }
            // In a probe, the PEG rule's other alternative: the plain
            // disjunction.
            Err(e) if self.settles(&e) => {
                self.pos = if_pos;
                return Ok(body);
            }
            Err(e) => return Err(e),
        };
        if !self.eat(Tok::Else) {
            if self.checks && self.peek() != Tok::Colon {
                return Err(self.error_at("expected 'else' after 'if' expression", body.line));
            }
            // As CPython's PEG rule does, fall back to the plain
            // disjunction; the caller then fails at the `if`.
            self.pos = if_pos;
            return Ok(body);
        }
        self.enter()?;
        let orelse = self.expression();
        self.leave();
        if let Err(e) = &orelse
            && self.settles(e)
        {
            self.pos = if_pos;
            return Ok(body);
        }
        // Where the body starts, parentheses included.
        let at = self.toks.get(start).map_or(pos_of(&body), |t| t.pos());
        Ok(mk(
            at,
            ExprKind::IfExp {
                test: Box::new(test),
                body: Box::new(body),
                orelse: Box::new(orelse?),
            },
        ))
    }

    /// CPython's `invalid_expression` / `invalid_legacy_expression`: a
    /// complete expression followed by the start of another one.
    #[cold]
    #[inline(never)]
    fn invalid_expression(&mut self, start: usize, a: &Expr) -> PResult<()> {
        let first = self.toks.get(start).copied();
        let first_text = first.map(|t| self.text(t)).unwrap_or("");
        let is_name = first.is_some_and(|t| t.kind == Tok::Name);
        let single_name = is_name && start + 1 == self.pos;
        let legacy = matches!(&a.kind, ExprKind::Name { id, .. } if id == "print" || id == "exec");
        // `a b` inside brackets: probably a missing comma.
        let name_string = is_name
            && self
                .toks
                .get(start + 1)
                .is_some_and(|t| t.kind == Tok::String);
        let soft = is_name && matches!(first_text, "match" | "case" | "_");
        if !(name_string || soft)
            && self.probe(|p| p.expression()).is_some()
            && !legacy
            && self.level > 0
        {
            return Err(self.error_at("invalid syntax. Perhaps you forgot a comma?", a.line));
        }
        // `name <star_expressions>`: CPython parses the rest with its error
        // rules on (which may report an error inside it), and calls it a
        // Python 2 statement for `print` and `exec`.
        if single_name && self.peek() != Tok::LPar {
            self.enter()?;
            let r = self.reparse(|p| p.star_expressions());
            self.leave();
            if r? && legacy && matches!(first_text, "print" | "exec") {
                return Err(self.error_at(
                    format!(
                        "Missing parentheses in call to '{first_text}'. Did you mean {first_text}(...)?"
                    ),
                    a.line,
                ));
            }
        }
        Ok(())
    }

    /// `disjunction`: everything from `or` down to primaries.
    pub fn disjunction(&mut self) -> PResult<Expr> {
        self.operators(PREC_OR)
    }

    /// `bitwise_or`: binary operators, unary operators and primaries.
    pub fn bitwise_or(&mut self) -> PResult<Expr> {
        self.operators(PREC_BITOR)
    }

    /// Operator-precedence parsing of `disjunction` (or, from
    /// `min = PREC_BITOR`, of `bitwise_or`) with explicit stacks.
    ///
    /// CPython's grammar spells these as a dozen nested rules; parsing them
    /// in one loop keeps the Rust stack per bracket level small, which is
    /// what lets 200 nested brackets parse on a small stack.
    fn operators(&mut self, min: u8) -> PResult<Expr> {
        // Fast path: a lone operand (most expressions) allocates nothing.
        let prefix = matches!(self.peek(), Tok::Minus | Tok::Plus | Tok::Tilde)
            || (self.peek() == Tok::Not && min <= PREC_NOT);
        if !prefix {
            let start = self.here();
            let first = if self.peek() == Tok::Await {
                self.await_primary()?
            } else {
                let e = match self.peek() {
                    Tok::LPar | Tok::LSqb | Tok::LBrace => self.bracket()?,
                    _ => self.simple_atom()?,
                };
                self.trailers(e, start)?
            };
            if self.infix(min).is_none() {
                return Ok(first);
            }
            return self.operators_slow(min, Some((first, start)));
        }
        self.operators_slow(min, None)
    }

    /// The infix operator at the cursor, if it is one at level `min` or
    /// above (without consuming it).
    fn infix(&mut self, min: u8) -> Option<Infix> {
        let op = match self.peek() {
            Tok::Or => Infix::Bool(BoolOp::Or),
            Tok::And => Infix::Bool(BoolOp::And),
            Tok::EqEqual => Infix::Cmp(CmpOp::Eq),
            Tok::NotEqual => Infix::Cmp(CmpOp::NotEq),
            Tok::Less => Infix::Cmp(CmpOp::Lt),
            Tok::LessEqual => Infix::Cmp(CmpOp::LtE),
            Tok::Greater => Infix::Cmp(CmpOp::Gt),
            Tok::GreaterEqual => Infix::Cmp(CmpOp::GtE),
            Tok::In => Infix::Cmp(CmpOp::In),
            Tok::Is => Infix::Cmp(if self.peek_at(1) == Tok::Not {
                CmpOp::IsNot
            } else {
                CmpOp::Is
            }),
            Tok::Not if self.peek_at(1) == Tok::In => Infix::Cmp(CmpOp::NotIn),
            Tok::DoubleStar => Infix::Pow,
            t => match binop(t) {
                Some((op, p)) => Infix::Bin(op, p),
                None => return None,
            },
        };
        (op.prec() >= min).then_some(op)
    }

    #[inline(never)]
    fn operators_slow(&mut self, min: u8, first: Option<(Expr, Pos)>) -> PResult<Expr> {
        // Operands with the position of their first token: a node starts
        // where its first operand starts, parentheses included.
        let mut operands: Vec<(Expr, Pos)> = Vec::new();
        let mut ops: Vec<Op> = Vec::new();
        let mut allow_not = min <= PREC_NOT;
        let mut pending = first;
        // The last infix operator taken, to give back when the operand
        // after it fails in a probe.
        let mut last_infix: Option<InfixUndo> = None;
        loop {
            let operand = match pending.take() {
                Some(e) => e,
                None => {
                    let before = (ops.len(), operands.len());
                    match self.prefixed_operand(&mut ops, &mut operands, &mut allow_not) {
                        Ok(operand) => operand,
                        // With the checks off (a probe: CPython's rules
                        // without their error alternatives), the operators
                        // settle for what parsed before the infix operator,
                        // as CPython's PEG rules do.
                        Err(e) => match last_infix.take() {
                            Some(undo) if self.settles(&e) => {
                                ops.truncate(before.0);
                                operands.truncate(before.1);
                                undo.apply(self, &mut ops);
                                break;
                            }
                            _ => return Err(e),
                        },
                    }
                }
            };
            operands.push(operand);
            let Some(infix) = self.infix(min) else {
                break;
            };
            let infix_pos = self.pos;
            self.bump();
            if matches!(infix, Infix::Cmp(CmpOp::IsNot | CmpOp::NotIn)) {
                self.bump();
            }
            self.link()?;
            let prec = infix.prec();
            // Reduce what binds tighter (or as tight, for left-associative
            // operators); `**` is right-associative.
            let right_assoc = matches!(infix, Infix::Pow);
            while let Some(top) = ops.last() {
                let p = top.prec();
                let merge = match (top, infix) {
                    (Op::Bool(a, _), Infix::Bool(b)) => *a == b,
                    (Op::Cmp(_), Infix::Cmp(_)) => true,
                    _ => false,
                };
                if merge || p < prec || (right_assoc && p == prec) {
                    break;
                }
                reduce(&mut ops, &mut operands);
            }
            let pushed = match (ops.last_mut(), infix) {
                (Some(Op::Bool(a, n)), Infix::Bool(b)) if *a == b => {
                    *n += 1;
                    Pushed::BoolCount
                }
                (Some(Op::Cmp(list)), Infix::Cmp(c)) => {
                    list.push(c);
                    Pushed::CmpOp
                }
                (_, Infix::Bool(b)) => {
                    ops.push(Op::Bool(b, 2));
                    Pushed::Op
                }
                (_, Infix::Cmp(c)) => {
                    ops.push(Op::Cmp(vec![c]));
                    Pushed::Op
                }
                (_, Infix::Bin(op, p)) => {
                    ops.push(Op::Bin(op, p));
                    Pushed::Op
                }
                (_, Infix::Pow) => {
                    ops.push(Op::Bin(Operator::Pow, PREC_POW));
                    Pushed::Op
                }
            };
            last_infix = Some(InfixUndo {
                pos: infix_pos,
                pushed,
            });
            allow_not = matches!(infix, Infix::Bool(_));
        }
        while !ops.is_empty() {
            reduce(&mut ops, &mut operands);
        }
        operands
            .pop()
            .map(|o| o.0)
            .ok_or_else(|| self.syntax_error())
    }

    /// Unary prefix operators (pushed onto `ops`, with placeholder
    /// operands) and the operand after them.
    fn prefixed_operand(
        &mut self,
        ops: &mut Vec<Op>,
        operands: &mut Vec<(Expr, Pos)>,
        allow_not: &mut bool,
    ) -> PResult<(Expr, Pos)> {
        loop {
            let op = match self.peek() {
                Tok::Not if *allow_not => Op::Not,
                Tok::Minus => Op::Unary(UnaryOp::USub),
                Tok::Plus => Op::Unary(UnaryOp::UAdd),
                Tok::Tilde => Op::Unary(UnaryOp::Invert),
                _ => break,
            };
            let at = self.bump().pos();
            self.link()?;
            if !matches!(op, Op::Not) {
                *allow_not = false;
            }
            ops.push(op);
            operands.push((mk(at, ExprKind::Constant(Constant::None)), at));
        }
        let start = self.here();
        Ok((self.operand()?, start))
    }

    /// An operand: `await primary` or a primary.
    fn operand(&mut self) -> PResult<Expr> {
        if self.peek() == Tok::Await {
            return self.await_primary();
        }
        self.primary()
    }

    #[inline(never)]
    fn await_primary(&mut self) -> PResult<Expr> {
        let t = self.bump();
        let value = self.primary()?;
        Ok(mk(t.pos(), ExprKind::Await(Box::new(value))))
    }

    /// `primary`: an atom followed by `.name`, calls and subscripts.
    pub fn primary(&mut self) -> PResult<Expr> {
        let start = self.here();
        let e = self.atom()?;
        self.trailers(e, start)
    }

    /// Calls, subscripts and attributes after a primary. As in CPython's
    /// PEG rules, a trailer that fails to parse is backtracked over (the
    /// caller then fails at it), so the rules around can still see the
    /// primary before it. With the checks off (a probe: CPython's rules
    /// without their error alternatives), a specific error inside the
    /// trailer is such a failure too (`f(x y(a=1, 'k'))` is "forgot a
    /// comma", as `y` alone is an expression), but reading the end of an
    /// unclosed bracket is the tokenizer's error ([`Parser::settles`]).
    #[inline]
    fn trailers(&mut self, mut e: Expr, start: Pos) -> PResult<Expr> {
        loop {
            let t = self.peek();
            if !matches!(t, Tok::LPar | Tok::LSqb | Tok::Dot) {
                return Ok(e);
            }
            let (pos, chain, level, depth) = (self.pos, self.chain, self.level, self.depth);
            let r = match t {
                Tok::LPar => self.call_parts().map(|(a, k)| Trailer::Call(a, k)),
                Tok::LSqb => self.subscript_parts().map(Trailer::Subscript),
                _ => self.attribute_parts().map(Trailer::Attribute),
            };
            let kind = match r {
                Ok(Trailer::Call(args, keywords)) => ExprKind::Call {
                    func: Box::new(e),
                    args,
                    keywords,
                },
                Ok(Trailer::Subscript(slice)) => ExprKind::Subscript {
                    value: Box::new(e),
                    slice: Box::new(slice),
                    ctx: ExprContext::Load,
                },
                Ok(Trailer::Attribute(attr)) => ExprKind::Attribute {
                    value: Box::new(e),
                    attr: attr.into(),
                    ctx: ExprContext::Load,
                },
                Err(err)
                    if if self.checks {
                        super::parser::is_generic(&err) && self.fatal.borrow().is_none()
                    } else {
                        self.settles(&err)
                    } =>
                {
                    self.pos = pos;
                    self.chain = chain;
                    self.level = level;
                    self.depth = depth;
                    return Ok(e);
                }
                Err(err) => return Err(err),
            };
            e = mk(start, kind);
        }
    }

    /// `.name` after a primary.
    #[inline(never)]
    fn attribute_parts(&mut self) -> PResult<String> {
        self.link()?;
        self.bump();
        let name = self.expect(Tok::Name)?;
        Ok(self.text(name).to_string())
    }

    /// `[slices]` after a primary.
    #[inline(never)]
    fn subscript_parts(&mut self) -> PResult<Expr> {
        self.link()?;
        self.bump();
        self.level += 1;
        self.enter()?;
        let slice = self.slices();
        self.leave();
        self.level -= 1;
        let slice = slice?;
        self.expect(Tok::RSqb)?;
        Ok(slice)
    }

    /// `slices`: one slice, or a tuple of slices and starred expressions.
    fn slices(&mut self) -> PResult<Expr> {
        let at = self.here();
        let first = self.slice_item()?;
        // A lone `*x` is still a tuple: `slice` cannot be starred.
        if self.peek() != Tok::Comma && !matches!(first.kind, ExprKind::Starred { .. }) {
            return Ok(first);
        }
        let mut elts = vec![first];
        while self.eat(Tok::Comma) {
            let t = self.peek();
            if !(starts_expr(t) || t == Tok::Star || t == Tok::Colon) {
                break;
            }
            elts.push(self.slice_item()?);
        }
        Ok(mk(
            at,
            ExprKind::Tuple {
                elts,
                ctx: ExprContext::Load,
            },
        ))
    }

    fn slice_item(&mut self) -> PResult<Expr> {
        match self.peek() {
            Tok::Star => return self.starred(),
            Tok::Colon => {}
            _ => {
                let at = self.here();
                let e = self.named_expression()?;
                if self.peek() != Tok::Colon {
                    return Ok(e);
                }
                return self.slice_rest(at, Some(e));
            }
        }
        let at = self.here();
        self.slice_rest(at, None)
    }

    /// The part of a slice after its lower bound, at the first `:`.
    fn slice_rest(&mut self, at: Pos, lower: Option<Expr>) -> PResult<Expr> {
        if let Some(Expr {
            kind: ExprKind::NamedExpr { .. },
            ..
        }) = &lower
        {
            return Err(self.syntax_error());
        }
        self.expect(Tok::Colon)?;
        let upper = if starts_expr(self.peek()) {
            Some(Box::new(self.expression()?))
        } else {
            None
        };
        let mut step = None;
        if self.eat(Tok::Colon) && starts_expr(self.peek()) {
            step = Some(Box::new(self.expression()?));
        }
        Ok(mk(
            at,
            ExprKind::Slice {
                lower: lower.map(Box::new),
                upper,
                step,
            },
        ))
    }

    /// `(arguments)` after a primary.
    #[inline(never)]
    fn call_parts(&mut self) -> PResult<(Vec<Expr>, Vec<Keyword>)> {
        self.link()?;
        let open = self.bump();
        self.level += 1;
        self.enter()?;
        let r = self.arguments(Tok::RPar, Some(open.pos()));
        self.leave();
        self.level -= 1;
        r
    }

    /// Call (or class) arguments up to and including `close`. With
    /// `genexp_at`, a lone generator expression is allowed unparenthesized.
    pub fn arguments(
        &mut self,
        close: Tok,
        genexp_at: Option<Pos>,
    ) -> PResult<(Vec<Expr>, Vec<Keyword>)> {
        let mut args = Vec::new();
        let mut keywords: Vec<Keyword> = Vec::new();
        let mut saw_kw_unpack = false;
        let mut sib = self.siblings();
        while self.peek() != close {
            self.next_sibling(&mut sib);
            match self.peek() {
                Tok::Star => {
                    if saw_kw_unpack {
                        return Err(self.error_here(
                            "iterable argument unpacking follows keyword argument unpacking",
                        ));
                    }
                    args.push(self.star_arg()?);
                }
                Tok::DoubleStar => {
                    saw_kw_unpack = true;
                    keywords.push(self.keyword_arg(true)?);
                }
                Tok::Name if self.peek_at(1) == Tok::Equal => {
                    keywords.push(self.keyword_arg(false)?);
                }
                _ => {
                    let alone = args.is_empty() && keywords.is_empty();
                    let e = self.positional_arg(close, genexp_at, alone)?;
                    if !keywords.is_empty() {
                        return Err(self.positional_after_keyword(&e, saw_kw_unpack));
                    }
                    args.push(e);
                }
            }
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.end_siblings(sib);
        self.expect(close)?;
        Ok((args, keywords))
    }

    #[inline(never)]
    fn star_arg(&mut self) -> PResult<Expr> {
        let star = self.bump();
        let value = self.expression()?;
        Ok(mk(
            star.pos(),
            ExprKind::Starred {
                value: Box::new(value),
                ctx: ExprContext::Load,
            },
        ))
    }

    /// `name=value` or (with `unpack`) `**value`.
    #[inline(never)]
    fn keyword_arg(&mut self, unpack: bool) -> PResult<Keyword> {
        let t = self.bump();
        if unpack {
            let value = self.expression()?;
            return Ok(Keyword {
                line: t.line,
                col: t.col,
                arg: None,
                value,
            });
        }
        self.bump();
        let value = self.expression()?;
        if self.peek() == Tok::For && self.checks {
            return Err(self.error_at(
                "invalid syntax. Maybe you meant '==' or ':=' instead of '='?",
                t.line,
            ));
        }
        Ok(Keyword {
            line: t.line,
            col: t.col,
            arg: Some(self.text(t).to_string()),
            value,
        })
    }

    /// A positional argument, or (with `genexp_at`) a lone generator
    /// expression, which starts at the call's `(`.
    #[inline(never)]
    fn positional_arg(&mut self, close: Tok, genexp_at: Option<Pos>, alone: bool) -> PResult<Expr> {
        let start_line = self.line();
        // `assignment_expression | expression`: CPython's call arguments do
        // not go through `named_expression` and its error rules.
        let e = if self.peek() == Tok::Name && self.peek_at(1) == Tok::ColonEqual {
            self.named_expression()?
        } else {
            self.expression()?
        };
        if matches!(self.peek(), Tok::For | Tok::Async) {
            let generators = self.comprehension_clauses()?;
            return match genexp_at {
                Some(at) if alone && self.peek() == close => Ok(mk(
                    at,
                    ExprKind::GeneratorExp {
                        elt: Box::new(e),
                        generators,
                    },
                )),
                // A lone generator expression followed by something other
                // than `,` is a plain syntax error in CPython.
                _ if alone && self.peek() != Tok::Comma => Err(self.syntax_error()),
                _ => Err(self.error_at("Generator expression must be parenthesized", start_line)),
            };
        }
        if self.peek() == Tok::Equal {
            return Err(self.keyword_target_error(&e));
        }
        Ok(e)
    }

    #[cold]
    fn positional_after_keyword(&self, e: &Expr, unpack: bool) -> super::error::ParseError {
        let msg = if unpack {
            "positional argument follows keyword argument unpacking"
        } else {
            "positional argument follows keyword argument"
        };
        self.error_at(msg, e.line)
    }

    /// `f(x.y=1)`, `f(True=1)`: CPython's `invalid_kwarg` messages.
    #[cold]
    fn keyword_target_error(&self, e: &Expr) -> super::error::ParseError {
        match &e.kind {
            ExprKind::Constant(Constant::Bool(b)) => self.error_at(
                format!("cannot assign to {}", if *b { "True" } else { "False" }),
                e.line,
            ),
            ExprKind::Constant(Constant::None) => self.error_at("cannot assign to None", e.line),
            _ => self.error_at(
                "expression cannot contain assignment, perhaps you meant \"==\"?",
                e.line,
            ),
        }
    }

    /// `lambda params: body`.
    fn lambdef(&mut self) -> PResult<Expr> {
        let t = self.bump();
        self.enter()?;
        let r = self.lambda_rest();
        self.leave();
        let (args, body) = r?;
        Ok(mk(
            t.pos(),
            ExprKind::Lambda {
                args: Box::new(args),
                body: Box::new(body),
            },
        ))
    }

    fn lambda_rest(&mut self) -> PResult<(crate::syntax::ast::Arguments, Expr)> {
        let args = self.parameters(Tok::Colon, false)?;
        self.expect(Tok::Colon)?;
        let body = self.expression()?;
        Ok((args, body))
    }

    /// `for ... in ... if ...` clauses of a comprehension.
    pub fn comprehension_clauses(&mut self) -> PResult<Vec<Comprehension>> {
        let mut gens = Vec::new();
        loop {
            let is_async = if self.peek() == Tok::Async && self.peek_at(1) == Tok::For {
                self.bump();
                true
            } else {
                false
            };
            if !self.eat(Tok::For) {
                break;
            }
            let target_line = self.line();
            let target = self.for_target()?;
            self.expect_in(target_line)?;
            let iter = self.disjunction()?;
            let mut ifs = Vec::new();
            while self.eat(Tok::If) {
                ifs.push(self.disjunction()?);
            }
            gens.push(Comprehension {
                target,
                iter,
                ifs,
                is_async,
            });
        }
        Ok(gens)
    }

    /// The `in` of a `for`; a target followed by another expression is
    /// CPython's "forgot a comma" inside brackets.
    pub fn expect_in(&mut self, target_line: u32) -> PResult<()> {
        if self.eat(Tok::In) {
            return Ok(());
        }
        if self.checks
            && self.level > 0
            && starts_expr(self.peek())
            && self.probe(|p| p.expression()).is_some()
        {
            return Err(self.error_at("invalid syntax. Perhaps you forgot a comma?", target_line));
        }
        Err(self.syntax_error())
    }

    /// `yield [from] ...`.
    pub fn yield_expr(&mut self) -> PResult<Expr> {
        let t = self.bump();
        if self.eat(Tok::From) {
            let value = self.expression()?;
            return Ok(mk(t.pos(), ExprKind::YieldFrom(Box::new(value))));
        }
        let t2 = self.peek();
        let value = if starts_expr(t2) || t2 == Tok::Star {
            Some(Box::new(self.star_expressions()?))
        } else {
            None
        };
        Ok(mk(t.pos(), ExprKind::Yield(value)))
    }
}
