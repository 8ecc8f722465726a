//! `find_files(pattern) -> list[str]`: Python 3.11's `Path('.').glob(pattern)`,
//! sorted, confined to the workspace.
//!
//! The pattern is split into parts; each part selects children of the paths
//! the previous part selected — a literal name, an `fnmatch` wildcard, or
//! `**` (the directory itself and every directory below it, not following
//! symlinks). A trailing `/` keeps directories only. Hidden files match `*`.
//! Directories whose real location is outside the workspace are never listed
//! into.
//!
//! **Ours:** the walk is bounded. Consecutive `**` parts mean the same as
//! one and are read as one; a part is never applied twice to the same
//! path (`**/x/**/y/…` would otherwise grow with every `**`); a pattern
//! has at most [`MAX_PARTS`] parts (the walk recurses once per part); every
//! directory entry and path looked at counts against [`MAX_VISITS`]; and the
//! run's deadline and cancellation are checked as the walk goes.

use std::cell::{Cell, RefCell};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

use lackpy_lang::{Data, str_repr};

use super::confine::{canonical_workspace, escape_error};
use super::protect::FilePolicy;
use crate::error::ToolError;
use crate::tool::{CallContext, ToolResult};

/// How many directory entries and paths one call may look at.
pub const MAX_VISITS: u64 = 1_000_000;
/// The most parts a pattern may have: the walk recurses once per part.
pub const MAX_PARTS: usize = 256;
/// How often (in visits) the walk looks at the deadline and cancel flag.
const CHECK_EVERY: u64 = 256;

/// `find_files(pattern)`.
pub(crate) fn find_files(args: &[Data], ctx: &CallContext, _policy: &FilePolicy) -> ToolResult {
    let pattern = match &args[0] {
        Data::Str(s) => s.as_str(),
        other => {
            return Err(ToolError::type_error(format!(
                "argument should be a str object or an os.PathLike object returning str, not <class '{}'>",
                other.type_name()
            )));
        }
    };
    let parts = parse_pattern(pattern)?;
    let ws = canonical_workspace(&ctx.workspace)?;
    let mut out = Vec::new();
    let walker = Walker {
        ws: &ws,
        ctx,
        visits: Cell::new(0),
        stop: RefCell::new(None),
        done: RefCell::new(HashSet::new()),
        total: parts.len(),
    };
    walker.select(&parts, ".", &ws, &mut out);
    if let Some(e) = walker.stop.into_inner() {
        return Err(e);
    }
    out.sort();
    Ok(Data::List(out.into_iter().map(Data::Str).collect()))
}

/// One part of a pattern.
#[derive(Debug, Clone, PartialEq)]
enum Part {
    /// A name without wildcards.
    Precise(String),
    /// An `fnmatch` pattern.
    Wildcard(Vec<Tok>),
    /// `**`.
    Recursive,
    /// The empty part a trailing `/` adds: selects what it is given.
    Terminating,
}

fn parse_pattern(pattern: &str) -> Result<Vec<Part>, ToolError> {
    if pattern.is_empty() {
        return Err(ToolError::value_error(format!(
            "Unacceptable pattern: {}",
            str_repr(pattern)
        )));
    }
    if pattern.starts_with('/') {
        return Err(ToolError::failed("Non-relative patterns are unsupported")
            .with_type("NotImplementedError"));
    }
    let mut names: Vec<&str> = pattern
        .split('/')
        .filter(|s| !s.is_empty() && *s != ".")
        .collect();
    if pattern.ends_with('/') {
        names.push("");
    }
    if names.is_empty() {
        // pathlib indexes the empty tuple of parts.
        return Err(ToolError::failed("tuple index out of range").with_type("IndexError"));
    }
    if names[0].is_empty() {
        // Python 3.11 has no entry point for a pattern that is only a separator ("./").
        return Err(ToolError::failed(
            "'_TerminatingSelector' object has no attribute 'select_from'",
        )
        .with_type("AttributeError"));
    }
    let mut parts = Vec::new();
    let mut depth: i64 = 0;
    for name in names {
        if name.is_empty() {
            parts.push(Part::Terminating);
            break;
        }
        let part = if name == "**" {
            if parts.last() == Some(&Part::Recursive) {
                // `**/**` selects what `**` does.
                continue;
            }
            Part::Recursive
        } else if name.contains("**") {
            return Err(ToolError::value_error(
                "Invalid pattern: '**' can only be an entire path component",
            ));
        } else if name.contains(['*', '?', '[']) {
            Part::Wildcard(compile(name))
        } else {
            Part::Precise(name.to_string())
        };
        // `**` may match no directory at all, so it never adds depth.
        match &part {
            Part::Precise(n) if n == ".." => depth -= 1,
            Part::Recursive => {}
            _ => depth += 1,
        }
        if depth < 0 {
            return Err(escape_error(pattern));
        }
        parts.push(part);
        if parts.len() > MAX_PARTS {
            return Err(ToolError::value_error(format!(
                "Invalid pattern: more than {MAX_PARTS} parts"
            )));
        }
    }
    Ok(parts)
}

