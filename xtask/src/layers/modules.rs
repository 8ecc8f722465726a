//! Module layers inside a crate.
//!
//! A crate's top-level modules are grouped into layers, lowest first; a
//! module may name modules of its own layer and of the layers before it,
//! never of a later one. For `lackpy-lang` that is the order
//! `util` → `text` → `syntax` → `runtime` → `types` → `builtins` →
//! `interp`, so the interpreter can be changed without the types, and the
//! validator without either. Test code (`#[cfg(test)]` items and modules, inline or in files
//! of their own) is exempt, as a crate's integration tests are: a type's
//! tests may run whole programs.
//!
//! The check reads the source, not the compiler's resolution: every path
//! that starts with `crate::`, `$crate::`, `super::` or `self::` is resolved
//! against the file's module (inline `mod` blocks and `#[path]` files
//! included), `use` trees are expanded (`use crate::{ast, interp::X}` names
//! both), and a path through a re-export of the crate root (`crate::run`) is
//! charged to the module the root re-exports it from. Expression paths
//! (`crate::interp::f()`) count as much as `use` lines; comments and string
//! literals do not. A bare path needs one of those prefixes (or a `use`
//! that has one) to reach another top-level module from a submodule, so
//! these are all the ways in.
//!
//! Inside a layer, files may not import each other in a circle either
//! ([`super::circles`]); the circles left are listed, each with its reason.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

pub use super::circles::AllowedCircle;

/// The layers of one crate's top-level modules.
#[derive(Debug, Clone, Copy)]
pub struct ModuleRules {
    /// The package the rules apply to.
    pub package: &'static str,
    /// The layers, lowest first.
    pub layers: &'static [Layer],
    /// Imports allowed against the order, each with its reason.
    pub exceptions: &'static [Exception],
    /// Import circles between files still allowed, each with its reason.
    pub allowed_circles: &'static [AllowedCircle],
}

/// A named group of top-level modules.
#[derive(Debug, Clone, Copy)]
pub struct Layer {
    /// The layer's name, for messages.
    pub name: &'static str,
    /// The top-level modules in it.
    pub modules: &'static [&'static str],
}

/// One import allowed against the layer order.
#[derive(Debug, Clone, Copy)]
pub struct Exception {
    /// The file (relative to the crate's `src/`) that may make it.
    pub file: &'static str,
    /// The crate path it may name (`interp::ir::LambdaDef`): exactly
    /// that item, or a path inside it.
    pub path: &'static str,
    /// Why.
    pub reason: &'static str,
}

/// The module layers of `lackpy-lang`.
pub const LANG_MODULES: ModuleRules = ModuleRules {
    package: "lackpy-lang",
    layers: &[
        // Leaf helpers that name no other module (a hasher).
        Layer {
            name: "util",
            modules: &["fnv"],
        },
        // Pure functions on characters, text, bytes and numbers: CPython's
        // Unicode tables, the formatting mini-languages and the codecs. It
        // comes before syntax because the tokenizer reads the Unicode tables.
        Layer {
            name: "text",
            modules: &["text"],
        },
        // Source to a checked tree: ast, walk, parse, validate, the catalog
        // of builtins and methods, the language spec and grades.
        Layer {
            name: "syntax",
            modules: &["syntax"],
        },
        // What bounds a run: its limits, its one budget (steps, clock,
        // cancel, memory count, growth, stack, big-int work) and the
        // exceptions that stop it. It names no value.
        Layer {
            name: "runtime",
            modules: &["runtime"],
        },
        // The value model and each Python type's behaviour: the `Value`
        // enum and what every value shares (`value/`), a folder per type
        // with its representation, methods and own operations (`types/`),
        // and every form of a value the host sees (`data/`: `Data`, JSON in
        // and out, conversion). One layer, because the enum names every
        // representation and each container holds values; what must call
        // back into the program goes through `types::caller::Caller`, so
        // nothing here names the interpreter.
        Layer {
            name: "types",
            modules: &["value", "types", "data"],
        },
        // The builtin functions and type constructors (`len`, `sorted`,
        // `print`, `int(…)`, …): what a program names without importing.
        // They call back into the program only through the types' `Caller`.
        Layer {
            name: "builtins",
            modules: &["builtins"],
        },
        Layer {
            name: "interp",
            modules: &["interp"],
        },
    ],
    exceptions: &[Exception {
        file: "value/mod.rs",
        path: "interp::ir::LambdaDef",
        reason: "a lambda value holds its lowered code, which only the interpreter reads",
    }],
    allowed_circles: &[],
};

