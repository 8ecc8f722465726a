//! The names programs call MCP tools by.
//!
//! A server's tool name that is not a Python identifier (`get-sum`, `a.b`)
//! is exposed under an identifier form (`get_sum`, `a_b`); the call still
//! uses the server's name. A name that would clash with a keyword, an allowed
//! builtin or a forbidden name, or that two of the server's tools would
//! share, is skipped with a reason.

use std::collections::HashMap;

// The rule itself lives in lackpy-sources, shared with config tools.
pub use lackpy_sources::naming::{is_identifier, reserved_reason};

/// The identifier form of a server's tool name: every character that
/// cannot appear in an identifier becomes `_`, and a leading digit gets a
/// `_` in front.
pub fn identifier_form(name: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| {
            if c == '_' || c.is_ascii_alphanumeric() {
                c
            } else {
                '_'
            }
        })
        .collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

/// How one of a server's tools is exposed, or why it is not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Exposure {
    /// Callable under this identifier.
    Exposed(String),
    /// Skipped, with the reason.
    Skipped(String),
}

/// Assigns program names to a server's tool names, in order. Names that are
/// already identifiers keep them; converted names that land on a taken
/// name are ambiguous and skipped, as are duplicates.
pub fn assign_names(server_names: &[&str]) -> Vec<Exposure> {
    let mut native: HashMap<&str, usize> = HashMap::new();
    for n in server_names.iter().filter(|n| is_identifier(n)) {
        *native.entry(n).or_insert(0) += 1;
    }
    let forms: Vec<String> = server_names.iter().map(|n| identifier_form(n)).collect();
    let mut form_count: HashMap<&str, usize> = HashMap::new();
    for f in &forms {
        *form_count.entry(f.as_str()).or_insert(0) += 1;
    }
    server_names
        .iter()
        .zip(&forms)
        .map(|(name, form)| {
            if let Some(why) = reserved_reason(form) {
                return Exposure::Skipped(format!("'{form}' cannot be a tool name: {why}"));
            }
            if is_identifier(name) {
                if native.get(name).copied().unwrap_or(0) > 1 {
                    return Exposure::Skipped(format!("the server lists '{name}' more than once"));
                }
                return Exposure::Exposed(form.clone());
            }
            if native.contains_key(form.as_str())
                || form_count.get(form.as_str()).copied().unwrap_or(0) > 1
            {
                return Exposure::Skipped(format!(
                    "'{name}' becomes '{form}', which another of the server's tools also becomes"
                ));
            }
            Exposure::Exposed(form.clone())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_and_their_forms() {
        assert!(is_identifier("get_sum"));
        assert!(!is_identifier("get-sum"));
        assert!(!is_identifier("1x"));
        assert!(!is_identifier(""));
        assert_eq!(identifier_form("get-sum"), "get_sum");
        assert_eq!(identifier_form("a.b"), "a_b");
        assert_eq!(identifier_form("9lives"), "_9lives");
        assert_eq!(identifier_form("héllo"), "h_llo");
    }

    #[test]
    fn reserved_names_are_skipped() {
        let got = assign_names(&["print", "class", "open", "ok", "for-each"]);
        assert!(matches!(&got[0], Exposure::Skipped(r) if r.contains("builtin")));
        assert!(matches!(&got[1], Exposure::Skipped(r) if r.contains("keyword")));
        assert!(matches!(&got[2], Exposure::Skipped(r) if r.contains("forbidden")));
        assert_eq!(got[3], Exposure::Exposed("ok".into()));
        assert_eq!(got[4], Exposure::Exposed("for_each".into()));
    }

    #[test]
    fn ambiguous_forms_are_skipped_and_natives_kept() {
        let got = assign_names(&["get_sum", "get-sum", "a.b", "a-b", "x-y"]);
        assert_eq!(got[0], Exposure::Exposed("get_sum".into()));
        assert!(matches!(&got[1], Exposure::Skipped(_)));
        assert!(matches!(&got[2], Exposure::Skipped(_)));
        assert!(matches!(&got[3], Exposure::Skipped(_)));
        assert_eq!(got[4], Exposure::Exposed("x_y".into()));
    }
}
