//! The interpreter's value model.
//!
//! Values live on the interpreter thread only: lists, dicts and sets are
//! shared mutable references (`Rc<RefCell<…>>`) so that aliasing behaves as
//! in Python, strings and tuples are immutable shared data. Values never
//! leave a run: tools and hosts see [`crate::Data`] (see [`convert`]).
//!
//! This file holds the recursive type whole: the [`Value`] enum and the
//! records its variants hold that are no Python type's own folder's (a
//! bound method, a lambda, a generic alias, an iterator's state). The
//! containers it names are generic over their item
//! ([`crate::types::item::Item`], implemented in [`item`]), so none of
//! them names this file back.

pub(crate) mod alias;
pub(crate) mod bulk;
pub(crate) mod eq;
pub(crate) mod errors;
pub(crate) mod hash;
pub(crate) mod ident;
pub(crate) mod item;
pub(crate) mod iter;
pub(crate) mod mem;
pub(crate) mod pool;
pub(crate) mod repr;
pub(crate) mod tool;

use std::cell::RefCell;
use std::rc::Rc;

use num_bigint::BigInt;

use crate::syntax::catalog::{BuiltinId, MethodId, TypeId};

pub(crate) use self::tool::ToolInfo;
use crate::interp::ir::LambdaDef;
pub(crate) use crate::types::dict::ViewKind;
pub(crate) use crate::types::int::BigVal;
pub(crate) use crate::types::range::Range;
pub(crate) use crate::types::str::{PyStr, StrRc};

// The containers as the interpreter holds them: of values. Each is generic
// over its item (`crate::types::item::Item`), so that its representation
// does not name this enum, which names it.
/// A list of values.
pub(crate) type List = crate::types::list::List<Value>;
/// A tuple of values.
pub(crate) type Tuple = crate::types::tuple::Tuple<Value>;
/// A shared tuple of values.
pub(crate) type TupleRc = crate::types::tuple::TupleRc<Value>;
/// A dict of values.
pub(crate) type Dict = crate::types::dict::Dict<Value>;
/// A view of a dict of values.
pub(crate) type View = crate::types::dict::View<Value>;
/// A set of values.
pub(crate) type Set = crate::types::set::Set<Value>;

impl Value {
    /// A float a run computes: a new object, with a fresh identity stamp.
    #[inline(always)]
    pub(crate) fn float(f: f64) -> Value {
        Value::Float(ident::Id::fresh(), ident::F::new(f))
    }

    /// An int a run computes: a new object, with a fresh identity stamp.
    #[inline(always)]
    pub(crate) fn int(i: i64) -> Value {
        Value::Int(ident::Id::fresh(), i)
    }
}

/// Clones a value, with the scalar cases inline.
#[inline(always)]
pub(crate) fn fast_clone(v: &Value) -> Value {
    match v {
        Value::Int(id, i) => Value::Int(*id, *i),
        Value::Float(id, f) => Value::Float(*id, *f),
        Value::Bool(b) => Value::Bool(*b),
        Value::None => Value::None,
        other => other.clone(),
    }
}

