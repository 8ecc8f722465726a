//! The whitelists and deny-lists that define the language.
//!
//! Kept as data in one place: the validator, the spec export and the
//! interpreter all read them from here (the builtins from the catalog).

use std::sync::OnceLock;

/// Node kinds a program may contain (CPython class names).
pub const ALLOWED_NODES: &[&str] = &[
    "Module",
    "Expr",
    "Assign",
    "AugAssign",
    "AnnAssign",
    "For",
    "If",
    "With",
    "withitem",
    "Call",
    "Name",
    "Attribute",
    "Subscript",
    "List",
    "Dict",
    "Tuple",
    "Set",
    "ListComp",
    "DictComp",
    "SetComp",
    "Compare",
    "BoolOp",
    "UnaryOp",
    "BinOp",
    "JoinedStr",
    "FormattedValue",
    "Constant",
    "Starred",
    "Slice",
    "comprehension",
    "IfExp",
    "Lambda",
    "arguments",
    "arg",
    "keyword",
    "Load",
    "Store",
    "Del",
    "Add",
    "Sub",
    "Mult",
    "Div",
    "Mod",
    "FloorDiv",
    "Eq",
    "NotEq",
    "Lt",
    "LtE",
    "Gt",
    "GtE",
    "Is",
    "IsNot",
    "In",
    "NotIn",
    "And",
    "Or",
    "Not",
    "USub",
    "UAdd",
];

/// Every concrete node kind of CPython 3.11's `ast` module (deprecated
/// aliases such as `Num` or `Index` excluded). The forbidden kinds are
/// these minus [`ALLOWED_NODES`].
pub const ALL_NODES: &[&str] = &[
    // mod
    "Module",
    "Interactive",
    "Expression",
    "FunctionType",
    // stmt
    "FunctionDef",
    "AsyncFunctionDef",
    "ClassDef",
    "Return",
    "Delete",
    "Assign",
    "AugAssign",
    "AnnAssign",
    "For",
    "AsyncFor",
    "While",
    "If",
    "With",
    "AsyncWith",
    "Match",
    "Raise",
    "Try",
    "TryStar",
    "Assert",
    "Import",
    "ImportFrom",
    "Global",
    "Nonlocal",
    "Expr",
    "Pass",
    "Break",
    "Continue",
    // expr
    "BoolOp",
    "NamedExpr",
    "BinOp",
    "UnaryOp",
    "Lambda",
    "IfExp",
    "Dict",
    "Set",
    "ListComp",
    "SetComp",
    "DictComp",
    "GeneratorExp",
    "Await",
    "Yield",
    "YieldFrom",
    "Compare",
    "Call",
    "FormattedValue",
    "JoinedStr",
    "Constant",
    "Attribute",
    "Subscript",
    "Starred",
    "Name",
    "List",
    "Tuple",
    "Slice",
    // expr_context
    "Load",
    "Store",
    "Del",
    // boolop, operator, unaryop, cmpop
    "And",
    "Or",
    "Add",
    "Sub",
    "Mult",
    "MatMult",
    "Div",
    "Mod",
    "Pow",
    "LShift",
    "RShift",
    "BitOr",
    "BitXor",
    "BitAnd",
    "FloorDiv",
    "Invert",
    "Not",
    "UAdd",
    "USub",
    "Eq",
    "NotEq",
    "Lt",
    "LtE",
    "Gt",
    "GtE",
    "Is",
    "IsNot",
    "In",
    "NotIn",
    // helpers
    "comprehension",
    "ExceptHandler",
    "arguments",
    "arg",
    "keyword",
    "alias",
    "withitem",
    "match_case",
    "TypeIgnore",
    // pattern
    "MatchValue",
    "MatchSingleton",
    "MatchSequence",
    "MatchMapping",
    "MatchClass",
    "MatchStar",
    "MatchAs",
    "MatchOr",
];

