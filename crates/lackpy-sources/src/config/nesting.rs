//! A cheap pre-scan of TOML text for how deep its tables nest, run before
//! the text reaches `toml`: thousands of nested tables take the parser
//! tens of seconds (and deep inline values recurse), while no real config
//! nests more than a handful of levels.
//!
//! Depth counts every level a value sits under: each part of a table
//! header (`[a.b.c]` is 3), each part of a dotted key (`x.y = 1` adds 2),
//! and each array or inline table around it. Strings and comments are
//! skipped, so brackets and dots inside them do not count.

/// The deepest nesting a config may have.
pub const MAX_NESTING: usize = 32;

/// Where the text first nests deeper than [`MAX_NESTING`]: `(line, column)`,
/// 1-based (the column in bytes).
pub(crate) fn too_deep(text: &str) -> Option<(usize, usize)> {
    let mut sc = Scan {
        s: text.as_bytes(),
        i: 0,
        line: 1,
        line_start: 0,
    };
    sc.run()
}

struct Scan<'a> {
    s: &'a [u8],
    i: usize,
    line: usize,
    line_start: usize,
}

/// One open array or inline table: its bracket, the depth of what is
/// directly inside it, and the value depth to restore when it closes.
struct Level {
    bracket: u8,
    depth: usize,
    outer: usize,
}

impl Scan<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn at(&self) -> (usize, usize) {
        (self.line, self.i - self.line_start + 1)
    }

    fn newline(&mut self) {
        self.i += 1;
        self.line += 1;
        self.line_start = self.i;
    }

    fn skip_comment(&mut self) {
        while let Some(c) = self.peek() {
            if c == b'\n' {
                break;
            }
            self.i += 1;
        }
    }

    /// Skips a string starting at its quote (basic, literal, multi-line).
    fn skip_string(&mut self) {
        let Some(q) = self.peek() else { return };
        let triple = self.s.get(self.i..self.i + 3) == Some(&[q, q, q][..]);
        self.i += if triple { 3 } else { 1 };
        while let Some(c) = self.peek() {
            if c == b'\\' && q == b'"' {
                self.i += 1;
                if self.peek() == Some(b'\n') {
                    self.newline();
                } else {
                    self.i += 1;
                }
                continue;
            }
            if c == b'\n' {
                if !triple {
                    return;
                }
                self.newline();
                continue;
            }
            if c == q {
                if !triple {
                    self.i += 1;
                    return;
                }
                if self.s.get(self.i..self.i + 3) == Some(&[q, q, q][..]) {
                    self.i += 3;
                    // Up to two more quotes may belong to the content.
                    while self.peek() == Some(q) {
                        self.i += 1;
                    }
                    return;
                }
            }
            self.i += 1;
        }
    }

    /// Reads a (dotted) key up to `end` or the end of the line; returns how
    /// many parts it has. Leaves `end` unread.
    fn key(&mut self, end: u8) -> usize {
        let mut parts = 1;
        while let Some(c) = self.peek() {
            match c {
                b'"' | b'\'' => self.skip_string(),
                b'.' => {
                    parts += 1;
                    self.i += 1;
                }
                b'\n' => break,
                c if c == end => break,
                _ => self.i += 1,
            }
        }
        parts
    }

    fn run(&mut self) -> Option<(usize, usize)> {
        let mut header = 0;
        let mut stack: Vec<Level> = Vec::new();
        // The depth of the value being read, and whether a key comes next.
        let mut depth = 0;
        let mut want_key = true;
        while let Some(c) = self.peek() {
            match c {
                b'\n' => {
                    self.newline();
                    if stack.is_empty() {
                        want_key = true;
                    }
                    continue;
                }
                b' ' | b'\t' | b'\r' => {
                    self.i += 1;
                    continue;
                }
                b'#' => {
                    self.skip_comment();
                    continue;
                }
                _ => {}
            }
            let in_table = stack.last().map(|l| l.bracket) == Some(b'{');
            if want_key && (stack.is_empty() || in_table) {
                if stack.is_empty() && c == b'[' {
                    let at = self.at();
                    self.i += 1;
                    if self.peek() == Some(b'[') {
                        self.i += 1;
                    }
                    header = self.key(b']');
                    if header > MAX_NESTING {
                        return Some(at);
                    }
                    while self.peek() == Some(b']') {
                        self.i += 1;
                    }
                    continue;
                }
                if in_table && c == b'}' {
                    // `{}`: nothing inside.
                    if let Some(l) = stack.pop() {
                        depth = l.outer;
                    }
                    want_key = false;
                    self.i += 1;
                    continue;
                }
                let at = self.at();
                let base = stack.last().map_or(header, |l| l.depth);
                depth = base + self.key(b'=');
                if depth > MAX_NESTING {
                    return Some(at);
                }
                if self.peek() == Some(b'=') {
                    self.i += 1;
                }
                want_key = false;
                continue;
            }
            match c {
                b'"' | b'\'' => self.skip_string(),
                b'[' | b'{' => {
                    let at = self.at();
                    let inner = depth + 1;
                    if inner > MAX_NESTING {
                        return Some(at);
                    }
                    stack.push(Level {
                        bracket: c,
                        depth: inner,
                        outer: depth,
                    });
                    depth = inner;
                    want_key = c == b'{';
                    self.i += 1;
                }
                b']' | b'}' => {
                    if let Some(l) = stack.pop() {
                        depth = l.outer;
                    }
                    self.i += 1;
                }
                b',' => {
                    match stack.last() {
                        Some(l) if l.bracket == b'{' => want_key = true,
                        Some(l) => depth = l.depth,
                        None => {}
                    }
                    self.i += 1;
                }
                _ => self.i += 1,
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deep(text: &str) -> Option<(usize, usize)> {
        too_deep(text)
    }

    #[test]
    fn real_configs_pass() {
        let text = r#"
# a comment with [[brackets]] and a.b.c.d.e.f
[profile]
default = "x"

[[tools]]
name = "t"
args = [{ name = "a", type = "str" }, { name = "b" }]
command = ["sh", "-c", "echo '[[[[[[' a.b.c.d.e.f.g"]

[mcp_servers.srv.tools.search.grade]
w = 1
"quoted.key.with.dots" = 2
x = """
[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[
"""
"#;
        assert_eq!(deep(text), None);
    }

    #[test]
    fn deep_headers_keys_and_values_are_found_with_their_line() {
        let header = format!("a = 1\n[{}]\n", vec!["t"; 40].join("."));
        assert_eq!(deep(&header), Some((2, 1)));
        let key = format!("{} = 1\n", vec!["k"; 40].join("."));
        assert_eq!(deep(&key), Some((1, 1)));
        let arrays = format!("x = {}1{}\n", "[".repeat(40), "]".repeat(40));
        assert!(deep(&arrays).is_some());
        let tables = format!("x = {}1{}\n", "{a = ".repeat(40), "}".repeat(40));
        assert!(deep(&tables).is_some());
        // Depth adds up across header, key and value.
        let mixed = format!(
            "[{}]\n{} = {}1{}\n",
            ["h"; 11].join("."),
            ["k"; 11].join("."),
            "[".repeat(11),
            "]".repeat(11)
        );
        assert!(deep(&mixed).is_some());
        // Many tables side by side are not deep.
        let wide = "[a]\nx = 1\n".repeat(1000);
        assert_eq!(deep(&wide), None);
        let nested_headers: String = (1..=3000)
            .map(|n| format!("[{}]\n", vec!["a"; n].join(".")))
            .collect();
        assert_eq!(deep(&nested_headers).map(|(l, _)| l), Some(33));
    }
}
