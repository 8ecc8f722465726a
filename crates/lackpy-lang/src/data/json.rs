//! JSON text for [`Data`], written exactly as Python's
//! `json.dumps(v, default=str)` writes it, and read back as Python's
//! `json.loads` reads it, without losing the digits of big ints; plus
//! Python's `repr` of a [`Data`] value. Every crate that writes or reads a
//! value as JSON text goes through these.
//!
//! Python's writer puts `", "` between items and `": "` after keys, escapes
//! every non-ASCII code point as `\uXXXX` (surrogate pairs above U+FFFF),
//! writes non-finite floats as `NaN`, `Infinity` and `-Infinity`, turns
//! `1`, `2.5`, `True` and `None` keys into `"1"`, `"2.5"`, `"true"` and
//! `"null"`, and writes values it cannot serialise (sets here) as their
//! `str()`. A key Python cannot serialise (a tuple) is written as its `str()`
//! here, where Python would raise.
//!
//! The reader takes what `json.loads` takes: numbers by JSON's grammar
//! (`01`, `1.` and `.5` are not numbers), `NaN`, `Infinity` and
//! `-Infinity`, and nesting up to [`MAX_JSON_DEPTH`] (CPython stops a
//! little short of 1000 levels, at its recursion limit).

use std::fmt::Write;

use num_bigint::BigInt;
use num_traits::ToPrimitive;

use crate::data::Data;
use crate::data::json_out::JsonOut;
use crate::text::format::float_repr;
use crate::types::str::repr::push_str_repr;

/// The deepest nesting of lists and objects [`Data::from_json`] reads (and
/// [`Data::from_json_value`]); CPython's `json.loads` stops near it too.
pub const MAX_JSON_DEPTH: usize = 1000;

impl Data {
    /// The JSON text `json.dumps(v, default=str)` gives for this value.
    pub fn to_json(&self) -> String {
        let mut out = JsonOut::new();
        write_json(self, &mut out);
        out.finish()
    }

    /// Parses JSON text. Ints keep every digit; `NaN`, `Infinity` and
    /// `-Infinity` are accepted as Python's `json.loads` accepts them.
    pub fn from_json(text: &str) -> Result<Data, String> {
        let mut p = Parser {
            s: text.as_bytes(),
            pos: 0,
            depth: 0,
        };
        p.ws();
        let v = p.value()?;
        p.ws();
        if p.pos != p.s.len() {
            return Err(format!("Extra data at position {}", p.pos));
        }
        Ok(v)
    }

    /// Python's `repr()` of the value (tuples as tuples, sets as sets).
    pub fn py_repr(&self) -> String {
        let mut out = String::new();
        write_repr(self, &mut out);
        out
    }

    /// The string `json.dumps` makes of this value as a dict key: the text
    /// itself for a `str`, the JSON text for an int, float, bool or `None`
    /// (`"1"`, `"2.5"`, `"NaN"`, `"true"`, `"null"`); `None` for the other
    /// types, which `json.dumps` refuses as keys.
    pub fn json_key(&self) -> Option<String> {
        match self {
            Data::Str(s) => Some(s.clone()),
            Data::Int(_) | Data::Float(_) | Data::Bool(_) | Data::None => Some(self.to_json()),
            _ => None,
        }
    }
}

fn write_json(d: &Data, out: &mut JsonOut) {
    match d {
        Data::None => out.lit("null"),
        Data::Bool(true) => out.lit("true"),
        Data::Bool(false) => out.lit("false"),
        Data::Int(i) => match i.to_i64() {
            Some(small) => out.int(small),
            None => out.big(i),
        },
        Data::Float(f) => out.float(*f),
        Data::Str(s) => out.string(s),
        Data::List(items) | Data::Tuple(items) => {
            out.lit("[");
            for (n, item) in items.iter().enumerate() {
                if n > 0 {
                    out.lit(", ");
                }
                write_json(item, out);
            }
            out.lit("]");
        }
        Data::Dict(items) => {
            out.lit("{");
            for (n, (k, v)) in items.iter().enumerate() {
                if n > 0 {
                    out.lit(", ");
                }
                write_json_key(k, out);
                out.lit(": ");
                write_json(v, out);
            }
            out.lit("}");
        }
        Data::Set(_) => out.string(&d.py_repr()),
    }
}

