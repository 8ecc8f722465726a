//! Lowering: turns the syntax tree into the IR ([`crate::interp::ir`]),
//! names resolved to slots. Constants and CPython's folding are in
//! [`fold`]; the shapes lowered to nodes of their own in [`fast`],
//! [`concat`] and [`percent`].
//!
//! Scoping follows Python 3.11: the module is one global scope; each
//! comprehension is a scope whose locals are its loop targets (its first
//! iterable is evaluated in the enclosing scope); a lambda's locals are its
//! parameters. A lambda that uses a local of an enclosing comprehension or
//! lambda captures it when it is created (a snapshot: lambdas are only key
//! functions here, called while their creator is still running).
//!
//! Nesting deeper than the run's depth limit is refused with RecursionError,
//! which also bounds the evaluator's recursion.

pub(crate) mod concat;
pub(crate) mod fast;
pub(crate) mod fold;
pub(crate) mod percent;

use std::collections::HashMap;
use std::rc::Rc;

use self::fold::{constant, fold_binary, fold_unary};
use crate::interp::host::Host;
use crate::interp::ir::*;
use crate::runtime::error::{Exc, R};
use crate::syntax::ast;
use crate::syntax::catalog::MethodId;
use crate::syntax::catalog::builtin_by_name;
use crate::value::ToolInfo;
use crate::value::Value;

struct Scope {
    names: Vec<Rc<str>>,
    is_lambda: bool,
    captures: Vec<(NameRef, Rc<str>)>,
}

impl Scope {
    fn find(&self, name: &str) -> Option<u32> {
        self.names
            .iter()
            .position(|n| &**n == name)
            .map(|i| i as u32)
    }
}

struct Resolver<'h> {
    host: &'h dyn Host,
    /// Equal constants share one object, as CPython's compiler makes them.
    consts: HashMap<String, Value>,
    index: HashMap<String, u32>,
    globals: Vec<GlobalInfo>,
    scopes: Vec<Scope>,
    depth: u32,
    /// Deepest nesting reached (to size lambda bodies).
    peak: u32,
    max_depth: u32,
}

/// Resolves a module for a run with the given host's tools.
pub(crate) fn resolve(module: &ast::Module, host: &dyn Host, max_depth: u32) -> R<Program> {
    let mut r = Resolver {
        host,
        consts: HashMap::new(),
        index: HashMap::new(),
        globals: Vec::new(),
        scopes: Vec::new(),
        depth: 0,
        peak: 0,
        max_depth,
    };
    let body = r.block(&module.body)?;
    Ok(Program {
        body,
        globals: r.globals,
    })
}

fn too_deep(line: u32) -> Box<Exc> {
    let mut e = Exc::limit(
        crate::runtime::error::ExceptionKind::RecursionError,
        "maximum recursion depth exceeded during compilation",
    );
    e.line = line;
    e
}

/// The builtins a program may name but not call: CPython's constants and
/// classes that exist at run time whatever the validator says of calls.
/// `__name__` and the other module dunders stay undefined, as the reference
/// has them (docs/spec/language.md, "Names").
fn builtin_value(name: &str) -> Option<Value> {
    Some(match name {
        "Ellipsis" => Value::Ellipsis,
        "NotImplemented" => Value::NotImplemented,
        "object" => Value::Type(crate::syntax::catalog::TypeId::Object),
        _ => Value::Type(crate::syntax::catalog::exception_type(name)?),
    })
}

