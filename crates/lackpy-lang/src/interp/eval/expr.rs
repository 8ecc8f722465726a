//! Expression evaluation.
//!
//! `eval` handles leaves inline; every compound kind has its own function
//! so the recursive frame stays small. Static nesting is bounded by the
//! resolver, dynamic nesting by the depth charged for lambda calls.

use std::rc::Rc;

use crate::interp::Interp;
use crate::interp::ir::{Conv, DictItem, Elt, Expr, ExprKind, FPart, LambdaDef, Spec};
use crate::runtime::error::{Exc, ExceptionKind, R};
use crate::runtime::meter::Buf;
use crate::syntax::ast::{CmpOp, Operator, UnaryOp};
use crate::types::ops;
use crate::value::PyIter;
use crate::value::{Dict, Lambda, Set, Value, repr};

impl Interp<'_> {
    /// Evaluates an expression. Constants and bound names (most operands)
    /// are handled inline at every call site, so evaluating them costs no
    /// call; everything else goes through one out-of-line function.
    #[inline(always)]
    pub(crate) fn eval(&mut self, e: &Expr) -> R<Value> {
        match &e.kind {
            ExprKind::Const(v) => Ok(crate::interp::fast_clone(v)),
            ExprKind::Name(r, _) => {
                // Bound globals and locals inline; everything else via `load`.
                let hit = match *r {
                    crate::interp::ir::NameRef::Global(slot) => self.globals.get(slot as usize),
                    crate::interp::ir::NameRef::Local(slot) => {
                        self.stack.get(self.base + slot as usize)
                    }
                    crate::interp::ir::NameRef::Outer(depth, slot) => {
                        let n = self.frames.len();
                        n.checked_sub(1 + depth as usize)
                            .and_then(|i| self.frames.get(i))
                            .and_then(|&base| self.stack.get(base + slot as usize))
                    }
                };
                if let Some(Some(v)) = hit {
                    return Ok(crate::interp::fast_clone(v));
                }
                self.eval_unbound(e)
            }
            // The hottest compound kinds get small functions of their own:
            // one call each, without the large frame of `eval_compound`.
            ExprKind::FastBin(b) => self.eval_fast_bin(b, e.line),
            ExprKind::FastCmp(c) => self.eval_fast_cmp(c, e.line),
            ExprKind::BinOp(l, op, r) => self.eval_binop(l, *op, r, e.line),
            ExprKind::AddChain(c) => self.eval_add_chain(c),
            ExprKind::Percent(p) => self.eval_percent(p, e.line),
            ExprKind::Compare(..)
            | ExprKind::Subscript(..)
            | ExprKind::Call(_)
            | ExprKind::MethodCall(_) => self.eval_hot(e),
            _ => self.eval_compound(e),
        }
    }

    #[inline(never)]
    pub(super) fn eval_binop(&mut self, l: &Expr, op: Operator, r: &Expr, line: u32) -> R<Value> {
        check_stack()?;
        let a = self.eval(l)?;
        let b = self.eval(r)?;
        if let (Value::Int(_, x), Value::Int(_, y)) = (&a, &b)
            && let Some(v) = ops::int_fast(op, *x, *y)
        {
            return Ok(Value::int(v));
        }
        ops::binop(&mut self.budget, op, a, b).map_err(|ex| at_line(ex, line))
    }

    #[inline(never)]
    fn eval_hot(&mut self, e: &Expr) -> R<Value> {
        check_stack()?;
        let r = match &e.kind {
            ExprKind::Compare(l, rest) => self.eval_compare(l, rest),
            ExprKind::Subscript(obj, idx) => self.eval_subscript(obj, idx),
            ExprKind::Call(c) => self.eval_call(c),
            ExprKind::MethodCall(m) => self.eval_method_call(m),
            _ => self.eval_compound(e),
        };
        r.map_err(|ex| at_line(ex, e.line))
    }

    /// A name without a value in its slot: globals fall back to builtins
    /// and tools, anything else is a NameError.
    #[inline(never)]
    fn eval_unbound(&mut self, e: &Expr) -> R<Value> {
        // A builtin function's name (`len`, `str`) that the program did not
        // rebind, the common case here: straight to the builtin.
        if let ExprKind::Name(crate::interp::ir::NameRef::Global(slot), _) = &e.kind
            && let Some(crate::interp::ir::GlobalInfo {
                fallback:
                    crate::interp::ir::Fallback::Builtin(crate::syntax::catalog::BuiltinName::Func(b)),
                ..
            }) = self.program.globals.get(*slot as usize)
        {
            return Ok(Value::Builtin(*b));
        }
        match &e.kind {
            ExprKind::Name(r, name) => self.load(*r, name).map_err(|ex| at_line(ex, e.line)),
            _ => self.eval_compound(e),
        }
    }

    #[inline(never)]
    fn eval_compound(&mut self, e: &Expr) -> R<Value> {
        self.eval_compound_inner(e)
            .map_err(|ex| at_line(ex, e.line))
    }

    fn eval_compound_inner(&mut self, e: &Expr) -> R<Value> {
        check_stack()?;
        match &e.kind {
            // `eval` sends these to their own functions; kept total here.
            ExprKind::FastBin(b) => self.eval_fast_bin(b, e.line),
            ExprKind::FastCmp(c) => self.eval_fast_cmp(c, e.line),
            ExprKind::BinOp(l, op, r) => self.eval_binop(l, *op, r, e.line),
            ExprKind::AddChain(c) => self.eval_add_chain(c),
            ExprKind::Percent(p) => self.eval_percent(p, e.line),
            ExprKind::Compare(..)
            | ExprKind::Call(_)
            | ExprKind::MethodCall(_)
            | ExprKind::Subscript(..) => self.eval_hot(e),
            ExprKind::Unary(op, x) => {
                let v = self.eval(x)?;
                ops::unary(*op, v)
            }
            ExprKind::And(vs) => {
                let mut last = Value::None;
                for v in vs {
                    last = self.eval(v)?;
                    if !last.truthy() {
                        return Ok(last);
                    }
                }
                Ok(last)
            }
            ExprKind::Or(vs) => {
                let mut last = Value::None;
                for v in vs {
                    last = self.eval(v)?;
                    if last.truthy() {
                        return Ok(last);
                    }
                }
                Ok(last)
            }
            ExprKind::IfExp(t, b, o) => {
                if self.eval_cond(t)? {
                    self.eval(b)
                } else {
                    self.eval(o)
                }
            }
            ExprKind::Attribute(obj, attr) => {
                let o = self.eval(obj)?;
                crate::types::methods::get_attr(&o, &attr.name, attr.id)
            }
            ExprKind::List(elts) => {
                let items = self.eval_elts(elts)?;
                Ok(Value::list(items))
            }
            ExprKind::Tuple(elts) => {
                // Pairs and triples are built in place (a tuple holds up to
                // three items inline), with no vector in between.
                match &elts[..] {
                    [Elt::One(a), Elt::One(b)] => {
                        let a = self.eval(a)?;
                        return Ok(Value::pair(a, self.eval(b)?));
                    }
                    [Elt::One(a), Elt::One(b), Elt::One(c)] => {
                        let a = self.eval(a)?;
                        let b = self.eval(b)?;
                        return Ok(Value::triple(a, b, self.eval(c)?));
                    }
                    _ => {}
                }
                let items = self.eval_elts(elts)?;
                Ok(Value::tuple(items))
            }
            ExprKind::Set(elts, all_const) => self.eval_set(elts, *all_const),
            ExprKind::Dict(items) => self.eval_dict(items),
            ExprKind::ListComp(c) => self.eval_list_comp(c),
            ExprKind::SetComp(c) => self.eval_set_comp(c),
            ExprKind::DictComp(c) => self.eval_dict_comp(c),
            ExprKind::FString(parts) => {
                // The literal text plus a few bytes a field: one allocation
                // for most results instead of a doubling series.
                let guess = parts
                    .iter()
                    .map(|p| match p {
                        FPart::Lit(s) => s.len(),
                        FPart::Field { .. } => 8,
                    })
                    .sum();
                let mut out = String::with_capacity(guess);
                self.eval_fparts(parts, &mut out)?;
                Ok(Value::str(out))
            }
            ExprKind::Lambda(def) => self.make_lambda(def),
            ExprKind::Slice(..) => Err(Exc::new(
                ExceptionKind::ValidationError,
                "slice outside of a subscript",
            )),
            ExprKind::Forbidden(kind) => Err(Exc::forbidden(kind, e.line)),
            ExprKind::Const(v) => Ok(v.clone()),
            ExprKind::Name(r, name) => self.load(*r, name),
        }
    }

    /// Evaluates an expression for its truth only (an `if` test, a
    /// comprehension filter, a conditional expression's test): comparisons,
    /// `not`, `and` and `or` there answer a bool without making values.
    #[inline(never)]
    pub(crate) fn eval_cond(&mut self, e: &Expr) -> R<bool> {
        match &e.kind {
            ExprKind::FastCmp(c) => match self.fast_cmp(c) {
                Some(b) => Ok(b),
                None => self.cond_compare(e, &c.left, &c.rest),
            },
            ExprKind::Compare(l, rest) if rest.len() == 1 => self.cond_compare(e, l, rest),
            ExprKind::Unary(UnaryOp::Not, _) | ExprKind::And(_) | ExprKind::Or(_) => {
                self.cond_logic(e)
            }
            _ => Ok(truth(&self.eval(e)?)),
        }
    }

    /// [`Self::eval_cond`], with a lowered comparison answered inline
    /// (no call) at the hot sites: comprehension filters, `and`/`or`
    /// operands, `if` tests.
    #[inline(always)]
    pub(crate) fn cond(&mut self, e: &Expr) -> R<bool> {
        if let ExprKind::FastCmp(c) = &e.kind
            && let Some(b) = self.fast_cmp(c)
        {
            return Ok(b);
        }
        self.eval_cond(e)
    }

    /// `a op b` as a condition.
    #[inline(never)]
    fn cond_compare(&mut self, e: &Expr, l: &Expr, rest: &[(CmpOp, Expr)]) -> R<bool> {
        check_stack().map_err(|ex| at_line(ex, e.line))?;
        let Some((op, r)) = rest.first() else {
            return Ok(true);
        };
        let a = self.eval(l)?;
        let b = self.eval(r)?;
        if let (Value::Int(_, x), Value::Int(_, y)) = (&a, &b) {
            let (x, y) = (*x, *y);
            match op {
                CmpOp::Eq => return Ok(x == y),
                CmpOp::NotEq => return Ok(x != y),
                CmpOp::Lt => return Ok(x < y),
                CmpOp::LtE => return Ok(x <= y),
                CmpOp::Gt => return Ok(x > y),
                CmpOp::GtE => return Ok(x >= y),
                _ => {}
            }
        }
        ops::compare(*op, &a, &b).map_err(|ex| at_line(ex, e.line))
    }

    /// `not x`, `x and y`, `x or y` as conditions.
    #[inline(never)]
    fn cond_logic(&mut self, e: &Expr) -> R<bool> {
        check_stack().map_err(|ex| at_line(ex, e.line))?;
        match &e.kind {
            ExprKind::Unary(UnaryOp::Not, x) => Ok(!self.eval_cond(x)?),
            ExprKind::And(vs) => {
                for v in vs {
                    if !self.cond(v)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            ExprKind::Or(vs) => {
                for v in vs {
                    if self.cond(v)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            _ => Ok(truth(&self.eval(e)?)),
        }
    }

    pub(super) fn eval_compare(&mut self, l: &Expr, rest: &[(CmpOp, Expr)]) -> R<Value> {
        let mut a = self.eval(l)?;
        let mut result = true;
        for (op, e) in rest {
            let b = self.eval(e)?;
            result = match (&a, &b) {
                (Value::Int(_, x), Value::Int(_, y)) => match ops::ordered(*op, x, y) {
                    Some(r) => r,
                    None => ops::compare(*op, &a, &b)?,
                },
                _ => ops::compare(*op, &a, &b)?,
            };
            if !result {
                return Ok(Value::Bool(false));
            }
            a = b;
        }
        Ok(Value::Bool(result))
    }

    fn eval_subscript(&mut self, obj: &Expr, idx: &Expr) -> R<Value> {
        if let ExprKind::Name(r, _) = &obj.kind
            && let Some(o) = self.peek(*r)
            && let Some(i) = self.peek_pure(idx)
        {
            // `row[0]`, `r['a']`, `xs[i]`: the container and the index are
            // read where they live, not cloned. Reading the index first is
            // unobservable: a constant or a bound name has no effect and
            // cannot fail.
            return ops::get_item(o, i);
        }
        if let ExprKind::Name(r, _) = &obj.kind
            && self.peek(*r).is_some()
        {
            // `s[j:j + 50]`, `s[-1 - i]`: a bound name is read in place
            // after its index is evaluated. Expressions never assign, so
            // the name holds the same value then as before, and an
            // unbound name (NameError first) does not come here.
            if let ExprKind::Slice(lo, hi, step) = &idx.kind {
                let s = self.eval_slice(lo, hi, step)?;
                if let Some(o) = self.peek(*r) {
                    return ops::get_slice(o, &s);
                }
                let o = self.eval(obj)?;
                return ops::get_slice(&o, &s);
            }
            let i = self.eval(idx)?;
            if let Some(o) = self.peek(*r) {
                return ops::get_item(o, &i);
            }
            let o = self.eval(obj)?;
            return ops::get_item(&o, &i);
        }
        if let ExprKind::MethodCall(_) = &obj.kind
            && !matches!(idx.kind, ExprKind::Slice(..))
        {
            // `line.split(",")[2]`: no list (see `pieces`).
            return self.eval_item_of(obj, idx);
        }
        let o = self.eval(obj)?;
        if let ExprKind::Slice(lo, hi, step) = &idx.kind {
            let s = self.eval_slice(lo, hi, step)?;
            return ops::get_slice(&o, &s);
        }
        let i = self.eval(idx)?;
        ops::get_item(&o, &i)
    }

    /// The value a bound name holds, borrowed in place (`None` when the
    /// name is unbound: the general path then raises or falls back).
    #[inline(always)]
    pub(crate) fn peek(&self, r: crate::interp::ir::NameRef) -> Option<&Value> {
        peek_in(&self.globals, &self.stack, &self.frames, self.base, r)
    }

    /// The value of an expression that has no effect and cannot fail (a
    /// constant or a bound name), borrowed in place; `None` for any other.
    #[inline(always)]
    fn peek_pure<'e>(&'e self, e: &'e Expr) -> Option<&'e Value> {
        pure_in(&self.globals, &self.stack, &self.frames, self.base, e)
    }

    /// Evaluates the bounds of a slice.
    pub(crate) fn eval_slice(
        &mut self,
        lo: &Option<Box<Expr>>,
        hi: &Option<Box<Expr>>,
        step: &Option<Box<Expr>>,
    ) -> R<ops::SliceArgs> {
        let mut part = |e: &Option<Box<Expr>>| -> R<Option<Value>> {
            match e {
                Some(e) => match self.eval(e)? {
                    Value::None => Ok(None),
                    v => Ok(Some(v)),
                },
                None => Ok(None),
            }
        };
        Ok(ops::SliceArgs {
            lo: part(lo)?,
            hi: part(hi)?,
            step: part(step)?,
        })
    }

    /// Evaluates list or tuple display elements, expanding `*x`.
    pub(crate) fn eval_elts(&mut self, elts: &[Elt]) -> R<Vec<Value>> {
        self.eval_display(elts, false)
    }

    /// Evaluates display elements, expanding `*x`. A non-iterable `*x` is
    /// CPython's `Value after * must be an iterable, not int` in a list or
    /// tuple, and the plain `'int' object is not iterable` in a set
    /// (`SET_UPDATE` iterates it as `set.update` does).
    fn eval_display(&mut self, elts: &[Elt], set: bool) -> R<Vec<Value>> {
        let mut out = Buf::with_capacity(elts.len())?;
        for e in elts {
            match e {
                Elt::One(x) => out.push(self.eval(x)?)?,
                Elt::Star(x) => {
                    let v = self.eval(x)?;
                    if let Err(e) = PyIter::of(&v) {
                        if set {
                            return Err(e);
                        }
                        return Err(Exc::type_error(format!(
                            "Value after * must be an iterable, not {}",
                            v.type_name()
                        )));
                    }
                    self.extend_from(&mut out, &v)?;
                }
            }
        }
        Ok(out.into_vec())
    }

    /// Appends every item of an iterable (`*x` in a display or a call):
    /// the buffer is charged and checked as it grows.
    pub(crate) fn extend_from(&mut self, out: &mut Buf<Value>, v: &Value) -> R<()> {
        match v {
            Value::List(l) => {
                if let Ok(l) = l.try_borrow() {
                    out.extend_from_slice(&l.items)?;
                }
            }
            Value::Tuple(t) => out.extend_from_slice(&t.items)?,
            _ => {
                let mut it = PyIter::of(v)?;
                if let Some(n) = it.known_len() {
                    crate::runtime::meter::ensure(n.saturating_mul(std::mem::size_of::<Value>()))?;
                }
                out.reserve(it.size_hint())?;
                while let Some(x) = it.next()? {
                    out.push(x)?;
                }
            }
        }
        Ok(())
    }

    fn eval_set(&mut self, elts: &[Elt], all_const: bool) -> R<Value> {
        let items = self.eval_display(elts, true)?;
        let mut s = Set::new();
        for i in items {
            s.add(i)?;
        }
        if all_const {
            // CPython compiles a constant set display to a frozenset
            // constant, which its constant merging rebuilds once from the
            // first frozenset's iteration order; the display then copies it.
            let mut again = Set::new();
            for (k, h) in s.hashed() {
                again.add_h(k.clone(), h);
            }
            let mut fresh = Set::new();
            fresh.merge(&again);
            return Ok(Value::set(fresh));
        }
        Ok(Value::set(s))
    }

    fn eval_dict(&mut self, items: &[DictItem]) -> R<Value> {
        // Pairs only: the entries get exact room (a spread's size is unknown).
        let pairs = items.iter().all(|i| matches!(i, DictItem::Pair(..)));
        let mut d = if pairs {
            Dict::with_capacity(items.len())
        } else {
            Dict::new()
        };
        for item in items {
            match item {
                DictItem::Pair(k, v) => {
                    let k = self.eval(k)?;
                    let v = self.eval(v)?;
                    d.insert(k, v)?;
                }
                DictItem::Spread(x) => {
                    let v = self.eval(x)?;
                    match &v {
                        Value::Dict(src) => {
                            let pairs: Vec<(Value, Value)> = src
                                .try_borrow()
                                .map(|s| s.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
                                .unwrap_or_default();
                            for (k, v) in pairs {
                                d.insert(k, v)?;
                            }
                        }
                        other => {
                            return Err(Exc::type_error(format!(
                                "'{}' object is not a mapping",
                                other.type_name()
                            )));
                        }
                    }
                }
            }
        }
        Ok(Value::dict(d))
    }

    fn eval_fparts(&mut self, parts: &[FPart], out: &mut String) -> R<()> {
        for p in parts {
            match p {
                FPart::Lit(s) => out.push_str(s),
                FPart::Field { value, conv, spec } => {
                    let v = self.eval(value)?;
                    let before = out.len();
                    match (conv, spec) {
                        (Conv::None, Spec::None) => repr::push_str_of(&v, out)?,
                        (Conv::Repr, Spec::None) => repr::push_repr(&v, out, false)?,
                        (Conv::Ascii, Spec::None) => repr::push_repr(&v, out, true)?,
                        (Conv::Str, Spec::None) => repr::push_str_of(&v, out)?,
                        _ => {
                            let v = match conv {
                                Conv::None => v,
                                Conv::Str => Value::str(repr::to_str(&v)?),
                                Conv::Repr => Value::str(repr::repr(&v)?),
                                Conv::Ascii => Value::str(repr::ascii(&v)?),
                            };
                            match spec {
                                Spec::None => out.push_str(&repr::to_str(&v)?),
                                Spec::Fixed(text, parsed) => {
                                    crate::types::formatting::format_cached_into(
                                        &mut self.budget,
                                        &v,
                                        text,
                                        parsed,
                                        out,
                                    )?
                                }
                                Spec::Dynamic(sp) => {
                                    let mut s = String::new();
                                    self.eval_fparts(sp, &mut s)?;
                                    out.push_str(&crate::types::formatting::format_value(
                                        &mut self.budget,
                                        &v,
                                        &s,
                                    )?);
                                }
                            }
                        }
                    }
                    if out.len() - before > 4096 {
                        self.budget.check_memory(out.len())?;
                    }
                }
            }
        }
        Ok(())
    }

    fn make_lambda(&mut self, def: &Rc<LambdaDef>) -> R<Value> {
        let mut defaults = Vec::with_capacity(def.defaults.len());
        for d in &def.defaults {
            defaults.push(self.eval(d)?);
        }
        let mut kw_defaults = Vec::with_capacity(def.kw_defaults.len());
        for d in &def.kw_defaults {
            kw_defaults.push(match d {
                Some(d) => Some(self.eval(d)?),
                None => None,
            });
        }
        let captured = def
            .captures
            .iter()
            .map(|(r, name)| self.load(*r, name).ok())
            .collect();
        Ok(Value::Lambda(Rc::new(Lambda {
            def: def.clone(),
            defaults,
            kw_defaults,
            captured,
        })))
    }
}

/// [`Interp::peek`] over the storage alone, so that a caller can hold the
/// value while it uses another part of the interpreter (the budget).
#[inline(always)]
pub(crate) fn peek_in<'a>(
    globals: &'a [Option<Value>],
    stack: &'a [Option<Value>],
    frames: &[usize],
    base: usize,
    r: crate::interp::ir::NameRef,
) -> Option<&'a Value> {
    use crate::interp::ir::NameRef;
    match r {
        NameRef::Global(slot) => globals.get(slot as usize)?.as_ref(),
        NameRef::Local(slot) => stack.get(base + slot as usize)?.as_ref(),
        NameRef::Outer(depth, slot) => {
            let i = frames.len().checked_sub(1 + depth as usize)?;
            let at = *frames.get(i)?;
            stack.get(at + slot as usize)?.as_ref()
        }
    }
}

/// [`Interp::peek_pure`] over the storage alone.
#[inline(always)]
pub(crate) fn pure_in<'a>(
    globals: &'a [Option<Value>],
    stack: &'a [Option<Value>],
    frames: &[usize],
    base: usize,
    e: &'a Expr,
) -> Option<&'a Value> {
    match &e.kind {
        ExprKind::Const(v) => Some(v),
        ExprKind::Name(r, _) => peek_in(globals, stack, frames, base, *r),
        _ => None,
    }
}

/// A value's truth, with the bool case inline.
#[inline(always)]
fn truth(v: &Value) -> bool {
    match v {
        Value::Bool(b) => *b,
        other => other.truthy(),
    }
}

/// Attaches a line to an exception that has none yet.
#[inline]
pub(crate) fn at_line(mut ex: Box<Exc>, line: u32) -> Box<Exc> {
    if ex.line == 0 {
        ex.line = line;
    }
    ex
}

/// RecursionError when the native stack runs low (compound expressions
/// nest through Rust frames).
#[inline(always)]
pub(super) fn check_stack() -> R<()> {
    if crate::runtime::stack::exhausted() {
        return Err(Exc::limit(
            ExceptionKind::RecursionError,
            "maximum recursion depth exceeded",
        ));
    }
    Ok(())
}
