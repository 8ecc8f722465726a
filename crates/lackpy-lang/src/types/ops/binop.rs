//! `a op b` and `a op= b`: the dispatch to numeric arithmetic
//! ([`crate::types::ops::arith`]), big ints ([`crate::types::int::big`]) and sequences
//! ([`crate::types::ops::sequence`]), with the small-int fast path first.

use crate::runtime::Budget;
use crate::runtime::error::{Exc, R};
use crate::syntax::ast::Operator;
use crate::types::caller::Caller;
use crate::types::int::{floordiv_i64, mod_i64};
use crate::types::ops::arith::{arith, float_arith, is_numeric_op, op_symbol};
use crate::types::ops::collect_iterable;
use crate::types::ops::sequence::{add, mul, repeat_count};
use crate::types::set::ops::sub;
use crate::value::Value;

/// `a op b`.
pub(crate) fn binop(budget: &mut Budget, op: Operator, a: Value, b: Value) -> R<Value> {
    // The small-int fast path.
    if let (Value::Int(_, x), Value::Int(_, y)) = (&a, &b) {
        let (x, y) = (*x, *y);
        match op {
            Operator::Add => {
                if let Some(r) = x.checked_add(y) {
                    return Ok(Value::int(r));
                }
            }
            Operator::Sub => {
                if let Some(r) = x.checked_sub(y) {
                    return Ok(Value::int(r));
                }
            }
            Operator::Mult => {
                if let Some(r) = x.checked_mul(y) {
                    return Ok(Value::int(r));
                }
            }
            Operator::FloorDiv => {
                if y == 0 {
                    return Err(crate::types::int::zero_division(op));
                }
                if let Some(r) = floordiv_i64(x, y) {
                    return Ok(Value::int(r));
                }
            }
            Operator::Mod => {
                if y == 0 {
                    return Err(crate::types::int::zero_division(op));
                }
                return Ok(Value::int(mod_i64(x, y)));
            }
            Operator::Div => {
                if y == 0 {
                    return Err(crate::types::int::zero_division(op));
                }
                if x.unsigned_abs() < (1 << 53) && y.unsigned_abs() < (1 << 53) {
                    return Ok(Value::float(x as f64 / y as f64));
                }
            }
            _ => {}
        }
    }
    // Floats, and a float with a small int (converted as CPython does,
    // correctly rounded): straight to the float arithmetic.
    if is_numeric_op(op) {
        let pair = match (&a, &b) {
            (Value::Float(_, x), Value::Float(_, y)) => Some((x.get(), y.get())),
            (Value::Float(_, x), Value::Int(_, y)) => Some((x.get(), *y as f64)),
            (Value::Int(_, x), Value::Float(_, y)) => Some((*x as f64, y.get())),
            _ => None,
        };
        if let Some((x, y)) = pair {
            return float_arith(op, x, y);
        }
    }
    // Ints of any size (an overflowing small case included) and bools:
    // exact int arithmetic, a big temporary updated in place.
    if matches!(
        op,
        Operator::Add | Operator::Sub | Operator::Mult | Operator::FloorDiv | Operator::Mod
    ) && crate::types::int::big::is_int(&a)
        && crate::types::int::big::is_int(&b)
    {
        return crate::types::int::big::int_values(op, a, b);
    }
    match op {
        Operator::Add => add(budget, a, b),
        Operator::Sub => sub(a, b),
        Operator::Mult => mul(budget, a, b),
        Operator::Div | Operator::FloorDiv => arith(op, &a, &b),
        Operator::Mod => {
            if let Value::Str(s) = &a {
                let text = crate::types::formatting::percent_format(budget, s.as_str(), &b)?;
                return Ok(Value::str(text));
            }
            arith(op, &a, &b)
        }
        _ => Err(Exc::forbidden(walk_op_name(op), 0)),
    }
}

fn walk_op_name(op: Operator) -> &'static str {
    crate::syntax::walk::operator_name(op)
}

/// `a op= b`: lists extend in place, everything else as `a op b`.
pub(crate) fn inplace(it: &mut dyn Caller, op: Operator, a: Value, b: Value) -> R<Value> {
    match (&a, op) {
        (Value::List(l), Operator::Add) => {
            let items = collect_iterable(&b)?;
            it.budget().check_memory(items.len() * 16)?;
            let items = items.into_vec();
            let has_container = items.iter().any(Value::is_container);
            match l.try_borrow_mut() {
                Ok(mut l) => {
                    l.items.extend(items);
                    l.sync();
                }
                Err(_) => return Err(crate::types::list::busy()),
            }
            if has_container {
                it.note_list_cycle(l);
            }
            Ok(a)
        }
        (Value::List(l), Operator::Mult) => {
            let n = repeat_count(&b)?;
            let len = l.try_borrow().map(|l| l.items.len()).unwrap_or(0);
            it.budget()
                .check_memory(len.saturating_mul(n).saturating_mul(16))?;
            if let Ok(mut l) = l.try_borrow_mut() {
                if n == 0 {
                    l.items.clear();
                } else {
                    let orig = l.items.clone();
                    for _ in 1..n {
                        l.items.extend(orig.iter().cloned());
                    }
                }
                l.sync();
            }
            Ok(a)
        }
        // `s -= t` updates `s` in place, as CPython does (the dummies it
        // leaves decide the later iteration order).
        (Value::Set(s), Operator::Sub) if matches!(b, Value::Set(_)) => {
            crate::types::set::methods::isub(it.budget(), s, &b)?;
            Ok(a)
        }
        // Python names the augmented operator when no method applies
        // (`unsupported operand type(s) for -=: 'str' and 'bool'`).
        _ => binop(it.budget(), op, a, b).map_err(|mut e| {
            let plain = format!("unsupported operand type(s) for {}:", op_symbol(op));
            if e.msg.starts_with(&plain) {
                e.msg = e.msg.replacen(
                    &plain,
                    &format!("unsupported operand type(s) for {}=:", op_symbol(op)),
                    1,
                );
            }
            e
        }),
    }
}