struct Walker<'a> {
    ws: &'a Path,
    ctx: &'a CallContext,
    /// Entries and paths looked at so far.
    visits: Cell<u64>,
    /// Why the walk stopped early (limit, deadline, cancellation).
    stop: RefCell<Option<ToolError>>,
    /// `(parts left, path)` already selected from.
    done: RefCell<HashSet<(usize, String)>>,
    /// The pattern's number of parts.
    total: usize,
}

fn child(rel: &str, name: &str) -> String {
    if rel == "." {
        name.to_string()
    } else {
        format!("{rel}/{name}")
    }
}

impl Walker<'_> {
    /// Counts `n` visits; `false` (with the reason kept) once the walk must
    /// stop.
    fn visit(&self, n: u64) -> bool {
        if self.stop.borrow().is_some() {
            return false;
        }
        let before = self.visits.get();
        let now = before.saturating_add(n);
        self.visits.set(now);
        if now > MAX_VISITS {
            *self.stop.borrow_mut() = Some(ToolError::failed(format!(
                "find_files looked at more than {MAX_VISITS} paths; narrow the pattern"
            )));
            return false;
        }
        if before / CHECK_EVERY != now / CHECK_EVERY
            && let Err(e) = self.ctx.check()
        {
            *self.stop.borrow_mut() = Some(e);
            return false;
        }
        true
    }

    /// Whether a directory we are about to look into really lies inside.
    fn inside(&self, dir: &Path) -> bool {
        dir.canonicalize()
            .is_ok_and(|real| real.starts_with(self.ws))
    }

    /// Entry names of a directory, with whether each is a directory
    /// (following symlinks when `follow`); errors read as "nothing here".
    fn entries(&self, dir: &Path, follow: bool) -> Vec<(String, bool)> {
        if !self.inside(dir) {
            return Vec::new();
        }
        let Ok(rd) = std::fs::read_dir(dir) else {
            return Vec::new();
        };
        rd.filter_map(Result::ok)
            .take_while(|_| self.visit(1))
            .map(|e| {
                let is_dir = if follow {
                    e.path().is_dir()
                } else {
                    e.file_type().is_ok_and(|t| t.is_dir())
                };
                (e.file_name().to_string_lossy().into_owned(), is_dir)
            })
            .collect()
    }

    fn select(&self, parts: &[Part], rel: &str, real: &Path, out: &mut Vec<String>) {
        let Some((part, rest)) = parts.split_first() else {
            out.push(rel.to_string());
            return;
        };
        if !self.visit(1) {
            return;
        }
        // Below a `**`, the same path can be reached once per directory
        // above it; what it selects is the same each time.
        if parts.len() < self.total
            && !self
                .done
                .borrow_mut()
                .insert((parts.len(), rel.to_string()))
        {
            return;
        }
        let dironly = !rest.is_empty();
        match part {
            Part::Terminating => out.push(rel.to_string()),
            Part::Precise(name) => {
                if !self.inside(real) {
                    return;
                }
                let next: PathBuf = real.join(name);
                let ok = if dironly {
                    next.is_dir()
                } else {
                    next.exists()
                };
                if ok {
                    self.select(rest, &child(rel, name), &next, out);
                }
            }
            Part::Wildcard(toks) => {
                for (name, is_dir) in self.entries(real, true) {
                    if dironly && !is_dir {
                        continue;
                    }
                    if matches(toks, &name) {
                        self.select(rest, &child(rel, &name), &real.join(&name), out);
                    }
                }
            }
            Part::Recursive => {
                let mut dirs = Vec::new();
                self.directories(rel, real, &mut dirs);
                let mut seen = HashSet::new();
                for (d_rel, d_real) in dirs {
                    let mut found = Vec::new();
                    self.select(rest, &d_rel, &d_real, &mut found);
                    for p in found {
                        if seen.insert(p.clone()) {
                            out.push(p);
                        }
                    }
                }
            }
        }
    }

    /// The directory itself and every directory below it, not through symlinks.
    fn directories(&self, rel: &str, real: &Path, out: &mut Vec<(String, PathBuf)>) {
        if !self.visit(1) {
            return;
        }
        out.push((rel.to_string(), real.to_path_buf()));
        for (name, is_dir) in self.entries(real, false) {
            if is_dir {
                self.directories(&child(rel, &name), &real.join(&name), out);
            }
        }
    }
}

