//! The pre-sort check: one pass over the keys decides whether every pair of
//! them is comparable under a total order, and which comparator serves.
//!
//! When it is, no comparison can raise and `<` agrees with a total order,
//! so any stable sort gives exactly the order CPython's sort gives, and the
//! keys are compared in place by a typed comparator (no `Result`, no copies
//! of tuple items). Anything else (NaN, types that do not compare, nesting
//! past a bound) is left to the general sort, which asks Python's `<`.
//!
//! The check is work the program did not ask for, so it never costs more
//! than the sort would: it visits at most [`WORK_PER_KEY`] values a key
//! (plus [`WORK_BASE`]) and gives the general sort the keys when there are
//! more (keys sharing structure, `[[[[1]*100]*100]*100]`, hold
//! exponentially more positions than objects); its shape nodes are charged
//! to the memory budget, and every visited value ticks the meter (clock,
//! cancellation). The typed comparator ticks per element it reads too.

use std::cmp::Ordering;

use crate::runtime::error::R;
use crate::runtime::meter::{self, Charge};
use crate::types::int::{as_int, cmp_int_float};
use crate::value::Value;

/// Nesting of tuples and lists the check follows before giving up.
const MAX_DEPTH: u32 = 16;

/// Values the check may visit per key before it gives up.
const WORK_PER_KEY: usize = 64;

/// Values the check may visit whatever the number of keys.
const WORK_BASE: usize = 1 << 16;

/// Shape nodes charged to the memory budget at a time.
const CHARGE_NODES: usize = 1024;

/// What every key at one place is, merged over all keys.
#[derive(Debug)]
enum Shape {
    /// No key seen here yet.
    Nothing,
    /// Small ints only.
    Int,
    /// Floats only, none NaN.
    Float,
    /// Ints (any size), bools and non-NaN floats mixed.
    Num,
    /// Strings.
    Str,
    /// Tuples, with the shape of each position.
    Tuple(Vec<Shape>),
    /// Lists, with the shape of each position.
    List(Vec<Shape>),
}

/// The comparator a sort may use for its keys.
pub(super) enum Plan {
    /// Every key is an `i64`.
    Ints,
    /// Every key is a non-NaN float.
    Floats,
    /// Every key is a string.
    Strs,
    /// Every pair of keys compares under [`total_cmp`].
    Total,
    /// Some pair may raise or compare outside a total order.
    General,
}

/// Decides the plan for `keys`; errors only for a limit of the run
/// (time, cancellation, memory) hit during the check.
pub(super) fn plan(keys: &[Value]) -> R<Plan> {
    // The common homogeneous cases in one quick pass.
    match keys.first() {
        Some(Value::Int(_, _)) if keys.iter().all(|k| matches!(k, Value::Int(_, _))) => {
            return Ok(Plan::Ints);
        }
        Some(Value::Str(_)) if keys.iter().all(|k| matches!(k, Value::Str(_))) => {
            return Ok(Plan::Strs);
        }
        _ => {}
    }
    let mut walk = Walk {
        left: keys
            .len()
            .saturating_mul(WORK_PER_KEY)
            .saturating_add(WORK_BASE),
        nodes: 0,
        charges: Vec::new(),
    };
    let mut shape = Shape::Nothing;
    for k in keys {
        if !walk.merge(&mut shape, k, 0)? {
            return Ok(Plan::General);
        }
    }
    Ok(match shape {
        Shape::Int => Plan::Ints,
        Shape::Float => Plan::Floats,
        Shape::Str => Plan::Strs,
        _ => Plan::Total,
    })
}

/// The check's running cost: values it may still visit, and the memory
/// its shape nodes hold.
struct Walk {
    left: usize,
    nodes: usize,
    charges: Vec<Charge>,
}

impl Walk {
    /// Counts one visited value; `false` once the check has cost its share.
    fn visit(&mut self) -> R<bool> {
        meter::tick()?;
        if self.left == 0 {
            return Ok(false);
        }
        self.left -= 1;
        Ok(true)
    }

    /// Counts one new shape node, charging them to the budget in blocks.
    fn node(&mut self) -> R<()> {
        if self.nodes.is_multiple_of(CHARGE_NODES) {
            self.charges.push(Charge::new(
                CHARGE_NODES.saturating_mul(std::mem::size_of::<Shape>()),
            )?);
        }
        self.nodes += 1;
        Ok(())
    }

    /// Merges one value into the shape at its place; `false` when the
    /// value may not compare with the others (or cannot be proven to, or
    /// the check has cost its share).
    fn merge(&mut self, shape: &mut Shape, v: &Value, depth: u32) -> R<bool> {
        if !self.visit()? {
            return Ok(false);
        }
        self.merge_visited(shape, v, depth)
    }

