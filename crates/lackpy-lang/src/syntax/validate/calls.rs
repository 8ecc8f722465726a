//! Check 4b: calls to a known callable (a tool with a signature, or a
//! builtin) against its signature: unknown keywords, missing or extra
//! arguments, and constant arguments of the wrong type or outside an
//! enum. Values the validator cannot know are not guessed at.

use std::collections::HashMap;

use crate::syntax::ast::{Constant, Expr, ExprKind, Keyword, StmtKind, UnaryOp};

use super::Diagnostic;
use super::builtin_sigs::hint;
use super::checks::Index;
use super::signature::{CallSignature, Lit, ParamSig, TypeHint};
use super::suggest::suggest;

/// What the validator knows of an argument's value.
#[derive(Debug, Clone, PartialEq)]
enum Known {
    /// Nothing.
    Unknown,
    /// Its type (a Python type name), and its value when a constant.
    Of(&'static str, Option<Lit>),
}

/// The names stored exactly once, by a plain `name = <constant>`: their
/// value is certain wherever they are read (a name stored anywhere else
/// too is not, nor one `given` before the run: a param read before the
/// assignment has the param's value).
fn constants<'a>(ix: &Index<'a>, given: &dyn Fn(&str) -> bool) -> HashMap<&'a str, Known> {
    let mut known = HashMap::new();
    for s in &ix.assigns {
        if let StmtKind::Assign { targets, value, .. } = &s.kind
            && let [t] = targets.as_slice()
            && let ExprKind::Name { id, .. } = &t.kind
            && ix.stores.get(id.as_str()) == Some(&1)
            && !given(id)
        {
            let k = literal(value, &HashMap::new());
            if k != Known::Unknown {
                known.insert(id.as_str(), k);
            }
        }
    }
    known
}

/// What `e` is known to be, with `env`'s constants.
fn literal(e: &Expr, env: &HashMap<&str, Known>) -> Known {
    let of = |t: &'static str| Known::Of(t, None);
    match &e.kind {
        ExprKind::Constant(c) => match c {
            Constant::None => Known::Of("NoneType", Some(Lit::None)),
            Constant::Bool(b) => Known::Of("bool", Some(Lit::Bool(*b))),
            Constant::Int(i) => Known::Of("int", i64::try_from(i).ok().map(Lit::Int)),
            Constant::Float(x) => Known::Of("float", Some(Lit::Float(*x))),
            Constant::Complex(_) => of("complex"),
            Constant::Str(s) => Known::Of("str", Some(Lit::Str(s.to_string()))),
            Constant::Bytes(_) => of("bytes"),
            Constant::Ellipsis => of("ellipsis"),
        },
        ExprKind::UnaryOp {
            op: UnaryOp::USub,
            operand,
        } => match literal(operand, env) {
            Known::Of("int", v) => Known::Of(
                "int",
                v.and_then(|v| match v {
                    Lit::Int(i) => i.checked_neg().map(Lit::Int),
                    _ => None,
                }),
            ),
            Known::Of("float", v) => Known::Of(
                "float",
                v.map(|v| match v {
                    Lit::Float(x) => Lit::Float(-x),
                    other => other,
                }),
            ),
            _ => Known::Unknown,
        },
        ExprKind::JoinedStr(_) => of("str"),
        ExprKind::List { .. } | ExprKind::ListComp { .. } => of("list"),
        ExprKind::Tuple { .. } => of("tuple"),
        ExprKind::Set(_) | ExprKind::SetComp { .. } => of("set"),
        ExprKind::Dict { .. } | ExprKind::DictComp { .. } => of("dict"),
        ExprKind::Lambda { .. } => of("function"),
        ExprKind::Name { id, .. } => env.get(id.as_str()).cloned().unwrap_or(Known::Unknown),
        _ => Known::Unknown,
    }
}

/// Whether a value of type `t` (and value `v`, when known) fits `hint`.
fn fits(hint: &TypeHint, t: &str, v: Option<&Lit>) -> bool {
    match hint {
        TypeHint::Any | TypeHint::Other(_) => true,
        TypeHint::None => t == "NoneType",
        TypeHint::Bool => t == "bool",
        TypeHint::Int => matches!(t, "int" | "bool"),
        TypeHint::Float => matches!(t, "float" | "int" | "bool"),
        TypeHint::Str => t == "str",
        TypeHint::Seq(_) => matches!(t, "list" | "tuple" | "set"),
        TypeHint::Dict(_) => t == "dict",
        TypeHint::Callable => t == "function",
        TypeHint::Literal(ls) => match v {
            Some(v) => ls.iter().any(|l| same(l, v)),
            None => ls.iter().any(|l| lit_type(l) == t),
        },
        TypeHint::Union(hs) => hs.iter().any(|h| fits(h, t, v)),
    }
}