/// One interpreter value.
#[derive(Clone)]
// An explicit 4-byte tag puts every word-sized payload at offset 8, so a
// moved value is two aligned words (with the default layout a `bool`
// payload sits at offset 1 and every move copies bytes 1..16 piecewise,
// which stalls the next 8-byte load of the payload: store forwarding), and
// leaves bytes 4..8 for an int's or float's identity ([`ident::Id`]).
//
// The tags of the values that own nothing on the heap are 0..=6 and every
// other tag is 8 or more, so a run of values is all plain exactly when the
// bitwise or of its tags is below 8 ([`Value::tag`]): one `or` per item
// when a list is dropped or copied, not a table test.
#[repr(u32)]
pub(crate) enum Value {
    /// `None`
    None = 0,
    /// `True` / `False`
    Bool(bool) = 1,
    /// An int that fits in an `i64` (the fast path).
    Int(ident::Id, i64) = 2,
    /// A float (non-finite ones NaN-boxed with their identity: [`ident`]).
    Float(ident::Id, ident::F) = 3,
    /// A builtin type object (`int`, `str`, …).
    Type(TypeId) = 4,
    /// A builtin function (`len`, …).
    Builtin(BuiltinId) = 5,
    /// `...`
    Ellipsis = 6,
    /// `NotImplemented`
    NotImplemented = 7,
    /// An int outside the `i64` range (always normalised: never fits `i64`).
    Big(Rc<BigVal>) = 8,
    /// A complex number (only from `2j` literals).
    Complex(Rc<(f64, f64)>),
    /// A string.
    Str(StrRc),
    /// A bytes object (charged to the live-value count).
    Bytes(Rc<crate::types::bytes::PyBytes>),
    /// A list.
    List(Rc<RefCell<List>>),
    /// A tuple.
    Tuple(TupleRc),
    /// A dict.
    Dict(Rc<RefCell<Dict>>),
    /// A set.
    Set(Rc<RefCell<Set>>),
    /// A `range` object.
    Range(Rc<Range>),
    /// A tool: its name and declared argument names.
    Tool(Rc<ToolInfo>),
    /// A `lambda`.
    Lambda(Rc<Lambda>),
    /// A method bound to a value, or unbound on its type (`str.upper`).
    Method(Rc<Method>),
    /// An iterator object (`reversed(…)`, `enumerate(…)`, `zip(…)`).
    Iter(Rc<RefCell<PyIter>>),
    /// A dict view (`d.keys()`, `d.values()`, `d.items()`).
    View(Rc<View>),
    /// A generic alias (`list[str]`).
    Alias(Rc<Alias>),
}

// Two words, the identity of ints and floats included.
const _: () = assert!(std::mem::size_of::<Value>() == 16);

/// Tags below this are those of [`Value::is_plain`] values.
pub(crate) const PLAIN_TAGS: u64 = 8;

thread_local! {
    /// The one-character ASCII strings, shared (as CPython's are).
    static CHARS: Vec<Value> = (0u8..128).map(|b| Value::Str(StrRc::new(PyStr::new((b as char).to_string())))).collect();
    /// The empty string.
    static EMPTY: Value = Value::Str(StrRc::new(PyStr::new("")));
}

/// The empty string, shared (as CPython's is).
#[inline]
pub(crate) fn empty_str() -> Value {
    EMPTY.with(Value::clone)
}

/// A one-character string, shared for ASCII.
#[inline]
pub(crate) fn char_value(c: char) -> Value {
    if c.is_ascii() {
        let v = CHARS.with(|t| t.get(c as usize).cloned());
        if let Some(v) = v {
            return v;
        }
    }
    Value::str(c.to_string())
}

/// A lambda value: its definition plus the values it captured.
pub(crate) struct Lambda {
    pub def: Rc<LambdaDef>,
    /// Default values of the positional parameters, right-aligned.
    pub defaults: Vec<Value>,
    /// Defaults of keyword-only parameters (`None` where absent).
    pub kw_defaults: Vec<Option<Value>>,
    /// Values of enclosing comprehension/lambda locals, snapshot at creation.
    pub captured: Vec<Option<Value>>,
}

/// A builtin type subscripted with its arguments.
pub(crate) struct Alias {
    /// The subscripted type (`list` in `list[str]`).
    pub origin: TypeId,
    /// The subscript, a tuple's items when it is a tuple (`()` gives none).
    pub args: Vec<Value>,
}

/// An iterator's state.
pub(crate) enum PyIter {
    Range {
        next: i64,
        step: i64,
        left: u64,
    },
    /// A range with bounds beyond `i64`.
    BigRange {
        next: num_bigint::BigInt,
        step: num_bigint::BigInt,
        left: num_bigint::BigInt,
    },
    List {
        list: Rc<RefCell<List>>,
        idx: usize,
    },
    ListRev {
        list: Rc<RefCell<List>>,
        left: usize,
    },
    Tuple {
        t: TupleRc,
        idx: usize,
    },
    TupleRev {
        t: TupleRc,
        left: usize,
    },
    Str {
        s: StrRc,
        pos: usize,
    },
    StrRev {
        s: StrRc,
        end: usize,
    },
    Bytes {
        b: Rc<crate::types::bytes::PyBytes>,
        idx: usize,
    },
    BytesRev {
        b: Rc<crate::types::bytes::PyBytes>,
        left: usize,
    },
    Dict {
        d: Rc<RefCell<Dict>>,
        pos: usize,
        len: usize,
        kind: ViewKind,
    },
    DictRev {
        d: Rc<RefCell<Dict>>,
        back: usize,
        len: usize,
        kind: ViewKind,
    },
    Set {
        s: Rc<RefCell<Set>>,
        pos: usize,
        len: usize,
    },
    Enumerate {
        inner: Box<PyIter>,
        count: Value,
    },
    Zip {
        inners: Vec<PyIter>,
        strict: bool,
        done: bool,
    },
    /// Iterating an iterator object: advances the shared object.
    Shared(Rc<RefCell<PyIter>>),
}