/// A compiled `fnmatch` token.
#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Char(char),
    AnyOne,
    AnySeq,
    Class {
        negated: bool,
        chars: Vec<char>,
        ranges: Vec<(char, char)>,
    },
    Never,
}

/// `fnmatch.translate`'s reading of a pattern.
fn compile(pat: &str) -> Vec<Tok> {
    let p: Vec<char> = pat.chars().collect();
    let n = p.len();
    let mut toks = Vec::new();
    let mut i = 0;
    while i < n {
        let c = p[i];
        i += 1;
        match c {
            '*' => {
                if toks.last() != Some(&Tok::AnySeq) {
                    toks.push(Tok::AnySeq);
                }
            }
            '?' => toks.push(Tok::AnyOne),
            '[' => {
                let mut j = i;
                if j < n && p[j] == '!' {
                    j += 1;
                }
                if j < n && p[j] == ']' {
                    j += 1;
                }
                while j < n && p[j] != ']' {
                    j += 1;
                }
                if j >= n {
                    toks.push(Tok::Char('['));
                    continue;
                }
                toks.push(class(&p, i, j));
                i = j + 1;
            }
            c => toks.push(Tok::Char(c)),
        }
    }
    toks
}

/// The bracket expression `p[start..end]` (between `[` and `]`).
fn class(p: &[char], start: usize, end: usize) -> Tok {
    let stuff = &p[start..end];
    // Split at the hyphens that form ranges, as fnmatch does: a hyphen first
    // (after an optional `!`) is literal, and the search resumes two
    // characters after each range.
    let mut chunks: Vec<Vec<char>> = Vec::new();
    if stuff.contains(&'-') {
        let mut i = start;
        let mut k = if p[start] == '!' {
            start + 2
        } else {
            start + 1
        };
        while let Some(off) = p.get(k..end).and_then(|s| s.iter().position(|c| *c == '-')) {
            let h = k + off;
            chunks.push(p[i..h].to_vec());
            i = h + 1;
            k = h + 3;
        }
        let last = p[i..end].to_vec();
        if last.is_empty() {
            if let Some(c) = chunks.last_mut() {
                c.push('-');
            }
        } else {
            chunks.push(last);
        }
        // Drop empty ranges (`z-a`) with their endpoints.
        let mut k = chunks.len();
        while k > 1 {
            k -= 1;
            let (Some(&a), Some(&b)) = (chunks[k - 1].last(), chunks[k].first()) else {
                continue;
            };
            if a > b {
                let tail: Vec<char> = chunks[k][1..].to_vec();
                chunks[k - 1].pop();
                chunks[k - 1].extend(tail);
                chunks.remove(k);
            }
        }
    } else {
        chunks.push(stuff.to_vec());
    }
    let flat: Vec<char> = {
        let mut v = Vec::new();
        for (idx, c) in chunks.iter().enumerate() {
            if idx > 0 {
                v.push('-');
            }
            v.extend(c);
        }
        v
    };
    if flat.is_empty() {
        return Tok::Never;
    }
    if flat == ['!'] {
        return Tok::AnyOne;
    }
    let mut chars = Vec::new();
    let mut ranges = Vec::new();
    let last = chunks.len() - 1;
    for (idx, chunk) in chunks.iter().enumerate() {
        let from = usize::from(idx > 0);
        let to = if idx < last {
            chunk.len().saturating_sub(1)
        } else {
            chunk.len()
        };
        if from < to {
            chars.extend_from_slice(&chunk[from..to]);
        }
        if idx < last
            && let (Some(&a), Some(&b)) = (chunk.last(), chunks[idx + 1].first())
        {
            ranges.push((a, b));
        }
    }
    let negated = chunks[0].first() == Some(&'!');
    if negated && let Some(pos) = chars.iter().position(|c| *c == '!') {
        chars.remove(pos);
    }
    Tok::Class {
        negated,
        chars,
        ranges,
    }
}

