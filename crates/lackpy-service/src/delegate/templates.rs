//! The templates tier: `.lackpy/templates/*.tmpl` files, each a front
//! matter (`name`, `pattern`, `success_count`, `fail_count`) and a program
//! body, in lackpy's format:
//!
//! ```text
//! ---
//! name: read-one
//! pattern: "show me {path}"
//! success_count: 0
//! fail_count: 0
//! ---
//! content = read_file('{path}')
//! content
//! ```
//!
//! A pattern is a regular expression whose `{var}` placeholders capture
//! (`.+`) from the intent, searched case-insensitively. The first match's
//! captures replace the body's `{var}`s, never as raw code: where each
//! placeholder sits is read with lackpy-lang's tokenizer when the template
//! is loaded (`placement.rs`; a body where one cannot be placed safely is
//! refused then), a bare `{var}` becomes a string literal, one inside a
//! string literal is escaped for that literal (`literal.rs`). After a delegate runs a template its
//! counts are rewritten in place, atomically, every other byte kept.

use std::collections::HashMap;
use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex};

use regex::Regex;

use super::placement::{Placement, plan, write};

/// The largest template file read.
const MAX_TEMPLATE_BYTES: u64 = 1024 * 1024;

/// A parsed template.
#[derive(Debug, Clone)]
pub struct Template {
    /// `name` (the file stem when absent).
    pub name: String,
    /// The pattern as written.
    pub pattern: String,
    /// The program body with its `{var}` placeholders.
    pub body: String,
    /// Delegates that ran it and succeeded.
    pub success_count: u64,
    /// Delegates that ran it and failed.
    pub fail_count: u64,
    /// The file.
    pub path: PathBuf,
    regex: Regex,
    /// The placeholder names, in pattern order.
    vars: Vec<String>,
    /// Where the body's placeholders sit.
    placements: Vec<Placement>,
}

/// One `*.tmpl` file: its template, or why it cannot be used.
#[derive(Debug, Clone)]
pub struct TemplateFile {
    /// The file.
    pub path: PathBuf,
    /// The template, or the problem with the file. Shared: a cached
    /// template keeps its compiled pattern's search caches warm (a cloned
    /// `Regex` would start cold).
    pub template: Result<Arc<Template>, String>,
}

/// Every `*.tmpl` file in `dir`, by file name; none when `dir` is missing.
pub fn load_dir(dir: &Path) -> Vec<TemplateFile> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "tmpl"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let template = load(&path);
            TemplateFile { path, template }
        })
        .collect()
}

/// What identifies one version of a file: a rewrite (ours renames a new
/// file into place) changes at least one of these.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    dev: u64,
    ino: u64,
    len: u64,
    mtime: i64,
    mtime_nsec: i64,
}

impl Stamp {
    fn of(meta: &std::fs::Metadata) -> Stamp {
        use std::os::unix::fs::MetadataExt;
        Stamp {
            dev: meta.dev(),
            ino: meta.ino(),
            len: meta.len(),
            mtime: meta.mtime(),
            mtime_nsec: meta.mtime_nsec(),
        }
    }
}

/// Parsed templates by file and version: a delegate reads the folder each
/// time (templates change while lackpy runs), but only a file that changed
/// is read and parsed again. Bounded: emptied when it grows past this.
const MAX_CACHED_FILES: usize = 4096;

/// How old a file's modification time must be before its stamp is trusted.
const RACY_WINDOW: std::time::Duration = std::time::Duration::from_secs(2);

type Loaded = Result<Arc<Template>, String>;

/// One template file, parsed, from the cache while it is unchanged.
fn load(path: &Path) -> Loaded {
    static CACHE: LazyLock<Mutex<HashMap<PathBuf, (Stamp, Loaded)>>> =
        LazyLock::new(|| Mutex::new(HashMap::new()));
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) => return Err(format!("cannot read it: {e}")),
    };
    let stamp = Stamp::of(&meta);
    // File times advance in coarse steps: a file changed within the last
    // moments could change again under the same stamp, so it is read anew
    // (and not cached) until its stamp is old enough to trust.
    let settled = meta
        .modified()
        .ok()
        .and_then(|m| m.elapsed().ok())
        .is_some_and(|age| age >= RACY_WINDOW);
    if !settled {
        return read_text(path)
            .and_then(|text| parse(path, &text))
            .map(Arc::new);
    }
    if let Ok(cache) = CACHE.lock()
        && let Some((cached, loaded)) = cache.get(path)
        && *cached == stamp
    {
        return loaded.clone();
    }
    let loaded = read_text(path)
        .and_then(|text| parse(path, &text))
        .map(Arc::new);
    if let Ok(mut cache) = CACHE.lock() {
        if cache.len() >= MAX_CACHED_FILES {
            cache.clear();
        }
        cache.insert(path.to_path_buf(), (stamp, loaded.clone()));
    }
    loaded
}

