//! The two JSON texts of a result, written by serde from one declaration of
//! its fields: Python's (`json.dumps(result, default=str)`: `", "` and
//! `": "` between items, every non-ASCII character escaped, `NaN` and
//! `Infinity` as Python writes them, a big int with every digit) and the
//! strict form (the same object, with `null` for the non-finite floats
//! strict JSON lacks).
//!
//! A program's values reach a result already written as JSON text by the
//! interpreter ([`JsonText`], [`Data::to_json`]); [`Raw`] splices such text
//! in unchanged, through serde_json's raw-value channel, so the value is
//! neither parsed nor copied into a tree on the way out.

use std::io;

use lackpy_lang::{Data, JsonText};
use serde::ser::{Serialize, SerializeStruct, Serializer};
use serde_json::ser::Formatter;

/// The struct name serde_json's serializers take as "this field is JSON
/// text to write as it is" (what `serde_json::value::RawValue` serialises
/// as). Only serde_json serializers understand it: [`Raw`] values are for
/// [`write_python`] and [`write_strict`].
const RAW_TOKEN: &str = "$serde_json::private::RawValue";

/// JSON text the interpreter wrote (Python's form), spliced in as it is.
#[derive(Debug, Clone, Copy)]
pub struct Raw<'a>(pub &'a str);

impl Serialize for Raw<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct(RAW_TOKEN, 1)?;
        st.serialize_field(RAW_TOKEN, self.0)?;
        st.end()
    }
}

/// Writes `value` as Python's `json.dumps` does, to `w` (streamed: no
/// copy of the text is built).
pub fn write_python<W: io::Write, T: Serialize + ?Sized>(w: W, value: &T) -> io::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(w, PythonFormatter);
    value.serialize(&mut ser).map_err(io::Error::from)
}

/// `value` as Python's JSON text.
pub fn to_python_string<T: Serialize + ?Sized>(value: &T) -> String {
    let mut out = Vec::new();
    // Writing to memory fails only if a Serialize impl does, and ours
    // never do; the text is ASCII (every other character escaped).
    let _ = write_python(&mut out, value);
    String::from_utf8(out).unwrap_or_default()
}

/// Writes `value` as strict JSON to `w`: Python's text with `null` for
/// each non-finite float.
pub fn write_strict<W: io::Write, T: Serialize + ?Sized>(w: W, value: &T) -> io::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(w, StrictFormatter);
    value.serialize(&mut ser).map_err(io::Error::from)
}

/// `value` as strict JSON text (see [`write_strict`]).
pub fn to_strict_string<T: Serialize + ?Sized>(value: &T) -> String {
    let mut out = Vec::new();
    // As in `to_python_string`: writing to memory fails only if a
    // Serialize impl does, and the text is ASCII.
    let _ = write_strict(&mut out, value);
    String::from_utf8(out).unwrap_or_default()
}

/// Python's JSON text as strict JSON text (see [`write_strict`]).
pub fn python_json_to_strict(text: String) -> String {
    if !may_hold_non_finite(&text) {
        return text;
    }
    let mut out = Vec::with_capacity(text.len());
    let _ = StrictFormatter.write_raw_fragment(&mut out, &text);
    String::from_utf8(out).unwrap_or_default()
}

/// Python's `json.dumps` layout.
struct PythonFormatter;

impl Formatter for PythonFormatter {
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if first { Ok(()) } else { w.write_all(b", ") }
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if first { Ok(()) } else { w.write_all(b", ") }
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }

    fn write_f64<W: ?Sized + io::Write>(&mut self, w: &mut W, value: f64) -> io::Result<()> {
        w.write_all(JsonText::float(value).as_str().as_bytes())
    }

    fn write_f32<W: ?Sized + io::Write>(&mut self, w: &mut W, value: f32) -> io::Result<()> {
        self.write_f64(w, f64::from(value))
    }

    /// `ensure_ascii`: every non-ASCII character as `\uXXXX` (a surrogate
    /// pair above U+FFFF). serde_json has already escaped `"`, `\` and the
    /// control characters, as Python does.
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let mut rest = fragment;
        while let Some(at) = rest.bytes().position(|b| !b.is_ascii()) {
            w.write_all(&rest.as_bytes()[..at])?;
            let tail = &rest[at..];
            let Some(c) = tail.chars().next() else { break };
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                write!(w, "\\u{unit:04x}")?;
            }
            rest = &tail[c.len_utf8()..];
        }
        w.write_all(rest.as_bytes())
    }
}

