//! The agreement test of the builtin and method tables: each builtin the
//! catalog declares is whitelisted by the validator, listed by the spec,
//! resolved and run by the interpreter; each method a type's table declares
//! is found and dispatched on a value of that type, and nothing else is;
//! and every handler takes exactly the positional arguments its row
//! declares (too few or too many is CPython's arity TypeError, a count in
//! range never is).

use super::{NoTools, RunOptions, run};
use crate::syntax::catalog::builtin_by_name;
use crate::syntax::catalog::{Arity, BUILTINS, BuiltinId, BuiltinName, MANY, MethodId, TypeId};
use crate::types::methods::{has_method, methods_of};

/// Runs `src`; the error as `Type: message`, or `None` on success.
fn error_of(src: &str) -> Option<String> {
    let module = match crate::syntax::parse::parse(src) {
        Ok(m) => m,
        Err(e) => return Some(format!("parse: {e}")),
    };
    let out = run(&module, &mut NoTools, &[], &RunOptions::default());
    out.error
        .map(|e| format!("{}: {e}", out.error_type.unwrap_or_default()))
}

/// Whether an error is CPython's complaint about the number of positional
/// arguments, in any of its wordings.
fn is_arity_error(err: &str) -> bool {
    let Some(msg) = err.strip_prefix("TypeError: ") else {
        return false;
    };
    [
        "takes no arguments (",
        "takes exactly one argument (",
        "takes no positional arguments",
        " argument (",
        " arguments (",
        "missing required argument",
        "required positional argument",
        "needs an argument",
    ]
    .iter()
    .any(|w| msg.contains(w))
        || (msg.contains(" expected ") && msg.contains(" argument") && msg.contains(", got "))
}

/// The argument counts worth trying against `arity`: every count up to one
/// past the maximum (three past the minimum when unbounded).
fn counts(arity: Arity) -> std::ops::RangeInclusive<usize> {
    let top = if arity.max == MANY {
        usize::from(arity.min) + 3
    } else {
        usize::from(arity.max) + 1
    };
    0..=top
}

/// `n` arguments of `value`, comma separated.
fn args(value: &str, n: usize) -> String {
    vec![value; n].join(", ")
}

/// Checks a call of `name` with `n` positional arguments against `arity`:
/// an arity error exactly outside it, and one that names the function (so
/// a row bound to another method's handler shows too).
fn check_count(
    what: &str,
    name: &str,
    arity: Arity,
    n: usize,
    err: Option<String>,
    bad: &mut Vec<String>,
) {
    let arity_err = err.as_deref().is_some_and(is_arity_error);
    if arity_err && !err.as_deref().is_some_and(|e| e.contains(name)) {
        bad.push(format!(
            "{what} with {n} argument(s): the error names another function: {err:?}"
        ));
    }
    if arity.admits(n) == arity_err {
        bad.push(format!(
            "{what} with {n} argument(s): declared {}..={}, got {err:?}",
            arity.min,
            if arity.max == MANY {
                "many".to_owned()
            } else {
                arity.max.to_string()
            }
        ));
    }
}

#[test]
fn every_builtin_is_whitelisted_specified_and_resolved() {
    let spec = crate::syntax::lang_spec::spec();
    let mut seen_funcs = Vec::new();
    for b in BUILTINS {
        let name = b.what.name();
        assert!(
            crate::syntax::validate::names::is_allowed_builtin(name),
            "{name} is not on the validator's whitelist"
        );
        assert!(
            crate::syntax::validate::validate(name, &[] as &[&str], &[]).valid,
            "the validator refuses a program naming {name}"
        );
        assert!(
            spec.allowed_builtins.contains(&name),
            "{name} is not in the spec"
        );
        assert_eq!(
            builtin_by_name(name),
            Some(b.what),
            "{name} resolves elsewhere"
        );
        if let BuiltinName::Func(f) = b.what {
            seen_funcs.push(f);
        }
    }
    assert_eq!(
        spec.allowed_builtins.len(),
        BUILTINS.len(),
        "one spec entry per builtin"
    );
    for f in BuiltinId::ALL {
        let rows = seen_funcs.iter().filter(|g| *g == f).count();
        assert_eq!(rows, 1, "{} has {rows} catalog rows", f.name());
    }
    assert!(builtin_by_name("open").is_none());
    assert!(!crate::syntax::validate::validate("x = open", &[] as &[&str], &[]).valid);
}

