//! The builtin functions and the builtin types called as constructors:
//! the dispatch and the small ones here, `round` ([`round`]) and the type
//! constructors ([`types`]) beside; sorting is the list's
//! (`types/list/sort.rs`).

mod abs;
mod len;
mod round;
mod types;

use self::abs::abs;
use self::len::len;
use self::round::round;
pub(crate) use self::types::call_type;
use crate::runtime::Budget;
use crate::runtime::error::{Exc, R};
use crate::syntax::ast::CmpOp;
use crate::syntax::catalog::{BuiltinId, TypeId};
use crate::types::args::{Kw, between, bind, bind_req, no_kwargs};
use crate::types::caller::Caller;
use crate::types::caller::PlainBuiltin;
use crate::types::list::key_fn::KeyFn;
use crate::types::list::sort::{sort_by, sorted};
use crate::types::ops;
use crate::value::PyIter;
use crate::value::{Value, repr};

/// The plain implementation of builtin `id` (no interpreter needed), for
/// a key function resolved once ([`crate::types::caller::Caller::plain_builtin`]).
pub(crate) fn plain(id: BuiltinId) -> Option<PlainBuiltin> {
    match id {
        BuiltinId::Len => Some(len),
        BuiltinId::Abs => Some(abs),
        _ => None,
    }
}

/// Calls a builtin function: each id the catalog declares runs its own
/// handler (the catalog's `BUILTINS` holds the names and arities).
pub(crate) fn call_builtin<C: Caller>(
    it: &mut C,
    b: BuiltinId,
    args: &[Value],
    kwargs: Kw,
) -> R<Value> {
    match b {
        BuiltinId::Len => len(args, kwargs),
        BuiltinId::Sorted => sorted(it, args, kwargs),
        BuiltinId::Min => min_max(it, args, kwargs, CmpOp::Lt, "min"),
        BuiltinId::Max => min_max(it, args, kwargs, CmpOp::Gt, "max"),
        BuiltinId::Sum => sum(it.budget(), args, kwargs),
        BuiltinId::Any => any_all(it.budget(), BuiltinId::Any, args, kwargs),
        BuiltinId::All => any_all(it.budget(), BuiltinId::All, args, kwargs),
        BuiltinId::Abs => abs(args, kwargs),
        BuiltinId::Round => round(args, kwargs),
        BuiltinId::Isinstance => isinstance_of(args, kwargs),
        BuiltinId::Print => print(it, args, kwargs),
        BuiltinId::SortBy => sort_by(it.budget(), args, kwargs),
    }
}

/// `any(x)` or `all(x)` (`b`).
fn any_all(budget: &mut Budget, b: BuiltinId, args: &[Value], kwargs: Kw) -> R<Value> {
    let name = b.name();
    no_kwargs(name, kwargs)?;
    let [x] = args else {
        return Err(Exc::type_error(format!(
            "{name}() takes exactly one argument ({} given)",
            args.len()
        )));
    };
    let want = b == BuiltinId::Any;
    // A list or tuple is read in place: truthiness runs no program code.
    if let Some(found) = with_items(x, |items| {
        for (n, v) in items.iter().enumerate() {
            if n % 256 == 255 {
                budget.poll_now()?;
            }
            let t = match v {
                Value::Bool(b) => *b,
                _ => v.truthy(),
            };
            if t == want {
                return Ok(true);
            }
        }
        Ok(false)
    })? {
        return Ok(Value::Bool(if found { want } else { !want }));
    }
    let mut iter = PyIter::of(x)?;
    while let Some(v) = iter.next()? {
        budget.poll()?;
        if v.truthy() == want {
            return Ok(Value::Bool(want));
        }
    }
    Ok(Value::Bool(!want))
}

/// `isinstance(x, cls)`.
fn isinstance_of(args: &[Value], kwargs: Kw) -> R<Value> {
    no_kwargs("isinstance", kwargs)?;
    between("isinstance", args, 2, 2)?;
    isinstance(&args[0], &args[1], 0).map(Value::Bool)
}

