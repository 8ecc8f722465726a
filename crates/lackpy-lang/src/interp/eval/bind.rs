//! Loop targets, resolved once per loop run and bound per item without the
//! general assignment.
//!
//! A `for` statement or comprehension clause binds its target on every
//! turn. Where the target is a name, or a flat tuple of names, the storage
//! of each name is found once before the loop (a comprehension's frame does
//! not move while its loop runs), and an item that would be a tuple made
//! only to be taken apart (`enumerate`, `zip`, `dict.items()`) is bound
//! from its parts: no tuple per turn. Any other target, and any item that
//! does not split cleanly, goes through [`Interp::assign`], which raises the
//! exact errors.

use crate::interp::Interp;
use std::cell::RefCell;
use std::rc::Rc;

use crate::interp::ir::{NameRef, Target};
use crate::runtime::error::R;
use crate::runtime::meter;
use crate::types::str::pieces::SplitCall;
use crate::value::PyIter;
use crate::value::iter::{MAX_PARTS, Step, unchanged_dict};
use crate::value::{Dict, List, Value, ViewKind};

/// Where one name of a loop target lives.
#[derive(Clone, Copy)]
enum Slot {
    /// A local at a fixed position of the locals stack.
    Stack(usize),
    /// A module-level name (binding records its first-bind order).
    Name(NameRef),
}

/// How a loop target is bound.
enum Kind {
    One(Slot),
    Parts([Slot; MAX_PARTS], usize),
    General,
}

/// A loop target prepared for one run of its loop.
pub(crate) struct LoopTarget<'t> {
    target: &'t Target,
    kind: Kind,
}

