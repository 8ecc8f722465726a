//! Numeric fast paths: reading the [`Fast`] trees that lowering
//! (`lower/fast.rs`) keeps beside a binary operation or a comparison.
//!
//! A binary operation (`+ - * / // %`) or a single comparison whose operands
//! are names, number constants and items of named lists or tuples
//! (`row[0]`, `xs[i]`), or such operations a few levels deep, is
//! lowered to a [`Fast`] tree kept beside its general form. At run time the
//! tree is read in place: slots are borrowed rather than cloned, and no
//! `R<Value>`, stack check or line mapping is made per node. When an operand
//! holds anything but an int, a float or a bool, or a result would leave the
//! i64/f64 cases (overflow into a big int, division by zero, an int too large
//! to compare with a float exactly), the tree answers nothing. An arithmetic
//! tree whose leaves all hold ints then runs once more over exact ints of
//! any size ([`Int`]: big leaves borrowed, inner results temporaries updated
//! in place); past that (a float or any other value with a big int, any
//! error) the general form runs from the start. Reading the tree has no side effect and raises
//! nothing, so running both is never observable: values, errors, their lines
//! and the step meter are those of the general form.

use super::expr::at_line;
use crate::interp::Interp;
use crate::interp::ir::{Fast, FastBin, FastCmp};
use crate::runtime::error::R;
use crate::syntax::ast::{CmpOp, Operator};
use crate::types::int::big::{Int, int_op};
use crate::types::ops::{float_divmod, int_fast, ordered};
use crate::value::Value;

/// Ints of at most this magnitude convert to float exactly.
const EXACT_F64: u64 = 1 << 53;

/// A number read from a slot or computed by a fast tree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Num {
    I(i64),
    F(f64),
}

impl Num {
    /// The number a value holds (a bool is the int 0 or 1).
    #[inline(always)]
    pub(crate) fn of(v: &Value) -> Option<Num> {
        match v {
            Value::Int(_, i) => Some(Num::I(*i)),
            Value::Float(_, x) => Some(Num::F(x.get())),
            Value::Bool(b) => Some(Num::I(*b as i64)),
            _ => None,
        }
    }

    /// As a value.
    #[inline(always)]
    pub(crate) fn value(self) -> Value {
        match self {
            Num::I(i) => Value::int(i),
            Num::F(x) => Value::float(x),
        }
    }
}

/// `a op b` when both are numbers and the result needs no big int and no
/// error; `None` otherwise (the general path then decides).
#[inline(always)]
pub(crate) fn arith(op: Operator, a: Num, b: Num) -> Option<Num> {
    let (x, y) = match (a, b) {
        (Num::I(x), Num::I(y)) => {
            if op == Operator::Div {
                // True division of ints that convert exactly: one correctly
                // rounded float division, as CPython's.
                return (y != 0 && x.unsigned_abs() < EXACT_F64 && y.unsigned_abs() < EXACT_F64)
                    .then(|| Num::F(x as f64 / y as f64));
            }
            return int_fast(op, x, y).map(Num::I);
        }
        (Num::F(x), Num::F(y)) => (x, y),
        // Rust's int-to-float conversion rounds to nearest even, as
        // CPython's int.__float__ does.
        (Num::F(x), Num::I(y)) => (x, y as f64),
        (Num::I(x), Num::F(y)) => (x as f64, y),
    };
    Some(Num::F(match op {
        Operator::Add => x + y,
        Operator::Sub => x - y,
        Operator::Mult => x * y,
        Operator::Div if y != 0.0 => x / y,
        Operator::FloorDiv if y != 0.0 => float_divmod(x, y).0,
        Operator::Mod if y != 0.0 => float_divmod(x, y).1,
        _ => return None,
    }))
}

/// `a op b` for a comparison operator, when it can be answered exactly.
#[inline(always)]
fn compare(op: CmpOp, a: Num, b: Num) -> Option<bool> {
    let (x, y) = match (a, b) {
        (Num::I(x), Num::I(y)) => return ordered(op, x, y),
        (Num::F(x), Num::F(y)) => (x, y),
        // CPython compares an int with a float exactly: only ints that
        // convert exactly are compared as floats here.
        (Num::I(x), Num::F(y)) if x.unsigned_abs() <= EXACT_F64 => (x as f64, y),
        (Num::F(x), Num::I(y)) if y.unsigned_abs() <= EXACT_F64 => (x, y as f64),
        _ => return None,
    };
    // IEEE comparisons: NaN is unequal and unordered, as in Python.
    ordered(op, x, y)
}

