//! Turning a model's answer into a program before it is validated: the
//! code is taken out of the chatter around it, `import` lines go, and the
//! file reads a model writes out of habit become the `read_file` tool:
//!
//! * a fenced block (```` ``` ```` or `~~~`) is unwrapped; without one,
//!   leading sentences are dropped (lines of words ending in `:`, `.`,
//!   `!` or `?` that are no Python on their own, when the rest then
//!   parses), and so is a closing paragraph of them;
//! * `import …` / `from … import …` statements are dropped;
//! * `with open(p) as f:` whose body only reads `f` (`x = f.read()`,
//!   `x = f.readlines()`, `for line in f:`) becomes that body reading
//!   `read_file(p)` (`.splitlines()` for lines);
//! * `open(p).read()` → `read_file(p)`, `open(p).readlines()` →
//!   `read_file(p).splitlines()`.
//!
//! Every rewrite works on the code only (never inside a string or a
//! comment, see `scan.rs`) and is kept only when the program parses
//! after it as well as before; the validator judges the result.

use std::sync::LazyLock;

use regex::Regex;

use super::scan::{Region, Span, scan, statement_lines};

/// How many leading or trailing lines may be taken for chatter.
const MAX_CHATTER_LINES: usize = 12;

/// The program in a model's answer.
pub fn cleanup(answer: &str) -> String {
    let code = extract_code(answer);
    let code = keep_if_parses(&code, drop_imports(&code));
    let code = keep_if_parses(&code, rewrite_with_open(&code));
    let code = keep_if_parses(&code, rewrite_open_read(&code));
    without_blank_edges(&code)
}

/// `text` without blank lines before its first line of code, nor trailing
/// whitespace (the first line keeps its indentation).
fn without_blank_edges(text: &str) -> String {
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        if !line.trim().is_empty() {
            break;
        }
        start += line.len();
    }
    text[start..].trim_end().to_string()
}

fn parses(text: &str) -> bool {
    lackpy_lang::parse(text).is_ok()
}

/// `after`, unless it broke a program that parsed before.
fn keep_if_parses(before: &str, after: String) -> String {
    if after != before && parses(before) && !parses(&after) {
        before.to_string()
    } else {
        after
    }
}

/// The code of an answer: its first fenced block, or the answer without
/// the prose before and after it.
fn extract_code(answer: &str) -> String {
    let text = answer.trim();
    if let Some(block) = fenced_block(text) {
        return block;
    }
    let lines: Vec<&str> = text.lines().collect();
    if parses(text) {
        return text.to_string();
    }
    // Leading prose: the fewest lines that are no Python alone.
    let mut start = 0;
    for k in 1..=lines.len().min(MAX_CHATTER_LINES) {
        if !is_prose(lines[k - 1]) {
            break;
        }
        if parses(&lines[k..].join("\n")) {
            start = k;
            break;
        }
    }
    if start == 0 {
        start = lines
            .iter()
            .take(MAX_CHATTER_LINES)
            .take_while(|l| is_preamble(l))
            .count();
    }
    let rest = &lines[start..];
    // A closing paragraph of prose, after the last blank line.
    if let Some(blank) = rest.iter().rposition(|l| l.trim().is_empty()) {
        let tail = &rest[blank + 1..];
        if !tail.is_empty()
            && tail.len() <= MAX_CHATTER_LINES
            && tail.iter().all(|l| is_prose(l))
            && parses(&rest[..blank].join("\n"))
        {
            return rest[..blank].join("\n").trim().to_string();
        }
    }
    rest.join("\n").trim().to_string()
}

/// A sentence, not code: two words or more, ending as sentences end, and
/// no Python statement of its own. (A broken line of code stays, for the
/// validator to report, even when the lines after it parse.)
fn is_prose(line: &str) -> bool {
    let t = line.trim();
    let words = t
        .split_whitespace()
        .filter(|w| w.chars().any(char::is_alphabetic))
        .count();
    words >= 2 && t.ends_with([':', '.', '!', '?']) && !parses(t)
}

/// A line that announces code ("Here is the program:").
fn is_preamble(line: &str) -> bool {
    const MARKERS: [&str; 6] = [
        "here's",
        "here is",
        "the following",
        "the solution",
        "sure",
        "certainly",
    ];
    let lower = line.to_lowercase();
    MARKERS.iter().any(|m| lower.contains(m))
}

/// The body of the first fenced block (up to its closing fence, or the end).
fn fenced_block(text: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let (open, fence) = lines.iter().enumerate().find_map(|(i, l)| {
        let t = l.trim_start();
        ["```", "~~~"]
            .into_iter()
            .find(|f| t.starts_with(f))
            .map(|f| (i, f))
    })?;
    let body: Vec<&str> = lines[open + 1..]
        .iter()
        .take_while(|l| !l.trim_start().starts_with(fence))
        .copied()
        .collect();
    Some(body.join("\n").trim_matches('\n').to_string())
}