impl PyIter {
    /// The iterator's Python type.
    pub(crate) fn type_id(&self) -> TypeId {
        match self {
            PyIter::Range { .. } => TypeId::RangeIterator,
            PyIter::BigRange { .. } => TypeId::LongRangeIterator,
            PyIter::List { .. } => TypeId::ListIterator,
            PyIter::ListRev { .. } => TypeId::ListReverseIterator,
            PyIter::Tuple { .. } => TypeId::TupleIterator,
            PyIter::TupleRev { .. } | PyIter::StrRev { .. } | PyIter::BytesRev { .. } => {
                TypeId::Reversed
            }
            PyIter::Str { .. } => TypeId::StrIterator,
            PyIter::Bytes { .. } => TypeId::ListIterator,
            PyIter::Dict { kind, .. } => match kind {
                ViewKind::Keys => TypeId::DictKeyIterator,
                ViewKind::Values => TypeId::DictValueIterator,
                ViewKind::Items => TypeId::DictItemIterator,
            },
            PyIter::DictRev { .. } => TypeId::DictReverseKeyIterator,
            PyIter::Set { .. } => TypeId::SetIterator,
            PyIter::Enumerate { .. } => TypeId::Enumerate,
            PyIter::Zip { .. } => TypeId::Zip,
            PyIter::Shared(it) => it.try_borrow().map(|i| i.type_id()).unwrap_or(TypeId::Zip),
        }
    }
}

/// A method: a receiver (or `None` for an unbound `str.upper`) and a name.
pub(crate) struct Method {
    pub recv: Option<Value>,
    pub owner: TypeId,
    pub name: MethodId,
}

impl Value {
    /// A new string value.
    #[inline]
    pub(crate) fn str(s: impl Into<compact_str::CompactString>) -> Value {
        let text = s.into();
        // Empty and one-character ASCII strings are shared, as CPython's are.
        match text.as_bytes() {
            [] => return empty_str(),
            &[b] if b.is_ascii() => return char_value(char::from(b)),
            _ => {}
        }
        Value::Str(StrRc::new(PyStr::new(text)))
    }

    /// A new list value.
    pub(crate) fn list(items: Vec<Value>) -> Value {
        Value::List(Rc::new(RefCell::new(List::new(items))))
    }

    /// A new tuple value.
    pub(crate) fn tuple(items: Vec<Value>) -> Value {
        Value::Tuple(TupleRc::new(Tuple::new(items)))
    }

    /// A new pair `(a, b)`.
    #[inline]
    pub(crate) fn pair(a: Value, b: Value) -> Value {
        Value::Tuple(TupleRc::new(Tuple::pair(a, b)))
    }

    /// A new triple `(a, b, c)`.
    #[inline]
    pub(crate) fn triple(a: Value, b: Value, c: Value) -> Value {
        Value::Tuple(TupleRc::new(Tuple::triple(a, b, c)))
    }

    /// A new dict value.
    pub(crate) fn dict(d: Dict) -> Value {
        Value::Dict(Rc::new(RefCell::new(d)))
    }

    /// A new set value.
    pub(crate) fn set(s: Set) -> Value {
        Value::Set(Rc::new(RefCell::new(s)))
    }

    /// An int from a `BigInt`, normalised to the `i64` fast path when it fits.
    pub(crate) fn from_big(b: BigInt) -> Value {
        use num_traits::ToPrimitive;
        match b.to_i64() {
            Some(i) => Value::int(i),
            None => Value::Big(crate::types::int::new_big(b)),
        }
    }

