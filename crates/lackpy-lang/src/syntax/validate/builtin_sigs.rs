//! The builtins' signatures: CPython 3.11's (positional-only where it
//! has them), and `sort_by`'s own, for display and for checking calls.

use super::signature::{CallSignature, Lit, ParamSig};
use crate::syntax::catalog::BUILTIN_NAMES;

/// A parameter: `name: ty`, required or with `default` (a display text,
/// or a literal), positional-only (`/`), keyword-only (`*`) or both.
fn p(name: &str, ty: &str, default: Option<Lit>, kind: Kind) -> ParamSig {
    let mut s = ParamSig::new(name, ty, default.is_none());
    s.default = default;
    s.positional = kind != Kind::KeywordOnly;
    s.keyword = kind != Kind::PositionalOnly;
    s.checked = false;
    s
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    PositionalOnly,
    Both,
    KeywordOnly,
}
use Kind::{Both, KeywordOnly as Kw, PositionalOnly as Pos};

fn sig(name: &str, params: Vec<ParamSig>, returns: &str) -> CallSignature {
    let mut s = CallSignature::new(name, params);
    s.returns = Some(returns.to_string());
    s
}

fn variadic(mut s: CallSignature) -> CallSignature {
    s.variadic = true;
    s
}

fn other(text: &str) -> Option<Lit> {
    Some(Lit::Other(text.to_string()))
}

/// The signature of the builtin `name`, if it is one.
pub fn builtin_signature(name: &str) -> Option<CallSignature> {
    let none = || Some(Lit::None);
    let f = || Some(Lit::Bool(false));
    Some(match name {
        "len" => sig("len", vec![p("obj", "Any", None, Pos)], "int"),
        "sorted" => sig(
            "sorted",
            vec![
                p("iterable", "Iterable", None, Pos),
                p("key", "Callable | None", none(), Kw),
                p("reverse", "bool", f(), Kw),
            ],
            "list",
        ),
        "reversed" => sig(
            "reversed",
            vec![p("sequence", "Reversible", None, Pos)],
            "iterator",
        ),
        "enumerate" => sig(
            "enumerate",
            vec![
                p("iterable", "Iterable", None, Both),
                p("start", "int", Some(Lit::Int(0)), Both),
            ],
            "iterator",
        ),
        "zip" => variadic(sig("zip", vec![p("strict", "bool", f(), Kw)], "iterator")),
        "range" => sig(
            "range",
            vec![
                p("start_or_stop", "int", None, Pos),
                p("stop", "int", other("..."), Pos),
                p("step", "int", Some(Lit::Int(1)), Pos),
            ],
            "range",
        ),
        "min" | "max" => variadic(sig(
            name,
            vec![
                p("iterable", "Iterable", None, Pos),
                p("key", "Callable | None", none(), Kw),
                p("default", "Any", other("..."), Kw),
            ],
            "Any",
        )),
        "sum" => sig(
            "sum",
            vec![
                p("iterable", "Iterable", None, Pos),
                p("start", "Any", Some(Lit::Int(0)), Both),
            ],
            "int | float",
        ),
        "any" | "all" => sig(name, vec![p("iterable", "Iterable", None, Pos)], "bool"),
        "abs" => sig("abs", vec![p("x", "int | float", None, Pos)], "int | float"),
        "round" => sig(
            "round",
            vec![
                p("number", "int | float", None, Both),
                p("ndigits", "int | None", none(), Both),
            ],
            "int | float",
        ),
        "str" => sig(
            "str",
            vec![
                p("object", "Any", Some(Lit::Str(String::new())), Both),
                p("encoding", "str", Some(Lit::Str("utf-8".into())), Both),
                p("errors", "str", Some(Lit::Str("strict".into())), Both),
            ],
            "str",
        ),
        "int" => sig(
            "int",
            vec![
                p("x", "Any", Some(Lit::Int(0)), Pos),
                p("base", "int", Some(Lit::Int(10)), Both),
            ],
            "int",
        ),
        "float" => sig(
            "float",
            vec![p("x", "Any", Some(Lit::Float(0.0)), Pos)],
            "float",
        ),
        "bool" => sig("bool", vec![p("x", "Any", f(), Pos)], "bool"),
        "list" | "set" | "tuple" => sig(
            name,
            vec![p("iterable", "Iterable", other("()"), Pos)],
            name,
        ),
        "dict" => {
            let mut s = sig("dict", vec![p("mapping", "Any", other("{}"), Pos)], "dict");
            s.open_keywords = true;
            s
        }
        "isinstance" => sig(
            "isinstance",
            vec![
                p("obj", "Any", None, Pos),
                p("class_or_tuple", "type | tuple", None, Pos),
            ],
            "bool",
        ),
        "print" => variadic(sig(
            "print",
            vec![
                p("sep", "str | None", Some(Lit::Str(" ".into())), Kw),
                p("end", "str | None", Some(Lit::Str("\n".into())), Kw),
                p("file", "Any", none(), Kw),
                p("flush", "bool", f(), Kw),
            ],
            "None",
        )),
        "sort_by" => sig(
            "sort_by",
            vec![
                p("items", "list[dict]", None, Both),
                ParamSig {
                    checked: true,
                    ..p("key", "str | int", None, Both)
                },
                p("reverse", "bool", f(), Both),
            ],
            "list[dict]",
        ),
        _ => return None,
    })
}

/// Every builtin's signature, in the catalog's order.
pub fn builtin_signatures() -> Vec<CallSignature> {
    BUILTIN_NAMES
        .iter()
        .filter_map(|n| builtin_signature(n))
        .collect()
}

/// Every builtin's signature, built once.
pub(super) fn builtin_sigs_static() -> &'static [CallSignature] {
    static SIGS: std::sync::OnceLock<Vec<CallSignature>> = std::sync::OnceLock::new();
    SIGS.get_or_init(builtin_signatures)
}

/// What to say beside a wrong argument to a builtin, when there is
/// more to say than its type.
pub(super) fn hint(name: &str, param: &str) -> Option<&'static str> {
    match (name, param) {
        ("sort_by", "key") => Some(
            "sort_by(items, 'field') sorts dicts by the value of one field; \
             to sort by a function use sorted(items, key=lambda x: ...)",
        ),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_has_a_signature() {
        assert_eq!(builtin_signatures().len(), BUILTIN_NAMES.len());
        let s = builtin_signature("sort_by").map(|s| s.to_string());
        assert_eq!(
            s.as_deref(),
            Some("sort_by(items: list[dict], key: str | int, reverse: bool = False) -> list[dict]")
        );
        let s = builtin_signature("sorted").map(|s| s.to_string());
        assert_eq!(
            s.as_deref(),
            Some(
                "sorted(iterable: Iterable, /, *, key: Callable | None = None, \
                 reverse: bool = False) -> list"
            )
        );
    }
}
