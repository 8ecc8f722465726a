//! A `key=` function resolved once for the many calls a sort or min/max
//! makes: `len`, `abs` and an unbound `str` method (`str.lower`) go
//! straight to their implementation; anything else, and any item the
//! direct path does not fit (whose error the general call words), is
//! called as any value is.

use std::slice;

use crate::runtime::error::R;
use crate::syntax::catalog::TypeId;
use crate::types::caller::Caller;
use crate::types::caller::PlainBuiltin;
use crate::types::str::methods::{METHODS as STR_METHODS, StrMethod};
use crate::value::Value;

/// How a key function is called.
pub(crate) enum KeyFn {
    /// `len`, `abs`: a builtin of one argument.
    Builtin(PlainBuiltin),
    /// An unbound method of `str` (`str.lower`): its handler, for str items.
    StrMethod(StrMethod),
    /// Anything else.
    Call,
}

impl KeyFn {
    /// Resolves `f` once.
    pub(crate) fn of(it: &dyn Caller, f: &Value) -> KeyFn {
        match f {
            Value::Builtin(id) => match it.plain_builtin(*id) {
                Some(run) => KeyFn::Builtin(run),
                None => KeyFn::Call,
            },
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
    pub(crate) fn call(&self, it: &mut dyn Caller, f: &Value, x: &Value) -> R<Value> {
        match (self, x) {
            (KeyFn::Builtin(run), _) => {
                it.budget().step()?;
                run(slice::from_ref(x), &[])
            }
            (KeyFn::StrMethod(run), Value::Str(s)) => {
                it.budget().step()?;
                run(it.budget(), s, &[], &[])
            }
            _ => it.call(f, slice::from_ref(x)),
        }
    }
}