    /// The type of the value.
    pub(crate) fn type_id(&self) -> TypeId {
        match self {
            Value::None => TypeId::NoneType,
            Value::Bool(_) => TypeId::Bool,
            Value::Int(_, _) | Value::Big(_) => TypeId::Int,
            Value::Float(..) => TypeId::Float,
            Value::Complex(_) => TypeId::Complex,
            Value::Str(_) => TypeId::Str,
            Value::Bytes(_) => TypeId::Bytes,
            Value::List(_) => TypeId::List,
            Value::Tuple(_) => TypeId::Tuple,
            Value::Dict(_) => TypeId::Dict,
            Value::Set(_) => TypeId::Set,
            Value::Range(_) => TypeId::Range,
            Value::Type(_) => TypeId::Type,
            Value::Builtin(_) => TypeId::BuiltinFunction,
            Value::Tool(_) => TypeId::Function,
            Value::Lambda(_) => TypeId::Function,
            Value::Method(m) => {
                if m.recv.is_some() {
                    TypeId::BuiltinFunction
                } else {
                    TypeId::MethodDescriptor
                }
            }
            Value::Iter(it) => match it.try_borrow() {
                Ok(it) => it.type_id(),
                Err(_) => TypeId::Zip,
            },
            Value::View(v) => match v.kind {
                ViewKind::Keys => TypeId::DictKeys,
                ViewKind::Values => TypeId::DictValues,
                ViewKind::Items => TypeId::DictItems,
            },
            Value::Ellipsis => TypeId::Ellipsis,
            Value::NotImplemented => TypeId::NotImplementedType,
            Value::Alias(_) => TypeId::GenericAlias,
        }
    }

