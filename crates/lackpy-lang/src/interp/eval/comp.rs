//! Comprehensions.
//!
//! A comprehension runs in a frame of its own whose locals are its loop
//! targets. The loop is generic over what collects the results (a list, a
//! set or a dict: [`Sink`]), so each kind runs its own monomorphic loop
//! with no per-item dispatch on the result kind; targets are bound through
//! [`super::bind`] (storage found once per loop, tuples not built for
//! unpacked items), `range` clauses run on a plain counter and filters are
//! evaluated as bools.

use std::cell::RefCell;
use std::rc::Rc;

use crate::interp::Interp;
use crate::interp::eval::pieces::Source;
use crate::interp::ir::{Comp, Gen, NameRef, Target};
use crate::runtime::error::R;
use crate::types::str::pieces::SplitCall;
use crate::value::PyIter;
use crate::value::{Dict, List, Set, Value};

/// What a comprehension's results go into.
trait Sink {
    /// Evaluates the element (and value) for the current bindings and
    /// adds the result.
    fn emit(&mut self, it: &mut Interp, c: &Comp) -> R<()>;
    /// Makes room for `n` more results where that is cheap to know.
    fn reserve(&mut self, _n: usize) {}
    /// The finished value.
    fn finish(self) -> Value;
}

impl Sink for List {
    #[inline(always)]
    fn emit(&mut self, it: &mut Interp, c: &Comp) -> R<()> {
        let v = it.eval(&c.elt)?;
        self.push(v);
        Ok(())
    }

    fn reserve(&mut self, n: usize) {
        List::reserve(self, n.min(1 << 16));
    }

    fn finish(self) -> Value {
        Value::List(Rc::new(RefCell::new(self)))
    }
}

impl Sink for Set {
    #[inline(always)]
    fn emit(&mut self, it: &mut Interp, c: &Comp) -> R<()> {
        let v = it.eval(&c.elt)?;
        self.add(v)?;
        Ok(())
    }

    fn finish(self) -> Value {
        Value::set(self)
    }
}

impl Sink for Dict {
    #[inline(always)]
    fn emit(&mut self, it: &mut Interp, c: &Comp) -> R<()> {
        let k = it.eval(&c.elt)?;
        let v = match &c.value {
            Some(e) => it.eval(e)?,
            None => Value::None,
        };
        self.insert(k, v)?;
        Ok(())
    }

    fn finish(self) -> Value {
        Value::dict(self)
    }
}

/// What a comprehension clause walks.
enum Feed {
    /// The iterator and the value it came from.
    Iter(PyIter, Value),
    Split(SplitCall),
}