/// A dict key: JSON keys are strings, so scalars are written as the text
/// of their JSON value (`1` → `"1"`, `None` → `"null"`), anything else
/// as its repr (where Python would raise).
pub(crate) fn write_json_key(k: &Data, out: &mut JsonOut) {
    match k {
        Data::Str(s) => out.string(s),
        other => match other.json_key() {
            Some(text) => out.string(&text),
            None => out.string(&other.py_repr()),
        },
    }
}

fn write_repr(d: &Data, out: &mut String) {
    match d {
        Data::None => out.push_str("None"),
        Data::Bool(true) => out.push_str("True"),
        Data::Bool(false) => out.push_str("False"),
        Data::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Data::Float(f) => out.push_str(&float_repr(*f)),
        Data::Str(s) => push_str_repr(out, s, false),
        Data::List(items) => {
            out.push('[');
            write_items(items, out);
            out.push(']');
        }
        Data::Tuple(items) => {
            out.push('(');
            write_items(items, out);
            if items.len() == 1 {
                out.push(',');
            }
            out.push(')');
        }
        Data::Dict(items) => {
            out.push('{');
            for (n, (k, v)) in items.iter().enumerate() {
                if n > 0 {
                    out.push_str(", ");
                }
                write_repr(k, out);
                out.push_str(": ");
                write_repr(v, out);
            }
            out.push('}');
        }
        Data::Set(items) => {
            if items.is_empty() {
                out.push_str("set()");
            } else {
                out.push('{');
                write_items(items, out);
                out.push('}');
            }
        }
    }
}

