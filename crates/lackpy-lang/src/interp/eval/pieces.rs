//! Loops, comprehensions and unpackings that consume a `split`, `rsplit` or
//! `splitlines` call on a str directly (`for w in s.split()`,
//! `[int(x) for x in row.split(",")]`, `k, v = line.split("=", 1)`).
//!
//! The list such a call returns could never be seen by the program, so it
//! is not made: the call is evaluated up to its checked arguments (the
//! receiver, one step, the arguments, their errors, as the method call),
//! and the pieces are made one at a time as the consumer takes them
//! ([`crate::types::str::pieces`]). A loop's piece is made just
//! after the previous one is dropped, so its blocks are reused; an
//! unpacking binds its names with no list, with CPython's errors when the
//! count does not match. `a, sep, b = s.partition(x)` (or `rpartition`)
//! binds its three names with no tuple, and `s.split(sep)[k]` makes only
//! the piece it takes; `len(s.split())` counts the pieces.

use crate::interp::Interp;
use crate::interp::eval::call::INLINE_ARGS;
use crate::interp::eval::expr::{at_line, check_stack};
use crate::interp::ir::{Expr, ExprKind, MethodCall, Target};
use crate::runtime::error::{Exc, R};
use crate::syntax::catalog::MethodId as M;
use crate::types::str::pieces::{SplitCall, is_split_family};
use crate::types::str::search::partition_parts;
use crate::value::Value;

/// What a loop or an unpacking consumes: a value, or the pieces of a
/// split-family call on a str.
pub(crate) enum Source {
    Value(Value),
    Split(SplitCall),
    /// The parts of a `partition` or `rpartition` call (no tuple made).
    Parted([Value; 3]),
}

impl Source {
    /// The value the call would have returned, for consumers with no
    /// path of their own (a split call never gets here).
    pub(crate) fn parted_tuple(parts: [Value; 3]) -> Value {
        let [a, b, c] = parts;
        Value::triple(a, b, c)
    }
}

/// Unpacking targets bound from pieces without the general assignment.
const MAX_NAMES: usize = 8;

