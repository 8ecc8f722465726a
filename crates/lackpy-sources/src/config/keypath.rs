//! [`KeyPath`]: a key of the config file as parts, and where it is written.
//!
//! A dotted string cannot be split back (`[profiles."a.b"]`), so checks that
//! run after the file is read name keys as parts and find them in the
//! parsed document, which keeps every key's span.

use std::fmt;

use toml::Spanned;
use toml::de::{DeArray, DeTable, DeValue};

/// One step of a key path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Part {
    /// A table key.
    Key(String),
    /// An array index.
    Index(usize),
}

/// A key path, shown as `tools[0].grade_w`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct KeyPath(pub(super) Vec<Part>);

impl KeyPath {
    /// The path of these table keys.
    pub(super) fn keys(keys: &[&str]) -> KeyPath {
        KeyPath(keys.iter().map(|k| Part::Key((*k).to_string())).collect())
    }

    /// This path with one more key.
    pub(super) fn key(mut self, key: &str) -> KeyPath {
        self.0.push(Part::Key(key.to_string()));
        self
    }

    /// This path with one more index.
    pub(super) fn index(mut self, index: usize) -> KeyPath {
        self.0.push(Part::Index(index));
        self
    }

    /// Whether the path is exactly these table keys; `"*"` matches any key.
    pub(super) fn matches(&self, pattern: &[&str]) -> bool {
        self.0.len() == pattern.len()
            && self.0.iter().zip(pattern).all(|(part, want)| match part {
                Part::Key(k) => *want == "*" || k == want,
                Part::Index(_) => false,
            })
    }

    /// Whether this path's parent is shown as `parent` (a key path as
    /// `serde_path_to_error` writes it).
    pub(super) fn parent_is(&self, parent: &str) -> bool {
        match self.0.split_last() {
            Some((_, rest)) => KeyPath(rest.to_vec()).to_string() == parent,
            None => false,
        }
    }

    /// The path serde_ignored reports for an unknown key.
    pub(super) fn from_ignored(path: &serde_ignored::Path<'_>) -> KeyPath {
        use serde_ignored::Path as P;
        match path {
            P::Root => KeyPath::default(),
            P::Seq { parent, index } => KeyPath::from_ignored(parent).index(*index),
            P::Map { parent, key } => KeyPath::from_ignored(parent).key(key),
            P::Some { parent } | P::NewtypeStruct { parent } | P::NewtypeVariant { parent } => {
                KeyPath::from_ignored(parent)
            }
        }
    }

    /// Where the path is written in `text`: the byte offset of its last key
    /// (or array item). `None` when the text does not parse or lacks it.
    pub(super) fn offset_in(&self, text: &str) -> Option<usize> {
        let doc = DeTable::parse(text).ok()?;
        let mut table: Option<&DeTable<'_>> = Some(doc.get_ref());
        let mut array: Option<&DeArray<'_>> = None;
        let mut at = None;
        for part in &self.0 {
            let value: &Spanned<DeValue<'_>> = match part {
                Part::Key(k) => {
                    let (key, v) = table?.get_key_value(k.as_str())?;
                    at = Some(key.span().start);
                    v
                }
                Part::Index(i) => {
                    let v = array?.get(*i)?;
                    at = Some(v.span().start);
                    v
                }
            };
            (table, array) = match value.get_ref() {
                DeValue::Table(t) => (Some(t), None),
                DeValue::Array(a) => (None, Some(a)),
                _ => (None, None),
            };
        }
        at
    }
}

impl fmt::Display for KeyPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, part) in self.0.iter().enumerate() {
            match part {
                Part::Key(k) if i == 0 => f.write_str(k)?,
                Part::Key(k) => write!(f, ".{k}")?,
                Part::Index(n) => write!(f, "[{n}]")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line_of(text: &str, path: &KeyPath) -> Option<usize> {
        let at = path.offset_in(text)?;
        Some(1 + text[..at].matches('\n').count())
    }

    #[test]
    fn shown_like_serde_path_to_error() {
        let p = KeyPath::keys(&["tools"]).index(0).key("grade_w");
        assert_eq!(p.to_string(), "tools[0].grade_w");
    }

    #[test]
    fn finds_keys_in_headers_inline_tables_dotted_keys_and_arrays() {
        let text = "[policy]\nauto_approve = [\"a\"]\n[profiles.\"x.y\"]\npolicy = { max_grade = { w = 1, d = 0 } }\n[profiles.z]\npolicy.approve_tools = [\"p\",\n \"q\"]\n";
        let cases = [
            (KeyPath::keys(&["policy", "auto_approve"]), Some(2)),
            (
                KeyPath::keys(&["profiles", "x.y", "policy", "max_grade", "w"]),
                Some(4),
            ),
            (
                KeyPath::keys(&["profiles", "z", "policy", "approve_tools"]).index(1),
                Some(7),
            ),
            (KeyPath::keys(&["profiles", "nope"]), None),
            (KeyPath::keys(&["policy", "auto_approve", "x"]), None),
        ];
        for (path, want) in cases {
            assert_eq!(line_of(text, &path), want, "{path}");
        }
    }

    #[test]
    fn matches_keys_with_wildcards() {
        let p = KeyPath::keys(&["policy", "provenance", "mcp", "auto_approve"]);
        assert!(p.matches(&["policy", "provenance", "*", "auto_approve"]));
        assert!(!p.matches(&["policy", "provenance", "*"]));
        assert!(!KeyPath::keys(&["a"]).index(0).matches(&["a", "*"]));
    }
}