/// A literal's Python type name.
fn lit_type(l: &Lit) -> &'static str {
    match l {
        Lit::None => "NoneType",
        Lit::Bool(_) => "bool",
        Lit::Int(_) => "int",
        Lit::Float(_) => "float",
        Lit::Str(_) => "str",
        Lit::Other(_) => "object",
    }
}

/// Python's `==` on two literals.
fn same(a: &Lit, b: &Lit) -> bool {
    match (a, b) {
        (Lit::Int(x), Lit::Float(y)) | (Lit::Float(y), Lit::Int(x)) => (*x as f64) == *y,
        (Lit::Bool(x), Lit::Int(y)) | (Lit::Int(y), Lit::Bool(x)) => i64::from(*x) == *y,
        _ => a == b,
    }
}

/// How a value of type `t` is named in a message.
fn describe(t: &str) -> String {
    match t {
        "function" => "a lambda".to_string(),
        "NoneType" => "None".to_string(),
        t => t.to_string(),
    }
}

/// CPython's list of names: `'a'`, `'a' and 'b'`, `'a', 'b', and 'c'`.
fn name_list(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
    match quoted.as_slice() {
        [] => String::new(),
        [a] => a.clone(),
        [a, b] => format!("{a} and {b}"),
        [rest @ .., last] => format!("{}, and {last}", rest.join(", ")),
    }
}

/// Checks every call to a name `lookup` knows. Returns the lambdas it
/// reported (check 6 then says nothing more of them).
pub(super) fn check_calls<'s>(
    ix: &Index<'_>,
    lookup: &dyn Fn(&str) -> Option<&'s CallSignature>,
    given: &dyn Fn(&str) -> bool,
    errors: &mut Vec<Diagnostic>,
) -> Vec<*const Expr> {
    let env = constants(ix, given);
    let mut lambdas = Vec::new();
    for e in &ix.calls {
        let ExprKind::Call {
            func,
            args,
            keywords,
        } = &e.kind
        else {
            continue;
        };
        let ExprKind::Name { id, .. } = &func.kind else {
            continue;
        };
        let Some(sig) = lookup(id) else { continue };
        let mut call = Call {
            sig,
            line: e.line,
            col: e.col,
            env: &env,
            errors: &mut *errors,
            lambdas: &mut lambdas,
        };
        call.check(args, keywords);
    }
    lambdas
}

/// One call being checked.
struct Call<'s, 'e> {
    sig: &'s CallSignature,
    /// Where the call starts: its errors are reported there.
    line: crate::syntax::ast::Line,
    col: crate::syntax::ast::Col,
    env: &'e HashMap<&'e str, Known>,
    errors: &'e mut Vec<Diagnostic>,
    lambdas: &'e mut Vec<*const Expr>,
}

impl Call<'_, '_> {
    fn error(&mut self, message: String) {
        let message = format!("{}() {message} (line {})", self.sig.name, self.line);
        self.errors
            .push(Diagnostic::at(self.line, self.col, message));
    }

