//! JSON for tool values, both ways.
//!
//! Two encodings:
//! * **plain**, for programs that read JSON (command tools' stdin): what
//!   Python's `json.dumps(v, default=str)` writes — tuples become arrays, dict
//!   keys become strings, sets become their `repr`;
//! * **tagged**, for the Python worker, which must hand values back exactly:
//!   tuples, sets and dicts whose keys are not all strings travel as
//!   one-key objects (`{"$tuple": […]}`, `{"$set": […]}`, `{"$dict": [[k, v], …]}`).
//!
//! The reader keeps every digit of big integers (serde_json would round them
//! through `f64`) and accepts Python's `NaN` / `Infinity`.

use lackpy_lang::Data;
use num_bigint::BigInt;

use crate::pyfmt;

/// Reading JSON text failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct JsonError {
    pub(crate) message: String,
    pub(crate) offset: usize,
}

impl std::fmt::Display for JsonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at byte {}", self.message, self.offset)
    }
}

/// Nesting deeper than this is refused rather than risking the stack.
const MAX_DEPTH: usize = 256;

/// Reads one JSON document (surrounding whitespace allowed).
pub(crate) fn parse(text: &str) -> Result<Data, JsonError> {
    parse_with(text, false)
}

/// Reads one document in the tagged encoding.
pub(crate) fn parse_tagged(text: &str) -> Result<Data, JsonError> {
    parse_with(text, true)
}

fn parse_with(text: &str, tagged: bool) -> Result<Data, JsonError> {
    let mut p = Parser {
        s: text.as_bytes(),
        text,
        pos: 0,
        tagged,
    };
    p.ws();
    let v = p.value(0)?;
    p.ws();
    if p.pos != p.s.len() {
        return Err(p.err("extra data after the value"));
    }
    Ok(v)
}

struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
    pos: usize,
    tagged: bool,
}