/// A template file's text: a regular UTF-8 file under the size cap.
fn read_text(path: &Path) -> Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read it: {e}"))?;
    if !meta.is_file() {
        return Err("not a regular file".to_string());
    }
    if meta.len() > MAX_TEMPLATE_BYTES {
        return Err(format!("larger than {MAX_TEMPLATE_BYTES} bytes"));
    }
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|f| f.take(MAX_TEMPLATE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read it: {e}"))?;
    String::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_string())
}

/// Front matter keys and the body, as lackpy reads them: the text stripped,
/// a first line `---`, `key: value` lines (values stripped of spaces and
/// quotes) up to the next `---`, then the body, stripped.
fn split_front_matter(text: &str) -> Result<(Vec<(String, String)>, String), String> {
    let lines: Vec<&str> = text.trim().split('\n').collect();
    if lines.first().map(|l| l.trim()) != Some("---") {
        return Err("it does not start with a `---` front matter line".to_string());
    }
    let mut keys = Vec::new();
    for (i, line) in lines.iter().enumerate().skip(1) {
        if line.trim() == "---" {
            let body = lines[i + 1..].join("\n").trim().to_string();
            return Ok((keys, body));
        }
        if let Some((key, value)) = line.split_once(':') {
            let value = value.trim().trim_matches('"').trim_matches('\'');
            keys.push((key.trim().to_string(), value.to_string()));
        }
    }
    Err("its front matter has no closing `---` line".to_string())
}

/// Parses a template file's text.
pub fn parse(path: &Path, text: &str) -> Result<Template, String> {
    let (keys, body) = split_front_matter(text)?;
    let get = |k: &str| {
        keys.iter()
            .rev()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.as_str())
    };
    let pattern = get("pattern").unwrap_or_default().to_string();
    if pattern.is_empty() {
        return Err("it has no `pattern`".to_string());
    }
    let count = |k: &str| match get(k) {
        None => Ok(0),
        Some(v) => v
            .parse::<u64>()
            .map_err(|_| format!("`{k}: {v}` is not a count")),
    };
    let (regex, vars) = compile(&pattern)?;
    let placements = plan(&body, &vars, placeholder_regex())?;
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok(Template {
        name: get("name")
            .filter(|n| !n.is_empty())
            .unwrap_or(&stem)
            .to_string(),
        pattern,
        body,
        success_count: count("success_count")?,
        fail_count: count("fail_count")?,
        path: path.to_path_buf(),
        regex,
        vars,
        placements,
    })
}

/// Compiled patterns by pattern text: compiling costs far more than
/// reading and parsing a template file, and the same few patterns come
/// back on every call. Bounded: emptied when it grows past this.
const MAX_CACHED_PATTERNS: usize = 512;

type Compiled = Result<(Regex, Vec<String>), String>;

/// `compile_uncached`, remembered.
pub fn compile(pattern: &str) -> Compiled {
    static CACHE: LazyLock<Mutex<HashMap<String, Compiled>>> =
        LazyLock::new(|| Mutex::new(HashMap::new()));
    if let Ok(cache) = CACHE.lock()
        && let Some(hit) = cache.get(pattern)
    {
        return hit.clone();
    }
    let compiled = compile_uncached(pattern);
    if let Ok(mut cache) = CACHE.lock() {
        if cache.len() >= MAX_CACHED_PATTERNS {
            cache.clear();
        }
        cache.insert(pattern.to_string(), compiled.clone());
    }
    compiled
}

/// The pattern as a case-insensitive regex, each `{var}` a named `.+` group.
fn compile_uncached(pattern: &str) -> Compiled {
    let placeholder = placeholder_regex();
    let mut vars = Vec::new();
    let source = placeholder.replace_all(pattern, |c: &regex::Captures<'_>| {
        vars.push(c[1].to_string());
        format!("(?P<{}>.+)", &c[1])
    });
    let regex = Regex::new(&format!("(?i){source}"))
        .map_err(|e| format!("its pattern is not a valid regular expression: {e}"))?;
    Ok((regex, vars))
}

