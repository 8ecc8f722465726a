//! Calls: argument evaluation and dispatch to builtins, types, methods,
//! lambdas and tools.

use std::rc::Rc;
use std::time::Instant;

use crate::builtins;
use crate::data::convert::{from_data_owned, to_data_with};
use crate::interp::Interp;
use crate::interp::ir::{Call, Elt, ExprKind, Kw, MethodCall};
use crate::interp::trace::{TraceEntry, name_args, preview};
use crate::runtime::error::{Exc, ExceptionKind, R};
use crate::runtime::growth::Growth;
use crate::runtime::memory;
use crate::types::methods;
use crate::value::ToolInfo;
use crate::value::{Lambda, Value};

/// Keyword arguments of a call.
pub(crate) type Kwargs = Vec<(Rc<str>, Value)>;

/// Most calls have few positional arguments; they are evaluated into a
/// fixed array on the stack instead of a fresh vector.
pub(crate) const INLINE_ARGS: usize = 4;

impl Interp<'_> {
    pub(crate) fn eval_call(&mut self, c: &Call) -> R<Value> {
        if let Some(v) = self.len_in_place(c) {
            return v;
        }
        let f = self.eval(&c.func)?;
        if let (Value::Builtin(crate::syntax::catalog::BuiltinId::Len), true, [Elt::One(a)]) =
            (&f, c.simple, c.args.as_slice())
            && let ExprKind::MethodCall(m) = &a.kind
            && m.attr
                .id
                .is_some_and(crate::types::str::pieces::is_split_family)
        {
            // `len(s.split())`: the pieces counted, none made.
            return self.len_of_source(a);
        }
        if c.simple && c.args.len() <= INLINE_ARGS {
            return self.with_few_args(&c.args, |it, args| it.call_value(&f, args, &[]));
        }
        let (args, kwargs) = self.eval_args(&c.args, &c.kwargs, &|| callee_name(&f))?;
        self.call_value(&f, &args, &kwargs)
    }

    /// `len(x)` where `len` is the builtin (its global slot unbound) and
    /// `x` a constant or a bound name: the length is read where `x` lives,
    /// with no lookup of `len`, no clone of `x` and no call dispatch.
    /// Reading has no effect, so the order of evaluation is kept; `None`
    /// when the call is not of this form (the general path runs).
    #[inline(always)]
    fn len_in_place(&mut self, c: &Call) -> Option<R<Value>> {
        use crate::interp::ir::{Fallback, NameRef};
        use crate::syntax::catalog::{BuiltinId, BuiltinName};
        let (ExprKind::Name(NameRef::Global(slot), _), [Elt::One(a)]) =
            (&c.func.kind, c.args.as_slice())
        else {
            return None;
        };
        let slot = *slot as usize;
        if !c.simple || !matches!(self.globals.get(slot), Some(None)) {
            return None;
        }
        let fallback = self.program.globals.get(slot).map(|g| &g.fallback);
        if !matches!(
            fallback,
            Some(Fallback::Builtin(BuiltinName::Func(BuiltinId::Len)))
        ) {
            return None;
        }
        let (g, st, fr, base) = (&self.globals, &self.stack, &self.frames, self.base);
        let v = crate::interp::eval::expr::pure_in(g, st, fr, base, a)?;
        Some(
            self.budget
                .step()
                .and_then(|()| crate::types::ops::py_len(v))
                .map(|n| Value::int(n as i64)),
        )
    }

    pub(crate) fn eval_method_call(&mut self, m: &MethodCall) -> R<Value> {
        // A str method on a name reads the receiver where it lives: tried
        // first, so the receiver is not cloned (and dropped) for nothing.
        // (`get`, no str method, goes straight to the dict path below.)
        if m.attr.id != Some(crate::syntax::catalog::MethodId::Get) {
            if let Some(v) = self.str_method_in_place(m) {
                return v;
            }
            if let (ExprKind::MethodCall(inner), Some(recase)) = (&m.obj.kind, m.attr.id)
                && crate::types::str::strip::is_recase(recase)
                && m.simple
                && m.args.is_empty()
                && let Some(v) = self.strip_recase_in_place(inner, recase)
            {
                // The strip's errors carry its own line, as when it runs alone.
                return v.map_err(|ex| crate::interp::eval::expr::at_line(ex, m.obj.line));
            }
        }
        let obj = self.eval(&m.obj)?;
        if let (Some(crate::syntax::catalog::MethodId::Get), Value::Dict(d)) = (m.attr.id, &obj)
            && m.simple
            && let [Elt::One(key), rest @ ..] = m.args.as_slice()
            && rest.len() <= 1
        {
            // `d.get(k[, default])`, the most common dict method (counting,
            // lookups with a default): straight to the table.
            self.budget.step()?;
            let key = self.eval(key)?;
            let default = match rest {
                [Elt::One(e)] => Some(self.eval(e)?),
                _ => None,
            };
            let db = d
                .try_borrow()
                .map_err(|_| crate::types::dict::methods::busy())?;
            return Ok(match db.get(&key)? {
                Some(v) => v.clone(),
                None => default.unwrap_or(Value::None),
            });
        }
        self.call_method_on(m, obj)
    }

    /// The rest of `obj.name(args)` once `obj` is evaluated: the arguments
    /// are evaluated and the method (or attribute) called.
    #[inline(always)]
    pub(crate) fn call_method_on(&mut self, m: &MethodCall, obj: Value) -> R<Value> {
        let direct = match m.attr.id {
            Some(id) => methods::has_method(&obj, id),
            None => false,
        };
        if !direct {
            let f = methods::get_attr(&obj, &m.attr.name, m.attr.id)?;
            let (args, kwargs) = self.eval_args(&m.args, &m.kwargs, &|| callee_name(&f))?;
            return self.call_value(&f, &args, &kwargs);
        }
        let Some(id) = m.attr.id else {
            return Err(Exc::no_attr(&obj, &m.attr.name));
        };
        self.budget.step()?;
        if m.simple && m.args.len() <= INLINE_ARGS {
            return self.with_few_args(&m.args, |it, args| {
                methods::call_method(it, &obj, id, args, &[])
            });
        }
        let owner = match &obj {
            Value::Type(t) => *t,
            other => other.type_id(),
        };
        let (args, kwargs) = self.eval_args(&m.args, &m.kwargs, &|| {
            format!("{}.{}", owner.name(), id.name())
        })?;
        methods::call_method(self, &obj, id, &args, &kwargs)
    }

    /// `name.method(args)` on a str held by a name, with at most two
    /// arguments that are constants or bound names: the receiver (and a
    /// lone argument) are read where they live, not cloned. Reading them
    /// has no effect and cannot fail, so the order of evaluation is kept;
    /// `None` when the call is not of this form (the general path runs).
    #[inline(always)]
    fn str_method_in_place(&mut self, m: &MethodCall) -> Option<R<Value>> {
        use crate::interp::eval::expr::{peek_in, pure_in};
        let (ExprKind::Name(r, _), Some(id)) = (&m.obj.kind, m.attr.id) else {
            return None;
        };
        if !m.simple || m.args.len() > 2 {
            return None;
        }
        let run = crate::types::str::methods::METHODS.get(id)?;
        let (g, st, fr, base) = (&self.globals, &self.stack, &self.frames, self.base);
        let Some(Value::Str(s)) = peek_in(g, st, fr, base, *r) else {
            return None;
        };
        /// The globals, the locals stack, the frame bases and the base.
        type Storage<'a, 'f> = (&'a [Option<Value>], &'a [Option<Value>], &'f [usize], usize);
        fn pure<'a>((g, st, fr, base): Storage<'a, '_>, e: &'a Elt) -> Option<&'a Value> {
            match e {
                Elt::One(e) => pure_in(g, st, fr, base, e),
                Elt::Star(_) => None,
            }
        }
        let at = (g.as_slice(), st.as_slice(), fr.as_slice(), base);
        let r = match m.args.as_slice() {
            [] => self
                .budget
                .step()
                .and_then(|()| run(&mut self.budget, s, &[], &[])),
            [a] => {
                let a = pure(at, a)?;
                self.budget
                    .step()
                    .and_then(|()| run(&mut self.budget, s, std::slice::from_ref(a), &[]))
            }
            [a, b] => {
                let args = [
                    crate::interp::fast_clone(pure(at, a)?),
                    crate::interp::fast_clone(pure(at, b)?),
                ];
                self.budget
                    .step()
                    .and_then(|()| run(&mut self.budget, s, &args, &[]))
            }
            _ => return None,
        };
        Some(r)
    }

    /// `name.strip(chars).lower()` (any strip method, then `lower`, `upper`
    /// or `casefold` with no arguments) on a str held by a name, with the
    /// strip's argument a constant or a bound name: the stripped part is
    /// case-mapped with no string made in between (word cleanup in a
    /// loop). `None` when the chain is not of this form.
    #[inline]
    fn strip_recase_in_place(
        &mut self,
        inner: &MethodCall,
        recase: crate::syntax::catalog::MethodId,
    ) -> Option<R<Value>> {
        use crate::interp::eval::expr::{peek_in, pure_in};
        let (ExprKind::Name(r, _), Some(strip)) = (&inner.obj.kind, inner.attr.id) else {
            return None;
        };
        if !inner.simple || !crate::types::str::strip::is_strip(strip) {
            return None;
        }
        let (g, st, fr, base) = (&self.globals, &self.stack, &self.frames, self.base);
        let Some(Value::Str(s)) = peek_in(g, st, fr, base, *r) else {
            return None;
        };
        let arg = match inner.args.as_slice() {
            [] => None,
            [Elt::One(a)] => Some(pure_in(g, st, fr, base, a)?),
            _ => return None,
        };
        let args = arg.map(std::slice::from_ref).unwrap_or_default();
        let budget = &mut self.budget;
        Some(budget.step().and_then(|()| {
            crate::types::str::strip::strip_then_recase(budget, strip, recase, s, args, &[])
        }))
    }

    /// Evaluates up to [`INLINE_ARGS`] plain positional arguments (a
    /// `simple` call's) into an array on the stack and hands them to `f`:
    /// no allocation, and the one- and two-argument cases drop exactly
    /// what they made.
    #[inline(always)]
    pub(crate) fn with_few_args<T>(
        &mut self,
        args: &[Elt],
        f: impl FnOnce(&mut Self, &[Value]) -> R<T>,
    ) -> R<T> {
        match args {
            [] => f(self, &[]),
            [Elt::One(a)] => {
                let v = [self.eval(a)?];
                f(self, &v)
            }
            [Elt::One(a), Elt::One(b)] => {
                let v = [self.eval(a)?, self.eval(b)?];
                f(self, &v)
            }
            _ => {
                let mut buf: [Value; INLINE_ARGS] =
                    [Value::None, Value::None, Value::None, Value::None];
                for (slot, a) in buf.iter_mut().zip(args) {
                    if let Elt::One(e) = a {
                        *slot = self.eval(e)?;
                    }
                }
                f(self, &buf[..args.len().min(INLINE_ARGS)])
            }
        }
    }

    /// Evaluates positional and keyword arguments, expanding `*` and `**`.
    pub(crate) fn eval_args(
        &mut self,
        args: &[Elt],
        kws: &[Kw],
        callee: &dyn Fn() -> String,
    ) -> R<(Vec<Value>, Kwargs)> {
        let pos = self.eval_elts_star(args, callee)?;
        let mut kwargs: Kwargs = Vec::with_capacity(kws.len());
        for k in kws {
            match k {
                Kw::Named(name, e) => {
                    let v = self.eval(e)?;
                    if kwargs.iter().any(|(n, _)| n == name) {
                        return Err(Exc::type_error(format!(
                            "{}() got multiple values for keyword argument '{}'",
                            callee(),
                            name
                        )));
                    }
                    kwargs.push((name.clone(), v));
                }
                Kw::Spread(e) => {
                    let v = self.eval(e)?;
                    let Value::Dict(d) = &v else {
                        return Err(Exc::type_error(format!(
                            "{}() argument after ** must be a mapping, not {}",
                            callee(),
                            v.type_name()
                        )));
                    };
                    let pairs: Vec<(Value, Value)> = d
                        .try_borrow()
                        .map(|d| d.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
                        .unwrap_or_default();
                    for (k, v) in pairs {
                        let Value::Str(name) = &k else {
                            return Err(Exc::type_error("keywords must be strings"));
                        };
                        let name: Rc<str> = Rc::from(name.as_str());
                        if kwargs.iter().any(|(n, _)| *n == name) {
                            return Err(Exc::type_error(format!(
                                "{}() got multiple values for keyword argument '{}'",
                                callee(),
                                name
                            )));
                        }
                        kwargs.push((name, v));
                    }
                }
            }
        }
        Ok((pos, kwargs))
    }

    fn eval_elts_star(&mut self, args: &[Elt], callee: &dyn Fn() -> String) -> R<Vec<Value>> {
        let lone_star = matches!(args, [Elt::Star(_)]);
        let mut out = crate::runtime::meter::Buf::with_capacity(args.len())?;
        for a in args {
            match a {
                Elt::One(e) => out.push(self.eval(e)?)?,
                Elt::Star(e) => {
                    let v = self.eval(e)?;
                    if crate::value::PyIter::of(&v).is_err() {
                        return Err(Exc::type_error(if lone_star {
                            format!(
                                "{}() argument after * must be an iterable, not {}",
                                callee(),
                                v.type_name()
                            )
                        } else {
                            format!("Value after * must be an iterable, not {}", v.type_name())
                        }));
                    }
                    self.extend_from(&mut out, &v)?;
                }
            }
        }
        Ok(out.into_vec())
    }

    /// Calls any callable value.
    pub(crate) fn call_value(
        &mut self,
        f: &Value,
        args: &[Value],
        kwargs: &[(Rc<str>, Value)],
    ) -> R<Value> {
        self.budget.step()?;
        match f {
            Value::Builtin(b) => builtins::call_builtin(self, *b, args, kwargs),
            Value::Type(t) => builtins::call_type(&mut self.budget, *t, args, kwargs),
            // `list[int](x)` is `list(x)`.
            Value::Alias(a) => builtins::call_type(&mut self.budget, a.origin, args, kwargs),
            Value::Method(m) => match &m.recv {
                Some(recv) => methods::call_method(self, recv, m.name, args, kwargs),
                None => methods::call_unbound(self, m.owner, m.name, args, kwargs),
            },
            Value::Lambda(l) => self.call_lambda(l, args, kwargs),
            Value::Tool(info) => self.call_tool(info, args, kwargs),
            other => Err(Exc::type_error(format!(
                "'{}' object is not callable",
                other.type_name()
            ))),
        }
    }

    /// Calls a lambda in a fresh frame.
    pub(crate) fn call_lambda(
        &mut self,
        l: &Rc<Lambda>,
        args: &[Value],
        kwargs: &[(Rc<str>, Value)],
    ) -> R<Value> {
        let def = &l.def;
        let np = def.params.len();
        let cost = 1 + def.body_depth;
        if kwargs.is_empty()
            && args.len() == np
            && def.vararg.is_none()
            && def.kwonly.is_empty()
            && def.kwarg.is_none()
        {
            // The usual key function: positional arguments only, copied
            // straight into the new frame's slots.
            self.push_frame(0, cost)?;
            for a in args {
                self.stack.push(Some(crate::interp::fast_clone(a)));
            }
            for c in &l.captured {
                self.stack.push(c.clone());
            }
            let r = self.eval(&def.body);
            self.pop_frame(cost);
            return r;
        }
        let mut locals: Vec<Option<Value>> = vec![None; def.nslots as usize];
        if args.len() > np && def.vararg.is_none() {
            let takes = if def.defaults.is_empty() {
                format!(
                    "{} positional argument{}",
                    np,
                    if np == 1 { "" } else { "s" }
                )
            } else {
                format!(
                    "from {} to {} positional arguments",
                    np.saturating_sub(def.defaults.len()),
                    np
                )
            };
            return Err(Exc::type_error(format!(
                "<lambda>() takes {} but {} {} given",
                takes,
                args.len(),
                if args.len() == 1 { "was" } else { "were" }
            )));
        }
        for (slot, a) in locals.iter_mut().zip(args.iter().take(np)) {
            *slot = Some(a.clone());
        }
        let mut next = np;
        if def.vararg.is_some() {
            let extra: Vec<Value> = args.iter().skip(np).cloned().collect();
            if let Some(slot) = locals.get_mut(next) {
                *slot = Some(Value::tuple(extra));
            }
            next += 1;
        }
        let kw_start = next;
        let mut extra_kw = crate::value::Dict::new();
        for (name, v) in kwargs {
            let pos = def
                .params
                .iter()
                .position(|p| p == name)
                .filter(|&i| i >= def.posonly)
                .or_else(|| {
                    def.kwonly
                        .iter()
                        .position(|p| p == name)
                        .map(|i| kw_start + i)
                });
            match pos {
                Some(i) => {
                    if let Some(slot) = locals.get_mut(i) {
                        if slot.is_some() {
                            return Err(Exc::type_error(format!(
                                "<lambda>() got multiple values for argument '{name}'"
                            )));
                        }
                        *slot = Some(v.clone());
                    }
                }
                None => {
                    if def.kwarg.is_some() {
                        extra_kw.insert(Value::str(&**name), v.clone())?;
                    } else {
                        return Err(Exc::type_error(format!(
                            "<lambda>() got an unexpected keyword argument '{name}'"
                        )));
                    }
                }
            }
        }
        // Defaults of positional parameters.
        let first_default = np - def.defaults.len().min(np);
        for (i, d) in l.defaults.iter().enumerate() {
            if let Some(slot) = locals.get_mut(first_default + i)
                && slot.is_none()
            {
                *slot = Some(d.clone());
            }
        }
        let missing: Vec<&str> = def
            .params
            .iter()
            .zip(&locals)
            .filter(|(_, v)| v.is_none())
            .map(|(n, _)| &**n)
            .collect();
        if !missing.is_empty() {
            return Err(Exc::type_error(missing_message("positional", &missing)));
        }
        for (i, d) in l.kw_defaults.iter().enumerate() {
            if let (Some(slot), Some(d)) = (locals.get_mut(kw_start + i), d)
                && slot.is_none()
            {
                *slot = Some(d.clone());
            }
        }
        let missing_kw: Vec<&str> = def
            .kwonly
            .iter()
            .enumerate()
            .filter(|(i, _)| locals.get(kw_start + i).is_some_and(|v| v.is_none()))
            .map(|(_, n)| &**n)
            .collect();
        if !missing_kw.is_empty() {
            return Err(Exc::type_error(missing_message(
                "keyword-only",
                &missing_kw,
            )));
        }
        if def.kwarg.is_some()
            && let Some(slot) = locals.get_mut(kw_start + def.kwonly.len())
        {
            *slot = Some(Value::dict(extra_kw));
        }
        let nparams = def.nparams();
        for (slot, c) in locals.iter_mut().skip(nparams).zip(&l.captured) {
            *slot = c.clone();
        }
        self.push_frame(0, cost)?;
        self.stack.extend(locals);
        let r = self.eval(&def.body);
        self.pop_frame(cost);
        r
    }

    /// Calls a tool through the host and records it in the trace.
    pub(crate) fn call_tool(
        &mut self,
        info: &Rc<ToolInfo>,
        args: &[Value],
        kwargs: &[(Rc<str>, Value)],
    ) -> R<Value> {
        // The tool gets owned copies of its arguments: shared structure is
        // copied once per reference, so the copy is charged as it grows,
        // and held against the memory budget while the call runs.
        let mut g = Growth::in_run();
        let mut data_args = Vec::with_capacity(args.len());
        for a in args {
            data_args.push(to_data_with(a, &mut g)?);
        }
        let mut data_kwargs = Vec::with_capacity(kwargs.len());
        for (k, v) in kwargs {
            data_kwargs.push((k.to_string(), to_data_with(v, &mut g)?));
        }
        let (named, mut traced) = name_args(&info.args, &data_args, &data_kwargs);
        traced += std::mem::size_of::<TraceEntry>() + info.name.len();
        let step = self.trace.calls();
        let held = g.used();
        memory::charge(held);
        let t0 = Instant::now();
        let result = self.host.call(&info.name, data_args, data_kwargs);
        let waited = self.host.take_waited();
        let duration = t0.elapsed().saturating_sub(waited);
        if !waited.is_zero() {
            // Time spent waiting for a person is not the program's.
            self.budget.extend_deadline(waited);
        }
        memory::credit(held);
        let note = self.host.call_note();
        let approval = self.host.call_approval();
        let replayed = self.host.call_replayed();
        let noted = note.as_ref().map_or(0, String::len) + approval.as_ref().map_or(0, String::len);
        match result {
            Ok(data) => {
                let (result, bytes) = preview(&data);
                self.record(
                    TraceEntry {
                        step,
                        tool: info.name.clone(),
                        args: named,
                        result: Some(result),
                        duration,
                        success: true,
                        error: None,
                        note,
                        approval,
                        replayed,
                    },
                    traced + bytes + noted,
                );
                self.budget.poll_now()?;
                from_data_owned(data)
            }
            Err(e) => {
                self.record(
                    TraceEntry {
                        step,
                        tool: info.name.clone(),
                        args: named,
                        result: None,
                        duration,
                        success: false,
                        error: Some(e.message.clone()),
                        note,
                        approval,
                        replayed,
                    },
                    traced + e.message.len() + noted,
                );
                let kind = match e.error_type.as_str() {
                    "TimeoutError" => ExceptionKind::TimeoutError,
                    "Cancelled" => ExceptionKind::Cancelled,
                    other => ExceptionKind::Other(other.to_owned()),
                };
                Err(Exc::new(kind, e.message))
            }
        }
    }
}

fn missing_message(kind: &str, names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
    let list = match quoted.as_slice() {
        [one] => one.clone(),
        [a, b] => format!("{a} and {b}"),
        _ => {
            let (last, init) = quoted
                .split_last()
                .map(|(l, i)| (l.clone(), i.join(", ")))
                .unwrap_or_default();
            format!("{init}, and {last}")
        }
    };
    format!(
        "<lambda>() missing {} required {} argument{}: {}",
        names.len(),
        kind,
        if names.len() == 1 { "" } else { "s" },
        list
    )
}

/// The name a callable shows in argument errors.
pub(crate) fn callee_name(v: &Value) -> String {
    match v {
        Value::Builtin(b) => b.name().to_owned(),
        Value::Type(t) => t.name().to_owned(),
        Value::Tool(t) => t.name.clone(),
        Value::Lambda(_) => "<lambda>".to_owned(),
        Value::Method(m) => format!("{}.{}", m.owner.name(), m.name.name()),
        other => other.type_name().to_owned(),
    }
}
