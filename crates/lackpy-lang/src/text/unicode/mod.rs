//! Unicode character predicates and case mappings as CPython 3.11 has them.
//!
//! The one home of these facts in the crate: the tokenizer, `repr()` and
//! the string methods all ask here. The tables come from CPython itself
//! (`cargo xtask codegen`).

#[rustfmt::skip]
#[allow(clippy::all)]
mod tables;

use tables as t;

fn in_table(table: &[(u32, u32)], c: char) -> bool {
    let cp = c as u32;
    table
        .binary_search_by(|&(lo, hi)| {
            if hi < cp {
                std::cmp::Ordering::Less
            } else if lo > cp {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// `str.isspace()` for one character (also the default `split`/`strip` set).
#[inline]
pub(crate) fn is_space(c: char) -> bool {
    if c.is_ascii() {
        return matches!(
            c,
            ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c' | '\x1c'..='\x1f'
        );
    }
    c.is_whitespace()
}

/// Whitespace that `int()` and `float()` strip from their text: Unicode
/// whitespace except the ASCII separators U+001C..U+001F, which CPython's
/// number parsers (C `isspace` below U+0080) keep.
#[inline]
pub(crate) fn is_number_space(c: char) -> bool {
    is_space(c) && !matches!(c, '\x1c'..='\x1f')
}

/// Whether `repr()` shows the character as is.
#[inline]
pub(crate) fn is_printable(c: char) -> bool {
    if c.is_ascii() {
        return (' '..='~').contains(&c);
    }
    in_table(t::PRINTABLE, c)
}

/// `str.isalpha()` for one character.
pub(crate) fn is_alpha(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphabetic();
    }
    in_table(t::ALPHA, c)
}

/// `str.isdecimal()` for one character.
pub(crate) fn is_decimal(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_digit();
    }
    in_table(t::DECIMAL, c)
}

/// `str.isdigit()` for one character.
pub(crate) fn is_digit(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_digit();
    }
    in_table(t::DIGIT, c)
}

/// `str.isnumeric()` for one character.
pub(crate) fn is_numeric(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_digit();
    }
    in_table(t::NUMERIC, c)
}

/// `str.isalnum()` for one character.
pub(crate) fn is_alnum(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric();
    }
    in_table(t::ALNUM, c)
}

/// Lowercase property.
pub(crate) fn is_lower(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_lowercase();
    }
    in_table(t::LOWER, c)
}

/// Uppercase property.
pub(crate) fn is_upper(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_uppercase();
    }
    in_table(t::UPPER, c)
}

/// Titlecase letter (category Lt).
pub(crate) fn is_title(c: char) -> bool {
    !c.is_ascii() && in_table(t::TITLE, c)
}

/// Cased property.
pub(crate) fn is_cased(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphabetic();
    }
    in_table(t::CASED, c)
}

/// May start an identifier.
pub(crate) fn is_id_start(c: char) -> bool {
    if c.is_ascii() {
        return c == '_' || c.is_ascii_alphabetic();
    }
    in_table(t::ID_START, c)
}

/// May continue an identifier.
pub(crate) fn is_id_continue(c: char) -> bool {
    if c.is_ascii() {
        return c == '_' || c.is_ascii_alphanumeric();
    }
    in_table(t::ID_CONTINUE, c)
}

fn lookup_map(table: &'static [(u32, &'static str)], c: char) -> Option<&'static str> {
    let cp = c as u32;
    table
        .binary_search_by_key(&cp, |&(k, _)| k)
        .ok()
        .and_then(|i| table.get(i))
        .map(|e| e.1)
}

/// Appends the full titlecase mapping of `c`.
pub(crate) fn push_title(out: &mut String, c: char) {
    match lookup_map(t::TITLECASE, c) {
        Some(s) => out.push_str(s),
        None => out.extend(c.to_uppercase()),
    }
}

/// Appends the full case folding of `c`.
pub(crate) fn push_fold(out: &mut String, c: char) {
    match lookup_map(t::CASEFOLD, c) {
        Some(s) => out.push_str(s),
        None => out.extend(c.to_lowercase()),
    }
}