/// `{var}`: a placeholder in a pattern or a body.
fn placeholder_regex() -> &'static Regex {
    static PLACEHOLDER: LazyLock<Regex> = LazyLock::new(|| {
        // A fixed expression that compiles.
        #[allow(clippy::unwrap_used)]
        Regex::new(r"\{(\w+)\}").unwrap()
    });
    &PLACEHOLDER
}

impl Template {
    /// The captures of the pattern's first match in `intent`, in pattern
    /// order (a group that took no part is empty); `None` without a match.
    pub fn captures(&self, intent: &str) -> Option<Vec<(String, String)>> {
        let c = self.regex.captures(intent)?;
        Some(
            self.vars
                .iter()
                .map(|v| {
                    let text = c.name(v).map_or("", |m| m.as_str());
                    (v.clone(), text.to_string())
                })
                .collect(),
        )
    }

    /// The body with `captures` substituted safely (see the module docs).
    pub fn instantiate(&self, captures: &[(String, String)]) -> Result<String, String> {
        fill(&self.body, &self.placements, captures)
    }
}

/// Replaces each `{var}` of `body` named in `captures` with its text, as
/// its place in the body allows (see the module docs); a body where a
/// placeholder cannot be placed safely is refused with the reason.
pub fn substitute(body: &str, captures: &[(String, String)]) -> Result<String, String> {
    let vars: Vec<String> = captures.iter().map(|(k, _)| k.clone()).collect();
    let placements = plan(body, &vars, placeholder_regex())?;
    fill(body, &placements, captures)
}

fn fill(
    body: &str,
    placements: &[Placement],
    captures: &[(String, String)],
) -> Result<String, String> {
    let mut out = String::with_capacity(body.len());
    let mut last = 0;
    for p in placements {
        let Some((_, text)) = captures.iter().find(|(k, _)| *k == p.var) else {
            continue;
        };
        let replacement = write(&p.place, text).map_err(|e| format!("{{{}}}: {e}", p.var))?;
        out.push_str(body.get(last..p.start).unwrap_or(""));
        out.push_str(&replacement);
        last = p.end;
    }
    out.push_str(body.get(last..).unwrap_or(""));
    Ok(out)
}

/// Stand-in captures for checking a template's body: each placeholder of
/// `pattern` as the text `x`.
pub fn sample_captures(pattern: &str) -> Result<Vec<(String, String)>, String> {
    let (_, vars) = compile(pattern)?;
    Ok(vars.into_iter().map(|v| (v, "x".to_string())).collect())
}

/// Counts one more success (or failure) in a template file: the count's
/// front matter line is rewritten (or added before the closing `---`) and
/// every other byte kept, then the file is replaced atomically (a temporary
/// file in the same folder, renamed over it). Concurrent updates, from this
/// process or another, are serialised by a lock on the folder.
pub fn record_outcome(path: &Path, success: bool) -> Result<(), String> {
    let dir = path
        .parent()
        .ok_or_else(|| format!("{}: no parent folder", path.display()))?;
    let lock = File::open(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    lock.lock()
        .map_err(|e| format!("cannot lock {}: {e}", dir.display()))?;
    let text = read_text(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let key = if success {
        "success_count"
    } else {
        "fail_count"
    };
    let updated = bump_count(&text, key).map_err(|e| format!("{}: {e}", path.display()))?;
    replace_file(path, updated.as_bytes()).map_err(|e| format!("{}: {e}", path.display()))
    // The lock is released when `lock` is dropped.
}

/// `text` with `key`'s count one higher. Only that line changes (or one is
/// added before the closing `---`).
pub fn bump_count(text: &str, key: &str) -> Result<String, String> {
    let mut offset = 0;
    let mut opened = false;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let content = line.trim_end_matches(['\n', '\r']);
        let trimmed = content.trim();
        if !opened {
            if trimmed.is_empty() {
                continue;
            }
            if trimmed != "---" {
                return Err("it does not start with a `---` front matter line".to_string());
            }
            opened = true;
            continue;
        }
        if trimmed == "---" {
            // No line for the key: add one before the closing line.
            let newline = if line.ends_with("\r\n") { "\r\n" } else { "\n" };
            return Ok(format!(
                "{}{key}: 1{newline}{}",
                &text[..start],
                &text[start..]
            ));
        }
        if let Some((k, v)) = content.split_once(':')
            && k.trim() == key
        {
            let value = v.trim().trim_matches('"').trim_matches('\'');
            let n: u64 = value
                .parse()
                .map_err(|_| format!("`{key}: {value}` is not a count"))?;
            let indent = &content[..content.len() - content.trim_start().len()];
            let ending = &line[content.len()..];
            return Ok(format!(
                "{}{indent}{key}: {}{ending}{}",
                &text[..start],
                n.saturating_add(1),
                &text[offset..]
            ));
        }
    }
    Err("its front matter has no closing `---` line".to_string())
}

/// Writes `bytes` to a temporary file beside `path` and renames it over
/// `path`, keeping the file's permissions.
fn replace_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = File::create(&tmp)?;
        if let Ok(meta) = std::fs::metadata(path) {
            f.set_permissions(meta.permissions())?;
        }
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// A template name usable as a file stem: letters, digits, `_`, `-`, `.`
/// (not first).
pub fn check_name(name: &str) -> Result<(), String> {
    let ok = !name.is_empty()
        && name.len() <= 100
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "template name '{name}': use letters, digits, '_', '-' and '.' (not first), at most 100"
        ))
    }
}