/// The rooms of `lackpy-service`: the journals, delegation's generation
/// and the trace spans below the service API, the metrics above it, which
/// the MCP server and the CLI (the binary's module) build on; neither of
/// those two is named by anything under it, and delegation knows nothing
/// of the service.
pub const SERVICE_MODULES: ModuleRules = ModuleRules {
    package: "lackpy-service",
    layers: &[
        Layer {
            name: "journals, generation and telemetry",
            modules: &["runs", "delegate", "telemetry"],
        },
        Layer {
            name: "service API",
            modules: &["service"],
        },
        Layer {
            // The Prometheus registry: fed from the service's results,
            // served by the MCP server.
            name: "metrics",
            modules: &["metrics"],
        },
        Layer {
            name: "front ends",
            // `exec_wrapper` is the `lackpy-exec` binary's root.
            modules: &["mcp_server", "cli", "exec_wrapper"],
        },
    ],
    exceptions: &[],
    allowed_circles: &[],
};

/// Every set of module rules `check-layers` enforces.
pub const MODULE_RULES: &[ModuleRules] = &[LANG_MODULES, SERVICE_MODULES];

/// One source file: its path relative to `src/` (with `/`) and its text.
pub type Source = (String, String);

/// Reads every `.rs` file under `src_dir`.
pub fn read_sources(src_dir: &Path) -> Result<Vec<Source>, String> {
    let mut out = Vec::new();
    let mut stack = vec![src_dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = std::fs::read_dir(&dir)
            .map_err(|e| format!("check-layers: cannot read {}: {e}", dir.display()))?;
        for entry in entries {
            let path = entry
                .map_err(|e| format!("check-layers: cannot read {}: {e}", dir.display()))?
                .path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| format!("check-layers: cannot read {}: {e}", path.display()))?;
                out.push((relative(src_dir, &path), text));
            }
        }
    }
    out.sort();
    Ok(out)
}