impl Interp<'_> {
    /// `[elt for …]`.
    pub(crate) fn eval_list_comp(&mut self, c: &Comp) -> R<Value> {
        self.eval_comp(c, List::default())
    }

    /// `{elt for …}`.
    pub(crate) fn eval_set_comp(&mut self, c: &Comp) -> R<Value> {
        self.eval_comp(c, Set::new())
    }

    /// `{key: value for …}`.
    pub(crate) fn eval_dict_comp(&mut self, c: &Comp) -> R<Value> {
        self.eval_comp(c, Dict::new())
    }

    fn eval_comp<S: Sink>(&mut self, c: &Comp, mut acc: S) -> R<Value> {
        let Some(first) = c.gens.first() else {
            return Ok(Value::None);
        };
        // The first iterable is evaluated in the enclosing scope.
        let it = self.feed(&first.iter)?;
        self.push_frame(c.nslots as usize, 0)?;
        let r = self.comp_loop(c, 0, it, &mut acc);
        self.pop_frame(0);
        r?;
        Ok(acc.finish())
    }

    /// What a clause walks: the iterator of its iterable, or the pieces of
    /// a split-family call (see [`super::pieces`]).
    fn feed(&mut self, e: &crate::interp::ir::Expr) -> R<Feed> {
        Ok(match self.eval_source(e)? {
            Source::Value(v) => Feed::Iter(PyIter::of(&v)?, v),
            Source::Parted(parts) => {
                let v = Source::parted_tuple(parts);
                Feed::Iter(PyIter::of(&v)?, v)
            }
            Source::Split(call) => Feed::Split(call),
        })
    }

    /// Runs clause `gi` over `feed`.
    fn comp_loop<S: Sink>(&mut self, c: &Comp, gi: usize, feed: Feed, acc: &mut S) -> R<()> {
        let Some(g) = c.gens.get(gi) else {
            return Ok(());
        };
        let innermost = gi + 1 == c.gens.len();
        // The source stays held while its iterator runs (an iterator object
        // is looked through only when nothing else holds it).
        let (it, _src) = match feed {
            Feed::Iter(it, src) => (it, src),
            Feed::Split(call) => {
                let lt = self.loop_target(&g.target);
                if innermost && g.ifs.is_empty() {
                    acc.reserve(call.size_hint());
                    return self.for_each_piece(&call, &lt, |me| acc.emit(me, c));
                }
                return self
                    .for_each_piece(&call, &lt, |me| me.comp_item(c, gi, g, innermost, acc));
            }
        };
        if let (PyIter::Range { next, step, left }, Target::Name(name, _)) = (&it, &g.target) {
            // `for i in range(...)` clauses run on a plain counter, written
            // in place: the frame does not move while its loop runs.
            let (mut cur, step, mut left, name) = (*next, *step, *left, *name);
            let slot = self.slot_index(name);
            if innermost && g.ifs.is_empty() {
                // Every turn adds one result.
                acc.reserve(usize::try_from(left).unwrap_or(0));
                return self.comp_range_emit(c, name, slot, cur, step, left, acc);
            }
            while left > 0 {
                self.budget.step()?;
                match slot.and_then(|i| self.stack.get_mut(i)) {
                    Some(s) => *s = Some(Value::int(cur)),
                    None => self.store(name, Value::int(cur)),
                }
                self.comp_item(c, gi, g, innermost, acc)?;
                left -= 1;
                cur = cur.wrapping_add(step);
            }
            return Ok(());
        }
        let lt = self.loop_target(&g.target);
        if innermost && g.ifs.is_empty() {
            acc.reserve(it.size_hint());
            return self.for_each_item(it, &lt, |me| acc.emit(me, c));
        }
        self.for_each_item(it, &lt, |me| me.comp_item(c, gi, g, innermost, acc))
    }

    /// The innermost clause over a range, without filters: one result per
    /// number, the counter written in place.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn comp_range_emit<S: Sink>(
        &mut self,
        c: &Comp,
        name: NameRef,
        slot: Option<usize>,
        mut cur: i64,
        step: i64,
        mut left: u64,
        acc: &mut S,
    ) -> R<()> {
        while left > 0 {
            self.budget.step()?;
            match slot.and_then(|i| self.stack.get_mut(i)) {
                Some(s) => *s = Some(Value::int(cur)),
                None => self.store(name, Value::int(cur)),
            }
            acc.emit(self, c)?;
            left -= 1;
            cur = cur.wrapping_add(step);
        }
        Ok(())
    }

    /// One item of clause `gi` (its target already bound): filters, then the
    /// next clause or the element.
    #[inline]
    fn comp_item<S: Sink>(
        &mut self,
        c: &Comp,
        gi: usize,
        g: &Gen,
        innermost: bool,
        acc: &mut S,
    ) -> R<()> {
        for cond in &g.ifs {
            if !self.cond(cond)? {
                return Ok(());
            }
        }
        if innermost {
            return acc.emit(self, c);
        }
        match c.gens.get(gi + 1) {
            Some(next) => {
                let inner = self.feed(&next.iter)?;
                self.comp_loop(c, gi + 1, inner, acc)
            }
            None => Ok(()),
        }
    }
}