impl Resolver<'_> {
    /// The slot of a module-level name, created on first use.
    pub(crate) fn global(&mut self, name: &str) -> u32 {
        if let Some(&slot) = self.index.get(name) {
            return slot;
        }
        let fallback = match self.host.tool_args(name) {
            Some(args) => Fallback::Tool(Value::Tool(Rc::new(ToolInfo {
                name: name.to_owned(),
                args: args.to_vec(),
            }))),
            None => match builtin_by_name(name) {
                Some(b) => Fallback::Builtin(b),
                None => match builtin_value(name) {
                    Some(v) => Fallback::Value(v),
                    None => Fallback::None,
                },
            },
        };
        let slot = self.globals.len() as u32;
        self.globals.push(GlobalInfo {
            name: Rc::from(name),
            fallback,
        });
        self.index.insert(name.to_owned(), slot);
        slot
    }

    /// Shares equal string, big-int, complex and tuple constants.
    fn intern(&mut self, v: Value) -> Value {
        let tag = match &v {
            Value::Str(_) => 's',
            Value::Big(_) => 'i',
            Value::Complex(_) => 'c',
            Value::Tuple(_) => 't',
            Value::Bytes(_) => 'b',
            _ => return v,
        };
        let Ok(r) = crate::value::repr::repr(&v) else {
            return v;
        };
        let key = format!("{tag}{r}");
        self.consts.entry(key).or_insert(v).clone()
    }

    fn resolve_in(&mut self, upto: usize, name: &str) -> Option<(u32, u32)> {
        if upto == 0 {
            return None;
        }
        let idx = upto - 1;
        if let Some(slot) = self.scopes[idx].find(name) {
            return Some((0, slot));
        }
        if self.scopes[idx].is_lambda {
            let (d, s) = self.resolve_in(idx, name)?;
            let parent = if d == 0 {
                NameRef::Local(s)
            } else {
                NameRef::Outer(d, s)
            };
            let scope = &mut self.scopes[idx];
            let slot = scope.names.len() as u32;
            let rc: Rc<str> = Rc::from(name);
            scope.names.push(rc.clone());
            scope.captures.push((parent, rc));
            return Some((0, slot));
        }
        self.resolve_in(idx, name).map(|(d, s)| (d + 1, s))
    }

    fn name(&mut self, name: &str) -> NameRef {
        match self.resolve_in(self.scopes.len(), name) {
            Some((0, s)) => NameRef::Local(s),
            Some((d, s)) => NameRef::Outer(d, s),
            None => NameRef::Global(self.global(name)),
        }
    }

    fn enter(&mut self, line: u32) -> R<()> {
        self.depth += 1;
        self.peak = self.peak.max(self.depth);
        if self.depth > self.max_depth || crate::runtime::stack::exhausted() {
            Err(too_deep(line))
        } else {
            Ok(())
        }
    }

    fn block(&mut self, stmts: &[ast::Stmt]) -> R<Vec<Stmt>> {
        stmts.iter().map(|s| self.stmt(s)).collect()
    }

    fn stmt(&mut self, s: &ast::Stmt) -> R<Stmt> {
        self.enter(s.line)?;
        let kind = self.stmt_kind(s)?;
        self.depth -= 1;
        Ok(Stmt { line: s.line, kind })
    }

    fn stmt_kind(&mut self, s: &ast::Stmt) -> R<StmtKind> {
        use ast::StmtKind as S;
        Ok(match &s.kind {
            S::Expr(e) => StmtKind::Expr(self.expr(e)?),
            S::Assign { targets, value } => {
                if let [t] = targets.as_slice()
                    && let ast::ExprKind::Name { id, .. } = &t.kind
                {
                    if let ast::ExprKind::BinOp {
                        left,
                        op: ast::Operator::Add,
                        right,
                    } = &value.kind
                        && matches!(&left.kind, ast::ExprKind::Name { id: l, .. } if l == id)
                    {
                        let r = self.name(id);
                        if !matches!(r, NameRef::Outer(..)) {
                            let rhs = self.expr(right)?;
                            return Ok(StmtKind::Append(r, Rc::from(id.as_str()), rhs, false));
                        }
                    }
                    let v = self.expr(value)?;
                    let r = self.name(id);
                    return Ok(StmtKind::AssignName(r, v));
                }
                let v = self.expr(value)?;
                let ts = targets
                    .iter()
                    .map(|t| self.target(t))
                    .collect::<R<Vec<_>>>()?;
                StmtKind::Assign(ts, v)
            }
            S::AugAssign { target, op, value } => {
                if *op == ast::Operator::Add
                    && let ast::ExprKind::Name { id, .. } = &target.kind
                {
                    let r = self.name(id);
                    if !matches!(r, NameRef::Outer(..)) {
                        let rhs = self.expr(value)?;
                        return Ok(StmtKind::Append(r, Rc::from(id.as_str()), rhs, true));
                    }
                }
                let t = self.target(target)?;
                let v = self.expr(value)?;
                StmtKind::AugAssign(t, *op, v)
            }
            S::AnnAssign {
                target,
                annotation,
                value,
                ..
            } => {
                let value = match value {
                    Some(v) => Some(self.expr(v)?),
                    None => None,
                };
                let target = self.target(target)?;
                let annotation = self.expr(annotation)?;
                StmtKind::AnnAssign {
                    target,
                    annotation,
                    value,
                }
            }
            S::For(f) => {
                let iter = self.expr(&f.iter)?;
                let target = self.target(&f.target)?;
                let body = self.block(&f.body)?;
                let orelse = self.block(&f.orelse)?;
                StmtKind::For {
                    target,
                    iter,
                    body,
                    orelse,
                }
            }
            S::If { test, body, orelse } => {
                let test = self.expr(test)?;
                let body = self.block(body)?;
                let orelse = self.block(orelse)?;
                StmtKind::If { test, body, orelse }
            }
            S::With { items, body } => {
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    let e = self.expr(&item.context_expr)?;
                    let t = match &item.optional_vars {
                        Some(v) => Some(self.target(v)?),
                        None => None,
                    };
                    out.push((e, t));
                }
                self.block(body)?;
                StmtKind::With { items: out }
            }
            other => StmtKind::Forbidden(crate::syntax::walk::stmt_kind_name(other)),
        })
    }

    fn target(&mut self, t: &ast::Expr) -> R<Target> {
        self.enter(t.line)?;
        let out = match &t.kind {
            ast::ExprKind::Name { id, .. } => Target::Name(self.name(id), Rc::from(id.as_str())),
            ast::ExprKind::Subscript { value, slice, .. } => {
                Target::Subscript(Box::new(self.expr(value)?), Box::new(self.expr(slice)?))
            }
            ast::ExprKind::Attribute { value, attr, .. } => {
                Target::Attribute(Box::new(self.expr(value)?), Rc::from(attr.as_str()))
            }
            ast::ExprKind::Tuple { elts, .. } | ast::ExprKind::List { elts, .. } => {
                let mut star = None;
                let mut out = Vec::with_capacity(elts.len());
                for (i, e) in elts.iter().enumerate() {
                    if let ast::ExprKind::Starred { value, .. } = &e.kind {
                        if star.is_some() {
                            out.push(Target::Invalid(
                                "multiple starred expressions in assignment",
                            ));
                            continue;
                        }
                        star = Some(i);
                        out.push(self.target(value)?);
                    } else {
                        out.push(self.target(e)?);
                    }
                }
                Target::Seq(out, star)
            }
            ast::ExprKind::Starred { .. } => {
                Target::Invalid("starred assignment target must be in a list or tuple")
            }
            _ => Target::Invalid("cannot assign to expression"),
        };
        self.depth -= 1;
        Ok(out)
    }

    fn exprs(&mut self, es: &[ast::Expr]) -> R<Vec<Expr>> {
        es.iter().map(|e| self.expr(e)).collect()
    }

    fn elts(&mut self, es: &[ast::Expr]) -> R<Vec<Elt>> {
        es.iter()
            .map(|e| match &e.kind {
                ast::ExprKind::Starred { value, .. } => Ok(Elt::Star(self.expr(value)?)),
                _ => Ok(Elt::One(self.expr(e)?)),
            })
            .collect()
    }

    fn kwargs(&mut self, kws: &[ast::Keyword]) -> R<Vec<Kw>> {
        kws.iter()
            .map(|k| {
                let v = self.expr(&k.value)?;
                Ok(match &k.arg {
                    Some(name) => Kw::Named(Rc::from(name.as_str()), v),
                    None => Kw::Spread(v),
                })
            })
            .collect()
    }

    pub(crate) fn expr(&mut self, e: &ast::Expr) -> R<Expr> {
        self.enter(e.line)?;
        let kind = self.expr_kind(e)?;
        self.depth -= 1;
        Ok(Expr { line: e.line, kind })
    }

    fn expr_kind(&mut self, e: &ast::Expr) -> R<ExprKind> {
        use ast::ExprKind as E;
        Ok(match &e.kind {
            E::Constant(c) => ExprKind::Const(self.intern(constant(c))),
            E::Name { id, .. } => ExprKind::Name(self.name(id), Rc::from(id.as_str())),
            E::BinOp { left, op, right } => {
                let (l, r) = (self.expr(left)?, self.expr(right)?);
                if let (ExprKind::Const(a), ExprKind::Const(b)) = (&l.kind, &r.kind)
                    && let Some(folded) = fold_binary(*op, a, b)
                {
                    return Ok(ExprKind::Const(self.intern(folded)));
                }
                match fast::lower_bin(l, *op, r) {
                    ExprKind::BinOp(l, ast::Operator::Add, r) => concat::lower_add(*l, *r, e.line),
                    ExprKind::BinOp(l, ast::Operator::Mod, r) => percent::lower_mod(*l, *r),
                    kind => kind,
                }
            }
            E::UnaryOp { op, operand } => {
                let inner = self.expr(operand)?;
                if let ExprKind::Const(c) = &inner.kind
                    && let Some(folded) = fold_unary(*op, c)
                {
                    return Ok(ExprKind::Const(self.intern(folded)));
                }
                ExprKind::Unary(*op, Box::new(inner))
            }
            E::BoolOp { op, values } => {
                let vs = self.exprs(values)?;
                match op {
                    ast::BoolOp::And => ExprKind::And(vs),
                    ast::BoolOp::Or => ExprKind::Or(vs),
                }
            }
            E::Compare {
                left,
                ops,
                comparators,
            } => {
                let l = self.expr(left)?;
                let mut rest = Vec::with_capacity(ops.len());
                for (op, c) in ops.iter().zip(comparators) {
                    rest.push((*op, self.expr(c)?));
                }
                fast::lower_compare(l, rest)
            }
            E::IfExp { test, body, orelse } => ExprKind::IfExp(
                Box::new(self.expr(test)?),
                Box::new(self.expr(body)?),
                Box::new(self.expr(orelse)?),
            ),
            E::Call {
                func,
                args,
                keywords,
            } => {
                let simple = keywords.is_empty()
                    && !args.iter().any(|a| matches!(a.kind, E::Starred { .. }));
                if let E::Attribute { value, attr, .. } = &func.kind {
                    let obj = self.expr(value)?;
                    let args = self.elts(args)?;
                    let kwargs = self.kwargs(keywords)?;
                    return Ok(ExprKind::MethodCall(Box::new(MethodCall {
                        obj,
                        attr: Attr {
                            name: Rc::from(attr.as_str()),
                            id: MethodId::from_name(attr),
                        },
                        args,
                        kwargs,
                        simple,
                    })));
                }
                let func = self.expr(func)?;
                let args = self.elts(args)?;
                let kwargs = self.kwargs(keywords)?;
                ExprKind::Call(Box::new(Call {
                    func,
                    args,
                    kwargs,
                    simple,
                }))
            }
            E::Attribute { value, attr, .. } => ExprKind::Attribute(
                Box::new(self.expr(value)?),
                Attr {
                    name: Rc::from(attr.as_str()),
                    id: MethodId::from_name(attr),
                },
            ),
            E::Subscript { value, slice, .. } => {
                ExprKind::Subscript(Box::new(self.expr(value)?), Box::new(self.expr(slice)?))
            }
            E::Slice { lower, upper, step } => {
                ExprKind::Slice(self.opt(lower)?, self.opt(upper)?, self.opt(step)?)
            }
            E::List { elts, .. } => ExprKind::List(self.elts(elts)?),
            E::Tuple { elts, .. } => {
                let items = self.elts(elts)?;
                if items.iter().all(|i| {
                    matches!(
                        i,
                        Elt::One(Expr {
                            kind: ExprKind::Const(_),
                            ..
                        })
                    )
                }) {
                    let values = items
                        .into_iter()
                        .filter_map(|i| match i {
                            Elt::One(Expr {
                                kind: ExprKind::Const(v),
                                ..
                            }) => Some(v),
                            _ => None,
                        })
                        .collect();
                    return Ok(ExprKind::Const(self.intern(Value::tuple(values))));
                }
                ExprKind::Tuple(items)
            }
            E::Set(elts) => {
                let items = self.elts(elts)?;
                let all_const = items.len() > 2
                    && items.iter().all(|i| {
                        matches!(
                            i,
                            Elt::One(Expr {
                                kind: ExprKind::Const(_),
                                ..
                            })
                        )
                    });
                ExprKind::Set(items, all_const)
            }
            E::Dict { keys, values } => {
                let mut items = Vec::with_capacity(values.len());
                for (k, v) in keys.iter().zip(values) {
                    items.push(match k {
                        Some(k) => {
                            let k = self.expr(k)?;
                            DictItem::Pair(k, self.expr(v)?)
                        }
                        None => DictItem::Spread(self.expr(v)?),
                    });
                }
                ExprKind::Dict(items)
            }
            E::ListComp { elt, generators } => {
                ExprKind::ListComp(Box::new(self.comp(elt, None, generators)?))
            }
            E::SetComp { elt, generators } => {
                ExprKind::SetComp(Box::new(self.comp(elt, None, generators)?))
            }
            E::DictComp {
                key,
                value,
                generators,
            } => ExprKind::DictComp(Box::new(self.comp(key, Some(value), generators)?)),
            E::JoinedStr(parts) => ExprKind::FString(self.fparts(parts)?),
            E::FormattedValue { .. } => ExprKind::FString(self.fparts(std::slice::from_ref(e))?),
            E::Lambda { args, body } => ExprKind::Lambda(Rc::new(self.lambda(args, body)?)),
            E::Starred { .. } => ExprKind::Forbidden("can't use starred expression here"),
            other => ExprKind::Forbidden(crate::syntax::walk::expr_kind_name(other)),
        })
    }

    fn opt(&mut self, e: &Option<Box<ast::Expr>>) -> R<Option<Box<Expr>>> {
        Ok(match e {
            Some(e) => Some(Box::new(self.expr(e)?)),
            None => None,
        })
    }

    fn fparts(&mut self, parts: &[ast::Expr]) -> R<Vec<FPart>> {
        let mut out = Vec::with_capacity(parts.len());
        for p in parts {
            match &p.kind {
                ast::ExprKind::Constant(ast::Constant::Str(s)) => {
                    out.push(FPart::Lit(Rc::from(s.as_str())))
                }
                ast::ExprKind::FormattedValue {
                    value,
                    conversion,
                    format_spec,
                } => {
                    let conv = match u32::try_from(*conversion).ok().and_then(char::from_u32) {
                        Some('s') => Conv::Str,
                        Some('r') => Conv::Repr,
                        Some('a') => Conv::Ascii,
                        _ => Conv::None,
                    };
                    let value = self.expr(value)?;
                    let parts = match format_spec.as_deref() {
                        Some(ast::Expr {
                            kind: ast::ExprKind::JoinedStr(sp),
                            ..
                        }) => Some(self.fparts(sp)?),
                        Some(other) => Some(self.fparts(std::slice::from_ref(other))?),
                        None => None,
                    };
                    let spec = match parts {
                        None => Spec::None,
                        Some(parts) if parts.iter().all(|p| matches!(p, FPart::Lit(_))) => {
                            let text: String = parts
                                .iter()
                                .map(|p| match p {
                                    FPart::Lit(s) => &**s,
                                    FPart::Field { .. } => "",
                                })
                                .collect();
                            if text.is_empty() {
                                Spec::None
                            } else {
                                Spec::Fixed(Rc::from(text), std::cell::OnceCell::new())
                            }
                        }
                        Some(parts) => Spec::Dynamic(parts),
                    };
                    out.push(FPart::Field { value, conv, spec });
                }
                ast::ExprKind::JoinedStr(inner) => out.extend(self.fparts(inner)?),
                _ => out.push(FPart::Field {
                    value: self.expr(p)?,
                    conv: Conv::None,
                    spec: Spec::None,
                }),
            }
        }
        Ok(out)
    }

    fn comp(
        &mut self,
        elt: &ast::Expr,
        value: Option<&ast::Expr>,
        gens: &[ast::Comprehension],
    ) -> R<Comp> {
        let mut names: Vec<Rc<str>> = Vec::new();
        for g in gens {
            collect_targets(&g.target, &mut names);
        }
        let mut out = Vec::with_capacity(gens.len());
        // The first iterable belongs to the enclosing scope.
        let first_iter = match gens.first() {
            Some(g) => Some(self.expr(&g.iter)?),
            None => None,
        };
        let nslots = names.len() as u32;
        self.scopes.push(Scope {
            names,
            is_lambda: false,
            captures: Vec::new(),
        });
        let result = (|| -> R<Comp> {
            let mut first_iter = first_iter;
            for (i, g) in gens.iter().enumerate() {
                let iter = match (i, first_iter.take()) {
                    (0, Some(it)) => it,
                    _ => self.expr(&g.iter)?,
                };
                let target = self.target(&g.target)?;
                let ifs = self.exprs(&g.ifs)?;
                out.push(Gen { target, iter, ifs });
            }
            let elt = self.expr(elt)?;
            let value = match value {
                Some(v) => Some(self.expr(v)?),
                None => None,
            };
            Ok(Comp {
                elt,
                value,
                gens: std::mem::take(&mut out),
                nslots,
            })
        })();
        self.scopes.pop();
        result
    }

    fn lambda(&mut self, args: &ast::Arguments, body: &ast::Expr) -> R<LambdaDef> {
        // Defaults are evaluated where the lambda is created.
        let defaults = self.exprs(&args.defaults)?;
        let mut kw_defaults = Vec::with_capacity(args.kw_defaults.len());
        for d in &args.kw_defaults {
            kw_defaults.push(match d {
                Some(d) => Some(self.expr(d)?),
                None => None,
            });
        }
        let params: Vec<Rc<str>> = args
            .posonlyargs
            .iter()
            .chain(&args.args)
            .map(|a| Rc::from(a.arg.as_str()))
            .collect();
        let vararg = args.vararg.as_ref().map(|a| Rc::from(a.arg.as_str()));
        let kwonly: Vec<Rc<str>> = args
            .kwonlyargs
            .iter()
            .map(|a| Rc::from(a.arg.as_str()))
            .collect();
        let kwarg = args.kwarg.as_ref().map(|a| Rc::from(a.arg.as_str()));
        let mut names = params.clone();
        names.extend(vararg.iter().cloned());
        names.extend(kwonly.iter().cloned());
        names.extend(kwarg.iter().cloned());
        self.scopes.push(Scope {
            names,
            is_lambda: true,
            captures: Vec::new(),
        });
        let outer_peak = std::mem::replace(&mut self.peak, self.depth);
        let body = self.expr(body);
        let body_depth = self.peak - self.depth;
        self.peak = self.peak.max(outer_peak);
        let scope = self.scopes.pop();
        let body = body?;
        let (nslots, captures) = match scope {
            Some(s) => (s.names.len() as u32, s.captures),
            None => (0, Vec::new()),
        };
        Ok(LambdaDef {
            posonly: args.posonlyargs.len(),
            params,
            vararg,
            kwonly,
            kwarg,
            defaults,
            kw_defaults,
            body,
            body_depth,
            nslots,
            captures,
        })
    }
}

fn collect_targets(t: &ast::Expr, out: &mut Vec<Rc<str>>) {
    match &t.kind {
        ast::ExprKind::Name { id, .. } if !out.iter().any(|n| &**n == id.as_str()) => {
            out.push(Rc::from(id.as_str()));
        }
        ast::ExprKind::Tuple { elts, .. } | ast::ExprKind::List { elts, .. } => {
            for e in elts {
                collect_targets(e, out);
            }
        }
        ast::ExprKind::Starred { value, .. } => collect_targets(value, out),
        _ => {}
    }
}
