//! `'template' % args` with the template a constant of the program (the
//! common way to use `%` formatting), run as one node (lowered by
//! `lower/percent.rs`).
//!
//! Run as a binary operation, each use looks the template up in a cache
//! keyed by its text (hashing it) and, for a tuple display on the right,
//! builds the tuple only for the formatter to read its items. Here the
//! template is parsed once, on first use, into the node; a tuple display's
//! items are evaluated left to right into a scratch array on the stack and
//! formatted from there. The items are exactly the tuple's, so values,
//! errors (type, message and line) and the order of evaluation are those of
//! the binary operation.

use super::expr::{at_line, check_stack};
use crate::interp::Interp;
use crate::interp::ir::{PercentArgs, PercentCall};
use crate::runtime::error::R;
use crate::types::formatting::{parse_percent_template, percent_items, percent_parsed};
use crate::value::Value;

/// Items a tuple display may have to be formatted from the stack.
const STACK_ITEMS: usize = 8;

impl Interp<'_> {
    /// Evaluates a [`PercentCall`]; errors of the formatting report `line`.
    #[inline(never)]
    pub(super) fn eval_percent(&mut self, p: &PercentCall, line: u32) -> R<Value> {
        check_stack()?;
        let parsed = p
            .parsed
            .get_or_init(|| parse_percent_template(p.template.as_str()));
        let text = match &p.args {
            PercentArgs::One(e) => {
                let v = self.eval(e)?;
                percent_parsed(&mut self.budget, parsed, &v)
            }
            PercentArgs::Items(es) if es.len() <= STACK_ITEMS => {
                let mut buf = [const { Value::None }; STACK_ITEMS];
                for (slot, e) in buf.iter_mut().zip(es) {
                    *slot = self.eval(e)?;
                }
                percent_items(&mut self.budget, parsed, &buf[..es.len()], None)
            }
            PercentArgs::Items(es) => {
                let mut items = Vec::with_capacity(es.len());
                for e in es {
                    items.push(self.eval(e)?);
                }
                percent_items(&mut self.budget, parsed, &items, None)
            }
        };
        text.map(Value::str).map_err(|ex| at_line(ex, line))
    }
}