    fn merge_visited(&mut self, shape: &mut Shape, v: &Value, depth: u32) -> R<bool> {
        Ok(match (&mut *shape, v) {
            (Shape::Int, Value::Int(_, _))
            | (Shape::Str, Value::Str(_))
            | (Shape::Num, Value::Int(_, _) | Value::Bool(_) | Value::Big(_)) => true,
            (Shape::Float | Shape::Num, Value::Float(_, f)) => !f.get().is_nan(),
            (Shape::Tuple(items), Value::Tuple(t)) => self.merge_items(items, &t.items, depth)?,
            (Shape::List(items), Value::List(l)) => match l.try_borrow() {
                Ok(l) => self.merge_items(items, &l.items, depth)?,
                Err(_) => false,
            },
            (
                Shape::Int | Shape::Float,
                Value::Int(_, _) | Value::Bool(_) | Value::Big(_) | Value::Float(_, _),
            ) => {
                *shape = Shape::Num;
                self.merge_visited(shape, v, depth)?
            }
            (Shape::Nothing, _) => match v {
                Value::Int(_, _) => {
                    *shape = Shape::Int;
                    true
                }
                Value::Float(_, f) => {
                    *shape = Shape::Float;
                    !f.get().is_nan()
                }
                Value::Bool(_) | Value::Big(_) => {
                    *shape = Shape::Num;
                    true
                }
                Value::Str(_) => {
                    *shape = Shape::Str;
                    true
                }
                Value::Tuple(_) => {
                    *shape = Shape::Tuple(Vec::new());
                    self.merge_visited(shape, v, depth)?
                }
                Value::List(_) => {
                    *shape = Shape::List(Vec::new());
                    self.merge_visited(shape, v, depth)?
                }
                _ => false,
            },
            _ => false,
        })
    }

    fn merge_items(&mut self, shapes: &mut Vec<Shape>, items: &[Value], depth: u32) -> R<bool> {
        if depth >= MAX_DEPTH || crate::runtime::stack::exhausted() {
            return Ok(false);
        }
        for (i, item) in items.iter().enumerate() {
            if shapes.len() <= i {
                self.node()?;
                shapes.push(Shape::Nothing);
            }
            let Some(s) = shapes.get_mut(i) else {
                return Ok(false);
            };
            if !self.merge(s, item, depth + 1)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// What stopped a typed sort: the first limit its comparisons hit. Once
/// set, every comparison answers at once and the sort raises it after.
pub(super) type Stop = Option<Box<crate::runtime::error::Exc>>;

/// The order of two keys that [`plan`] found comparable: Python's `<`
/// made total. Tuples and lists are walked in place, item by item, each
/// item a tick of the meter (a limit hit is left in `stop`); an item
/// compared with itself is equal without a walk (every key the plan
/// accepts equals itself, so this is CPython's identity shortcut).
pub(super) fn total_cmp(a: &Value, b: &Value, stop: &mut Stop) -> Ordering {
    if stop.is_some() {
        return Ordering::Equal;
    }
    if let Err(e) = meter::tick() {
        *stop = Some(e);
        return Ordering::Equal;
    }
    if a.is_same(b) {
        return Ordering::Equal;
    }
    match (a, b) {
        (Value::Int(_, x), Value::Int(_, y)) => x.cmp(y),
        (Value::Str(x), Value::Str(y)) => x.as_str().cmp(y.as_str()),
        (Value::Float(_, x), Value::Float(_, y)) => {
            x.get().partial_cmp(&y.get()).unwrap_or(Ordering::Equal)
        }
        (Value::Tuple(x), Value::Tuple(y)) => seq_cmp(&x.items, &y.items, stop),
        (Value::List(x), Value::List(y)) => match (x.try_borrow(), y.try_borrow()) {
            (Ok(x), Ok(y)) => seq_cmp(&x.items, &y.items, stop),
            _ => Ordering::Equal,
        },
        (Value::Float(_, f), other) => match as_int(other) {
            Some(i) => cmp_int_float(&i, f.get()).map_or(Ordering::Equal, Ordering::reverse),
            None => Ordering::Equal,
        },
        (other, Value::Float(_, f)) => match as_int(other) {
            Some(i) => cmp_int_float(&i, f.get()).unwrap_or(Ordering::Equal),
            None => Ordering::Equal,
        },
        _ => match (as_int(a), as_int(b)) {
            (Some(x), Some(y)) => match (x.to_i64(), y.to_i64()) {
                (Some(x), Some(y)) => x.cmp(&y),
                _ => x.to_big().cmp(&y.to_big()),
            },
            _ => Ordering::Equal,
        },
    }
}

fn seq_cmp(x: &[Value], y: &[Value], stop: &mut Stop) -> Ordering {
    for (p, q) in x.iter().zip(y) {
        let o = total_cmp(p, q, stop);
        if o != Ordering::Equal {
            return o;
        }
    }
    x.len().cmp(&y.len())
}