/// Python's layout, strict values: a raw fragment that may hold `NaN`,
/// `Infinity` or `-Infinity` is read back as [`Data`] (whose reader takes
/// them) and written with those as `null`.
struct StrictFormatter;

impl Formatter for StrictFormatter {
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        PythonFormatter.begin_array_value(w, first)
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        PythonFormatter.begin_object_key(w, first)
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        PythonFormatter.begin_object_value(w)
    }

    fn write_f64<W: ?Sized + io::Write>(&mut self, w: &mut W, value: f64) -> io::Result<()> {
        PythonFormatter.write_f64(w, value)
    }

    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        PythonFormatter.write_string_fragment(w, fragment)
    }

    fn write_raw_fragment<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        if !may_hold_non_finite(fragment) {
            return w.write_all(fragment.as_bytes());
        }
        match Data::from_json(fragment) {
            Ok(d) => write_strict_data(w, &d),
            Err(_) => w.write_all(fragment.as_bytes()),
        }
    }
}

/// Whether Python's JSON `text` may hold a non-finite float (it surely
/// does not without these letters).
fn may_hold_non_finite(text: &str) -> bool {
    text.contains("NaN") || text.contains("Infinity")
}

/// A value read back from JSON text, written strictly.
fn write_strict_data<W: ?Sized + io::Write>(w: &mut W, d: &Data) -> io::Result<()> {
    match d {
        Data::Float(f) if !f.is_finite() => w.write_all(b"null"),
        Data::List(items) | Data::Tuple(items) | Data::Set(items) => {
            w.write_all(b"[")?;
            for (n, item) in items.iter().enumerate() {
                PythonFormatter.begin_array_value(w, n == 0)?;
                write_strict_data(w, item)?;
            }
            w.write_all(b"]")
        }
        Data::Dict(items) => {
            w.write_all(b"{")?;
            for (n, (k, v)) in items.iter().enumerate() {
                PythonFormatter.begin_object_key(w, n == 0)?;
                write_strict_data(w, k)?;
                PythonFormatter.begin_object_value(w)?;
                write_strict_data(w, v)?;
            }
            w.write_all(b"}")
        }
        scalar => w.write_all(scalar.to_json().as_bytes()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Serialize)]
    struct Sample<'a> {
        text: &'a str,
        value: Raw<'a>,
        ms: f64,
        list: Vec<u32>,
    }

    #[test]
    fn python_layout_escapes_and_raw_values() {
        let s = Sample {
            text: "é☃𝄞\u{7f}\u{1}\"",
            value: Raw(r#"[NaN, "NaN", {"a": -Infinity}, 123456789012345678901234567890]"#),
            ms: 1e-5,
            list: vec![1, 2],
        };
        assert_eq!(
            to_python_string(&s),
            r#"{"text": "\u00e9\u2603\ud834\udd1e\u007f\u0001\"", "value": [NaN, "NaN", {"a": -Infinity}, 123456789012345678901234567890], "ms": 1e-05, "list": [1, 2]}"#
                .replace("\\u007f", "\u{7f}")
        );
        let mut strict = Vec::new();
        write_strict(&mut strict, &s).expect("writes");
        let v: serde_json::Value = serde_json::from_slice(&strict).expect("strict JSON");
        assert_eq!(v["value"][0], serde_json::Value::Null);
        assert_eq!(v["value"][1], "NaN");
        assert_eq!(v["value"][2]["a"], serde_json::Value::Null);
        assert_eq!(v["text"], "é☃𝄞\u{7f}\u{1}\"");
    }

    #[test]
    fn strict_text_keeps_strings_that_spell_nan() {
        assert_eq!(
            python_json_to_strict(r#"[NaN, -Infinity, Infinity, "NaN \" Infinity", 1]"#.into()),
            r#"[null, null, null, "NaN \" Infinity", 1]"#
        );
    }
}