/// Names a program may never mention, read or write.
pub const FORBIDDEN_NAMES: &[&str] = &[
    "__import__",
    "open",
    "globals",
    "locals",
    "vars",
    "dir",
    "getattr",
    "setattr",
    "delattr",
    "hasattr",
    "__builtins__",
    "__build_class__",
    "breakpoint",
    "exit",
    "quit",
    "type",
    "super",
    "classmethod",
    "staticmethod",
    "property",
    "memoryview",
    "bytearray",
    "bytes",
    "map",
    "filter",
    "reduce",
    "input",
    "os",
    "sys",
    "pathlib",
    "subprocess",
    "shutil",
];

/// Builtin functions and types a program may call: the names of the
/// builtins the catalog declares (`catalog::BUILTINS`), which the
/// interpreter resolves and runs from the same declaration.
pub const ALLOWED_BUILTINS: &[&str] = &crate::syntax::catalog::BUILTIN_NAMES;

/// Attribute names refused besides every name starting with `_`: frame,
/// generator, coroutine, traceback and function internals.
pub const DENIED_ATTRIBUTES: &[&str] = &[
    "f_globals",
    "f_builtins",
    "f_locals",
    "f_code",
    "f_back",
    "gi_frame",
    "gi_code",
    "cr_frame",
    "cr_code",
    "ag_frame",
    "ag_code",
    "tb_frame",
    "tb_next",
    "func_globals",
    "func_code",
];

/// A set of names, hashed once: the validator asks these for every node
/// and every name of a program, where a list scan costs dozens of compares.
type NameSet = std::collections::HashSet<&'static str, crate::fnv::FnvBuild>;

fn name_set(cell: &'static OnceLock<NameSet>, names: &'static [&'static str]) -> &'static NameSet {
    cell.get_or_init(|| names.iter().copied().collect())
}

static ALLOWED_NODE_SET: OnceLock<NameSet> = OnceLock::new();
static FORBIDDEN_NAME_SET: OnceLock<NameSet> = OnceLock::new();

/// Whether a node kind is allowed.
pub fn is_allowed_node(kind: &str) -> bool {
    name_set(&ALLOWED_NODE_SET, ALLOWED_NODES).contains(kind)
}

/// Whether a name is forbidden.
pub fn is_forbidden_name(name: &str) -> bool {
    name_set(&FORBIDDEN_NAME_SET, FORBIDDEN_NAMES).contains(name)
}

/// Whether a name is an allowed builtin.
pub fn is_allowed_builtin(name: &str) -> bool {
    ALLOWED_BUILTINS.contains(&name)
}

/// Whether an attribute name is refused.
pub fn is_denied_attribute(attr: &str) -> bool {
    attr.starts_with('_') || DENIED_ATTRIBUTES.contains(&attr)
}

/// Every forbidden node kind, sorted.
pub fn forbidden_nodes() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = ALL_NODES
        .iter()
        .copied()
        .filter(|k| !is_allowed_node(k))
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hashed_sets_agree_with_the_lists() {
        for k in ALL_NODES {
            assert_eq!(is_allowed_node(k), ALLOWED_NODES.contains(k), "{k}");
        }
        for n in FORBIDDEN_NAMES.iter().chain(ALLOWED_BUILTINS) {
            assert_eq!(is_forbidden_name(n), FORBIDDEN_NAMES.contains(n), "{n}");
        }
        assert!(!is_forbidden_name("evalx") && !is_allowed_node("Lambdas"));
    }

    #[test]
    fn allowed_nodes_are_real_node_kinds() {
        for k in ALLOWED_NODES {
            assert!(ALL_NODES.contains(k), "{k} is not a CPython node kind");
        }
    }

    #[test]
    fn forbidden_nodes_cover_the_dangerous_ones() {
        let f = forbidden_nodes();
        for k in [
            "FunctionDef",
            "While",
            "Try",
            "Import",
            "Pow",
            "NamedExpr",
            "GeneratorExp",
        ] {
            assert!(f.contains(&k), "{k} must be forbidden");
        }
        assert!(!f.contains(&"Lambda"));
        assert_eq!(f.len() + ALLOWED_NODES.len(), ALL_NODES.len());
        // CPython 3.11 has 107 concrete node classes besides deprecated aliases.
        let mut all = ALL_NODES.to_vec();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 107);
    }
}