fn tok_matches(t: &Tok, c: char) -> bool {
    match t {
        Tok::Char(x) => *x == c,
        Tok::AnyOne => true,
        Tok::Class {
            negated,
            chars,
            ranges,
        } => {
            let hit = chars.contains(&c) || ranges.iter().any(|(a, b)| *a <= c && c <= *b);
            hit != *negated
        }
        Tok::AnySeq | Tok::Never => false,
    }
}

/// Whole-name match with backtracking over the last `*`.
fn matches(toks: &[Tok], name: &str) -> bool {
    let s: Vec<char> = name.chars().collect();
    let (mut ti, mut si) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while si < s.len() {
        if ti < toks.len() && toks[ti] == Tok::AnySeq {
            star = Some((ti, si));
            ti += 1;
        } else if ti < toks.len() && tok_matches(&toks[ti], s[si]) {
            ti += 1;
            si += 1;
        } else if let Some((st, ss)) = star {
            ti = st + 1;
            si = ss + 1;
            star = Some((st, ss + 1));
        } else {
            return false;
        }
    }
    while ti < toks.len() && toks[ti] == Tok::AnySeq {
        ti += 1;
    }
    ti == toks.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(pat: &str, name: &str) -> bool {
        matches(&compile(pat), name)
    }

    #[test]
    fn fnmatch_basics() {
        assert!(m("*.txt", "a.txt"));
        assert!(m("*.txt", ".hidden.txt"));
        assert!(!m("*.txt", "a.txt.bak"));
        assert!(m("?.txt", "a.txt"));
        assert!(!m("?.txt", "ab.txt"));
        assert!(m("*.[tl]*", "c.log"));
        assert!(m("[!a]*.txt", "b.txt"));
        assert!(!m("[!a]*.txt", "a.txt"));
        assert!(m("[a-c]", "b"));
        assert!(!m("[c-a]", "b"));
        assert!(m("[!]]", "x"));
        assert!(m("[!]", "[!]"));
        assert!(m("[a-]", "-"));
        assert!(m("[", "["));
        assert!(m("a*b*c", "aXbYbZc"));
        assert!(m("[]]", "]"));
    }

    #[test]
    fn pattern_errors_read_like_pathlib() {
        let e = |p: &str| match parse_pattern(p) {
            Ok(_) => "ok".to_string(),
            Err(e) => format!("{}: {}", e.error_type(), e.message()),
        };
        assert_eq!(e(""), "ValueError: Unacceptable pattern: ''");
        assert_eq!(
            e("/etc/*"),
            "NotImplementedError: Non-relative patterns are unsupported"
        );
        assert_eq!(e("."), "IndexError: tuple index out of range");
        assert_eq!(
            e("a**"),
            "ValueError: Invalid pattern: '**' can only be an entire path component"
        );
        assert_eq!(
            e("../*"),
            "PermissionError: path escapes the workspace: '../*'"
        );
        assert_eq!(e("src/../*"), "ok");
        assert_eq!(
            e(&["a", ".."].repeat(200).join("/")),
            "ValueError: Invalid pattern: more than 256 parts"
        );
        // Repeated `**` collapse before they are counted.
        assert_eq!(e(&["**"; 1000].join("/")), "ok");
    }
}