/// The text of a new template file, in lackpy's layout.
pub fn render(name: &str, pattern: &str, body: &str) -> Result<String, String> {
    if pattern.contains(['\n', '\r']) {
        return Err("a pattern is one line".to_string());
    }
    if pattern.trim().is_empty() {
        return Err("the pattern is empty".to_string());
    }
    let body = body.trim();
    Ok(format!(
        "---\nname: {name}\npattern: \"{pattern}\"\nsuccess_count: 0\nfail_count: 0\n---\n{body}\n"
    ))
}

/// Writes a new template file `dir/NAME.tmpl` (the folder created when
/// missing); an existing one is replaced only with `force`.
pub fn write_new(dir: &Path, name: &str, text: &str, force: bool) -> Result<PathBuf, String> {
    check_name(name)?;
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let path = dir.join(format!("{name}.tmpl"));
    if !force && std::fs::symlink_metadata(&path).is_ok() {
        return Err(format!(
            "{} exists (use --force to replace it)",
            path.display()
        ));
    }
    replace_file(&path, text.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LACKPY_STYLE: &str = "---\nname: read-one\npattern: \"show me {path}\"\nsuccess_count: 2\nfail_count: 0\n---\ncontent = read_file('{path}')\ncontent\n";

    fn template(text: &str) -> Template {
        parse(Path::new("/t/x.tmpl"), text).expect("parses")
    }

    #[test]
    fn parses_lackpy_templates() {
        let t = template(LACKPY_STYLE);
        assert_eq!(t.name, "read-one");
        assert_eq!(t.pattern, "show me {path}");
        assert_eq!(t.body, "content = read_file('{path}')\ncontent");
        assert_eq!((t.success_count, t.fail_count), (2, 0));
        let caps = t.captures("Please SHOW ME notes/a.txt").expect("matches");
        assert_eq!(caps, [("path".to_string(), "notes/a.txt".to_string())]);
        assert_eq!(
            t.instantiate(&caps).as_deref(),
            Ok("content = read_file('notes/a.txt')\ncontent")
        );
        assert!(t.captures("hide it").is_none());
    }

    #[test]
    fn name_defaults_to_the_stem_and_problems_are_named() {
        let t = parse(Path::new("/t/stem.tmpl"), "---\npattern: p\n---\n1").expect("parses");
        assert_eq!(t.name, "stem");
        for (text, why) in [
            ("x = 1", "does not start"),
            ("---\npattern: p\n", "no closing"),
            ("---\nname: n\n---\n1", "no `pattern`"),
            (
                "---\npattern: p\nsuccess_count: lots\n---\n1",
                "not a count",
            ),
            (
                "---\npattern: ({x}\n---\n1",
                "not a valid regular expression",
            ),
        ] {
            let e = parse(Path::new("/t/x.tmpl"), text).expect_err(text);
            assert!(e.contains(why), "{text}: {e}");
        }
    }

    #[test]
    fn captures_never_become_code() {
        let hostile = "x'); write_file('pwned.txt', 'y'); ('";
        let caps = vec![("p".to_string(), hostile.to_string())];
        let bare = substitute("r = read_file({p})\nr", &caps).expect("substitutes");
        assert_eq!(
            bare,
            "r = read_file(\"x'); write_file('pwned.txt', 'y'); ('\")\nr"
        );
        let quoted = substitute("r = read_file('{p}')", &caps).expect("substitutes");
        assert_eq!(
            quoted,
            r"r = read_file('x\'); write_file(\'pwned.txt\', \'y\'); (\'')"
        );
        let comment =
            substitute("# {p}\n1", &[("p".into(), "a\nimport os".into())]).expect("substitutes");
        assert_eq!(comment, "# 'a\\nimport os'\n1");
        // Other braces stay as they are.
        assert_eq!(
            substitute("d = {'k': {q}}\nf'{other}'", &caps).as_deref(),
            Ok("d = {'k': {q}}\nf'{other}'")
        );
        let raw = substitute("read_file(r'{p}')", &caps).expect_err("refused");
        assert!(raw.contains("raw string"), "{raw}");
    }

    #[test]
    fn counts_change_one_line_and_keep_every_other_byte() {
        let text =
            "\n---\r\nname: n\r\npattern: 'p'\r\nsuccess_count: 9\r\n---\r\n  body  {x}\r\n\r\n";
        let up = bump_count(text, "success_count").expect("bumps");
        assert_eq!(up, text.replace("success_count: 9", "success_count: 10"));
        let added = bump_count(text, "fail_count").expect("adds");
        assert_eq!(
            added,
            text.replace(
                "success_count: 9\r\n---",
                "success_count: 9\r\nfail_count: 1\r\n---"
            )
        );
    }

    #[test]
    fn record_outcome_rewrites_atomically() {
        let dir = tempfile::tempdir().expect("tmp");
        let path = dir.path().join("t.tmpl");
        std::fs::write(&path, LACKPY_STYLE).expect("write");
        record_outcome(&path, true).expect("success");
        record_outcome(&path, false).expect("failure");
        let text = std::fs::read_to_string(&path).expect("read");
        assert_eq!(
            text,
            LACKPY_STYLE
                .replace("success_count: 2", "success_count: 3")
                .replace("fail_count: 0", "fail_count: 1")
        );
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .expect("ls")
            .filter_map(Result::ok)
            .map(|e| e.file_name())
            .collect();
        assert_eq!(names.len(), 1, "no temporary file left: {names:?}");
    }

    #[test]
    fn a_changed_file_is_read_again() {
        let dir = tempfile::tempdir().expect("tmp");
        let path = dir.path().join("t.tmpl");
        std::fs::write(&path, "---\npattern: aaa\n---\n1\n").expect("write");
        assert_eq!(
            load_dir(dir.path())[0]
                .template
                .as_ref()
                .map(|t| t.pattern.clone()),
            Ok("aaa".into())
        );
        // Same length, same file, at once.
        std::fs::write(&path, "---\npattern: bbb\n---\n1\n").expect("write");
        assert_eq!(
            load_dir(dir.path())[0]
                .template
                .as_ref()
                .map(|t| t.pattern.clone()),
            Ok("bbb".into())
        );
        // Settled: cached, and a rename over it is a new file.
        let old = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
        std::fs::File::options()
            .write(true)
            .open(&path)
            .and_then(|f| f.set_modified(old))
            .expect("set mtime");
        assert_eq!(
            load_dir(dir.path())[0]
                .template
                .as_ref()
                .map(|t| t.pattern.clone()),
            Ok("bbb".into())
        );
        record_outcome(&path, true).expect("count");
        let t = load_dir(dir.path()).remove(0).template.expect("parses");
        assert_eq!(t.success_count, 1);
    }

    #[test]
    fn new_templates_round_trip() {
        let text = render("n", "read {x} now", "y = read_file({x})\ny\n").expect("renders");
        let t = template(&text);
        assert_eq!((t.name.as_str(), t.pattern.as_str()), ("n", "read {x} now"));
        assert!(render("n", "a\nb", "1").is_err());
        assert!(check_name("../x").is_err());
        assert!(check_name(".hidden").is_err());
        assert!(check_name("read-one_2.v1").is_ok());
    }
}
