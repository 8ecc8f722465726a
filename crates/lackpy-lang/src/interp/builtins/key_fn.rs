//! A `key=` function resolved once for the many calls a sort or min/max
//! makes: `len`, `abs` and an unbound `str` method (`str.lower`) go
//! straight to their implementation; anything else, and any item the
//! direct path does not fit (whose error the general call words), is
//! called as any value is.

use std::slice;

use super::super::Interp;
use super::super::methods::str::{METHODS as STR_METHODS, StrMethod};
use crate::runtime::error::R;
use crate::syntax::catalog::{BuiltinId, TypeId};
use crate::value::Value;

/// How a key function is called.
pub(crate) enum KeyFn {
    /// `len`, `abs`: a builtin of one argument.
    Builtin(fn(&[Value], super::super::args::Kw) -> R<Value>),
    /// An unbound method of `str` (`str.lower`): its handler, for str items.
    StrMethod(StrMethod),
    /// Anything else.
    Call,
}

impl KeyFn {
    /// Resolves `f` once.
    pub(crate) fn of(f: &Value) -> KeyFn {
        match f {
            Value::Builtin(BuiltinId::Len) => KeyFn::Builtin(super::len::len),
            Value::Builtin(BuiltinId::Abs) => KeyFn::Builtin(super::abs::abs),
            Value::Method(m) if m.recv.is_none() && m.owner == TypeId::Str => {
                match STR_METHODS.get(m.name) {
                    Some(run) => KeyFn::StrMethod(*run),
                    None => KeyFn::Call,
                }
            }
            _ => KeyFn::Call,
        }
    }

    /// The key of `x` (`f(x)`), counting one step as any call does.
    #[inline]
    pub(crate) fn call(&self, it: &mut Interp, f: &Value, x: &Value) -> R<Value> {
        match (self, x) {
            (KeyFn::Builtin(run), _) => {
                it.budget.step()?;
                run(slice::from_ref(x), &[])
            }
            (KeyFn::StrMethod(run), Value::Str(s)) => {
                it.budget.step()?;
                run(&mut it.budget, s, &[], &[])
            }
            _ => it.call_value(f, slice::from_ref(x), &[]),
        }
    }
}