impl Interp<'_> {
    /// Prepares `t` for a loop that runs in the current frame.
    pub(crate) fn loop_target<'t>(&self, t: &'t Target) -> LoopTarget<'t> {
        let kind = match t {
            Target::Name(r, _) => match self.slot_of(*r) {
                Some(s) => Kind::One(s),
                None => Kind::General,
            },
            Target::Seq(ts, None) if !ts.is_empty() && ts.len() <= MAX_PARTS => {
                let mut slots = [Slot::Name(NameRef::Global(0)); MAX_PARTS];
                let mut ok = true;
                for (slot, t) in slots.iter_mut().zip(ts) {
                    match t {
                        Target::Name(r, _) => match self.slot_of(*r) {
                            Some(s) => *slot = s,
                            None => ok = false,
                        },
                        _ => ok = false,
                    }
                }
                if ok {
                    Kind::Parts(slots, ts.len())
                } else {
                    Kind::General
                }
            }
            _ => Kind::General,
        };
        LoopTarget { target: t, kind }
    }

    fn slot_of(&self, r: NameRef) -> Option<Slot> {
        match r {
            NameRef::Global(_) => Some(Slot::Name(r)),
            NameRef::Local(_) => self.slot_index(r).map(Slot::Stack),
            NameRef::Outer(..) => None,
        }
    }

    #[inline(always)]
    fn put(&mut self, s: Slot, v: Value) {
        match s {
            Slot::Stack(i) => {
                if let Some(slot) = self.stack.get_mut(i) {
                    *slot = Some(v);
                }
            }
            Slot::Name(r) => self.store(r, v),
        }
    }

    /// Runs `body` once per item of `it`, bound to the loop target first.
    /// A list bound to one name (the most common loop) is walked by index
    /// here, with no iterator call per item; like the list iterator, it
    /// sees items appended during the loop.
    #[inline(always)]
    pub(crate) fn for_each_item(
        &mut self,
        it: PyIter,
        lt: &LoopTarget,
        mut body: impl FnMut(&mut Self) -> R<()>,
    ) -> R<()> {
        if let (PyIter::List { list, idx }, Kind::One(s)) = (&it, &lt.kind) {
            let (list, mut idx, s) = (list.clone(), *idx, *s);
            loop {
                // Every item of every iterator is builtin work (language.md §5).
                meter::tick()?;
                let item = match list.try_borrow() {
                    Ok(l) => match l.items.get(idx) {
                        Some(v) => crate::interp::fast_clone(v),
                        None => break,
                    },
                    Err(_) => break,
                };
                idx += 1;
                self.budget.step()?;
                self.put(s, item);
                body(self)?;
            }
            return Ok(());
        }
        self.for_each_other(it, lt, body)
    }

    /// [`Self::for_each_item`] for every other iterator and target, out of
    /// line (the list loop above is inlined where loops run).
    #[inline(never)]
    fn for_each_other(
        &mut self,
        mut it: PyIter,
        lt: &LoopTarget,
        mut body: impl FnMut(&mut Self) -> R<()>,
    ) -> R<()> {
        if let Kind::Parts(slots, 2) = &lt.kind
            && let Some((list, idx, c, shared)) = enumerate_of_list(&it)
        {
            let [s0, s1, ..] = *slots;
            match self.each_enumerated(list, idx, c, shared, s0, s1, &mut body)? {
                Some(rest) => it = rest,
                None => return Ok(()),
            }
        }
        if let Kind::Parts(slots, 2) = &lt.kind
            && let Some((a, b, ia, ib, strict, shared)) = zip_of_lists(&it)
        {
            let [s0, s1, ..] = *slots;
            it = self.each_zipped(a, b, ia, ib, strict, shared, s0, s1, &mut body)?;
        }
        if let PyIter::Dict { d, pos, len, kind } = &it {
            let (d, pos, len, kind) = (d.clone(), *pos, *len, *kind);
            match (&lt.kind, kind) {
                (Kind::One(s), _) => {
                    let s = *s;
                    let take = |k: &Value, v: &Value| match kind {
                        ViewKind::Keys => crate::interp::fast_clone(k),
                        ViewKind::Values => crate::interp::fast_clone(v),
                        ViewKind::Items => {
                            Value::pair(crate::interp::fast_clone(k), crate::interp::fast_clone(v))
                        }
                    };
                    return self.each_entry(&d, pos, len, take, |me, item| me.put(s, item), body);
                }
                (Kind::Parts(slots, 2), ViewKind::Items) => {
                    let [s0, s1, ..] = *slots;
                    let take = |k: &Value, v: &Value| {
                        (crate::interp::fast_clone(k), crate::interp::fast_clone(v))
                    };
                    let bind = |me: &mut Self, (k, v)| {
                        me.put(s0, k);
                        me.put(s1, v);
                    };
                    return self.each_entry(&d, pos, len, take, bind, body);
                }
                _ => {}
            }
        }
        while self.bind_next(&mut it, lt)? {
            body(self)?;
        }
        Ok(())
    }

    /// `for i, x in enumerate(xs)` over a list: the list walked by index
    /// and the count kept as a plain int, bound part by part. Counts the
    /// same work as the iterators (one item of the enumerate, one of the
    /// list, one of the iterator object when the loop was handed one).
    /// Answers the iterator to go on with when the count is about to leave
    /// i64 (the general one grows it into a big int).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn each_enumerated(
        &mut self,
        list: Rc<RefCell<List>>,
        mut idx: usize,
        mut c: i64,
        shared: bool,
        s0: Slot,
        s1: Slot,
        body: &mut impl FnMut(&mut Self) -> R<()>,
    ) -> R<Option<PyIter>> {
        loop {
            if c == i64::MAX {
                let rest = PyIter::Enumerate {
                    inner: Box::new(PyIter::List { list, idx }),
                    count: Value::int(c),
                };
                return Ok(Some(handed_back(rest, shared)));
            }
            if shared {
                meter::tick()?;
            }
            meter::tick()?;
            meter::tick()?;
            let item = match list.try_borrow() {
                Ok(l) => match l.items.get(idx) {
                    Some(v) => crate::interp::fast_clone(v),
                    None => return Ok(None),
                },
                Err(_) => return Ok(None),
            };
            idx += 1;
            self.put(s0, Value::int(c));
            c += 1;
            self.put(s1, item);
            self.budget.step()?;
            body(self)?;
        }
    }

    /// `for x, y in zip(xs, ys)` over two lists: both walked by index and
    /// bound part by part, counting the same work as the iterators (one
    /// item of the zip, one of each list, one more of the iterator object
    /// when the loop was handed one). The turn on which a list has no item
    /// left is run by the general iterator, answered here in the state it
    /// would have then (it ends the loop, or raises for `strict=True`).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn each_zipped(
        &mut self,
        a: Rc<RefCell<List>>,
        b: Rc<RefCell<List>>,
        mut ia: usize,
        mut ib: usize,
        strict: bool,
        shared: bool,
        s0: Slot,
        s1: Slot,
        body: &mut impl FnMut(&mut Self) -> R<()>,
    ) -> R<PyIter> {
        loop {
            let pair = match (a.try_borrow(), b.try_borrow()) {
                (Ok(la), Ok(lb)) => match (la.items.get(ia), lb.items.get(ib)) {
                    (Some(x), Some(y)) => {
                        Some((crate::interp::fast_clone(x), crate::interp::fast_clone(y)))
                    }
                    _ => None,
                },
                _ => None,
            };
            let Some((x, y)) = pair else {
                let rest = PyIter::Zip {
                    inners: vec![
                        PyIter::List { list: a, idx: ia },
                        PyIter::List { list: b, idx: ib },
                    ],
                    strict,
                    done: false,
                };
                return Ok(handed_back(rest, shared));
            };
            if shared {
                meter::tick()?;
            }
            meter::tick()?;
            meter::tick()?;
            meter::tick()?;
            ia += 1;
            ib += 1;
            self.put(s0, x);
            self.put(s1, y);
            self.budget.step()?;
            body(self)?;
        }
    }

    /// The loop over a dict (or one of its views) whose target binds from
    /// the entry in place: the entries are walked by position here, with
    /// no iterator call and no `(key, value)` tuple per turn. Counts the
    /// same work and raises the same errors as the dict iterator (the
    /// dict may not change size while the loop runs).
    #[inline(always)]
    fn each_entry<T>(
        &mut self,
        d: &RefCell<Dict>,
        mut pos: usize,
        mut len: usize,
        take: impl Fn(&Value, &Value) -> T,
        mut bind: impl FnMut(&mut Self, T),
        mut body: impl FnMut(&mut Self) -> R<()>,
    ) -> R<()> {
        loop {
            // Every item of every iterator is builtin work (language.md §5).
            meter::tick()?;
            let item = {
                let dict = unchanged_dict(d, &mut len)?;
                match dict.entry_from(pos) {
                    Some((p, k, v)) => {
                        pos = p;
                        take(k, v)
                    }
                    None => break,
                }
            };
            self.budget.step()?;
            bind(self, item);
            body(self)?;
        }
        Ok(())
    }

    /// Runs `body` once per piece of a split-family call, bound to the
    /// loop target first (the pieces are made as the loop reaches them:
    /// see [`super::pieces`]). Counts the same steps as the loop over the
    /// list the call would return.
    pub(crate) fn for_each_piece(
        &mut self,
        call: &SplitCall,
        lt: &LoopTarget,
        mut body: impl FnMut(&mut Self) -> R<()>,
    ) -> R<()> {
        let mut pieces = call.pieces()?;
        while let Some(p) = pieces.next_piece()? {
            self.budget.step()?;
            match lt.kind {
                Kind::One(s) => {
                    // The previous piece is dropped first: the new one
                    // reuses its blocks.
                    let old = match s {
                        Slot::Stack(i) => self.stack.get_mut(i),
                        Slot::Name(r) => self.slot_ref(r),
                    };
                    if let Some(old) = old {
                        *old = None;
                    }
                    self.put(s, pieces.value(p));
                }
                _ => self.assign(lt.target, pieces.value(p))?,
            }
            body(self)?;
        }
        Ok(())
    }

    /// Takes the next item of `it` and binds it to the loop target,
    /// counting one step; `false` when the iterator is exhausted.
    #[inline]
    pub(crate) fn bind_next(&mut self, it: &mut PyIter, lt: &LoopTarget) -> R<bool> {
        match &lt.kind {
            Kind::One(s) => {
                let s = *s;
                let Some(v) = it.next()? else {
                    return Ok(false);
                };
                self.budget.step()?;
                self.put(s, v);
            }
            Kind::Parts(slots, n) => {
                let (slots, n) = (*slots, *n);
                match it.next_parts(n, |i, v| {
                    if let Some(s) = slots.get(i) {
                        self.put(*s, v);
                    }
                })? {
                    Step::Done => return Ok(false),
                    Step::Parts => self.budget.step()?,
                    Step::Pair(x, y) => {
                        self.budget.step()?;
                        let [s0, s1, ..] = slots;
                        self.put(s0, x);
                        self.put(s1, y);
                    }
                    Step::Whole(v) => {
                        self.budget.step()?;
                        match &v {
                            Value::Tuple(t) if t.items.len() == n => {
                                for (s, x) in slots.iter().zip(&t.items) {
                                    self.put(*s, crate::interp::fast_clone(x));
                                }
                            }
                            _ => self.assign(lt.target, v)?,
                        }
                    }
                }
            }
            Kind::General => {
                let Some(v) = it.next()? else {
                    return Ok(false);
                };
                self.budget.step()?;
                self.assign(lt.target, v)?;
            }
        }
        Ok(true)
    }
}

