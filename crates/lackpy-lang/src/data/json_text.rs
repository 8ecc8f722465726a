//! A value already written as JSON text.
//!
//! A run's `variables` are only ever read as JSON (runtime.md: values are
//! JSON the way `json.dumps(v, default=str)` writes them), so the
//! interpreter writes each one straight to text instead of building a
//! [`Data`] tree first: one buffer instead of an allocation per element.
//! [`JsonText::to_data`] gives the structured value to callers who want it.

use std::borrow::Cow;
use std::fmt;

use crate::data::Data;
use crate::data::json_out::JsonOut;

/// JSON text as Python's `json.dumps(v, default=str)` writes it (so
/// non-finite floats appear as `NaN`, `Infinity`, `-Infinity`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct JsonText(String);

impl JsonText {
    /// Wraps text the caller knows to be what [`Data::to_json`] would write.
    pub(crate) fn from_written(text: String) -> JsonText {
        JsonText(text)
    }

    /// A string as a JSON string literal, escaped as `json.dumps` escapes
    /// it (`"`, `\\` and control characters, every non-ASCII character as
    /// `\uXXXX`): for callers that write a JSON document around values.
    pub fn string(s: &str) -> JsonText {
        let mut out = JsonOut::new();
        out.string(s);
        JsonText(out.finish())
    }

    /// A float as `json.dumps` writes it (`0.1`, `1e-05`, `NaN`,
    /// `-Infinity`).
    pub fn float(f: f64) -> JsonText {
        let mut out = JsonOut::new();
        out.float(f);
        JsonText(out.finish())
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The text, owned.
    pub fn into_string(self) -> String {
        self.0
    }

    /// The string the text holds when it is a JSON string literal,
    /// borrowed from the text when the literal has no escapes (a long
    /// string output is not copied to be printed); `None` for any other
    /// value.
    pub fn as_string(&self) -> Option<Cow<'_, str>> {
        let inner = self.0.strip_prefix('"')?.strip_suffix('"')?;
        if !inner.contains('\\') {
            return Some(Cow::Borrowed(inner));
        }
        match self.to_data() {
            Data::Str(s) => Some(Cow::Owned(s)),
            _ => None,
        }
    }

    /// The value the text describes (tuples read back as lists, sets as
    /// their `str()` text, exactly as a JSON reader sees them).
    pub fn to_data(&self) -> Data {
        // The text was written by this crate's writer, which the reader
        // accepts in full (nesting depth included); Null only if that
        // invariant is ever broken.
        Data::from_json(&self.0).unwrap_or(Data::None)
    }
}

impl From<&Data> for JsonText {
    fn from(d: &Data) -> JsonText {
        JsonText(d.to_json())
    }
}

impl fmt::Display for JsonText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