impl Parser<'_> {
    fn err(&self, message: &str) -> JsonError {
        JsonError {
            message: message.to_string(),
            offset: self.pos,
        }
    }

    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.s.get(self.pos) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, lit: &str) -> bool {
        if self.s[self.pos..].starts_with(lit.as_bytes()) {
            self.pos += lit.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Result<Data, JsonError> {
        if depth > MAX_DEPTH {
            return Err(self.err("nesting too deep"));
        }
        match self.s.get(self.pos) {
            None => Err(self.err("unexpected end of input")),
            Some(b'{') => self.object(depth),
            Some(b'[') => {
                self.pos += 1;
                Ok(Data::List(self.array_items(depth)?))
            }
            Some(b'"') => Ok(Data::Str(self.string()?)),
            Some(b't') if self.eat("true") => Ok(Data::Bool(true)),
            Some(b'f') if self.eat("false") => Ok(Data::Bool(false)),
            Some(b'n') if self.eat("null") => Ok(Data::None),
            Some(b'N') if self.eat("NaN") => Ok(Data::Float(f64::NAN)),
            Some(b'I') if self.eat("Infinity") => Ok(Data::Float(f64::INFINITY)),
            Some(b'-') if self.eat("-Infinity") => Ok(Data::Float(f64::NEG_INFINITY)),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.err("expected a value")),
        }
    }

    /// Items after an opening `[`, through the closing `]`.
    fn array_items(&mut self, depth: usize) -> Result<Vec<Data>, JsonError> {
        let mut items = Vec::new();
        self.ws();
        if self.eat("]") {
            return Ok(items);
        }
        loop {
            self.ws();
            items.push(self.value(depth + 1)?);
            self.ws();
            if self.eat(",") {
                continue;
            }
            if self.eat("]") {
                return Ok(items);
            }
            return Err(self.err("expected ',' or ']'"));
        }
    }

    fn object(&mut self, depth: usize) -> Result<Data, JsonError> {
        self.pos += 1;
        let mut pairs: Vec<(Data, Data)> = Vec::new();
        self.ws();
        if !self.eat("}") {
            loop {
                self.ws();
                if self.s.get(self.pos) != Some(&b'"') {
                    return Err(self.err("expected a string key"));
                }
                let key = self.string()?;
                self.ws();
                if !self.eat(":") {
                    return Err(self.err("expected ':'"));
                }
                self.ws();
                let value = self.value(depth + 1)?;
                // A repeated key keeps its first position and its last value, as Python's dict does.
                match pairs
                    .iter_mut()
                    .find(|(k, _)| matches!(k, Data::Str(s) if *s == key))
                {
                    Some(slot) => slot.1 = value,
                    None => pairs.push((Data::Str(key), value)),
                }
                self.ws();
                if self.eat(",") {
                    continue;
                }
                if self.eat("}") {
                    break;
                }
                return Err(self.err("expected ',' or '}'"));
            }
        }
        if self.tagged
            && pairs.len() == 1
            && let Some(v) = untag(&mut pairs)
        {
            return v.map_err(|m| self.err(m));
        }
        Ok(Data::Dict(pairs))
    }

    fn string(&mut self) -> Result<String, JsonError> {
        self.pos += 1; // opening quote
        let mut out = String::new();
        loop {
            let start = self.pos;
            while let Some(&b) = self.s.get(self.pos) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.pos += 1;
            }
            // Slicing at ASCII delimiters keeps UTF-8 boundaries intact.
            out.push_str(self.text.get(start..self.pos).unwrap_or_default());
            match self.s.get(self.pos) {
                None => return Err(self.err("unterminated string")),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    let Some(&esc) = self.s.get(self.pos) else {
                        return Err(self.err("unterminated string"));
                    };
                    self.pos += 1;
                    match esc {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => out.push(self.unicode_escape()?),
                        _ => return Err(self.err("invalid escape")),
                    }
                }
                Some(_) => return Err(self.err("control character in string")),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let digits = self
            .text
            .get(self.pos..self.pos + 4)
            .ok_or_else(|| self.err("invalid \\u escape"))?;
        let n = u32::from_str_radix(digits, 16).map_err(|_| self.err("invalid \\u escape"))?;
        self.pos += 4;
        Ok(n)
    }

    fn unicode_escape(&mut self) -> Result<char, JsonError> {
        let hi = self.hex4()?;
        if (0xd800..0xdc00).contains(&hi) && self.s[self.pos..].starts_with(b"\\u") {
            let save = self.pos;
            self.pos += 2;
            let lo = self.hex4()?;
            if (0xdc00..0xe000).contains(&lo) {
                let c = 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
                return Ok(char::from_u32(c).unwrap_or('\u{fffd}'));
            }
            self.pos = save;
        }
        // A lone surrogate cannot live in a Rust string.
        Ok(char::from_u32(hi).unwrap_or('\u{fffd}'))
    }

    fn number(&mut self) -> Result<Data, JsonError> {
        let start = self.pos;
        let mut is_float = false;
        if self.s.get(self.pos) == Some(&b'-') {
            self.pos += 1;
        }
        let digits = |p: &mut Self| {
            let from = p.pos;
            while p.s.get(p.pos).is_some_and(u8::is_ascii_digit) {
                p.pos += 1;
            }
            p.pos > from
        };
        if !digits(self) {
            return Err(self.err("invalid number"));
        }
        if self.s.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            is_float = true;
            if !digits(self) {
                return Err(self.err("invalid number"));
            }
        }
        if let Some(b'e' | b'E') = self.s.get(self.pos) {
            self.pos += 1;
            is_float = true;
            if let Some(b'+' | b'-') = self.s.get(self.pos) {
                self.pos += 1;
            }
            if !digits(self) {
                return Err(self.err("invalid number"));
            }
        }
        let text = self.text.get(start..self.pos).unwrap_or_default();
        if is_float {
            text.parse::<f64>()
                .map(Data::Float)
                .map_err(|_| self.err("invalid number"))
        } else {
            text.parse::<BigInt>()
                .map(Data::Int)
                .map_err(|_| self.err("invalid number"))
        }
    }
}

/// Decodes a one-key tagged object, if it is one.
fn untag(pairs: &mut Vec<(Data, Data)>) -> Option<Result<Data, &'static str>> {
    let (Data::Str(tag), _) = &pairs[0] else {
        return None;
    };
    let tag = match tag.as_str() {
        "$tuple" | "$set" | "$dict" => tag.clone(),
        _ => return None,
    };
    let Some((_, Data::List(items))) = pairs.pop() else {
        return Some(Err("a tagged value must hold a list"));
    };
    Some(match tag.as_str() {
        "$tuple" => Ok(Data::Tuple(items)),
        "$set" => Ok(Data::Set(items)),
        _ => items
            .into_iter()
            .map(|pair| match pair {
                Data::List(mut kv) if kv.len() == 2 => {
                    let v = kv.pop().unwrap_or(Data::None);
                    let k = kv.pop().unwrap_or(Data::None);
                    Ok((k, v))
                }
                _ => Err("a tagged dict must hold [key, value] pairs"),
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Data::Dict),
    })
}

/// Writes `v` in the plain encoding.
pub(crate) fn to_plain(v: &Data) -> String {
    let mut out = String::new();
    write(v, &mut out, false);
    out
}