fn relative(base: &Path, path: &Path) -> String {
    let rel: PathBuf = path.strip_prefix(base).unwrap_or(path).to_path_buf();
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// Checks a crate's sources (`lib.rs` at the root) against `rules`: one
/// message per offending path.
pub fn check_sources(rules: &ModuleRules, sources: &[Source]) -> Vec<String> {
    let lexed: Vec<(&str, Vec<Tok>)> = sources
        .iter()
        .map(|(path, text)| (path.as_str(), lex(text)))
        .collect();
    let modules = module_paths(&lexed);
    let root_exports = lexed
        .iter()
        .find(|(p, _)| *p == "lib.rs")
        .map(|(_, toks)| root_reexports(toks))
        .unwrap_or_default();
    let layer_of = |module: &str| {
        rules
            .layers
            .iter()
            .position(|l| l.modules.contains(&module))
    };
    let file_layer = |file: &str| layer_of(modules.get(file)?.first()?);
    let mut violations =
        super::circles::find(rules.package, &lexed, &file_layer, rules.allowed_circles);
    let test_files = super::circles::test_modules(&lexed, &modules);
    for (file, toks) in &lexed {
        let Some(module) = modules.get(*file) else {
            continue;
        };
        let Some(top) = module.first() else {
            continue; // the crate root may name everything
        };
        let Some(layer) = layer_of(top) else {
            violations.push(format!(
                "module violation: {} src/{file}: module `{top}` is in no layer; add it to the layers of {} in xtask/src/layers/modules.rs",
                rules.package, rules.package
            ));
            continue;
        };
        let test_file = test_files.iter().any(|t| module.starts_with(t));
        for reference in references(toks, module) {
            if reference.test || test_file {
                continue;
            }
            let target = match reference.path.first() {
                None => None, // the crate root itself
                Some(first) if first == "*" => None,
                Some(first) => Some(
                    root_exports
                        .get(first.as_str())
                        .cloned()
                        .unwrap_or_else(|| first.clone()),
                ),
            };
            let shown = format!("crate::{}", reference.path.join("::"));
            let Some(target) = target else {
                if layer + 1 < rules.layers.len() {
                    violations.push(format!(
                        "module violation: {} src/{file}:{}: `{top}` (layer {}) names the crate root ({shown}), which reaches every layer",
                        rules.package, reference.line, rules.layers[layer].name
                    ));
                }
                continue;
            };
            let Some(target_layer) = layer_of(&target) else {
                continue; // an item defined in lib.rs itself
            };
            if target_layer <= layer {
                continue;
            }
            let joined = reference.path.join("::");
            let excepted = rules.exceptions.iter().any(|x| {
                x.file == *file
                    && (joined == x.path || joined.starts_with(&format!("{}::", x.path)))
            });
            if excepted {
                continue;
            }
            let allowed: Vec<&str> = rules.layers[..=layer].iter().map(|l| l.name).collect();
            violations.push(format!(
                "module violation: {} src/{file}:{}: `{top}` (layer {}) names {shown} (layer {}); it may name only layers {}",
                rules.package,
                reference.line,
                rules.layers[layer].name,
                rules.layers[target_layer].name,
                allowed.join(", ")
            ));
        }
    }
    violations
}

/// A one-line summary of the rules, for the success report.
pub fn describe(rules: &ModuleRules, files: usize) -> String {
    let names: Vec<&str> = rules.layers.iter().map(|l| l.name).collect();
    let n = rules.exceptions.len();
    let c = rules.allowed_circles.len();
    format!(
        "check-layers: {} modules ok ({files} files; {}; {n} allowed exception{}; {c} allowed import circle{})",
        rules.package,
        names.join(" < "),
        if n == 1 { "" } else { "s" },
        if c == 1 { "" } else { "s" }
    )
}

/// A token of Rust source, as far as paths are concerned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Tok {
    /// An identifier or keyword (`$crate` included).
    Ident(String, usize),
    /// A string literal's raw text.
    Str(String),
    /// `::`
    PathSep,
    /// Any other punctuation character.
    Punct(char),
}