impl Interp<'_> {
    /// Evaluates `e`, leaving a split-family call on a str unrun.
    #[inline]
    pub(crate) fn eval_source(&mut self, e: &Expr) -> R<Source> {
        if let ExprKind::MethodCall(m) = &e.kind
            && m.attr.id.is_some_and(is_split_family)
        {
            return self.split_source(m).map_err(|ex| at_line(ex, e.line));
        }
        self.eval(e).map(Source::Value)
    }

    /// `obj.split(...)` (or `rsplit`, `splitlines`): the receiver, the step
    /// and the arguments as the method call evaluates them; anything but a
    /// str receiver is called as usual.
    #[inline(never)]
    fn split_source(&mut self, m: &MethodCall) -> R<Source> {
        check_stack()?;
        let obj = self.eval(&m.obj)?;
        let (Value::Str(s), Some(id)) = (&obj, m.attr.id) else {
            return self.call_method_on(m, obj).map(Source::Value);
        };
        self.budget.step()?;
        if matches!(id, M::Partition | M::Rpartition) {
            let parts = if m.simple && m.args.len() <= INLINE_ARGS {
                self.with_few_args(&m.args, |_, args| partition_parts(id, s, args, &[]))?
            } else {
                let (args, kwargs) =
                    self.eval_args(&m.args, &m.kwargs, &|| format!("str.{}", id.name()))?;
                partition_parts(id, s, &args, &kwargs)?
            };
            return Ok(Source::Parted(parts));
        }
        let call = if m.simple && m.args.len() <= INLINE_ARGS {
            self.with_few_args(&m.args, |_, args| SplitCall::new(id, s.clone(), args, &[]))?
        } else {
            let (args, kwargs) =
                self.eval_args(&m.args, &m.kwargs, &|| format!("str.{}", id.name()))?;
            SplitCall::new(id, s.clone(), &args, &kwargs)?
        };
        Ok(Source::Split(call))
    }

    /// `obj[idx]` where `obj` may be a split-family call: the piece at an
    /// int index is made alone, with no list; any other index (and one out
    /// of range, to raise) goes to the list the call returns.
    pub(crate) fn eval_item_of(&mut self, obj: &Expr, idx: &Expr) -> R<Value> {
        let o = match self.eval_source(obj)? {
            Source::Value(v) => v,
            Source::Parted(parts) => Source::parted_tuple(parts),
            Source::Split(call) => {
                let i = self.eval(idx)?;
                if let Value::Int(_, k) = i
                    && let Some(v) = call.item(k)?
                {
                    return Ok(v);
                }
                return crate::types::ops::get_item(&call.to_list()?, &i);
            }
        };
        let i = self.eval(idx)?;
        crate::types::ops::get_item(&o, &i)
    }

    /// `len(arg)` where `arg` is a split-family call: the pieces are
    /// counted, none made (the same steps as the call and `len`).
    #[inline(never)]
    pub(crate) fn len_of_source(&mut self, arg: &Expr) -> R<Value> {
        let v = match self.eval_source(arg)? {
            Source::Split(call) => {
                self.budget.step()?;
                let n = call.count()?;
                return Ok(Value::int(i64::try_from(n).unwrap_or(i64::MAX)));
            }
            Source::Value(v) => v,
            Source::Parted(parts) => Source::parted_tuple(parts),
        };
        self.call_value(
            &Value::Builtin(crate::syntax::catalog::BuiltinId::Len),
            std::slice::from_ref(&v),
            &[],
        )
    }

    /// `targets = s.partition(sep)` (or `rpartition`): three names are
    /// bound from the parts with no tuple; any other target list unpacks
    /// the tuple the call returns.
    pub(crate) fn unpack_parted(
        &mut self,
        targets: &[Target],
        star: Option<usize>,
        parts: [Value; 3],
    ) -> R<()> {
        match targets {
            [Target::Name(a, _), Target::Name(b, _), Target::Name(c, _)] if star.is_none() => {
                let [x, y, z] = parts;
                self.store(*a, x);
                self.store(*b, y);
                self.store(*c, z);
                Ok(())
            }
            _ => self.unpack(targets, star, Source::parted_tuple(parts)),
        }
    }

    /// `targets = call` for a split-family call: up to [`MAX_NAMES`] plain
    /// targets are bound from the pieces directly; any other target list
    /// takes the pieces as a list through the general unpacking.
    pub(crate) fn unpack_pieces(
        &mut self,
        targets: &[Target],
        star: Option<usize>,
        call: &SplitCall,
    ) -> R<()> {
        let n = targets.len();
        let mut pieces = call.pieces()?;
        if star.is_some() || n > MAX_NAMES {
            let mut items = crate::runtime::meter::Buf::new();
            while let Some(p) = pieces.next_piece()? {
                items.push(pieces.value(p))?;
            }
            return self.unpack_items(targets, star, items.into_vec());
        }
        let mut got = [""; MAX_NAMES];
        let mut count = 0;
        while count < n {
            match pieces.next_piece()? {
                Some(p) => {
                    if let Some(slot) = got.get_mut(count) {
                        *slot = p;
                    }
                    count += 1;
                }
                None => {
                    return Err(Exc::value_error(format!(
                        "not enough values to unpack (expected {n}, got {count})"
                    )));
                }
            }
        }
        if pieces.next_piece()?.is_some() {
            return Err(Exc::value_error(format!(
                "too many values to unpack (expected {n})"
            )));
        }
        for (t, p) in targets.iter().zip(got) {
            let v = pieces.value(p);
            match t {
                Target::Name(r, _) => self.store(*r, v),
                _ => self.assign(t, v)?,
            }
        }
        Ok(())
    }
}