    /// Checks a call in CPython's order: keywords (unknown, then given
    /// twice), too many positionals, missing ones; then each value.
    fn check(&mut self, args: &[Expr], keywords: &[Keyword]) {
        let sig = self.sig;
        let starred = args
            .iter()
            .any(|a| matches!(a.kind, ExprKind::Starred { .. }));
        let double_starred = keywords.iter().any(|k| k.arg.is_none());
        let positional: Vec<&ParamSig> = sig.params.iter().filter(|p| p.positional).collect();
        let mut bad_keywords = Vec::new();
        for k in keywords {
            let Some(name) = k.arg.as_deref() else {
                continue;
            };
            match sig.params.iter().find(|p| p.name == name) {
                Some(p) if p.keyword => {}
                Some(_) => bad_keywords.push(name),
                None if sig.open_keywords => {}
                None => {
                    let keywords = sig.params.iter().filter(|p| p.keyword);
                    let mut message = format!("got an unexpected keyword argument '{name}'");
                    match suggest(name, keywords.map(|p| p.name.as_str())) {
                        Some(s) => message.push_str(&format!(". Did you mean '{s}'?")),
                        None => message.push_str(&format!("; it is called as {sig}")),
                    }
                    return self.error(message);
                }
            }
        }
        if !bad_keywords.is_empty() {
            return self.error(
                if sig.params.iter().all(|p| !p.keyword) && !sig.open_keywords {
                    "takes no keyword arguments".to_string()
                } else {
                    format!(
                        "got some positional-only arguments passed as keyword arguments: {}",
                        name_list(&bad_keywords).replace(", and", ",")
                    )
                },
            );
        }
        let mut bound: Vec<(&ParamSig, &Expr)> = Vec::new();
        if !starred {
            for (p, a) in positional.iter().zip(args) {
                bound.push((p, a));
            }
        }
        for k in keywords {
            let Some(name) = k.arg.as_deref() else {
                continue;
            };
            let Some(p) = sig.params.iter().find(|p| p.name == name) else {
                continue;
            };
            if bound.iter().any(|(b, _)| b.name == name) {
                return self.error(format!("got multiple values for argument '{name}'"));
            }
            bound.push((p, &k.value));
        }
        if !starred && args.len() > positional.len() && !sig.variadic {
            let most = positional.len();
            let least = positional.iter().filter(|p| p.required).count();
            let takes = if least == most {
                format!("{most} positional argument{}", plural(most))
            } else {
                format!("from {least} to {most} positional arguments")
            };
            let given = args.len();
            let mut message = format!(
                "takes {takes} but {given} {} given",
                if given == 1 { "was" } else { "were" }
            );
            let extra_lambdas: Vec<&Expr> = args[most..]
                .iter()
                .filter(|a| matches!(a.kind, ExprKind::Lambda { .. }))
                .collect();
            if !extra_lambdas.is_empty() {
                self.lambdas
                    .extend(extra_lambdas.iter().map(|a| *a as *const Expr));
                message.push_str("; a lambda is allowed only as a key= argument");
                if sig.params.iter().any(|p| p.name == "key" && p.keyword) {
                    message.push_str(&format!(" ({}(..., key=lambda x: ...))", sig.name));
                }
            }
            return self.error(message);
        }
        if !starred && !double_starred {
            let missing: Vec<&ParamSig> = sig
                .params
                .iter()
                .filter(|p| p.required && !bound.iter().any(|(b, _)| b.name == p.name))
                .collect();
            if !missing.is_empty() {
                let kind = if missing.iter().all(|p| !p.positional) {
                    "keyword-only"
                } else {
                    "positional"
                };
                let names: Vec<&str> = missing.iter().map(|p| p.name.as_str()).collect();
                return self.error(format!(
                    "missing {} required {kind} argument{}: {}",
                    names.len(),
                    plural(names.len()),
                    name_list(&names)
                ));
            }
        }
        for (p, value) in bound {
            self.check_value(p, value);
        }
    }

    /// Checks one argument's value against its parameter.
    fn check_value(&mut self, p: &ParamSig, value: &Expr) {
        if !p.checked {
            return;
        }
        let Known::Of(t, v) = literal(value, self.env) else {
            return;
        };
        // An explicit None for an optional parameter means "not given" to
        // most tools, whatever type the source declared.
        if t == "NoneType" && !p.required {
            return;
        }
        let mut message = if !fits(&p.ty, t, v.as_ref()) {
            match &p.ty {
                TypeHint::Literal(ls) => format!(
                    "argument '{}' must be one of {}, not {}",
                    p.name,
                    choices(ls),
                    v.map_or_else(|| describe(t), |v| v.to_string())
                ),
                ty => format!("argument '{}' must be {ty}, not {}", p.name, describe(t)),
            }
        } else if let (false, Some(v)) = (p.choices.is_empty(), &v)
            && !p.choices.iter().any(|c| same(c, v))
        {
            format!(
                "argument '{}' must be one of {}, not {v}",
                p.name,
                choices(&p.choices)
            )
        } else {
            return;
        };
        if matches!(value.kind, ExprKind::Lambda { .. }) {
            self.lambdas.push(value as *const Expr);
        }
        if let Some(h) = hint(&self.sig.name, &p.name) {
            message.push_str(&format!("; {h}"));
        }
        self.error(message);
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn choices(ls: &[Lit]) -> String {
    ls.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}