    /// Python's `type(x).__name__`.
    pub(crate) fn type_name(&self) -> &'static str {
        self.type_id().name()
    }

    /// Python truthiness.
    pub(crate) fn truthy(&self) -> bool {
        match self {
            Value::None => false,
            Value::Bool(b) => *b,
            Value::Int(_, i) => *i != 0,
            Value::Big(_) => true,
            Value::Float(_, f) => f.get() != 0.0,
            Value::Complex(c) => c.0 != 0.0 || c.1 != 0.0,
            Value::Str(s) => !s.as_str().is_empty(),
            Value::Bytes(b) => !b.is_empty(),
            Value::List(l) => l.try_borrow().map(|l| !l.items.is_empty()).unwrap_or(true),
            Value::Tuple(t) => !t.items.is_empty(),
            Value::Dict(d) => d.try_borrow().map(|d| d.len() != 0).unwrap_or(true),
            Value::Set(s) => s.try_borrow().map(|s| s.len() != 0).unwrap_or(true),
            Value::Range(r) => !r.is_empty(),
            Value::View(v) => v.dict.try_borrow().map(|d| d.len() != 0).unwrap_or(true),
            _ => true,
        }
    }

    /// The variant's tag (its discriminant: the match compiles to the
    /// load of the tag word). Plain values have tags below [`PLAIN_TAGS`].
    #[inline(always)]
    pub(crate) fn tag(&self) -> u64 {
        match self {
            Value::None => 0,
            Value::Bool(_) => 1,
            Value::Int(_, _) => 2,
            Value::Float(..) => 3,
            Value::Type(_) => 4,
            Value::Builtin(_) => 5,
            Value::Ellipsis => 6,
            Value::NotImplemented => 7,
            Value::Big(_) => 8,
            Value::Complex(_) => 9,
            Value::Str(_) => 10,
            Value::Bytes(_) => 11,
            Value::List(_) => 12,
            Value::Tuple(_) => 13,
            Value::Dict(_) => 14,
            Value::Set(_) => 15,
            Value::Range(_) => 16,
            Value::Tool(_) => 17,
            Value::Lambda(_) => 18,
            Value::Method(_) => 19,
            Value::Iter(_) => 20,
            Value::View(_) => 21,
            Value::Alias(_) => 22,
        }
    }

    /// Whether the value owns nothing on the heap (dropping it runs no code).
    #[inline(always)]
    pub(crate) fn is_plain(&self) -> bool {
        matches!(
            self,
            Value::None
                | Value::Bool(_)
                | Value::Int(_, _)
                | Value::Float(..)
                | Value::Type(_)
                | Value::Builtin(_)
                | Value::Ellipsis
                | Value::NotImplemented
        )
    }

    /// Whether the value may hold other values (so dropping it may recurse).
    #[inline]
    pub(crate) fn is_container(&self) -> bool {
        matches!(
            self,
            Value::List(_)
                | Value::Tuple(_)
                | Value::Dict(_)
                | Value::Set(_)
                | Value::Lambda(_)
                | Value::Method(_)
                | Value::Iter(_)
                | Value::View(_)
                | Value::Alias(_)
        )
    }

    /// Identity for `is`: same object, or equal immutable singletons.
    pub(crate) fn is_same(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::None, Value::None)
            | (Value::Ellipsis, Value::Ellipsis)
            | (Value::NotImplemented, Value::NotImplemented) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            // CPython caches the small ints; others are one object when
            // copied from one computation or constant ([`ident`]).
            (Value::Int(ia, a), Value::Int(ib, b)) => a == b && (ia == ib || ident::cached_int(*a)),
            (Value::Big(a), Value::Big(b)) => Rc::ptr_eq(a, b),
            (Value::Float(ia, a), Value::Float(ib, b)) => ia == ib && a.same_bits(*b),
            (Value::Complex(a), Value::Complex(b)) => Rc::ptr_eq(a, b),
            (Value::Bytes(a), Value::Bytes(b)) => Rc::ptr_eq(a, b),
            (Value::Str(a), Value::Str(b)) => {
                StrRc::ptr_eq(a, b) || (a.char_len() <= 1 && a.as_str() == b.as_str())
            }
            (Value::List(a), Value::List(b)) => Rc::ptr_eq(a, b),
            (Value::Tuple(a), Value::Tuple(b)) => {
                TupleRc::ptr_eq(a, b) || (a.items.is_empty() && b.items.is_empty())
            }
            (Value::Dict(a), Value::Dict(b)) => Rc::ptr_eq(a, b),
            (Value::Set(a), Value::Set(b)) => Rc::ptr_eq(a, b),
            (Value::Range(a), Value::Range(b)) => Rc::ptr_eq(a, b),
            (Value::Type(a), Value::Type(b)) => a == b,
            (Value::Builtin(a), Value::Builtin(b)) => a == b,
            (Value::Tool(a), Value::Tool(b)) => Rc::ptr_eq(a, b),
            (Value::Lambda(a), Value::Lambda(b)) => Rc::ptr_eq(a, b),
            // An unbound method (`str.upper`) is its type's one descriptor
            // object; a bound one is made anew by each lookup.
            (Value::Method(a), Value::Method(b)) => {
                Rc::ptr_eq(a, b)
                    || (a.recv.is_none()
                        && b.recv.is_none()
                        && a.owner == b.owner
                        && a.name == b.name)
            }
            (Value::Iter(a), Value::Iter(b)) => Rc::ptr_eq(a, b),
            (Value::View(a), Value::View(b)) => Rc::ptr_eq(a, b),
            (Value::Alias(a), Value::Alias(b)) => Rc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// A stable fake address for reprs such as `<function <lambda> at 0x…>`.
    pub(crate) fn address(&self) -> usize {
        match self {
            Value::Lambda(r) => Rc::as_ptr(r) as *const () as usize,
            Value::Method(r) => Rc::as_ptr(r) as *const () as usize,
            Value::Iter(r) => Rc::as_ptr(r) as *const () as usize,
            Value::Str(r) => StrRc::as_ptr(r) as *const () as usize,
            Value::List(r) => Rc::as_ptr(r) as *const () as usize,
            Value::Dict(r) => Rc::as_ptr(r) as *const () as usize,
            Value::Tuple(r) => TupleRc::as_ptr(r) as *const () as usize,
            Value::Set(r) => Rc::as_ptr(r) as *const () as usize,
            Value::Tool(r) => Rc::as_ptr(r) as *const () as usize,
            _ => 0x7f00_0000_0000,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::memory;

    #[test]
    fn a_list_block_is_a_56_byte_request() {
        assert_eq!(std::mem::size_of::<List>(), 32);
        assert_eq!(std::mem::size_of::<RefCell<List>>() + 16, 56);
    }

    #[test]
    fn a_list_gives_back_what_it_was_charged_as_it_grows_and_shrinks() {
        let _scope = crate::runtime::RunScope::counting();
        let before = memory::used();
        let mut l = List::default();
        assert_eq!(memory::used(), before);
        l.sync();
        assert_eq!(memory::used(), before + 48);
        for i in 0..1000 {
            l.push(Value::int(i));
        }
        assert_eq!(memory::used(), before + 48 + 16 * l.items.capacity());
        l.items.truncate(3);
        l.items.shrink_to_fit();
        l.sync();
        assert_eq!(memory::used(), before + 48 + 16 * l.items.capacity());
        drop(l);
        assert_eq!(memory::used(), before);
    }
}