/// Splits source into tokens, dropping comments, whitespace, numbers,
/// char literals and lifetimes.
pub(super) fn lex(text: &str) -> Vec<Tok> {
    let chars: Vec<char> = text.chars().collect();
    let mut toks = Vec::new();
    let mut i = 0;
    let mut line = 1;
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if chars[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if let Some((end, body)) = string_at(&chars, i) {
            line += body.matches('\n').count();
            toks.push(Tok::Str(body));
            i = end;
        } else if c == '\'' {
            // A char literal ('a', '\n', '\u{..}') or a lifetime ('a).
            if at(i + 1) == '\\' {
                i += 3;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(i + 2) == '\'' {
                i += 3;
            } else {
                i += 1;
                while i < chars.len() && is_ident_char(chars[i]) {
                    i += 1;
                }
            }
        } else if c == '$' && is_ident_start(at(i + 1)) {
            let (end, word) = ident_at(&chars, i + 1);
            toks.push(Tok::Ident(format!("${word}"), line));
            i = end;
        } else if c == 'r' && at(i + 1) == '#' && is_ident_start(at(i + 2)) {
            let (end, word) = ident_at(&chars, i + 2);
            toks.push(Tok::Ident(word, line));
            i = end;
        } else if is_ident_start(c) {
            let (end, word) = ident_at(&chars, i);
            toks.push(Tok::Ident(word, line));
            i = end;
        } else if c.is_ascii_digit() {
            while i < chars.len() && (is_ident_char(chars[i])) {
                i += 1;
            }
        } else if c == ':' && at(i + 1) == ':' {
            toks.push(Tok::PathSep);
            i += 2;
        } else {
            toks.push(Tok::Punct(c));
            i += 1;
        }
    }
    toks
}

fn is_ident_start(c: char) -> bool {
    c == '_' || c.is_alphabetic()
}

fn is_ident_char(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

fn ident_at(chars: &[char], mut i: usize) -> (usize, String) {
    let start = i;
    while i < chars.len() && is_ident_char(chars[i]) {
        i += 1;
    }
    (i, chars[start..i].iter().collect())
}

/// A string literal starting at `i` (`"…"`, `b"…"`, `c"…"`, `r#"…"#`,
/// `br"…"`): the index after it and its body.
fn string_at(chars: &[char], i: usize) -> Option<(usize, String)> {
    let at = |j: usize| chars.get(j).copied().unwrap_or('\0');
    // A prefix letter must not end an identifier (`xr"` is not a string).
    if i > 0 && is_ident_char(at(i - 1)) {
        return None;
    }
    let mut j = i;
    if at(j) == 'b' || at(j) == 'c' {
        j += 1;
    }
    let raw = at(j) == 'r';
    if raw {
        j += 1;
        let mut hashes = 0;
        while at(j) == '#' {
            hashes += 1;
            j += 1;
        }
        if at(j) != '"' {
            return None;
        }
        j += 1;
        let start = j;
        while j < chars.len() {
            if chars[j] == '"' && (1..=hashes).all(|k| at(j + k) == '#') {
                let body = chars[start..j].iter().collect();
                return Some((j + 1 + hashes, body));
            }
            j += 1;
        }
        return Some((chars.len(), chars[start..].iter().collect()));
    }
    if at(j) != '"' {
        return None;
    }
    j += 1;
    let start = j;
    while j < chars.len() {
        match chars[j] {
            '\\' => j += 2,
            '"' => return Some((j + 1, chars[start..j].iter().collect())),
            _ => j += 1,
        }
    }
    Some((
        chars.len(),
        chars[start.min(chars.len())..].iter().collect(),
    ))
}

/// The module path of every file: `lib.rs` is the root, `a.rs` and
/// `a/mod.rs` are `a`, `a/b.rs` is `a::b`, and a file named by
/// `#[path = "…"] mod m;` is `m` inside the declaring module.
pub(super) fn module_paths(files: &[(&str, Vec<Tok>)]) -> HashMap<String, Vec<String>> {
    let mut out: HashMap<String, Vec<String>> = files
        .iter()
        .map(|(path, _)| (path.to_string(), default_module_path(path)))
        .collect();
    // `#[path]` declarations, resolved from the declaring file (repeated so
    // a chain of them settles).
    for _ in 0..4 {
        for (path, toks) in files {
            let Some(base) = out.get(*path).cloned() else {
                continue;
            };
            let dir = match path.rfind('/') {
                Some(k) => &path[..k + 1],
                None => "",
            };
            for (target, name) in path_attributes(toks) {
                let mut module = base.clone();
                module.push(name);
                out.insert(format!("{dir}{target}"), module);
            }
        }
    }
    out
}

fn default_module_path(path: &str) -> Vec<String> {
    let stem = path.strip_suffix(".rs").unwrap_or(path);
    let mut parts: Vec<String> = stem.split('/').map(str::to_owned).collect();
    if parts
        .last()
        .is_some_and(|p| p == "mod" || p == "lib" || p == "main")
    {
        parts.pop();
    }
    parts
}

/// `#[path = "file.rs"] mod name;` pairs of one file.
fn path_attributes(toks: &[Tok]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (i, window) in toks.windows(6).enumerate() {
        let [
            Tok::Punct('#'),
            Tok::Punct('['),
            Tok::Ident(path, _),
            Tok::Punct('='),
            Tok::Str(file),
            Tok::Punct(']'),
        ] = window
        else {
            continue;
        };
        if path != "path" {
            continue;
        }
        // Past any other attributes and a visibility, up to `mod name`.
        let rest = &toks[i + 6..];
        let Some(k) = rest
            .iter()
            .take(16)
            .position(|t| matches!(t, Tok::Ident(w, _) if w == "mod"))
        else {
            continue;
        };
        if let Some(Tok::Ident(name, _)) = rest.get(k + 1) {
            out.push((file.clone(), name.clone()));
        }
    }
    out
}

/// A path a file names, made absolute (segments after `crate`).
#[derive(Debug)]
struct Reference {
    path: Vec<String>,
    line: usize,
    /// Whether it is test code (`#[cfg(test)]` items and modules), which
    /// may reach any layer, as a crate's integration tests do.
    test: bool,
}

/// Every crate path `toks` names, resolved against `module`.
fn references(toks: &[Tok], module: &[String]) -> Vec<Reference> {
    let mut out = Vec::new();
    let mut crate_aliases: Vec<String> = vec!["crate".into(), "$crate".into()];
    // Inline modules: (name, brace depth inside them).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    // A `#[cfg(test)]` seen, waiting for its item; the depth test code began at.
    let mut test_pending = false;
    let mut test_from: Option<usize> = None;
    let mut i = 0;
    while i < toks.len() {
        match &toks[i] {
            Tok::Punct('#') if super::circles::is_cfg_test(&toks[i..]) => {
                test_pending = true;
                i += 7;
            }
            Tok::Punct(';') => {
                test_pending = false;
                i += 1;
            }
            Tok::Punct('{') => {
                depth += 1;
                if std::mem::take(&mut test_pending) && test_from.is_none() {
                    test_from = Some(depth);
                }
                i += 1;
            }
            Tok::Punct('}') => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                if test_from == Some(depth) {
                    test_from = None;
                }
                depth = depth.saturating_sub(1);
                i += 1;
            }
            Tok::Ident(w, _) if w == "mod" => {
                if let (Some(Tok::Ident(name, _)), Some(Tok::Punct('{'))) =
                    (toks.get(i + 1), toks.get(i + 2))
                {
                    inline.push((name.clone(), depth + 1));
                }
                i += 1;
            }
            Tok::Ident(w, _) if w == "extern" => {
                // `extern crate self as name;` makes `name::` mean `crate::`.
                if let [
                    Tok::Ident(c, _),
                    Tok::Ident(s, _),
                    Tok::Ident(a, _),
                    Tok::Ident(alias, _),
                    ..,
                ] = &toks[(i + 1).min(toks.len())..]
                    && c == "crate"
                    && s == "self"
                    && a == "as"
                {
                    crate_aliases.push(alias.clone());
                }
                i += 1;
            }
            Tok::Ident(w, line)
                if (crate_aliases.contains(w) || w == "super" || w == "self")
                    && toks.get(i + 1) == Some(&Tok::PathSep)
                    && i.checked_sub(1).and_then(|p| toks.get(p)) != Some(&Tok::PathSep) =>
            {
                let mut here: Vec<String> = module.to_vec();
                here.extend(inline.iter().map(|(n, _)| n.clone()));
                let (end, trees) = path_tree(toks, i);
                for (tree, _) in trees {
                    if let Some(path) = resolve(&tree, &here, &crate_aliases) {
                        out.push(Reference {
                            path,
                            line: *line,
                            test: test_pending || test_from.is_some(),
                        });
                    }
                }
                i = end.max(i + 1);
            }
            _ => i += 1,
        }
    }
    out
}

/// One path a path or `use` tree names, with its `as` alias if any.
type Named = (Vec<String>, Option<String>);

/// Reads a path or `use` tree starting at `i`: the index after it and each
/// full path it names (a group `{a, b::c}` names several; `*` is a glob).
pub(super) fn path_tree(toks: &[Tok], i: usize) -> (usize, Vec<Named>) {
    let mut prefix = Vec::new();
    let mut i = i;
    loop {
        match toks.get(i) {
            Some(Tok::Ident(w, _)) => {
                prefix.push(w.clone());
                i += 1;
            }
            Some(Tok::Punct('*')) => {
                prefix.push("*".into());
                return (i + 1, vec![(prefix, None)]);
            }
            Some(Tok::Punct('{')) => return group(toks, i + 1, &prefix),
            _ => return (i, vec![(prefix, None)]),
        }
        match toks.get(i) {
            Some(Tok::PathSep) => i += 1,
            Some(Tok::Ident(a, _)) if a == "as" => {
                let alias = match toks.get(i + 1) {
                    Some(Tok::Ident(n, _)) => Some(n.clone()),
                    _ => None,
                };
                return (i + 2, vec![(prefix, alias)]);
            }
            _ => return (i, vec![(prefix, None)]),
        }
    }
}

/// The items of a `use` group (`{a, b::c as d, self}`) after `prefix`.
fn group(toks: &[Tok], mut i: usize, prefix: &[String]) -> (usize, Vec<Named>) {
    let mut paths = Vec::new();
    loop {
        match toks.get(i) {
            None => return (i, paths),
            Some(Tok::Punct('}')) => return (i + 1, paths),
            Some(Tok::Punct(',')) => i += 1,
            Some(_) => {
                let (end, subs) = path_tree(toks, i);
                for (sub, alias) in subs {
                    let mut p = prefix.to_vec();
                    // `a::{self, b}` names `a` itself.
                    if !(sub.len() == 1 && sub[0] == "self") {
                        p.extend(sub);
                    }
                    paths.push((p, alias));
                }
                i = end.max(i + 1);
                // Anything else up to the next item is not a path.
                while let Some(t) = toks.get(i) {
                    if matches!(t, Tok::Punct(',') | Tok::Punct('}')) {
                        break;
                    }
                    i += 1;
                }
            }
        }
    }
}

/// Makes a path absolute: the segments after `crate`, or `None` for a
/// path that leaves the crate (an external crate, or `super` past the root).
pub(super) fn resolve(
    path: &[String],
    here: &[String],
    crate_aliases: &[String],
) -> Option<Vec<String>> {
    let first = path.first()?;
    let mut abs: Vec<String>;
    let mut rest = &path[1..];
    if crate_aliases.contains(first) {
        abs = Vec::new();
    } else if first == "self" {
        abs = here.to_vec();
    } else if first == "super" {
        abs = here.to_vec();
        abs.pop()?;
        while rest.first().is_some_and(|s| s == "super") {
            abs.pop()?;
            rest = &rest[1..];
        }
    } else {
        return None;
    }
    abs.extend(rest.iter().cloned());
    Some(abs)
}

/// What the crate root re-exports, by name: `pub use interp::{run, Host};`
/// maps `run` and `Host` to `interp` (an `as` alias maps the alias).
fn root_reexports(toks: &[Tok]) -> HashMap<String, String> {
    let mut out = HashMap::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < toks.len() {
        match &toks[i] {
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => depth = depth.saturating_sub(1),
            Tok::Ident(w, _) if w == "use" && depth == 0 => {
                let start = match toks.get(i + 1) {
                    Some(Tok::PathSep) => i + 2,
                    _ => i + 1,
                };
                let (end, paths) = path_tree(toks, start);
                for (p, alias) in paths {
                    let p = match p.first().map(String::as_str) {
                        Some("crate" | "self") => &p[1..],
                        _ => &p[..],
                    };
                    if let (Some(module), Some(name)) = (p.first(), alias.as_ref().or(p.last()))
                        && p.len() > 1
                        && name != "*"
                    {
                        out.insert(name.clone(), module.clone());
                    }
                }
                i = end.max(i + 1);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}