/// The source with its lexical map.
struct Source<'a> {
    text: &'a str,
    spans: Vec<Span>,
}

impl<'a> Source<'a> {
    fn new(text: &'a str) -> Source<'a> {
        Source {
            text,
            spans: scan(text),
        }
    }

    fn in_code(&self, i: usize) -> bool {
        self.spans
            .iter()
            .find(|s| s.start <= i && i < s.end)
            .is_some_and(|s| s.region == Region::Code)
    }

    /// The `)` that closes the `(` at `open`.
    fn close_of(&self, open: usize) -> Option<usize> {
        let b = self.text.as_bytes();
        let mut depth = 0usize;
        for s in self.spans.iter().filter(|s| s.end > open) {
            if s.region != Region::Code {
                continue;
            }
            let from = s.start.max(open);
            for (i, &c) in (from..s.end).zip(&b[from..s.end]) {
                match c {
                    b'(' | b'[' | b'{' => depth += 1,
                    b')' | b']' | b'}' => {
                        depth = depth.checked_sub(1)?;
                        if depth == 0 {
                            return (c == b')').then_some(i);
                        }
                    }
                    _ => {}
                }
            }
        }
        None
    }

    /// The comma-separated arguments between `start` and `end`, split at
    /// top-level commas, trimmed.
    fn args(&self, start: usize, end: usize) -> Vec<&'a str> {
        let b = self.text.as_bytes();
        let mut out = Vec::new();
        let mut depth = 0usize;
        let mut from = start;
        for (i, &c) in (start..end).zip(&b[start..end]) {
            if !self.in_code(i) {
                continue;
            }
            match c {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth = depth.saturating_sub(1),
                b',' if depth == 0 => {
                    out.push(self.text[from..i].trim());
                    from = i + 1;
                }
                _ => {}
            }
        }
        let last = self.text[from..end].trim();
        if !last.is_empty() {
            out.push(last);
        }
        out
    }
}

/// `name=value`: a keyword argument (not `==`, `<=`, `>=`, `!=`).
fn is_keyword_arg(arg: &str) -> bool {
    static KEYWORD: LazyLock<Regex> = LazyLock::new(|| {
        #[allow(clippy::unwrap_used)] // a fixed expression that compiles
        Regex::new(r"^\w+\s*=[^=]").unwrap()
    });
    KEYWORD.is_match(arg)
}

/// The one path argument of an `open(…)` call, when it is plain enough to
/// hand to `read_file`.
fn path_arg<'a>(src: &Source<'a>, open_paren: usize, close: usize) -> Option<&'a str> {
    let args = src.args(open_paren + 1, close);
    let first = *args.first()?;
    if args.iter().any(|a| is_keyword_arg(a)) || first.starts_with('*') {
        return None;
    }
    Some(first)
}

/// Drops `import` and `from … import` statements.
fn drop_imports(code: &str) -> String {
    static IMPORT: LazyLock<Regex> = LazyLock::new(|| {
        #[allow(clippy::unwrap_used)] // a fixed expression that compiles
        Regex::new(r"^[ \t]*(?:import[ \t]+\S|from[ \t]+\S+[ \t]+import\b)").unwrap()
    });
    let spans = scan(code);
    let starts = statement_lines(code, &spans);
    let mut out = String::with_capacity(code.len());
    for (n, &start) in starts.iter().enumerate() {
        let end = starts.get(n + 1).copied().unwrap_or(code.len());
        let statement = &code[start..end];
        if !IMPORT.is_match(statement) {
            out.push_str(statement);
        }
    }
    out
}

/// `open(p).read()` → `read_file(p)`; `.readlines()` → `read_file(p).splitlines()`.
fn rewrite_open_read(code: &str) -> String {
    static CALL: LazyLock<Regex> = LazyLock::new(|| {
        #[allow(clippy::unwrap_used)] // a fixed expression that compiles
        Regex::new(r"\bopen\s*\(").unwrap()
    });
    static READ: LazyLock<Regex> = LazyLock::new(|| {
        #[allow(clippy::unwrap_used)] // a fixed expression that compiles
        Regex::new(r"^\s*\.\s*(readlines|read)\s*\(\s*\)").unwrap()
    });
    let mut text = code.to_string();
    // Each pass rewrites one call; a program holds few.
    for _ in 0..64 {
        let src = Source::new(&text);
        let found = CALL.find_iter(&text).find_map(|m| {
            let before = text[..m.start()].chars().next_back();
            if !src.in_code(m.start())
                || before.is_some_and(|c| c == '.' || c.is_alphanumeric() || c == '_')
            {
                return None;
            }
            let paren = m.end() - 1;
            let close = src.close_of(paren)?;
            let read = READ.captures(&text[close + 1..])?;
            let path = path_arg(&src, paren, close)?;
            let lines = read.get(1).is_some_and(|k| k.as_str() == "readlines");
            let whole = read.get(0).map_or(0, |w| w.end());
            Some((m.start(), close + 1 + whole, path.to_string(), lines))
        });
        let Some((start, end, path, lines)) = found else {
            break;
        };
        let call = if lines {
            format!("read_file({path}).splitlines()")
        } else {
            format!("read_file({path})")
        };
        text.replace_range(start..end, &call);
    }
    text
}

