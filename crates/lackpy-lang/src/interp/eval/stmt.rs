//! Statement execution and assignment.

use crate::value::StrRc;
use std::rc::Rc;

use crate::interp::Interp;
use crate::interp::eval::expr::at_line;
use crate::interp::eval::fast::{self, Num};
use crate::interp::eval::pieces::Source;
use crate::interp::ir::{NameRef, Stmt, StmtKind, Target};
use crate::runtime::error::{Exc, R};
use crate::syntax::ast::Operator;
use crate::types::ops;
use crate::value::PyIter;
use crate::value::Value;

impl Interp<'_> {
    /// Runs a block.
    pub(crate) fn exec_block(&mut self, stmts: &[Stmt]) -> R<()> {
        for s in stmts {
            self.exec(s)?;
        }
        Ok(())
    }

    /// Runs one statement.
    #[inline]
    pub(crate) fn exec(&mut self, s: &Stmt) -> R<()> {
        match self.exec_inner(s) {
            Ok(()) => Ok(()),
            Err(e) => Err(at_line(e, s.line)),
        }
    }

    fn exec_inner(&mut self, s: &Stmt) -> R<()> {
        match &s.kind {
            StmtKind::Expr(e) => {
                self.eval(e)?;
            }
            StmtKind::AssignName(r, e) => {
                let v = self.eval(e)?;
                self.store(*r, v);
            }
            StmtKind::Assign(targets, e) => {
                if let [Target::Seq(ts, star)] = targets.as_slice() {
                    // `a, b = s.split(...)` binds the pieces with no list.
                    match self.eval_source(e)? {
                        Source::Split(call) => self.unpack_pieces(ts, *star, &call)?,
                        Source::Parted(parts) => self.unpack_parted(ts, *star, parts)?,
                        Source::Value(v) => self.unpack(ts, *star, v)?,
                    }
                    return Ok(());
                }
                let v = self.eval(e)?;
                if let Some((last, rest)) = targets.split_last() {
                    for t in rest {
                        self.assign(t, v.clone())?;
                    }
                    self.assign(last, v)?;
                }
            }
            StmtKind::Append(r, name, rhs, inplace) => self.exec_append(*r, name, rhs, *inplace)?,
            StmtKind::AugAssign(target, op, e) => self.exec_augassign(target, *op, e)?,
            StmtKind::AnnAssign {
                target,
                annotation,
                value,
            } => {
                match value {
                    Some(v) => {
                        let v = self.eval(v)?;
                        self.assign(target, v)?;
                    }
                    None => match target {
                        Target::Subscript(obj, idx) => {
                            self.eval(obj)?;
                            if !matches!(idx.kind, crate::interp::ir::ExprKind::Slice(..)) {
                                self.eval(idx)?;
                            }
                        }
                        Target::Attribute(obj, _) => {
                            self.eval(obj)?;
                        }
                        _ => {}
                    },
                }
                // Module-level annotations are evaluated (after the assignment).
                self.eval(annotation)?;
            }
            StmtKind::For {
                target,
                iter,
                body,
                orelse,
            } => self.exec_for(target, iter, body, orelse)?,
            StmtKind::If { test, body, orelse } => {
                if self.cond(test)? {
                    self.exec_block(body)?;
                } else {
                    self.exec_block(orelse)?;
                }
            }
            StmtKind::With { items } => {
                // No value of this language is a context manager.
                if let Some((e, _)) = items.first() {
                    let v = self.eval(e)?;
                    return Err(Exc::type_error(format!(
                        "'{}' object does not support the context manager protocol",
                        v.type_name()
                    )));
                }
            }
            StmtKind::Forbidden(kind) => return Err(Exc::forbidden(kind, s.line)),
        }
        Ok(())
    }

    /// `for target in iter: body else: orelse`.
    #[inline(never)]
    fn exec_for(
        &mut self,
        target: &Target,
        iter: &crate::interp::ir::Expr,
        body: &[Stmt],
        orelse: &[Stmt],
    ) -> R<()> {
        let src = match self.eval_source(iter)? {
            Source::Value(v) => v,
            Source::Parted(parts) => Source::parted_tuple(parts),
            Source::Split(call) => {
                let lt = self.loop_target(target);
                self.for_each_piece(&call, &lt, |me| me.exec_block(body))?;
                return self.exec_block(orelse);
            }
        };
        if let (Value::Range(r), Target::Name(name, _)) = (&src, target)
            && let (crate::value::Range::Small { start, step, .. }, Some(left)) =
                (&**r, r.len_u64())
        {
            // The common `for i in range(...)` runs on a plain counter.
            let (mut cur, step, mut left) = (*start, *step, left);
            let mut first = true;
            while left > 0 {
                self.budget.step()?;
                // After the first binding (which records a global's
                // binding order) the variable is written in place.
                match self.slot_ref(*name) {
                    Some(s) if !first => *s = Some(Value::int(cur)),
                    _ => self.store(*name, Value::int(cur)),
                }
                first = false;
                self.exec_block(body)?;
                left -= 1;
                cur = cur.wrapping_add(step);
            }
        } else {
            let it = PyIter::of(&src)?;
            let lt = self.loop_target(target);
            self.for_each_item(it, &lt, |me| me.exec_block(body))?;
        }
        self.exec_block(orelse)?;
        Ok(())
    }

    /// `name = name + rhs` / `name += rhs`: strings grow in place when the
    /// name holds the only reference (as CPython does).
    fn exec_append(
        &mut self,
        r: NameRef,
        name: &Rc<str>,
        rhs: &crate::interp::ir::Expr,
        inplace: bool,
    ) -> R<()> {
        if !self.is_bound(r) {
            return Err(self.unbound(r, name));
        }
        let rhs = self.eval(rhs)?;
        if let Value::Int(_, add) = rhs
            && let Some(Some(Value::Int(_, cur))) = self.slot_mut(r)
            && let Some(sum) = cur.checked_add(add)
        {
            // The int accumulator (`total = total + x`): in place.
            *cur = sum;
            return Ok(());
        }
        if let Some(b) = Num::of(&rhs)
            && let Some(Some(cur)) = self.slot_mut(r)
            && let Some(a) = Num::of(cur)
            && (matches!(a, Num::F(_)) || matches!(b, Num::F(_)))
            && let Some(sum) = fast::arith(Operator::Add, a, b)
        {
            // The float accumulator (`total += x * 0.5`): in place.
            *cur = sum.value();
            return Ok(());
        }
        if let Value::Str(add) = &rhs {
            let extra = add.as_str().len();
            let budget_ok = self.budget.check_memory(extra);
            if let Some(Some(Value::Str(cur))) = self.slot_mut(r)
                && let Some(s) = StrRc::get_mut(cur)
            {
                budget_ok?;
                s.push_str(add);
                return Ok(());
            }
        }
        if let Some(slot) = self.slot_mut(r)
            && let Some(cur) =
                slot.take_if(|cur| crate::types::int::big::int_in_place(Operator::Add, cur, &rhs))
        {
            // A big int accumulator (`total += x` past i64) held by the
            // name alone: updated in place. The sum was checked to stay
            // within the size limit, so it cannot fail.
            *slot = Some(crate::types::int::big::int_values(Operator::Add, cur, rhs)?);
            return Ok(());
        }
        let cur = match self.slot_mut(r).and_then(|s| s.take()) {
            Some(v) => v,
            None => self.load(r, name)?,
        };
        let keep = cur.clone();
        let result = if inplace {
            ops::inplace(self, Operator::Add, cur, rhs)
        } else {
            ops::binop(&mut self.budget, Operator::Add, cur, rhs)
        };
        match result {
            Ok(v) => {
                self.store(r, v);
                Ok(())
            }
            Err(e) => {
                if let Some(slot) = self.slot_mut(r)
                    && slot.is_none()
                    && !matches!(keep, Value::Builtin(_) | Value::Type(_) | Value::Tool(_))
                {
                    *slot = Some(keep);
                }
                Err(e)
            }
        }
    }

    fn exec_augassign(
        &mut self,
        target: &Target,
        op: Operator,
        e: &crate::interp::ir::Expr,
    ) -> R<()> {
        match target {
            Target::Name(r, name) => {
                let cur = self.load(*r, name)?;
                let rhs = self.eval(e)?;
                if let (Some(x), Some(y)) = (Num::of(&cur), Num::of(&rhs))
                    && let Some(v) = fast::arith(op, x, y)
                {
                    self.store(*r, v.value());
                    return Ok(());
                }
                let cur = if matches!(cur, Value::Big(_)) {
                    // A big int the name alone holds (once this copy is
                    // gone) is updated in place when the operation cannot
                    // fail (see `int_in_place`).
                    drop(cur);
                    if let Some(slot) = self.slot_mut(*r)
                        && let Some(c) =
                            slot.take_if(|c| crate::types::int::big::int_in_place(op, c, &rhs))
                    {
                        *slot = Some(crate::types::int::big::int_values(op, c, rhs)?);
                        return Ok(());
                    }
                    self.load(*r, name)?
                } else {
                    cur
                };
                let v = ops::inplace(self, op, cur, rhs)?;
                self.store(*r, v);
            }
            Target::Subscript(obj, idx) => {
                let o = self.eval(obj)?;
                if let crate::interp::ir::ExprKind::Slice(lo, hi, st) = &idx.kind {
                    let s = self.eval_slice(lo, hi, st)?;
                    let cur = ops::get_slice(&o, &s)?;
                    let rhs = self.eval(e)?;
                    let v = ops::inplace(self, op, cur, rhs)?;
                    ops::set_slice(self, &o, &s, v)?;
                } else {
                    let i = self.eval(idx)?;
                    let cur = ops::get_item(&o, &i)?;
                    let rhs = self.eval(e)?;
                    let v = ops::inplace(self, op, cur, rhs)?;
                    ops::set_item(self, &o, i, v)?;
                }
            }
            Target::Attribute(obj, name) => {
                let o = self.eval(obj)?;
                let cur = crate::types::methods::get_attr(
                    &o,
                    name,
                    crate::syntax::catalog::MethodId::from_name(name),
                )?;
                let rhs = self.eval(e)?;
                let v = ops::inplace(self, op, cur, rhs)?;
                return Err(set_attr_error(&o, name, &v));
            }
            Target::Seq(..) => {
                return Err(Exc::new(
                    crate::runtime::error::ExceptionKind::ValidationError,
                    "illegal expression for augmented assignment",
                ));
            }
            Target::Invalid(msg) => {
                return Err(Exc::new(
                    crate::runtime::error::ExceptionKind::ValidationError,
                    *msg,
                ));
            }
        }
        Ok(())
    }

    /// Assigns a value to a target.
    pub(crate) fn assign(&mut self, t: &Target, v: Value) -> R<()> {
        match t {
            Target::Name(r, _) => {
                self.store(*r, v);
                Ok(())
            }
            Target::Subscript(obj, idx) => {
                let o = self.eval(obj)?;
                if let crate::interp::ir::ExprKind::Slice(lo, hi, st) = &idx.kind {
                    let s = self.eval_slice(lo, hi, st)?;
                    return ops::set_slice(self, &o, &s, v);
                }
                let i = self.eval(idx)?;
                ops::set_item(self, &o, i, v)
            }
            Target::Attribute(obj, name) => {
                let o = self.eval(obj)?;
                Err(set_attr_error(&o, name, &v))
            }
            Target::Seq(targets, star) => self.unpack(targets, *star, v),
            Target::Invalid(msg) => Err(Exc::new(
                crate::runtime::error::ExceptionKind::ValidationError,
                *msg,
            )),
        }
    }

    pub(crate) fn unpack(&mut self, targets: &[Target], star: Option<usize>, v: Value) -> R<()> {
        let n = targets.len();
        if let Value::Tuple(t) = &v
            && star.is_none()
            && t.items.len() == n
        {
            // The tuple is held by `v`: each part goes straight to its
            // target, with no copy of the sequence (names, the usual
            // targets, without a call per part).
            for (target, x) in targets.iter().zip(t.items.iter()) {
                match target {
                    Target::Name(r, _) => self.store(*r, crate::interp::fast_clone(x)),
                    _ => self.assign(target, crate::interp::fast_clone(x))?,
                }
            }
            return Ok(());
        }
        let items: Vec<Value> = match &v {
            // A list no one else holds (`a, b = s.split(",")`) gives up its
            // items: no copy, no reference count traffic. The list keeps its
            // charge until it drops, right after.
            Value::List(l) if Rc::strong_count(l) == 1 && Rc::weak_count(l) == 0 => l
                .try_borrow_mut()
                .map(|mut l| std::mem::take(&mut l.items))
                .unwrap_or_default(),
            Value::List(l) => l.try_borrow().map(|l| l.items.clone()).unwrap_or_default(),
            _ => {
                let mut it = match PyIter::of(&v) {
                    Ok(it) => it,
                    Err(_) => {
                        return Err(Exc::type_error(format!(
                            "cannot unpack non-iterable {} object",
                            v.type_name()
                        )));
                    }
                };
                let mut items = crate::runtime::meter::Buf::with_capacity(n)?;
                match star {
                    None => {
                        while items.len() < n {
                            match it.next()? {
                                Some(x) => items.push(x)?,
                                None => break,
                            }
                        }
                        if items.len() == n && it.next()?.is_some() {
                            return Err(Exc::value_error(format!(
                                "too many values to unpack (expected {n})"
                            )));
                        }
                    }
                    Some(_) => {
                        while let Some(x) = it.next()? {
                            items.push(x)?;
                        }
                    }
                }
                items.into_vec()
            }
        };
        self.unpack_items(targets, star, items)
    }

    /// Binds `items` (all the values unpacked) to `targets`, checking
    /// their count.
    pub(crate) fn unpack_items(
        &mut self,
        targets: &[Target],
        star: Option<usize>,
        items: Vec<Value>,
    ) -> R<()> {
        let n = targets.len();
        match star {
            None => {
                if items.len() < n {
                    return Err(Exc::value_error(format!(
                        "not enough values to unpack (expected {n}, got {})",
                        items.len()
                    )));
                }
                if items.len() > n {
                    return Err(Exc::value_error(format!(
                        "too many values to unpack (expected {n})"
                    )));
                }
                for (t, x) in targets.iter().zip(items) {
                    // Names (the usual targets) are stored here, not
                    // through a call per part.
                    match t {
                        Target::Name(r, _) => self.store(*r, x),
                        _ => self.assign(t, x)?,
                    }
                }
            }
            Some(si) => {
                let before = si;
                let after = n - si - 1;
                if items.len() < before + after {
                    return Err(Exc::value_error(format!(
                        "not enough values to unpack (expected at least {}, got {})",
                        before + after,
                        items.len()
                    )));
                }
                let mut items = items;
                let tail = items.split_off(items.len() - after);
                // The names before the star take the first items; what is
                // left (moved down in place, not copied out) is the list.
                let head: Vec<Value> = items.drain(..before).collect();
                let middle = items;
                for (t, x) in targets.iter().take(before).zip(head) {
                    self.assign(t, x)?;
                }
                if let Some(t) = targets.get(si) {
                    self.assign(t, Value::list(middle))?;
                }
                for (t, x) in targets.iter().skip(si + 1).zip(tail) {
                    self.assign(t, x)?;
                }
            }
        }
        Ok(())
    }
}

/// Every attribute of a builtin value is read-only or absent.
fn set_attr_error(o: &Value, name: &str, _v: &Value) -> Box<Exc> {
    let known = crate::syntax::catalog::MethodId::from_name(name)
        .is_some_and(|id| crate::types::methods::has_method(o, id));
    if known {
        Exc::attribute_error(format!(
            "'{}' object attribute '{}' is read-only",
            o.type_name(),
            name
        ))
    } else {
        match o {
            Value::Type(t) => Exc::type_error(format!(
                "cannot set '{}' attribute of immutable type '{}'",
                name,
                t.name()
            )),
            _ => Exc::attribute_error(format!(
                "'{}' object has no attribute '{}'",
                o.type_name(),
                name
            )),
        }
    }
}
