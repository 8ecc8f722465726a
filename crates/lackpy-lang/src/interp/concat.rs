//! Chains of `+` (`"id-" + str(i) + "/" + name`), lowered to one node.
//!
//! Python adds left to right: `a + b + c` is `(a + b) + c`. Run as nested
//! binary operations, a chain of N strings makes N - 1 growing temporaries
//! (each a copy or a reallocation) and N - 1 trips through the operator
//! dispatch. Here the operands are evaluated in order and, while they are
//! all strings, only collected; the text is then built once, at its final
//! size. The first operand that is not a string ends the collecting: the
//! strings so far are joined (exactly the value Python's left fold holds at
//! that point) and the rest of the chain is added one by one, as nested
//! operations would. So values, errors (type, message and line), the order
//! in which operands are evaluated and the memory checks (each step checks
//! the size of the text so far plus the new part, as one `str + str` does)
//! are those of the nested form.

use std::rc::Rc;

use super::Interp;
use super::code::{Expr, ExprKind};
use super::eval_expr::{at_line, check_stack};
use super::ops;
use crate::ast::Operator;
use crate::value::Value;
use crate::value::errors::R;
use crate::value::str::StrBuilder;

/// `first + rest[0] + rest[1] + …` (at least two `+`).
pub(crate) struct AddChain {
    pub first: Expr,
    /// The later operands, each with the line of the `+` that adds it (the
    /// line an error of that step reports).
    pub rest: Vec<(Expr, u32)>,
}

/// `left + right` (the general, not numerically lowered form), flattened
/// into an [`AddChain`] when `left` is itself an addition.
pub(crate) fn lower_add(left: Expr, right: Expr, line: u32) -> ExprKind {
    let Expr {
        line: left_line,
        kind,
    } = left;
    match kind {
        ExprKind::BinOp(ll, Operator::Add, lr) => ExprKind::AddChain(Box::new(AddChain {
            first: *ll,
            rest: vec![(*lr, left_line), (right, line)],
        })),
        ExprKind::AddChain(mut c) => {
            c.rest.push((right, line));
            ExprKind::AddChain(c)
        }
        kind => ExprKind::BinOp(
            Box::new(Expr {
                line: left_line,
                kind,
            }),
            Operator::Add,
            Box::new(right),
        ),
    }
}

/// Strings collected before they are joined; a long chain is joined every
/// [`Parts::CAP`] parts (the running text becomes the first part).
struct Parts {
    items: [Value; Parts::CAP],
    n: usize,
    bytes: usize,
}

impl Parts {
    const CAP: usize = 8;

    fn new(first: Value, bytes: usize) -> Self {
        let mut items = [const { Value::None }; Parts::CAP];
        items[0] = first;
        Parts { items, n: 1, bytes }
    }

    /// Adds a string of `len` bytes.
    fn push(&mut self, v: Value, len: usize) {
        if self.n == Parts::CAP {
            let joined = self.join();
            self.items[0] = joined;
            self.n = 1;
        }
        if let Some(slot) = self.items.get_mut(self.n) {
            *slot = v;
            self.n += 1;
        }
        self.bytes += len;
    }

    /// The text of the parts so far, as one string (the parts are
    /// released).
    fn join(&mut self) -> Value {
        let parts = &mut self.items[..self.n];
        if let [only] = parts {
            return std::mem::replace(only, Value::None);
        }
        let mut b = StrBuilder::with_len(self.bytes);
        let mut chars = 0;
        for p in parts.iter() {
            if let Value::Str(s) = p {
                b.push_str(s.as_str());
                chars += s.char_len();
            }
        }
        let joined = Value::Str(Rc::new(b.finish(chars)));
        for p in parts.iter_mut() {
            *p = Value::None;
        }
        joined
    }
}

impl Interp<'_> {
    /// Evaluates an [`AddChain`].
    #[inline(never)]
    pub(crate) fn eval_add_chain(&mut self, c: &AddChain) -> R<Value> {
        check_stack()?;
        let mut acc = self.eval(&c.first)?;
        let mut rest = c.rest.iter();
        if let Value::Str(s) = &acc {
            let bytes = s.as_str().len();
            let mut parts = Parts::new(acc, bytes);
            loop {
                let Some((e, line)) = rest.next() else {
                    return Ok(parts.join());
                };
                let v = self.eval(e)?;
                if let Value::Str(s) = &v {
                    let len = s.as_str().len();
                    self.budget
                        .check_memory(parts.bytes + len)
                        .map_err(|ex| at_line(ex, *line))?;
                    parts.push(v, len);
                } else {
                    acc = ops::binop(&mut self.budget, Operator::Add, parts.join(), v)
                        .map_err(|ex| at_line(ex, *line))?;
                    break;
                }
            }
        }
        for (e, line) in rest {
            let b = self.eval(e)?;
            if let (Value::Int(x), Value::Int(y)) = (&acc, &b)
                && let Some(v) = x.checked_add(*y)
            {
                acc = Value::Int(v);
                continue;
            }
            acc = ops::binop(&mut self.budget, Operator::Add, acc, b)
                .map_err(|ex| at_line(ex, *line))?;
        }
        Ok(acc)
    }
}
