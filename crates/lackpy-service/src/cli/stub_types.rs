//! Whether a display type is a Python expression a `.pyi` can hold.
//!
//! Types from MCP schemas are rendered by lackpy and always are; types in
//! config are free text (`list of str` would break the file), so `lackpy
//! stubs` checks each against this small grammar and writes `Any` for one
//! that fails:
//!
//! ```text
//! type  := atom ('|' atom)*
//! atom  := name ('.' name)* ('[' item (',' item)* ']')?
//!        | '{' (str ':' type (',' str ':' type)*)? '}'
//!        | 'None' | '...'
//! item  := type | str | number
//! ```

/// Whether `text` parses as a type of the grammar above.
pub fn is_stub_type(text: &str) -> bool {
    let Some(tokens) = tokenize(text) else {
        return false;
    };
    let mut p = Parser { tokens, at: 0 };
    p.union(0) && p.at == p.tokens.len()
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Name,
    Str,
    Num,
    Ellipsis,
    Punct(char),
}

fn tokenize(text: &str) -> Option<Vec<Tok>> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        if c == ' ' {
            i += 1;
        } else if c == '_' || c.is_alphabetic() {
            while chars
                .get(i)
                .is_some_and(|c| *c == '_' || c.is_alphanumeric())
            {
                i += 1;
            }
            out.push(Tok::Name);
        } else if c.is_ascii_digit()
            || (c == '-' && chars.get(i + 1).is_some_and(char::is_ascii_digit))
        {
            i += 1;
            while chars
                .get(i)
                .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '+' | '-'))
            {
                i += 1;
            }
            out.push(Tok::Num);
        } else if c == '\'' || c == '"' {
            i += 1;
            loop {
                match chars.get(i) {
                    None | Some('\n') => return None,
                    Some('\\') => i += 2,
                    Some(q) if *q == c => break,
                    Some(_) => i += 1,
                }
            }
            i += 1;
            out.push(Tok::Str);
        } else if chars.get(i..i + 3) == Some(&['.', '.', '.'][..]) {
            i += 3;
            out.push(Tok::Ellipsis);
        } else if "[]{},:|.".contains(c) {
            i += 1;
            out.push(Tok::Punct(c));
        } else {
            return None;
        }
    }
    Some(out)
}

/// Nesting deeper than this is refused (the parser recurses).
const MAX_NESTING: usize = 32;

struct Parser {
    tokens: Vec<Tok>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.at)
    }

    fn eat(&mut self, t: &Tok) -> bool {
        if self.peek() == Some(t) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn union(&mut self, depth: usize) -> bool {
        if depth > MAX_NESTING || !self.atom(depth) {
            return false;
        }
        while self.eat(&Tok::Punct('|')) {
            if !self.atom(depth) {
                return false;
            }
        }
        true
    }

    fn atom(&mut self, depth: usize) -> bool {
        match self.peek() {
            Some(Tok::Ellipsis) => {
                self.at += 1;
                true
            }
            Some(Tok::Name) => {
                self.at += 1;
                while self.eat(&Tok::Punct('.')) {
                    if !self.eat(&Tok::Name) {
                        return false;
                    }
                }
                if self.eat(&Tok::Punct('[')) {
                    return self.list(depth, ']', |p, d| p.item(d));
                }
                true
            }
            Some(Tok::Punct('{')) => {
                self.at += 1;
                self.list(depth, '}', |p, d| {
                    p.eat(&Tok::Str) && p.eat(&Tok::Punct(':')) && p.union(d + 1)
                })
            }
            _ => false,
        }
    }

    /// Items separated by commas up to `close` (which may come at once
    /// only for a dict).
    fn list(&mut self, depth: usize, close: char, item: fn(&mut Parser, usize) -> bool) -> bool {
        if close == '}' && self.eat(&Tok::Punct('}')) {
            return true;
        }
        loop {
            if !item(self, depth) {
                return false;
            }
            if self.eat(&Tok::Punct(close)) {
                return true;
            }
            if !self.eat(&Tok::Punct(',')) {
                return false;
            }
        }
    }

    fn item(&mut self, depth: usize) -> bool {
        if self.eat(&Tok::Str) || self.eat(&Tok::Num) {
            return true;
        }
        self.union(depth + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_what_lackpy_renders() {
        for t in [
            "str",
            "list[str]",
            "dict[str, float]",
            "str | None",
            "Literal['c', 'f'] | None",
            "Literal[1, -2, 3.5, ...]",
            "{'time': str, 'zone\\'s': str}",
            "{}",
            "typing.Any",
            "Any",
        ] {
            assert!(is_stub_type(t), "{t}");
        }
    }

    #[test]
    fn refuses_free_text() {
        for t in [
            "list of str",
            "",
            "str |",
            "list[",
            "{'a' str}",
            "a; import os",
            "'unterminated",
            "f(x)",
        ] {
            assert!(!is_stub_type(t), "{t}");
        }
        assert!(!is_stub_type(&"list[".repeat(1000)));
    }
}
