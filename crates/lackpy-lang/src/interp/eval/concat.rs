//! Chains of `+` (`"id-" + str(i) + "/" + name`), run as one node
//! (lowered by `lower/concat.rs`).
//!
//! Python adds left to right: `a + b + c` is `(a + b) + c`. Run as nested
//! binary operations, a chain of N strings makes N - 1 growing temporaries
//! (each a copy or a reallocation) and N - 1 trips through the operator
//! dispatch. Here the operands are evaluated in order and, while they are
//! all strings, each one's text is copied as it comes into a scratch buffer
//! the interpreter keeps between chains (so collecting allocates nothing and
//! holds no operand); the string is then made once, at its final size, with
//! no UTF-8 check (whole strings were copied in). The first operand that is not a string ends the collecting: the
//! strings so far are joined (exactly the value Python's left fold holds at
//! that point) and the rest of the chain is added one by one, as nested
//! operations would. So values, errors (type, message and line), the order
//! in which operands are evaluated and the memory checks (each step checks
//! the size of the text so far plus the new part, as one `str + str` does)
//! are those of the nested form.

use super::expr::{at_line, check_stack};
use crate::interp::Interp;
use crate::interp::ir::{AddChain, Expr};
use crate::runtime::error::R;
use crate::syntax::ast::Operator;
use crate::types::ops;
use crate::types::str::PyStr;
use crate::value::{StrRc, Value};

/// A scratch buffer kept past this size is released (a chain that built
/// a large text does not pin it).
const KEEP_TEXT: usize = 1 << 16;

impl Interp<'_> {
    /// Evaluates an [`AddChain`].
    #[inline(never)]
    pub(crate) fn eval_add_chain(&mut self, c: &AddChain) -> R<Value> {
        check_stack()?;
        let first = self.eval(&c.first)?;
        let mut rest = c.rest.iter();
        let mut acc = first;
        if matches!(acc, Value::Str(_)) {
            // The scratch text is taken while collecting: an operand may
            // itself be a chain.
            let mut text = std::mem::take(&mut self.chain_text);
            let collected = self.collect_strs(acc, &mut rest, &mut text);
            text.clear();
            if text.capacity() <= KEEP_TEXT {
                self.chain_text = text;
            }
            let (joined, next) = collected?;
            acc = joined;
            if let Some((v, line)) = next {
                acc = ops::binop(&mut self.budget, Operator::Add, acc, v)
                    .map_err(|ex| at_line(ex, line))?;
            }
        }
        for (e, line) in rest {
            let b = self.eval(e)?;
            if let (Value::Int(_, x), Value::Int(_, y)) = (&acc, &b)
                && let Some(v) = x.checked_add(*y)
            {
                acc = Value::int(v);
                continue;
            }
            acc = ops::binop(&mut self.budget, Operator::Add, acc, b)
                .map_err(|ex| at_line(ex, *line))?;
        }
        Ok(acc)
    }

    /// Adds operands while they are strings, copying each one's text into
    /// `text` as it comes (the first is copied only once a second string
    /// follows). Returns the string so far and, if one came, the first
    /// operand that is not a string with the line of its `+`.
    fn collect_strs(
        &mut self,
        first: Value,
        rest: &mut std::slice::Iter<'_, (Expr, u32)>,
        text: &mut String,
    ) -> R<(Value, Option<(Value, u32)>)> {
        let mut bytes = match &first {
            Value::Str(s) => s.as_str().len(),
            _ => 0,
        };
        let mut started = false;
        // The one operand with text while every other is empty: the chain
        // is that operand itself, as CPython's `+` of an empty string gives.
        let mut sole = (bytes > 0).then(|| first.clone());
        let next = loop {
            let Some((e, line)) = rest.next() else {
                break None;
            };
            let v = self.eval(e)?;
            let Value::Str(s) = &v else {
                break Some((v, *line));
            };
            let len = s.as_str().len();
            self.budget
                .check_memory(bytes + len)
                .map_err(|ex| at_line(ex, *line))?;
            if !started {
                if let Value::Str(f) = &first {
                    text.push_str(f.as_str());
                }
                started = true;
            }
            text.push_str(s.as_str());
            if len > 0 {
                sole = (bytes == 0).then(|| v.clone());
            }
            bytes += len;
        };
        let joined = if let (true, Some(v)) = (started, sole) {
            v
        } else if started {
            // Counted once, from the joined text, and only when long.
            Value::Str(StrRc::new(PyStr::copied(text)))
        } else {
            first
        };
        Ok((joined, next))
    }
}