/// Writes `v` in the tagged encoding.
pub(crate) fn to_tagged(v: &Data) -> String {
    let mut out = String::new();
    write(v, &mut out, true);
    out
}

fn write(v: &Data, out: &mut String, tagged: bool) {
    match v {
        Data::None => out.push_str("null"),
        Data::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Data::Int(i) => out.push_str(&i.to_string()),
        Data::Float(f) => write_float(*f, out),
        Data::Str(s) => write_str(s, out),
        Data::List(items) => write_array(items, out, tagged),
        Data::Tuple(items) if tagged => {
            out.push_str("{\"$tuple\":");
            write_array(items, out, tagged);
            out.push('}');
        }
        Data::Tuple(items) => write_array(items, out, tagged),
        Data::Set(items) if tagged => {
            out.push_str("{\"$set\":");
            write_array(items, out, tagged);
            out.push('}');
        }
        Data::Set(_) => write_str(&pyfmt::repr(v), out),
        Data::Dict(pairs) => {
            let plain_keys = pairs
                .iter()
                .all(|(k, _)| matches!(k, Data::Str(s) if !s.starts_with('$')));
            if tagged && !plain_keys {
                out.push_str("{\"$dict\":[");
                for (i, (k, v)) in pairs.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push('[');
                    write(k, out, tagged);
                    out.push(',');
                    write(v, out, tagged);
                    out.push(']');
                }
                out.push_str("]}");
                return;
            }
            out.push('{');
            for (i, (k, v)) in pairs.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_str(&key_text(k), out);
                out.push(':');
                write(v, out, tagged);
            }
            out.push('}');
        }
    }
}

/// A dict key as `json.dumps` turns it into a string.
fn key_text(k: &Data) -> String {
    match k {
        Data::Str(s) => s.clone(),
        Data::None => "null".to_string(),
        Data::Bool(b) => (if *b { "true" } else { "false" }).to_string(),
        Data::Int(i) => i.to_string(),
        Data::Float(f) if f.is_nan() => "NaN".to_string(),
        Data::Float(f) if f.is_infinite() => {
            (if *f > 0.0 { "Infinity" } else { "-Infinity" }).to_string()
        }
        Data::Float(f) => pyfmt::repr_float(*f),
        other => pyfmt::repr(other),
    }
}

fn write_float(f: f64, out: &mut String) {
    if f.is_nan() {
        out.push_str("NaN");
    } else if f.is_infinite() {
        out.push_str(if f > 0.0 { "Infinity" } else { "-Infinity" });
    } else {
        out.push_str(&pyfmt::repr_float(f));
    }
}

fn write_array(items: &[Data], out: &mut String, tagged: bool) {
    out.push('[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write(item, out, tagged);
    }
    out.push(']');
}

fn write_str(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: &str) -> Data {
        Data::Str(x.to_string())
    }

    #[test]
    fn big_ints_keep_every_digit() {
        let v = parse("[123456789012345678901234567890, -1, 2.5, 1e3]");
        let big: BigInt = "123456789012345678901234567890".parse().unwrap_or_default();
        assert_eq!(
            v,
            Ok(Data::List(vec![
                Data::Int(big),
                Data::Int((-1).into()),
                Data::Float(2.5),
                Data::Float(1000.0)
            ]))
        );
    }

    #[test]
    fn strings_and_escapes() {
        assert_eq!(parse(r#""a\n\u00e9\ud83d\ude00\"""#), Ok(s("a\né😀\"")));
        assert!(parse("\"unterminated").is_err());
        assert!(parse("[1,]").is_err());
        assert!(parse("1 2").is_err());
        assert!(parse("hello").is_err());
    }

    #[test]
    fn plain_writes_like_json_dumps_default_str() {
        let v = Data::Dict(vec![
            (
                Data::Int(1.into()),
                Data::Tuple(vec![Data::None, Data::Bool(true)]),
            ),
            (Data::Float(2.5), Data::Set(vec![Data::Int(1.into())])),
            (s("s"), Data::Float(1e16)),
        ]);
        assert_eq!(to_plain(&v), r#"{"1":[null,true],"2.5":"{1}","s":1e+16}"#);
    }

    #[test]
    fn tagged_round_trips_exactly() {
        let v = Data::List(vec![
            Data::Tuple(vec![Data::Int(1.into())]),
            Data::Set(vec![s("a")]),
            Data::Dict(vec![(Data::Int(2.into()), s("two"))]),
            Data::Dict(vec![(s("$tuple"), s("not a tag"))]),
            Data::Dict(vec![(s("plain"), Data::List(vec![]))]),
            Data::Float(f64::INFINITY),
        ]);
        assert_eq!(parse_tagged(&to_tagged(&v)), Ok(v));
    }
}
