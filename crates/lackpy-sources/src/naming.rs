//! Which names a program can call a tool by: the one rule that config
//! tools, virtual tools and the MCP client all apply.
//!
//! A tool name must be an ASCII Python identifier, and must not be a
//! keyword (soft keywords included), an allowed builtin (the tool would
//! shadow it without a word) or a forbidden name (the validator refuses
//! every use of it, so the tool could never be called).

use lackpy_lang::{ALLOWED_BUILTINS, FORBIDDEN_NAMES};

/// Python 3.11's keywords, soft keywords included: a tool named `match`
/// could not be called as a plain name in every position.
pub const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield", "match", "case", "_",
];

/// Whether `name` is an ASCII Python identifier.
pub fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    match chars.next() {
        Some(c) if c == '_' || c.is_ascii_alphabetic() => {}
        _ => return false,
    }
    chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

/// Why an identifier cannot be a tool's name in a program, if it cannot.
pub fn reserved_reason(name: &str) -> Option<&'static str> {
    if KEYWORDS.contains(&name) {
        Some("it is a Python keyword")
    } else if ALLOWED_BUILTINS.contains(&name) {
        Some("it would shadow a builtin")
    } else if FORBIDDEN_NAMES.contains(&name) {
        Some("it is a forbidden name")
    } else {
        None
    }
}

/// Why `name` cannot be a tool's name, if it cannot: not an identifier,
/// or reserved.
pub fn tool_name_problem(name: &str) -> Option<String> {
    if !is_identifier(name) {
        return Some(format!(
            "tool name {name:?} is not a Python identifier (letters, digits and `_`, not starting with a digit), so no program could call it"
        ));
    }
    reserved_reason(name).map(|why| format!("tool name '{name}' cannot be used: {why}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_programs_cannot_call_are_refused_with_the_reason() {
        for bad in ["my-tool", "", "x y", "1x", "héllo"] {
            let why = tool_name_problem(bad).unwrap_or_default();
            assert!(why.contains("not a Python identifier"), "{bad}: {why}");
        }
        assert!(tool_name_problem("for").is_some_and(|w| w.contains("keyword")));
        assert!(tool_name_problem("match").is_some_and(|w| w.contains("keyword")));
        assert!(tool_name_problem("print").is_some_and(|w| w.contains("shadow a builtin")));
        assert!(tool_name_problem("len").is_some_and(|w| w.contains("shadow a builtin")));
        assert!(tool_name_problem("open").is_some_and(|w| w.contains("forbidden")));
        assert_eq!(tool_name_problem("read_file"), None);
        assert_eq!(tool_name_problem("_private2"), None);
    }
}