/// `with open(p) as f:` blocks that only read `f`, as reads of `read_file(p)`.
fn rewrite_with_open(code: &str) -> String {
    let mut text = code.to_string();
    for _ in 0..64 {
        match rewrite_first_with_open(&text) {
            Some(next) => text = next,
            None => break,
        }
    }
    text
}

fn indent_of(line: &str) -> &str {
    &line[..line.len() - line.trim_start().len()]
}

/// Rewrites the first `with open(…) as f:` block that can be rewritten.
fn rewrite_first_with_open(text: &str) -> Option<String> {
    static HEADER: LazyLock<Regex> = LazyLock::new(|| {
        #[allow(clippy::unwrap_used)] // a fixed expression that compiles
        Regex::new(r"^[ \t]*with[ \t]+open[ \t]*\(").unwrap()
    });
    static AS_NAME: LazyLock<Regex> = LazyLock::new(|| {
        #[allow(clippy::unwrap_used)] // a fixed expression that compiles
        Regex::new(r"^[ \t]+as[ \t]+(\w+)[ \t]*:[ \t]*([^\n]*)").unwrap()
    });
    let src = Source::new(text);
    let starts = statement_lines(text, &src.spans);
    for (n, &start) in starts.iter().enumerate() {
        let Some(m) = HEADER.find(&text[start..]) else {
            continue;
        };
        let paren = start + m.end() - 1;
        let Some(close) = src.close_of(paren) else {
            continue;
        };
        let Some(tail) = AS_NAME.captures(&text[close + 1..]) else {
            continue;
        };
        let Some(path) = path_arg(&src, paren, close) else {
            continue;
        };
        let (Some(var), Some(rest)) = (tail.get(1), tail.get(2)) else {
            continue;
        };
        let header_end = close + 1 + rest.end();
        let header_indent = indent_of(&text[start..]).to_string();
        let rest_code = rest.as_str().split('#').next().unwrap_or("").trim();
        // The block: the rest of the header line, or the lines indented
        // deeper than the header.
        let (body, block_end) = if !rest_code.is_empty() {
            (
                format!("{header_indent}{}\n", rest.as_str().trim()),
                line_end(text, header_end),
            )
        } else {
            let body_start = line_end(text, header_end);
            let end = starts[n + 1..]
                .iter()
                .copied()
                .find(|&s| {
                    let line = text[s..].lines().next().unwrap_or("");
                    let t = line.trim();
                    !t.is_empty()
                        && !t.starts_with('#')
                        && indent_of(line).len() <= header_indent.len()
                })
                .unwrap_or(text.len());
            match dedent_block(&text[body_start.min(end)..end], &header_indent) {
                Some(body) => (body, end),
                None => continue,
            }
        };
        let Some(rewritten) = rewrite_reads(&body, var.as_str(), path) else {
            continue;
        };
        let mut out = String::with_capacity(text.len());
        out.push_str(&text[..start]);
        out.push_str(&rewritten);
        out.push_str(&text[block_end..]);
        return Some(out);
    }
    None
}

/// One past the newline that ends the line holding `i` (or the end).
fn line_end(text: &str, i: usize) -> usize {
    text[i..].find('\n').map_or(text.len(), |p| i + p + 1)
}

/// `body` (lines indented deeper than `indent`) moved to `indent`,
/// nested lines keeping their extra indent.
fn dedent_block(body: &str, indent: &str) -> Option<String> {
    let first = body.lines().find(|l| !l.trim().is_empty())?;
    let body_indent = indent_of(first);
    if body_indent.len() <= indent.len() || !body_indent.starts_with(indent) {
        return None;
    }
    let mut out = String::with_capacity(body.len());
    for line in body.split_inclusive('\n') {
        if let Some(rest) = line.strip_prefix(body_indent) {
            out.push_str(indent);
            out.push_str(rest);
        } else if line.trim().is_empty() {
            out.push_str(line);
        } else {
            return None;
        }
    }
    Some(out)
}