fn min_max(it: &mut dyn Caller, args: &[Value], kwargs: Kw, op: CmpOp, name: &str) -> R<Value> {
    // CPython counts the positional arguments first, then the keywords,
    // then looks at their names.
    if args.is_empty() {
        return Err(Exc::type_error(format!(
            "{name} expected at least 1 argument, got 0"
        )));
    }
    if kwargs.len() > 2 {
        return Err(Exc::type_error(format!(
            "{name}() takes at most 2 keyword arguments ({} given)",
            kwargs.len()
        )));
    }
    let mut key = None;
    let mut default = None;
    for (k, v) in kwargs {
        match &**k {
            "key" => {
                key = if matches!(v, Value::None) {
                    None
                } else {
                    Some(v.clone())
                }
            }
            "default" => default = Some(v.clone()),
            other => {
                return Err(Exc::type_error(format!(
                    "'{other}' is an invalid keyword argument for {name}()"
                )));
            }
        }
    }
    // Without a key, a list or tuple is read in place (comparisons run no
    // program code, so it cannot change meanwhile) and only the winner is
    // copied out.
    if key.is_none()
        && let [one] = args
        && let Some(best) = with_items(one, |items| best_in_place(items, op))?
    {
        return match best {
            Some(x) => Ok(x),
            None => match default {
                Some(d) => Ok(d),
                None => Err(Exc::value_error(format!(
                    "{name}() arg is an empty sequence"
                ))),
            },
        };
    }
    // One iterable is walked live (no copy); several arguments are the items.
    let mut items = match args {
        [] => {
            return Err(Exc::type_error(format!(
                "{name} expected at least 1 argument, got 0"
            )));
        }
        [one] => PyIter::of(one)?,
        many => {
            if default.is_some() {
                return Err(Exc::type_error(format!(
                    "Cannot specify a default for {name}() with multiple positional arguments"
                )));
            }
            PyIter::Tuple {
                t: crate::value::TupleRc::new(crate::value::Tuple::new(many.to_vec())),
                idx: 0,
            }
        }
    };
    let mut best: Option<(Value, Value)> = None;
    let key = key.map(|f| (KeyFn::of(it, &f), f));
    while let Some(x) = items.next()? {
        let k = match &key {
            Some((how, f)) => how.call(it, f, &x)?,
            None => x.clone(),
        };
        best = Some(match best {
            None => (k, x),
            Some((bk, bx)) => {
                if ops::order(op, &k, &bk, 0)? {
                    (k, x)
                } else {
                    (bk, bx)
                }
            }
        });
    }
    match best {
        Some((_, x)) => Ok(x),
        None => match default {
            Some(d) => Ok(d),
            None => Err(Exc::value_error(format!(
                "{name}() arg is an empty sequence"
            ))),
        },
    }
}

/// Runs `f` over the items of a list or tuple, borrowed in place; `None`
/// for any other value (or a list borrowed mutably elsewhere).
fn with_items<T>(v: &Value, f: impl FnOnce(&[Value]) -> R<T>) -> R<Option<T>> {
    match v {
        Value::Tuple(t) => f(&t.items).map(Some),
        Value::List(l) => match l.try_borrow() {
            Ok(l) => f(&l.items).map(Some),
            Err(_) => Ok(None),
        },
        _ => Ok(None),
    }
}

/// The first item that no later item beats under `op` (`<` for min, `>`
/// for max), as CPython's min/max pick it; `None` when empty.
fn best_in_place(items: &[Value], op: CmpOp) -> R<Option<Value>> {
    let Some((mut best, rest)) = items.split_first() else {
        return Ok(None);
    };
    for (n, x) in rest.iter().enumerate() {
        if n % 256 == 255 {
            crate::runtime::meter::tick_n(256)?;
        }
        let wins = match (x, best) {
            (Value::Int(_, a), Value::Int(_, b)) => {
                if op == CmpOp::Lt {
                    a < b
                } else {
                    a > b
                }
            }
            (Value::Float(_, a), Value::Float(_, b)) => {
                if op == CmpOp::Lt {
                    a.get() < b.get()
                } else {
                    a.get() > b.get()
                }
            }
            (Value::Str(a), Value::Str(b)) => {
                let (a, b) = (a.as_str(), b.as_str());
                if op == CmpOp::Lt { a < b } else { a > b }
            }
            _ => ops::order(op, x, best, 0)?,
        };
        if wins {
            best = x;
        }
    }
    Ok(Some(best.clone()))
}