#[test]
fn every_builtin_takes_its_declared_arguments() {
    let mut bad = Vec::new();
    for b in BUILTINS {
        let name = b.what.name();
        for n in counts(b.arity) {
            let err = error_of(&format!("{name}({})", args("[1]", n)));
            if let Some(e) = &err
                && e.contains("cannot create")
            {
                bad.push(format!("{name}: not callable: {e}"));
            }
            check_count(&format!("{name}()"), name, b.arity, n, err, &mut bad);
        }
    }
    assert!(
        bad.is_empty(),
        "builtins disagree with the catalog: {bad:#?}"
    );
}

/// A small value of type `t`, for the types that have methods.
fn sample(t: TypeId) -> Option<&'static str> {
    Some(match t {
        TypeId::Str => "'ab'",
        TypeId::Bytes => "b'ab'",
        TypeId::List => "[1]",
        TypeId::Tuple => "(1,)",
        TypeId::Range => "range(3)",
        TypeId::Dict => "{1: 2}",
        TypeId::DictKeys => "{1: 2}.keys()",
        TypeId::DictValues => "{1: 2}.values()",
        TypeId::DictItems => "{1: 2}.items()",
        TypeId::Set => "{1}",
        TypeId::Int => "5",
        TypeId::Bool => "True",
        TypeId::Float => "1.5",
        TypeId::Complex => "2j",
        _ => return None,
    })
}

#[test]
fn every_method_is_dispatched_with_its_declared_arguments() {
    let mut bad = Vec::new();
    let mut sampled = 0;
    for &t in TypeId::ALL {
        let Some(recv) = sample(t) else {
            assert!(
                methods_of(t).is_none(),
                "{} has methods but no sample",
                t.name()
            );
            continue;
        };
        sampled += 1;
        for &m in MethodId::ALL {
            let what = format!("{}.{}", t.name(), m.name());
            let Some(arity) = methods_of(t).and_then(|ms| ms.arity(m)) else {
                // Not declared: no handler is reached.
                let err = error_of(&format!("r = {recv}\nr.{}()", m.name()));
                if !err
                    .as_deref()
                    .is_some_and(|e| e.starts_with("AttributeError"))
                {
                    bad.push(format!("{what} is not declared but answered {err:?}"));
                }
                continue;
            };
            for n in counts(arity) {
                let err = error_of(&format!("r = {recv}\nr.{}({})", m.name(), args("0", n)));
                if let Some(e) = &err
                    && e.starts_with("AttributeError")
                {
                    bad.push(format!("{what} is declared but not dispatched: {e}"));
                }
                check_count(&what, m.name(), arity, n, err, &mut bad);
            }
        }
    }
    assert!(sampled >= 14, "a sample per type with methods");
    assert!(
        bad.is_empty(),
        "method tables disagree with dispatch or handlers: {bad:#?}"
    );
}

#[test]
fn method_lookup_reads_the_tables() {
    for &t in TypeId::ALL {
        for &m in MethodId::ALL {
            let declared = methods_of(t).is_some_and(|ms| ms.has(m));
            assert_eq!(
                has_method(&crate::value::Value::Type(t), m),
                declared,
                "{}.{}",
                t.name(),
                m.name()
            );
        }
    }
    for &m in MethodId::ALL {
        let owners = TypeId::ALL
            .iter()
            .filter(|&&t| methods_of(t).is_some_and(|ms| ms.has(m)))
            .count();
        assert!(owners > 0, "no type declares method {}", m.name());
        assert_eq!(MethodId::from_name(m.name()), Some(m));
    }
}