/// The block's statements with every use of `var` made a `read_file(path)`;
/// `None` when a statement does something else with the file.
fn rewrite_reads(body: &str, var: &str, path: &str) -> Option<String> {
    let assign = Regex::new(&format!(
        r"^([ \t]*)([^=\n]+?)[ \t]*=[ \t]*{var}[ \t]*\.[ \t]*(readlines|read)[ \t]*\([ \t]*\)[ \t]*(#[^\n]*)?$"
    ))
    .ok()?;
    let for_loop = Regex::new(&format!(
        r"^([ \t]*)for[ \t]+([^\n]+?)[ \t]+in[ \t]+{var}[ \t]*:(.*)$"
    ))
    .ok()?;
    let block_indent = indent_of(body.lines().find(|l| !l.trim().is_empty())?).to_string();
    let mut out = String::with_capacity(body.len());
    for line in body.split_inclusive('\n') {
        let content = line.trim_end_matches('\n');
        let newline = &line[content.len()..];
        let t = content.trim();
        let at_block_level = indent_of(content) == block_indent;
        if t.is_empty() || t.starts_with('#') || !at_block_level {
            // Blank, comment, or the body of a rewritten `for`: it may not
            // use the file itself.
            if !at_block_level && mentions(content, var) {
                return None;
            }
            out.push_str(line);
            continue;
        }
        if let Some(c) = assign.captures(content) {
            let call = if &c[3] == "readlines" {
                format!("read_file({path}).splitlines()")
            } else {
                format!("read_file({path})")
            };
            out.push_str(&format!("{}{} = {call}{newline}", &c[1], &c[2]));
        } else if let Some(c) = for_loop.captures(content) {
            out.push_str(&format!(
                "{}for {} in read_file({path}).splitlines():{}{newline}",
                &c[1], &c[2], &c[3]
            ));
        } else {
            return None;
        }
    }
    Some(out)
}

/// Whether `line` names `var` as a whole word.
fn mentions(line: &str, var: &str) -> bool {
    line.match_indices(var).any(|(i, _)| {
        let before = line[..i].chars().next_back();
        let after = line[i + var.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fenced_block_with_chatter_imports_and_open() {
        let answer = "Sure! Here is the code you asked for:\n\n```python\nimport os\nfrom pathlib import Path\n\ntext = open('notes.txt').read()\nlines = open(name, 'r').readlines()\nlen(text)\n```\nThis reads the file and counts.";
        assert_eq!(
            cleanup(answer),
            "text = read_file('notes.txt')\nlines = read_file(name).splitlines()\nlen(text)"
        );
    }

    #[test]
    fn prose_before_and_after_unfenced_code() {
        let answer = "Here's the program:\nx = read_file('a')\nx\n\nIt returns the text.";
        assert_eq!(cleanup(answer), "x = read_file('a')\nx");
        let answer = "The cell:\nfiles = find_files('*.md')\nfiles";
        assert_eq!(cleanup(answer), "files = find_files('*.md')\nfiles");
        // A broken first line of code is not chatter: it stays for the
        // validator to report.
        let broken = "x = read_file('a'\ny = 2\ny";
        assert_eq!(cleanup(broken), broken);
    }

    #[test]
    fn with_open_blocks_become_read_file() {
        let answer = "import json\nwith open(path) as f:\n    data = f.read()\n    rows = f.readlines()\nfor line in x:\n    with open('b.txt', 'r') as fh:\n        for l in fh:\n            print(l)\nlen(data)";
        assert_eq!(
            cleanup(answer),
            "data = read_file(path)\nrows = read_file(path).splitlines()\nfor line in x:\n    for l in read_file('b.txt').splitlines():\n        print(l)\nlen(data)"
        );
        assert_eq!(
            cleanup("with open('a') as f: x = f.read()\nx"),
            "x = read_file('a')\nx"
        );
    }

    #[test]
    fn what_cannot_be_rewritten_stays() {
        // The file is used otherwise: the block stays for the validator.
        let keep = "with open('a') as f:\n    x = f.read()\n    f.close()\nx";
        assert_eq!(cleanup(keep), keep);
        // Keyword arguments, strings and comments are left alone.
        let keep = "t = open(p, encoding='utf-8').read()\ns = 'open(p).read()'  # open(q).read()\nimport_count = 1";
        assert_eq!(cleanup(keep), keep);
        // An import inside a string is text.
        let keep = "s = '''\nimport os\n'''\ns";
        assert_eq!(cleanup(keep), keep);
    }

    #[test]
    fn nested_calls_in_the_path() {
        assert_eq!(
            cleanup("t = open(base + ('/' + name)).read().strip()"),
            "t = read_file(base + ('/' + name)).strip()"
        );
        assert_eq!(cleanup("x.open(p).read()"), "x.open(p).read()");
    }
}