fn sum(budget: &mut Budget, args: &[Value], kwargs: Kw) -> R<Value> {
    let bound = bind_req("sum", args, kwargs, &["iterable", "start"], 1, 1)?;
    let start = bound.get(1).cloned().flatten().unwrap_or(Value::int(0));
    match &start {
        Value::Str(_) => {
            return Err(Exc::type_error(
                "sum() can't sum strings [use ''.join(seq) instead]",
            ));
        }
        Value::Bytes(_) => {
            return Err(Exc::type_error(
                "sum() can't sum bytes [use b''.join(seq) instead]",
            ));
        }
        _ => {}
    }
    let src = bound.first().cloned().flatten().unwrap_or(Value::None);
    if let (Value::List(l), Value::Int(_, first)) = (&src, &start)
        && let Ok(l) = l.try_borrow()
    {
        let mut total = *first;
        // A list of small ints (the common case): add without iterator
        // steps; anything else continues on the general path below.
        let mut done = 0;
        for x in &l.items {
            let Value::Int(_, b) = x else { break };
            let Some(t) = total.checked_add(*b) else {
                break;
            };
            total = t;
            done += 1;
            if done % 4096 == 0 {
                budget.poll_now()?;
            }
        }
        budget.poll()?;
        if done == l.items.len() {
            return Ok(Value::int(total));
        }
    }
    let mut acc = start;
    // A list or tuple is added up in place; the additions run no program
    // code, so it cannot change meanwhile.
    if let Some(total) = with_items(&src, |items| {
        let mut acc = acc.clone();
        for (n, x) in items.iter().enumerate() {
            if n % 256 == 255 {
                budget.poll_now()?;
            }
            acc = add(budget, acc, x)?;
        }
        Ok(acc)
    })? {
        return Ok(total);
    }
    // So are a dict's keys or values (`sum(d.values())`).
    if let Some((d, values)) = crate::value::iter::dict_column(&src) {
        crate::runtime::meter::tick_n(d.len())?;
        return sum_walk(budget, acc, d.column(values));
    }
    let mut iter = PyIter::of(&src)?;
    while let Some(x) = iter.next()? {
        budget.poll()?;
        acc = add(budget, acc, &x)?;
    }
    Ok(acc)
}

/// Adds up `items` onto `acc`, as repeated `+` would. Int and float
/// totals stay in a register while the items keep their type; any other
/// step (a bool, an overflow, a mixed pair) goes through [`add`].
fn sum_walk<'a>(
    budget: &mut Budget,
    mut acc: Value,
    items: impl Iterator<Item = &'a Value>,
) -> R<Value> {
    for (n, x) in items.enumerate() {
        if n % 4096 == 4095 {
            budget.poll_now()?;
        }
        acc = match (&acc, x) {
            (Value::Int(_, a), Value::Int(_, b)) if let Some(t) = a.checked_add(*b) => {
                Value::int(t)
            }
            (Value::Float(_, a), Value::Float(_, b)) => Value::float(a.get() + b.get()),
            _ => add(budget, acc, x)?,
        };
    }
    Ok(acc)
}

/// One step of `sum`: `acc + x`.
#[inline]
fn add(budget: &mut Budget, acc: Value, x: &Value) -> R<Value> {
    Ok(match (&acc, x) {
        (Value::Int(_, a), Value::Int(_, b)) => match a.checked_add(*b) {
            Some(r) => Value::int(r),
            None => ops::binop(budget, crate::syntax::ast::Operator::Add, acc, x.clone())?,
        },
        (Value::Float(_, a), Value::Float(_, b)) => Value::float(a.get() + b.get()),
        _ => ops::binop(budget, crate::syntax::ast::Operator::Add, acc, x.clone())?,
    })
}

/// The tuple nesting at which `isinstance` passes CPython's recursion limit
/// (1000, less the module's own frame).
const INSTANCECHECK_DEPTH: u32 = 999;