fn write_items(items: &[Data], out: &mut String) {
    for (n, item) in items.iter().enumerate() {
        if n > 0 {
            out.push_str(", ");
        }
        write_repr(item, out);
    }
}

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
    depth: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.s.get(self.pos) {
            self.pos += 1;
        }
    }

    fn err<T>(&self, what: &str) -> Result<T, String> {
        Err(format!("{what} at position {}", self.pos))
    }

    fn eat(&mut self, lit: &str) -> bool {
        if self.s[self.pos.min(self.s.len())..].starts_with(lit.as_bytes()) {
            self.pos += lit.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self) -> Result<Data, String> {
        match self.s.get(self.pos) {
            None => self.err("Expecting value"),
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => Ok(Data::Str(self.string()?)),
            Some(b't') if self.eat("true") => Ok(Data::Bool(true)),
            Some(b'f') if self.eat("false") => Ok(Data::Bool(false)),
            Some(b'n') if self.eat("null") => Ok(Data::None),
            Some(b'N') if self.eat("NaN") => Ok(Data::Float(f64::NAN)),
            Some(b'I') if self.eat("Infinity") => Ok(Data::Float(f64::INFINITY)),
            Some(b'-') if self.eat("-Infinity") => Ok(Data::Float(f64::NEG_INFINITY)),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => self.err("Expecting value"),
        }
    }

    fn nest(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_JSON_DEPTH {
            self.err("Nesting too deep")
        } else {
            Ok(())
        }
    }

    fn object(&mut self) -> Result<Data, String> {
        self.nest()?;
        self.pos += 1;
        let mut items = Vec::new();
        self.ws();
        if self.eat("}") {
            self.depth -= 1;
            return Ok(Data::Dict(items));
        }
        loop {
            self.ws();
            if self.s.get(self.pos) != Some(&b'"') {
                return self.err("Expecting property name enclosed in double quotes");
            }
            let k = self.string()?;
            self.ws();
            if !self.eat(":") {
                return self.err("Expecting ':' delimiter");
            }
            self.ws();
            let v = self.value()?;
            // As Python's dict: a repeated key keeps its first position and
            // takes the last value.
            match items
                .iter_mut()
                .find(|(key, _)| matches!(key, Data::Str(s) if *s == k))
            {
                Some(slot) => slot.1 = v,
                None => items.push((Data::Str(k), v)),
            }
            self.ws();
            if self.eat(",") {
                continue;
            }
            if self.eat("}") {
                break;
            }
            return self.err("Expecting ',' delimiter");
        }
        self.depth -= 1;
        Ok(Data::Dict(items))
    }

    fn array(&mut self) -> Result<Data, String> {
        self.nest()?;
        self.pos += 1;
        let mut items = Vec::new();
        self.ws();
        if self.eat("]") {
            self.depth -= 1;
            return Ok(Data::List(items));
        }
        loop {
            self.ws();
            items.push(self.value()?);
            self.ws();
            if self.eat(",") {
                continue;
            }
            if self.eat("]") {
                break;
            }
            return self.err("Expecting ',' delimiter");
        }
        self.depth -= 1;
        Ok(Data::List(items))
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let h = self
            .s
            .get(self.pos..self.pos + 4)
            .and_then(|h| std::str::from_utf8(h).ok());
        match h.and_then(|h| u32::from_str_radix(h, 16).ok()) {
            Some(v) => {
                self.pos += 4;
                Ok(v)
            }
            None => self.err("Invalid \\uXXXX escape"),
        }
    }

    fn string(&mut self) -> Result<String, String> {
        self.pos += 1;
        let mut out = String::new();
        loop {
            let start = self.pos;
            while let Some(&b) = self.s.get(self.pos) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.pos += 1;
            }
            match std::str::from_utf8(&self.s[start..self.pos]) {
                Ok(chunk) => out.push_str(chunk),
                Err(_) => return self.err("Invalid UTF-8"),
            }
            match self.s.get(self.pos) {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    let Some(&e) = self.s.get(self.pos) else {
                        return self.err("Unterminated string");
                    };
                    self.pos += 1;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let mut cp = self.hex4()?;
                            if (0xd800..0xdc00).contains(&cp)
                                && self.s.get(self.pos..self.pos + 2) == Some(b"\\u")
                            {
                                let save = self.pos;
                                self.pos += 2;
                                let lo = self.hex4()?;
                                if (0xdc00..0xe000).contains(&lo) {
                                    cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                                } else {
                                    self.pos = save;
                                }
                            }
                            out.push(char::from_u32(cp).unwrap_or('\u{fffd}'));
                        }
                        _ => return self.err("Invalid \\escape"),
                    }
                }
                Some(_) => return self.err("Invalid control character"),
                None => return self.err("Unterminated string"),
            }
        }
    }

    /// A number by JSON's grammar, `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`,
    /// as long as it goes: what follows (the `.` of `1.`, the second digit
    /// of `01`) is left for the caller to refuse, as `json.loads` does.
    fn number(&mut self) -> Result<Data, String> {
        let start = self.pos;
        if self.s.get(self.pos) == Some(&b'-') {
            self.pos += 1;
        }
        match self.s.get(self.pos) {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => {
                self.pos = start;
                return self.err("Expecting value");
            }
        }
        let mut is_float = false;
        if self.s.get(self.pos) == Some(&b'.')
            && self.s.get(self.pos + 1).is_some_and(u8::is_ascii_digit)
        {
            is_float = true;
            self.pos += 1;
            self.digits();
        }
        if let Some(b'e' | b'E') = self.s.get(self.pos) {
            let sign = usize::from(matches!(self.s.get(self.pos + 1), Some(b'+' | b'-')));
            if self
                .s
                .get(self.pos + 1 + sign)
                .is_some_and(u8::is_ascii_digit)
            {
                is_float = true;
                self.pos += 1 + sign;
                self.digits();
            }
        }
        let text = std::str::from_utf8(&self.s[start..self.pos]).map_err(|e| e.to_string())?;
        if is_float {
            text.parse::<f64>()
                .map(Data::Float)
                .map_err(|_| format!("Invalid number at position {start}"))
        } else {
            BigInt::parse_bytes(text.as_bytes(), 10)
                .map(Data::Int)
                .ok_or_else(|| format!("Invalid number at position {start}"))
        }
    }

    fn digits(&mut self) {
        while self.s.get(self.pos).is_some_and(u8::is_ascii_digit) {
            self.pos += 1;
        }
    }
}