/// The state of `enumerate(list)` with an int count when `it` is one: the
/// list, its position, the count and whether it came as an iterator
/// object. An iterator object is looked through only when the loop holds
/// the last references to it (the loop's source value and `it`): then no
/// one else can see it advance.
fn enumerate_of_list(it: &PyIter) -> Option<(Rc<RefCell<List>>, usize, i64, bool)> {
    let from = |e: &PyIter| match e {
        PyIter::Enumerate { inner, count } => match (&**inner, count) {
            (PyIter::List { list, idx }, Value::Int(_, c)) => Some((list.clone(), *idx, *c)),
            _ => None,
        },
        _ => None,
    };
    match it {
        PyIter::Shared(rc) if Rc::strong_count(rc) == 2 && Rc::weak_count(rc) == 0 => {
            let e = rc.try_borrow().ok()?;
            from(&e).map(|(l, i, c)| (l, i, c, true))
        }
        other => from(other).map(|(l, i, c)| (l, i, c, false)),
    }
}

/// The state of `zip(list, list)` (not yet exhausted) when `it` is one: the
/// lists, their positions, `strict` and whether it came as an iterator
/// object (looked through only when the loop holds the last references to
/// it, as for `enumerate`).
#[allow(clippy::type_complexity)]
fn zip_of_lists(
    it: &PyIter,
) -> Option<(
    Rc<RefCell<List>>,
    Rc<RefCell<List>>,
    usize,
    usize,
    bool,
    bool,
)> {
    let from = |z: &PyIter| match z {
        PyIter::Zip {
            inners,
            strict,
            done: false,
        } => match inners.as_slice() {
            [
                PyIter::List { list: a, idx: ia },
                PyIter::List { list: b, idx: ib },
            ] => Some((a.clone(), b.clone(), *ia, *ib, *strict)),
            _ => None,
        },
        _ => None,
    };
    match it {
        PyIter::Shared(rc) if Rc::strong_count(rc) == 2 && Rc::weak_count(rc) == 0 => {
            let z = rc.try_borrow().ok()?;
            from(&z).map(|(a, b, ia, ib, s)| (a, b, ia, ib, s, true))
        }
        other => from(other).map(|(a, b, ia, ib, s)| (a, b, ia, ib, s, false)),
    }
}

/// The iterator state a fast loop hands back to the general loop: shared
/// again when the loop was handed an iterator object (its holder must see
/// the same state), else owned by the loop.
fn handed_back(rest: PyIter, shared: bool) -> PyIter {
    if shared {
        PyIter::Shared(Rc::new(RefCell::new(rest)))
    } else {
        rest
    }
}