fn isinstance(x: &Value, cls: &Value, depth: u32) -> R<bool> {
    match cls {
        Value::Type(TypeId::Object) => Ok(true),
        Value::Type(t) => {
            Ok(x.type_id() == *t || (*t == TypeId::Int && matches!(x, Value::Bool(_))))
        }
        Value::Tuple(ts) => {
            // CPython enters a recursive call per nested tuple: at module
            // level the 1000th level passes its recursion limit.
            if depth >= INSTANCECHECK_DEPTH || crate::runtime::stack::exhausted() {
                return Err(Exc::recursion(
                    "maximum recursion depth exceeded in __instancecheck__",
                ));
            }
            for t in &ts.items {
                if isinstance(x, t, depth + 1)? {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        Value::Alias(_) => Err(Exc::type_error(
            "isinstance() argument 2 cannot be a parameterized generic",
        )),
        _ => Err(Exc::type_error(
            "isinstance() arg 2 must be a type, a tuple of types, or a union",
        )),
    }
}

/// `print(*args, sep=' ', end='\n', file=None, flush=False)`, checked as
/// CPython does: the keywords first, then `sep` and `end` (None means the
/// default); each argument is written as soon as its `str()` is made, so
/// an argument that fails leaves the ones before it printed.
fn print(it: &mut dyn Caller, args: &[Value], kwargs: Kw) -> R<Value> {
    // The common call has no keywords: nothing to bind.
    let bound = if kwargs.is_empty() {
        Vec::new()
    } else {
        bind("print", &[], kwargs, &["sep", "end", "file", "flush"], 0)?
    };
    let text_arg = |slot: Option<&Option<Value>>, what: &str, default: &str| match slot {
        None | Some(None) | Some(Some(Value::None)) => Ok(default.to_owned()),
        Some(Some(Value::Str(s))) => Ok(s.as_str().to_owned()),
        Some(Some(other)) => Err(Exc::type_error(format!(
            "{what} must be None or a string, not {}",
            other.type_name()
        ))),
    };
    let sep = text_arg(bound.first(), "sep", " ")?;
    let end = text_arg(bound.get(1), "end", "\n")?;
    // There is no file object to write to but stdout: any other `file` has
    // no `write` (CPython looks it up at the first write).
    if let Some(Some(file)) = bound.get(2)
        && !matches!(file, Value::None)
    {
        return Err(Exc::no_attr(file, "write"));
    }
    let mut line = String::new();
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            line.push_str(&sep);
        }
        // Appended in place, so the line so far is metered with it; a
        // failing argument's partial text is cut off again.
        let mark = line.len();
        if let Err(e) = repr::push_str_of(a, &mut line) {
            line.truncate(mark);
            it.write_stdout(&line);
            return Err(e);
        }
    }
    line.push_str(&end);
    it.write_stdout(&line);
    Ok(Value::None)
}

#[cfg(test)]
mod print_tests {
    use crate::interp::test_run::outcome;

    #[test]
    fn none_means_the_default_separator_and_end() {
        assert_eq!(outcome("print(1, 2, sep=None, end=None)\n0"), "1 2\n=> 0");
        assert_eq!(outcome("print(1, file=None, flush=True)\n0"), "1\n=> 0");
    }

    #[test]
    fn a_separator_or_end_of_another_type_is_a_type_error() {
        assert_eq!(
            outcome("print(1, 2, sep=3)"),
            "TypeError: sep must be None or a string, not int"
        );
        assert_eq!(
            outcome("print(1, end=b'x', file=2)"),
            "TypeError: end must be None or a string, not bytes"
        );
        assert_eq!(
            outcome("print(1, file=2)"),
            "AttributeError: 'int' object has no attribute 'write'"
        );
    }

    #[test]
    fn the_arguments_before_a_failing_one_are_printed() {
        assert_eq!(
            outcome("print(1, int('9' * 3000) * int('9' * 3000))"),
            "1 ValueError: Exceeds the limit (4300 digits) for integer string conversion; \
             use sys.set_int_max_str_digits() to increase the limit"
        );
    }

    #[test]
    fn an_unknown_keyword_is_refused_before_anything_is_printed() {
        assert_eq!(
            outcome("print(1, sep=3, foo=4)"),
            "TypeError: 'foo' is an invalid keyword argument for print()"
        );
    }
}
