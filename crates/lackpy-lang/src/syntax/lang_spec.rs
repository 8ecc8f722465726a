//! The language spec as data, for prompts, docs and tooling.

use serde::Serialize;

use crate::syntax::validate::KNOWN_RULES;
use crate::syntax::validate::names::{
    ALLOWED_BUILTINS, ALLOWED_NODES, DENIED_ATTRIBUTES, FORBIDDEN_NAMES, forbidden_nodes,
};

/// The whole language spec; every list is sorted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Spec {
    /// Node kinds a program may contain.
    pub allowed_nodes: Vec<&'static str>,
    /// Every other CPython node kind.
    pub forbidden_nodes: Vec<&'static str>,
    /// Names a program may never mention.
    pub forbidden_names: Vec<&'static str>,
    /// Builtin functions a program may call.
    pub allowed_builtins: Vec<&'static str>,
    /// Attribute names refused besides every name starting with `_`.
    pub denied_attributes: Vec<&'static str>,
    /// Extra rules selectable by name.
    pub rules: Vec<&'static str>,
}

fn sorted(items: &[&'static str]) -> Vec<&'static str> {
    let mut v = items.to_vec();
    v.sort_unstable();
    v.dedup();
    v
}

/// The language spec.
pub fn spec() -> Spec {
    Spec {
        allowed_nodes: sorted(ALLOWED_NODES),
        forbidden_nodes: forbidden_nodes(),
        forbidden_names: sorted(FORBIDDEN_NAMES),
        allowed_builtins: sorted(ALLOWED_BUILTINS),
        denied_attributes: sorted(DENIED_ATTRIBUTES),
        rules: sorted(KNOWN_RULES),
    }
}

impl Spec {
    /// The spec as a JSON value: the object its `Serialize` writes (every
    /// list by its field's name, in field order).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or_default()
    }

    /// The spec as prose a person reads: what a program is, what it may
    /// and may not contain, and every builtin with its signature.
    pub fn to_prose(&self) -> String {
        let mut out = String::from("# lackpy language specification\n");
        out.push_str(
            "\nA lackpy program is one module of Python 3.11 restricted to a safe subset. It \
             calls the tools of its namespace, the builtins below and the run's params \
             (pre-set variables), and nothing else. It runs as one scope, top to bottom; the \
             value of its last expression statement is its output, and what print() writes is \
             its stdout.\n\
             \n## What a program may contain\n\n\
             - Assignments (`=`, `+=` and the other arithmetic forms, `x: int = 1`), \
             tuple unpacking and starred targets.\n\
             - `if`/`elif`/`else`, `for` over a name or a call (`for f in files:`, \
             `for i in range(3):`), `with`.\n\
             - Literals, f-strings, lists, dicts, sets, tuples, list/dict/set comprehensions, \
             slicing, conditional expressions, `and`/`or`/`not`, comparisons, `+ - * / // %`.\n\
             - Calls of a tool, a builtin or a method (`s.strip()`, `d.get('k')`).\n\
             - `lambda`, only as the value of a `key=` argument: \
             `sorted(rows, key=lambda r: r['size'])`.\n\
             \n## What it may not\n\n\
             - Defining functions or classes (`def`, `class`, `return`), `while`, `break`, \
             `continue`, `pass`, `try`, `raise`, `assert`, `del`, `import`, `global`, \
             `match`, `async`/`await`, `yield`, `:=`, generator expressions, `**` and the bit \
             operators (`| & ^ ~ << >>`).\n\
             - Any attribute starting with `_`, and a few more (`--markdown` lists them); any \
             string containing `__`.\n",
        );
        out.push_str(&format!(
            "- The names {}.\n",
            self.forbidden_names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        out.push_str(
            "\n## Builtins\n\n\
             A call to a builtin or a tool is checked before the program runs: an unknown \
             keyword, a missing or extra argument, or a constant of the wrong type is a \
             validation error with its line.\n\n",
        );
        for sig in crate::syntax::validate::builtin_signatures() {
            out.push_str(&format!("- `{sig}`\n"));
        }
        out.push_str(
            "\n`sort_by(items, key)` sorts dicts by the value of their field `key` (a field \
             name, not a function); to sort by a function use `sorted(items, key=lambda x: ...)`.\n",
        );
        out.push_str(&format!(
            "\n## Rules\n\nA profile or a run may add rules: {}.\n",
            self.rules
                .iter()
                .map(|r| format!("`{r}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        out
    }

    /// The spec rendered as Markdown, for prompts and docs.
    pub fn to_markdown(&self) -> String {
        let mut out = String::from("# lackpy language specification\n");
        out.push_str(
            "\nA lackpy program is Python 3.11 syntax restricted to the constructs below. \
             It runs as one module-level scope; the value of a final expression statement \
             is the program's output.\n",
        );
        let sections: [(&str, &str, &[&str]); 6] = [
            (
                "Allowed AST nodes",
                "Only these node kinds may appear.",
                &self.allowed_nodes,
            ),
            (
                "Forbidden AST nodes",
                "Every other node kind of CPython's `ast` module.",
                &self.forbidden_nodes,
            ),
            (
                "Forbidden names",
                "Never read, written or called.",
                &self.forbidden_names,
            ),
            (
                "Allowed builtins",
                "Callable besides the tools and params of a run.",
                &self.allowed_builtins,
            ),
            (
                "Denied attributes",
                "Refused besides every attribute starting with `_`.",
                &self.denied_attributes,
            ),
            ("Rules", "Extra rules selectable by name.", &self.rules),
        ];
        for (title, blurb, items) in sections {
            out.push_str(&format!("\n## {title}\n\n{blurb}\n\n"));
            for item in items {
                out.push_str(&format!("- `{item}`\n"));
            }
        }
        out.push_str(
            "\n## Other restrictions\n\n\
             - A `for` statement iterates over a name or a call (comprehensions are exempt).\n\
             - `lambda` only as the value of a `key=` argument.\n\
             - No string constant may contain `__`.\n\
             - A call target is a plain name (builtin, tool or param) or a method.\n",
        );
        out
    }
}