impl Interp<'_> {
    /// The number an operand holds now, if it is one.
    #[inline(always)]
    fn num(&self, f: &Fast) -> Option<Num> {
        let v = match f {
            Fast::Local(s) => self.stack.get(self.base + *s as usize)?.as_ref()?,
            Fast::Global(s) => self.globals.get(*s as usize)?.as_ref()?,
            Fast::Int(i) => return Some(Num::I(*i)),
            Fast::Float(x) => return Some(Num::F(*x)),
            Fast::Bin(b) => return self.num_bin(b.1, &b.0, &b.2),
            Fast::Item(b) => return self.num_item(&b.0, &b.1),
        };
        Num::of(v)
    }

    /// A number item of a list or tuple, read in place.
    #[inline(never)]
    fn num_item(&self, c: &Fast, i: &Fast) -> Option<Num> {
        let Num::I(i) = self.num(i)? else {
            return None;
        };
        let v = match c {
            Fast::Local(s) => self.stack.get(self.base + *s as usize)?.as_ref()?,
            Fast::Global(s) => self.globals.get(*s as usize)?.as_ref()?,
            _ => return None,
        };
        let at = |n: usize| -> Option<usize> {
            let j = if i < 0 { i.checked_add(n as i64)? } else { i };
            usize::try_from(j).ok().filter(|&j| j < n)
        };
        match v {
            Value::Tuple(t) => Num::of(t.items.get(at(t.items.len())?)?),
            Value::List(l) => {
                let l = l.try_borrow().ok()?;
                Num::of(l.items.get(at(l.items.len())?)?)
            }
            _ => None,
        }
    }

    #[inline(never)]
    fn num_bin(&self, op: Operator, l: &Fast, r: &Fast) -> Option<Num> {
        arith(op, self.num(l)?, self.num(r)?)
    }

    /// Evaluates a lowered binary operation.
    #[inline(never)]
    pub(crate) fn eval_fast_bin(&mut self, b: &FastBin, line: u32) -> R<Value> {
        if let Some(a) = self.num(&b.l)
            && let Some(c) = self.num(&b.r)
            && let Some(n) = arith(b.op, a, c)
        {
            return Ok(n.value());
        }
        if let Some(v) = self.int_tree(b.op, &b.l, &b.r) {
            return Ok(v.into_value());
        }
        self.eval_binop(&b.left, b.op, &b.right, line)
    }

    /// `l op r` over ints of any size (bools as ints), when the tree's
    /// leaves all hold ints and no step raises: a big leaf is read in
    /// place and every inner result is a temporary the next operation
    /// updates in place. `None` lets the general form run (and raise).
    #[inline(never)]
    fn int_tree(&self, op: Operator, l: &Fast, r: &Fast) -> Option<Int<'static>> {
        let x = self.int_leaf(l)?;
        let y = self.int_leaf(r)?;
        int_op(op, x, y)?.ok()
    }

    /// An operand of an int tree.
    #[inline(always)]
    fn int_leaf(&self, f: &Fast) -> Option<Int<'_>> {
        let v = match f {
            Fast::Local(s) => self.stack.get(self.base + *s as usize)?.as_ref()?,
            Fast::Global(s) => self.globals.get(*s as usize)?.as_ref()?,
            Fast::Int(i) => return Some(Int::S(*i)),
            Fast::Float(_) => return None,
            Fast::Bin(b) => return self.int_tree(b.1, &b.0, &b.2),
            // Items are read as numbers (a big item declines).
            Fast::Item(b) => {
                return match self.num_item(&b.0, &b.1)? {
                    Num::I(i) => Some(Int::S(i)),
                    Num::F(_) => None,
                };
            }
        };
        Int::of(v)
    }

    /// A lowered comparison's answer, when the fast path has one.
    #[inline(always)]
    pub(crate) fn fast_cmp(&self, c: &FastCmp) -> Option<bool> {
        compare(c.op, self.num(&c.l)?, self.num(&c.r)?)
    }

    /// Evaluates a lowered comparison for its value.
    #[inline(never)]
    pub(crate) fn eval_fast_cmp(&mut self, c: &FastCmp, line: u32) -> R<Value> {
        if let Some(b) = self.fast_cmp(c) {
            return Ok(Value::Bool(b));
        }
        crate::interp::eval::expr::check_stack().map_err(|ex| at_line(ex, line))?;
        self.eval_compare(&c.left, &c.rest)
            .map_err(|ex| at_line(ex, line))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_arith_stays_exact_or_declines() {
        assert_eq!(
            arith(Operator::Add, Num::I(i64::MAX), Num::I(1)),
            None,
            "overflow goes to the big-int path"
        );
        assert_eq!(arith(Operator::Mod, Num::I(-7), Num::I(3)), Some(Num::I(2)));
        assert_eq!(arith(Operator::FloorDiv, Num::I(7), Num::I(0)), None);
        assert_eq!(
            arith(Operator::Div, Num::I(1), Num::I(4)),
            Some(Num::F(0.25))
        );
        assert_eq!(arith(Operator::Div, Num::I(1 << 60), Num::I(3)), None);
        assert_eq!(arith(Operator::Mod, Num::F(1.0), Num::I(0)), None);
        assert_eq!(
            arith(Operator::Mod, Num::F(-1.0), Num::I(3)),
            Some(Num::F(2.0))
        );
    }

    #[test]
    fn mixed_compare_is_exact_or_declines() {
        let big = (1i64 << 53) + 1;
        assert_eq!(compare(CmpOp::Eq, Num::I(big), Num::F(big as f64)), None);
        assert_eq!(compare(CmpOp::Lt, Num::I(1), Num::F(f64::NAN)), Some(false));
        assert_eq!(
            compare(CmpOp::NotEq, Num::F(f64::NAN), Num::F(f64::NAN)),
            Some(true)
        );
        assert_eq!(compare(CmpOp::Is, Num::I(1), Num::I(1)), None);
    }
}
