//! Python's text forms, for error messages and `default=str` JSON: `repr()`
//! of strings, floats and values, and `type(v).__name__`.

use lackpy_lang::Data;

/// `type(v).__name__` for a value.
pub(crate) fn type_name(v: &Data) -> &'static str {
    match v {
        Data::None => "NoneType",
        Data::Bool(_) => "bool",
        Data::Int(_) => "int",
        Data::Float(_) => "float",
        Data::Str(_) => "str",
        Data::List(_) => "list",
        Data::Tuple(_) => "tuple",
        Data::Dict(_) => "dict",
        Data::Set(_) => "set",
    }
}

/// Python's `repr()` of a string: single quotes unless the text holds a
/// single quote and no double quote; backslash escapes for the quote, the
/// backslash and characters that are not printable.
pub(crate) fn repr_str(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if !is_printable(c) => {
                let n = u32::from(c);
                if n < 0x100 {
                    out.push_str(&format!("\\x{n:02x}"));
                } else if n < 0x10000 {
                    out.push_str(&format!("\\u{n:04x}"));
                } else {
                    out.push_str(&format!("\\U{n:08x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// An approximation of `str.isprintable()` for one character: control,
/// format, separator (other than the space), surrogate and private-use
/// characters are not printable.
fn is_printable(c: char) -> bool {
    let n = u32::from(c);
    !(n < 0x20
        || (0x7f..=0xa0).contains(&n)
        || n == 0xad
        || (0x600..=0x605).contains(&n)
        || n == 0x61c
        || n == 0x6dd
        || n == 0x70f
        || n == 0x1680
        || n == 0x180e
        || (0x2000..=0x200f).contains(&n)
        || (0x2028..=0x202f).contains(&n)
        || (0x205f..=0x2064).contains(&n)
        || (0x2066..=0x206f).contains(&n)
        || n == 0x3000
        || (0xe000..=0xf8ff).contains(&n)
        || n == 0xfeff
        || (0xfff9..=0xfffb).contains(&n)
        || n >= 0xf0000
        || (0xe0000..=0xe007f).contains(&n))
}

/// Python's `repr()` of a float: the shortest text that reads back, with an
/// exponent outside `1e-4 <= |x| < 1e16`, and `.0` on whole numbers.
pub(crate) fn repr_float(x: f64) -> String {
    if x.is_nan() {
        return "nan".to_string();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.to_string();
    }
    // Rust's `{:e}` gives the shortest round-trip digits: "1.5e-5", "-1e16".
    let sci = format!("{x:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let n = digits.len() as i32;
    let mut out = String::from(sign);
    if (-4..16).contains(&exp) {
        if exp >= 0 {
            let int_len = exp + 1;
            if n <= int_len {
                out.push_str(&digits);
                out.extend(std::iter::repeat_n('0', (int_len - n) as usize));
                out.push_str(".0");
            } else {
                out.push_str(&digits[..int_len as usize]);
                out.push('.');
                out.push_str(&digits[int_len as usize..]);
            }
        } else {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', (-exp - 1) as usize));
            out.push_str(&digits);
        }
    } else {
        out.push_str(&digits[..1]);
        if n > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        out.push(if exp < 0 { '-' } else { '+' });
        out.push_str(&format!("{:02}", exp.abs()));
    }
    out
}

/// Python's `repr()` of a value.
pub(crate) fn repr(v: &Data) -> String {
    let mut out = String::new();
    write_repr(v, &mut out);
    out
}

fn write_repr(v: &Data, out: &mut String) {
    fn seq(items: &[Data], out: &mut String) {
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            write_repr(item, out);
        }
    }
    match v {
        Data::None => out.push_str("None"),
        Data::Bool(true) => out.push_str("True"),
        Data::Bool(false) => out.push_str("False"),
        Data::Int(i) => out.push_str(&i.to_string()),
        Data::Float(f) => out.push_str(&repr_float(*f)),
        Data::Str(s) => out.push_str(&repr_str(s)),
        Data::List(items) => {
            out.push('[');
            seq(items, out);
            out.push(']');
        }
        Data::Tuple(items) => {
            out.push('(');
            seq(items, out);
            if items.len() == 1 {
                out.push(',');
            }
            out.push(')');
        }
        Data::Dict(pairs) => {
            out.push('{');
            for (i, (k, v)) in pairs.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_repr(k, out);
                out.push_str(": ");
                write_repr(v, out);
            }
            out.push('}');
        }
        Data::Set(items) if items.is_empty() => out.push_str("set()"),
        Data::Set(items) => {
            out.push('{');
            seq(items, out);
            out.push('}');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_read_like_python() {
        let cases = [
            (1.0, "1.0"),
            (0.1, "0.1"),
            (-2.5, "-2.5"),
            (1e16, "1e+16"),
            (1e15, "1000000000000000.0"),
            (123456789.125, "123456789.125"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1.5e-7, "1.5e-07"),
            (1.2345e20, "1.2345e+20"),
            (-0.0, "-0.0"),
            (f64::INFINITY, "inf"),
            (5e-324, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
        ];
        for (x, want) in cases {
            assert_eq!(repr_float(x), want, "{x:e}");
        }
    }

    #[test]
    fn strings_quote_like_python() {
        assert_eq!(repr_str("x.txt"), "'x.txt'");
        assert_eq!(repr_str("it's"), "\"it's\"");
        assert_eq!(repr_str("a'b\"c"), "'a\\'b\"c'");
        assert_eq!(repr_str("tab\there\n"), "'tab\\there\\n'");
        assert_eq!(repr_str("\u{7f}\u{1}"), "'\\x7f\\x01'");
        assert_eq!(repr_str("café 東京"), "'café 東京'");
    }

    #[test]
    fn values_repr_like_python() {
        let v = Data::List(vec![
            Data::None,
            Data::Bool(true),
            Data::Tuple(vec![Data::Int(1.into())]),
            Data::Set(vec![]),
            Data::Dict(vec![(Data::Str("k".into()), Data::Float(2.0))]),
        ]);
        assert_eq!(repr(&v), "[None, True, (1,), set(), {'k': 2.0}]");
    }
}
